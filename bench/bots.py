"""Benchmark: the heuristic bot's team against the random bot's team (or a greedy one).

Four-player team games on the 4-seat board, fixed seeds 0 … N-1; in even games the heuristic
bots sit in seats 0 and 2, in odd games in seats 1 and 3. Prints, per rule set, the heuristic
team's win rate with its 95 % Wilson confidence interval, rounds per game, plays per game and
the time taken, as one JSON object.

    .venv/bin/python bench/bots.py [--games 200] [--rules swiss schmidt] [--opponent greedy]

``--opponent greedy`` plays against the self-play's greedy choice instead
(`companion.rules.selfplay.best_move`: the move that leaves the team furthest ahead).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

# The checkout first: bench/vision.py must not hide the vision package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.rules import Card, Move, Position, RuleSet
from companion.rules.selfplay import best_move
from companion.sim.bots import Bot, HeuristicBot, RandomBot
from companion.sim.match import play_match

Z_95 = 1.959964


def wilson(wins: int, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


class GreedyBot(RandomBot):
    """The self-play's greedy player: the move leaving its team furthest ahead."""

    name = "greedy"

    def pick(self, position: Position, options: Mapping[Card, Sequence[Move]],
             hand: Sequence[Card]) -> tuple[Card, Move]:
        return best_move(position, list(options), lambda card: list(options[card]))


OPPONENTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def measure(rules: RuleSet, games: int, opponent: type[Bot]) -> dict[str, object]:
    """Heuristic team against the opponent's team over ``games`` seeded games."""
    wins = rounds = plays = 0
    started = time.perf_counter()
    for seed in range(games):
        heuristic_seats = seed % 2
        bots: list[Bot] = [HeuristicBot(seed) if seat % 2 == heuristic_seats else opponent(seed)
                           for seat in range(4)]
        result = play_match(bots, rules, 4, seed)
        wins += result.winners[0] % 2 == heuristic_seats
        rounds += result.rounds
        plays += result.plays
    low, high = wilson(wins, games)
    return {"rules": rules.name, "opponent": opponent.name, "games": games, "heuristic_wins": wins,
            "win_rate": round(wins / games, 4), "ci95": [round(low, 4), round(high, 4)],
            "rounds_per_game": round(rounds / games, 2), "plays_per_game": round(plays / games, 1),
            "seconds": round(time.perf_counter() - started, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rules", nargs="+", default=["swiss", "schmidt"])
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="random")
    args = parser.parse_args()
    opponent = OPPONENTS[args.opponent]
    results = [measure(RuleSet.from_json(name), args.games, opponent) for name in args.rules]
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
