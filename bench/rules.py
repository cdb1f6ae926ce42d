"""Benchmark of the rules engine: the 7 in crowded positions, whole hands, the referee's check.

Run with the project installed (the venv): ``.venv/bin/python bench/rules.py`` (``--quick`` for a
short run).
Every figure is the CPU time of one call on one core (``time.process_time``), best of
``REPEATS`` runs with the position's move cache cleared, summarised over many positions built
from fixed seeds. The figures go into docs/rules.md with the date and the command.

(a) all legal 7 moves where the mover has 4 pegs on the track among 8 or more others;
(b) all legal moves of a 6-card hand: Joker, 7 and 4 other random cards, mid-game positions;
(c) check() on the cards of (a) and (b): a legal observation and an illegal one;
(d) self-play: whole games per second (companion.rules.selfplay), and (b)/(c) on positions
    taken from those games.

``--reasons N`` measures instead how often the referee's reason names the real mistake: N
observed mistakes of every kind (tests/rules/mistakes.py, seed ``--seed``) are checked and the
share whose reason names the mistaken peg and field is printed, per kind and in total.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.rules import SCHMIDT, SWISS, Card, Position, check, legal_moves
from companion.rules.cards import CONCRETE_CARDS
from companion.rules.moves import forget

REPEATS = 3
COLORS = ("red", "yellow", "green", "blue")


def crowded(rng: random.Random, rules: str, others: int) -> Position:
    """The mover (red) with 4 pegs on the track among ``others`` pegs of the other players."""
    fields = rng.sample(range(64), 4 + others)
    rows: list[list[str]] = [[f"T{f}" for f in fields[:4]], [], [], []]
    for k, field in enumerate(fields[4:]):
        rows[1 + k % 3].append(f"T{field}")
    return _position(rules, rows)


def midgame(rng: random.Random, rules: str) -> Position:
    """1 to 3 pegs per player on the track, a few in homes, some fresh, the rest in kennels."""
    taken: set[int] = set()
    rows: list[list[str]] = []
    for seat in range(4):
        row: list[str] = []
        if rng.random() < 0.3:
            row.append(f"H{rng.randrange(2, 4)}")
        if rng.random() < 0.25 and 16 * seat not in taken:
            taken.add(16 * seat)
            row.append(f"T{16 * seat}*")
        for _ in range(rng.randint(1, 3)):
            field = rng.randrange(64)
            if field not in taken and len(row) < 4:
                taken.add(field)
                row.append(f"T{field}")
        rows.append(row)
    return _position(rules, rows, turn=rng.randrange(4))


def _position(rules: str, rows: list[list[str]], turn: int = 0) -> Position:
    players = [
        {"color": color, "pegs": row + ["K"] * (4 - len(row))}
        for color, row in zip(COLORS, rows, strict=True)
    ]
    return Position.from_json({"rules": rules, "board": 4, "players": players, "turn": turn})


def hand(rng: random.Random) -> list[Card]:
    """Joker, 7 and four other random cards."""
    return [Card.JOKER, Card.SEVEN, *rng.choices(CONCRETE_CARDS, k=4)]


def cpu(call: Callable[[], Any], position: Position) -> float:
    """Best CPU time in ms of ``call`` over REPEATS runs with a cold move cache.

    The position's cache is dropped afterwards too: caches kept for hundreds of positions would
    make the garbage collector's full passes, and so every figure, grow with the bench itself.
    """
    best = float("inf")
    for _ in range(REPEATS):
        forget(position)
        start = time.process_time()
        call()
        best = min(best, time.process_time() - start)
    forget(position)
    return best * 1000


def summary(name: str, times: Sequence[float], extra: str = "") -> None:
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    print(
        f"{name:<46} n={len(times):<5} median {statistics.median(times):6.3f} ms"
        f"  p90 {p90:6.3f} ms  max {ordered[-1]:7.3f} ms{extra}"
    )


def illegal_observation(move_result: Position, rng: random.Random) -> Position:
    """``move_result`` with one of the mover's track pegs one field further on (if free)."""
    obj = move_result.to_json()
    pegs = obj["players"][move_result.turn]["pegs"]
    on_track = [i for i, peg in enumerate(pegs) if peg.startswith("T")]
    taken = {p.rstrip("*") for row in obj["players"] for p in row["pegs"]}
    rng.shuffle(on_track)
    for index in on_track:
        field = (int(pegs[index][1:].rstrip("*")) + 1) % 64
        if f"T{field}" not in taken:
            pegs[index] = f"T{field}"
            return Position.from_json(obj)
    return move_result


def bench_sevens(positions: list[Position]) -> None:
    times, counts = [], []
    for position in positions:
        counts.append(len(legal_moves(position, Card.SEVEN)))
        times.append(cpu(lambda p=position: legal_moves(p, Card.SEVEN), position))
    summary("(a) 7, crowded (4 own pegs on track, 8-12 others)", times,
            f"  results median {statistics.median(counts):.0f}, max {max(counts)}")


def bench_hands(positions: list[Position], hands: list[list[Card]], label: str) -> None:
    def all_moves(position: Position, cards: list[Card]) -> None:
        for card in cards:
            legal_moves(position, card)

    times = [cpu(lambda p=p, h=h: all_moves(p, h), p) for p, h in zip(positions, hands,
                                                                      strict=True)]
    summary(f"(b) 6-card hand with Joker and 7, {label}", times)


def bench_checks(cases: list[tuple[Position, Card]], label: str, rng: random.Random) -> None:
    legal, illegal = [], []
    for position, card in cases:
        moves = legal_moves(position, card)
        if not moves:
            continue
        move = rng.choice(moves)
        legal.append(cpu(lambda p=position, m=move, c=card: check(p, m.result, c), position))
        wrong = illegal_observation(move.result, rng)
        illegal.append(cpu(lambda p=position, w=wrong, c=card: check(p, w, c), position))
    summary(f"(c) check, legal observation, {label}", legal)
    summary(f"(c) check, illegal observation, {label}", illegal)
    summary(f"(c) check, both, {label}", legal + illegal)


def selfplay_positions(games: int, rng: random.Random) -> tuple[list[Position], float]:
    """Positions before every play of ``games`` self-played games, and games per second."""
    try:
        from companion.rules.record import Play
        from companion.rules.selfplay import play_game
    except ImportError:
        return [], 0.0
    positions: list[Position] = []
    start = time.process_time()
    for seed in range(games):
        game = play_game(SWISS if seed % 2 == 0 else SCHMIDT, seed=seed, checked=False)
        turn_positions = [e.position for e in game.events if isinstance(e, Play)]
        positions.extend(turn_positions)
    elapsed = time.process_time() - start
    rng.shuffle(positions)
    return positions, games / elapsed


def bench_reasons(count: int, seed: int) -> None:
    """(e) The share of reasons that name the real mistake, over ``count`` observations."""
    from tests.rules.mistakes import KINDS, checked_sample, names_truth

    rng = random.Random(seed)
    named: Counter[str] = Counter()
    judged: Counter[str] = Counter()
    legal: Counter[str] = Counter()
    missed: list[str] = []
    start = time.process_time()
    for kind, observation, verdict in checked_sample(rng, count):
        if verdict.legal:
            legal[kind] += 1
            continue
        judged[kind] += 1
        if names_truth(observation, verdict):
            named[kind] += 1
        else:
            missed.append(f"  {kind}: {verdict.reason}")
    elapsed = time.process_time() - start
    print(f"(e) reasons naming the real mistake, seed {seed}, {count} observations"
          f" ({elapsed:.0f} s CPU)")
    for kind in KINDS:
        print(f"    {kind:<22} {named[kind]:>6}/{judged[kind]:<6}"
              f" {100 * named[kind] / max(judged[kind], 1):7.3f} %"
              f"   (legal after all: {legal[kind]})")
    total_named, total = sum(named.values()), sum(judged.values())
    print(f"    {'all':<22} {total_named:>6}/{total:<6} {100 * total_named / max(total, 1):7.3f} %")
    for line in missed[:10]:
        print(line)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer positions")
    parser.add_argument("--reasons", type=int, default=0, metavar="N",
                        help="measure the reasons over N observed mistakes instead")
    parser.add_argument("--seed", type=int, default=2026, help="seed of --reasons")
    args = parser.parse_args(argv)
    if args.reasons:
        print(f"python {platform.python_version()} on {platform.machine()}, "
              f"{time.strftime('%Y-%m-%d %H:%M')}")
        bench_reasons(args.reasons, args.seed)
        return
    scale = 4 if args.quick else 1
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{time.strftime('%Y-%m-%d %H:%M')}; CPU time per call, best of {REPEATS}")
    rng = random.Random(2024)
    sevens = [crowded(rng, "swiss" if i % 2 else "schmidt", rng.randint(8, 12))
              for i in range(400 // scale)]
    bench_sevens(sevens)
    mids = [midgame(rng, "swiss" if i % 2 else "schmidt") for i in range(400 // scale)]
    hands = [hand(rng) for _ in mids]
    bench_hands(mids, hands, "random mid-game")
    bench_checks([(p, Card.SEVEN) for p in sevens], "7 crowded", rng)
    bench_checks([(p, rng.choice(h)) for p, h in zip(mids, hands, strict=True)],
                 "hand cards mid-game", rng)
    played, rate = selfplay_positions(20 // scale, rng)
    if played:
        print(f"(d) self-play (companion.rules.selfplay, unchecked): {rate:.2f} games/s")
        sample = played[: 400 // scale]
        sample_hands = [hand(rng) for _ in sample]
        bench_hands(sample, sample_hands, "self-play")
        bench_checks([(p, rng.choice(h)) for p, h in zip(sample, sample_hands, strict=True)],
                     "hand cards self-play", rng)
    else:
        print("(d) self-play: companion.rules.selfplay is not available")


if __name__ == "__main__":
    main()
