"""The legal results of one card in one position, as board views, cached.

The rules engine lists the moves; the table needs them as board views to compare readings
with: is a reading a legal result (accept), on the way to one (in progress), or neither
(judge)? Listing a 7's moves in a crowded position takes a while, so each (position, card) is
worked out once.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from companion.rules import Card, Move, Position, legal_moves
from companion.table.board import BoardMap, View
from companion.table.leds import Lit, lit_by

CACHE_SIZE = 6
"""The current position's cards (one announced, maybe replaced) and a few before it."""


Diff = dict[str, str | None]
"""What a result changes in the board view before it: key → new value."""


def diff_key(diff: Diff) -> frozenset[tuple[str, str | None]]:
    """A hashable form of a change of the board view."""
    return frozenset(diff.items())


@dataclass(frozen=True)
class Legal:
    """The legal moves of ``card`` for the player to move in ``before``; each result kept
    as the few view entries it changes (a 7 can have thousands of results)."""

    before: Position
    card: Card
    moves: tuple[Move, ...]
    before_view: View
    diffs: tuple[Diff, ...]
    by_diff: dict[frozenset[tuple[str, str | None]], Move]
    lit: Lit
    _stood_for: dict[Card, tuple[tuple[Move, ...], Lit]] = field(
        default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, board: BoardMap, before: Position, card: Card) -> Legal:
        """Work out the legal results of a card."""
        moves = tuple(legal_moves(before, card))
        before_view = board.view(before)
        diffs = tuple(changes(before_view, board.view(move.result)) for move in moves)
        by_diff: dict[frozenset[tuple[str, str | None]], Move] = {}
        for move, diff in zip(moves, diffs, strict=True):
            by_diff.setdefault(diff_key(diff), move)
        return cls(before, card, moves, before_view, diffs, by_diff, lit_by(moves, board))

    def standing_for(self, board: BoardMap, as_card: Card | None) -> tuple[tuple[Move, ...], Lit]:
        """The moves and lit holes shown for a Joker announced as ``as_card`` (all of them for
        None); judging still uses every move."""
        if as_card is None:
            return self.moves, self.lit
        found = self._stood_for.get(as_card)
        if found is None:
            moves = tuple(move for move in self.moves if move.as_card is as_card)
            found = self._stood_for[as_card] = (moves, lit_by(moves, board))
        return found

    def result(self, view: View) -> Move | None:
        """The legal move whose result the board view shows, if any."""
        return self.by_diff.get(diff_key(changes(self.before_view, view)))

    def on_the_way(self, view: View) -> list[str] | None:
        """The changed keys of ``view`` when every change is one some legal result makes
        (a marble already where the result puts it, a hole the result empties or fills
        emptied, a kennel part-way); None when the reading is on the way to none."""
        before = self.before_view
        changed = list(changes(before, view))
        if not changed:
            return None
        for diff in self.diffs:
            if all(_toward(key, before.get(key), view[key], diff.get(key, before.get(key)))
                   for key in changed):
                return changed
        return None


def changes(before: View, after: View) -> Diff:
    """The entries of ``after`` that differ from ``before``."""
    return {key: value for key, value in after.items() if before.get(key) != value}


def _toward(key: str, before: str | None, now: str | None, result: str | None) -> bool:
    if now == result:
        return True
    if result == before:
        return False
    if key.startswith("K"):
        return _between(before, now, result)
    return now is None   # lifted on the way (a marble carried away, a swap half done)


def _between(before: str | None, now: str | None, result: str | None) -> bool:
    """A kennel's marbles part-way between two counts (one colour per kennel)."""
    def count(value: str | None) -> int:
        return 0 if value is None else len(value.split(","))

    low, high = sorted((count(before), count(result)))
    return low <= count(now) <= high and (now is None or len(set(now.split(","))) == 1)


class LegalCache:
    """The last few (position, card) results."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._cache: OrderedDict[tuple[int, int, Card], Legal] = OrderedDict()

    def get(self, board: BoardMap, before: Position, card: Card) -> Legal:
        """The legal results, worked out on first use."""
        key = (before.key, before.turn, card)
        found = self._cache.get(key)
        if found is not None and found.before == before:
            self._cache.move_to_end(key)
            return found
        legal = Legal.of(board, before, card)
        self._cache[key] = legal
        if len(self._cache) > self.size:
            self._cache.popitem(last=False)
        return legal

    def clear(self) -> None:
        """Forget everything (a new game)."""
        self._cache.clear()
