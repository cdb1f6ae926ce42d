"""Bots: players that choose a card and a move from their hand.

A bot sees what a player at the table sees: the position and its own hand. It never acts
itself; the caller carries out its :class:`Decision` (on the rules engine alone in
:mod:`companion.sim.match`, at the table through :mod:`companion.sim.client`).

* :class:`RandomBot` plays a random playable card and a random legal move of it.
* :class:`HeuristicBot` weighs every legal move: marbles into the home, opponents knocked out,
  its own start guarded by a fresh marble, a 7, a 4 and the Joker kept for the finish, the
  partner's marbles moved once its own are home, and a useful card passed in the exchange.

Both are deterministic for a given seed.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.rules import Card, Move, Position, legal_moves_by_card
from companion.rules.board import FRESH
from companion.rules.selfplay import advantage

__all__ = ["BOTS", "Bot", "Decision", "HeuristicBot", "RandomBot", "make_bot"]


@dataclass(frozen=True)
class Decision:
    """One turn: play ``card`` with ``move``, or (both None) say "cannot play"."""

    card: Card | None = None
    move: Move | None = None

    @property
    def folds(self) -> bool:
        """Whether the player says it cannot play."""
        return self.card is None


class Bot(ABC):
    """A player's choices: which card and move, which card to pass, which to discard."""

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"{self.name} {seed}")

    def decide(self, position: Position, hand: Sequence[Card]) -> Decision:
        """The card and move to play in ``position`` (the bot is to move), or a fold."""
        options = {card: moves for card, moves in legal_moves_by_card(position, hand).items()
                   if moves}
        if not options:
            return Decision()
        card, move = self.pick(position, options, hand)
        return Decision(card, move)

    @abstractmethod
    def pick(self, position: Position, options: Mapping[Card, Sequence[Move]],
             hand: Sequence[Card]) -> tuple[Card, Move]:
        """Choose among the playable cards of the hand and their legal moves."""

    @abstractmethod
    def give(self, position: Position, hand: Sequence[Card], receiver: int) -> Card:
        """The card passed to player ``receiver`` in the exchange after a deal."""

    def discard(self, position: Position, hand: Sequence[Card]) -> Card:
        """2, 3 or 5 players: the card thrown away when nothing can be played."""
        return min(hand, key=card_value)


class RandomBot(Bot):
    """A random playable card, a random legal move of it; a random card passed on."""

    name = "random"

    def pick(self, position: Position, options: Mapping[Card, Sequence[Move]],
             hand: Sequence[Card]) -> tuple[Card, Move]:
        card = self.rng.choice(list(options))
        return card, self.rng.choice(list(options[card]))

    def give(self, position: Position, hand: Sequence[Card], receiver: int) -> Card:
        return self.rng.choice(list(hand))


HOME_BONUS = 40.0
"""Score of one more marble of the team in its home."""
KNOCK_OPPONENT = 12.0
"""Score of an opponent's marble sent back to its kennel (besides the progress it loses)."""
KNOCK_OWN = 25.0
"""Cost of one of the team's own marbles sent back to its kennel."""
START_GUARD = 6.0
"""Score of a fresh marble of the mover guarding its start field."""
DANGER = 4.0
"""Cost of each own marble left a card's distance in front of an opponent's marble."""
KEEP = {Card.JOKER: 14.0, Card.SEVEN: 10.0, Card.FOUR: 6.0}
"""Cost of spending a card worth keeping for the finish on a move that brings nobody home."""
_VALUES = {Card.JOKER: 14, Card.SEVEN: 13, Card.FOUR: 12, Card.ACE: 11, Card.KING: 10,
           Card.JACK: 8, Card.QUEEN: 6, Card.TEN: 5, Card.EIGHT: 4, Card.NINE: 4, Card.SIX: 3,
           Card.FIVE: 3, Card.THREE: 2, Card.TWO: 2}
_REACH = range(1, 14)


def card_value(card: Card) -> int:
    """How much a card is worth keeping, roughly (Joker highest, 2 and 3 lowest)."""
    return _VALUES[card]


class HeuristicBot(Bot):
    """A sensible player: scores every legal move and plays the best (ties: the first)."""

    name = "heuristic"

    def pick(self, position: Position, options: Mapping[Card, Sequence[Move]],
             hand: Sequence[Card]) -> tuple[Card, Move]:
        best: tuple[float, Card, Move] | None = None
        for card, moves in options.items():
            for move in moves:
                value = self.score(position, card, move)
                if best is None or value > best[0]:
                    best = (value, card, move)
        assert best is not None
        return best[1], best[2]

    def score(self, before: Position, card: Card, move: Move) -> float:
        """How good playing ``card`` with ``move`` is for the mover's team."""
        after = move.result
        mover = before.turn
        team = before.team_of(mover)
        colors = before.layout.colors
        value = advantage(after, team) - advantage(before, team)
        homed = sum(after.home_count(p) - before.home_count(p) for p in team)
        value += HOME_BONUS * homed
        for colour, _ in move.knocked_out:
            value += -KNOCK_OWN if colors.index(colour) in team else KNOCK_OPPONENT
        value += START_GUARD * (_fresh(after, mover) - _fresh(before, mover))
        value -= DANGER * (_threatened(after, team) - _threatened(before, team))
        if homed <= 0 and card in KEEP:
            value -= KEEP[card]
        return value

    def give(self, position: Position, hand: Sequence[Card], receiver: int) -> Card:
        """A start card to a partner stuck in its kennel, else the card least worth keeping."""
        starters = [card for card in hand if card in (Card.ACE, Card.KING)]
        stuck = not any(code >= 0 or code == FRESH for code in position.codes[receiver])
        mine_out = any(code >= 0 or code == FRESH for code in position.codes[position.turn])
        if starters and stuck and (mine_out or len(starters) > 1):
            return min(starters, key=card_value)
        return min(hand, key=card_value)


def _fresh(position: Position, player: int) -> int:
    return position.codes[player].count(FRESH)


def _threatened(position: Position, team: Sequence[int]) -> int:
    """The team's marbles on the track that an opponent's marble could land on next turn."""
    layout = position.layout
    track = layout.track_len
    fields: dict[int, int] = {}
    for player, codes in enumerate(position.codes):
        for code in codes:
            if code == FRESH:
                fields[layout.starts[player]] = player
            elif 0 <= code < track:
                fields[code] = player
    count = 0
    for field, owner in fields.items():
        if owner not in team:
            continue
        for back in _REACH:
            hunter = fields.get((field - back) % track)
            if hunter is not None and hunter not in team:
                count += 1
                break
    return count


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}
"""The bots by name."""


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name (``random`` or ``heuristic``); `ValueError` naming an unknown one."""
    kind = BOTS.get(name)
    if kind is None:
        raise ValueError(f"bot {name!r}: unknown (one of {', '.join(BOTS)})")
    return kind(seed)

