"""Whole games between bots on the rules engine alone (no table, no camera): to measure bots.

The game runs in full mode (:class:`companion.rules.Game` with a seed deals and knows every
hand); each seat's bot decides its turns and the card it passes in the exchange.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from companion.rules import Game, RuleSet, Setup
from companion.rules.game import Phase
from companion.rules.selfplay import COLORS, spread_seats
from companion.sim.bots import Bot


class MatchError(RuntimeError):
    """A game between bots did not end within the allowed number of rounds."""


@dataclass(frozen=True)
class MatchResult:
    """How a game between bots ended: the winners (players in play order), rounds, turns."""

    winners: tuple[int, ...]
    rounds: int
    plays: int
    game: Game


def play_match(bots: Sequence[Bot], rules: RuleSet, board: int = 4, seed: int = 0, *,
               max_rounds: int = 300) -> MatchResult:
    """Play one whole game, player ``i`` by ``bots[i]``; the same seed deals the same cards."""
    players = len(bots)
    rng = random.Random(f"dog match {seed}")
    setup = Setup.new(rules, board, COLORS[:players], spread_seats(players, board),
                      first_dealer=rng.randrange(players), seed=seed)
    game = Game(setup)
    plays = 0
    while not game.over:
        if game.round > max_rounds:
            raise MatchError(f"seed {seed}: no winner after {max_rounds} rounds")
        plays += step(game, bots)
    assert game.winners is not None
    return MatchResult(game.winners, game.round, plays, game)


def step(game: Game, bots: Sequence[Bot]) -> int:
    """Make the game's next event with the bots' choices; 1 if it was a card played, else 0."""
    hands = game.hands
    assert hands is not None, "bots play a game that knows the hands (a seeded game)"
    if game.phase is Phase.DEAL:
        game.deal()
        return 0
    position = game.position
    if game.phase is Phase.EXCHANGE:
        gifts = [bots[p].give(position.with_turn(p), hands[p], game.receiver(p))
                 for p in range(game.players)]
        game.exchange(gifts)
        return 0
    player = game.turn
    assert player is not None
    decision = bots[player].decide(position, hands[player])
    if decision.card is not None and decision.move is not None:
        game.play(decision.card, decision.move.result)
        return 1
    if game.team_game:
        game.fold()
    elif not game.redrawn:
        game.redraw(bots[player].discard(position, hands[player]))
    else:
        game.fold([bots[player].discard(position, hands[player])])
    return 0
