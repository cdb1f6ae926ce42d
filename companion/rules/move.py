"""The move value type: what a played card did, with a readable notation.

Notation
--------
``<card>: <part>, <part>, …`` where the card is the card played (``JOKER as 7`` for a Joker,
``4 back`` for a 4 moved backward) and each part is one peg's move, in the order executed:

* ``red T3→T8`` -- red's peg moves from T3 to T8 (``K→T0*`` starts a peg, ``T62→H1`` turns into
  the home, ``T0*→T5`` moves a fresh peg);
* `` ×blue@T21`` after a part -- blue's peg on T21 was knocked out by it (landed on, or passed
  by a 7) and went back to its kennel;
* ``red T5↔blue T40`` -- a Jack swaps red's peg on T5 with blue's peg on T40;
* ``J: no effect`` -- a Jack played without effect.

Example: ``7: red T3→T8, red T20→T22 ×blue@T21``.
"""

from __future__ import annotations

from typing import NamedTuple

from companion.rules.board import KENNEL
from companion.rules.cards import Card
from companion.rules.position import Layout, Position

__all__ = ["Move", "Part", "RawPart"]


class RawPart(NamedTuple):
    """Internal: one part of a move as location codes (see :mod:`companion.rules.board`)."""

    player: int
    origin: int
    target: int
    knocked: tuple[tuple[int, int], ...] = ()
    swapped_with: int = -1


class Part(NamedTuple):
    """One peg's part of a move, as text.

    ``knocked`` lists ``(colour, location)`` of the pegs this part sent to their kennels.
    For a Jack swap ``swap_color`` names the other peg's owner: it moves ``target → origin``.
    """

    color: str
    origin: str
    target: str
    knocked: tuple[tuple[str, str], ...] = ()
    swap_color: str | None = None

    def __str__(self) -> str:
        if self.swap_color is not None:
            return f"{self.color} {self.origin}↔{self.swap_color} {self.target}"
        knocks = "".join(f" ×{color}@{where}" for color, where in self.knocked)
        return f"{self.color} {self.origin}→{self.target}{knocks}"


class Move:
    """One legal way to play a card, and the position it leads to.

    ``card`` is the card played, ``as_card`` the card it acted as (differs only for the Joker),
    ``backward`` tells a 4 moved backward. ``result.turn`` equals the turn before the move.
    An empty ``parts`` is a Jack played without effect.
    """

    __slots__ = ("_notation", "as_card", "backward", "card", "raw", "result")

    def __init__(
        self,
        card: Card,
        as_card: Card,
        raw: tuple[RawPart, ...],
        result: Position,
        backward: bool = False,
    ) -> None:
        self.card = card
        self.as_card = as_card
        self.backward = backward
        self.raw = raw
        self.result = result
        self._notation: str | None = None

    def as_joker(self) -> Move:
        """The same move made with a Joker."""
        return Move(Card.JOKER, self.as_card, self.raw, self.result, self.backward)

    @property
    def parts(self) -> tuple[Part, ...]:
        """The parts in the order executed."""
        layout = self.result.layout
        return tuple(_part(layout, raw) for raw in self.raw)

    @property
    def label(self) -> str:
        """The card as written in the notation: ``7``, ``4 back``, ``JOKER as A``."""
        label = str(self.as_card) + (" back" if self.backward else "")
        return f"JOKER as {label}" if self.card is Card.JOKER else label

    @property
    def notation(self) -> str:
        """The readable notation, e.g. ``7: red T3→T8, red T20→T22 ×blue@T21``."""
        if self._notation is None:
            body = ", ".join(str(part) for part in self.parts) or "no effect"
            self._notation = f"{self.label}: {body}"
        return self._notation

    @property
    def no_effect(self) -> bool:
        """Whether this is a Jack played without effect."""
        return not self.raw

    @property
    def knocked_out(self) -> tuple[tuple[str, str], ...]:
        """``(colour, location)`` of every peg this move sent back to its kennel."""
        return tuple(knock for part in self.parts for knock in part.knocked)

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"<Move {self.notation}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (
            self.card is other.card
            and self.as_card is other.as_card
            and self.backward == other.backward
            and self.raw == other.raw
            and self.result == other.result
        )

    def __hash__(self) -> int:
        return hash((self.card, self.as_card, self.raw, self.result))


def _part(layout: Layout, raw: RawPart) -> Part:
    colors = layout.colors
    origin = "K" if raw.origin == KENNEL else layout.name(raw.player, raw.origin)
    if raw.swapped_with >= 0:
        other = raw.swapped_with
        return Part(colors[raw.player], origin, layout.name(other, raw.target), (), colors[other])
    knocked = tuple((colors[p], layout.name(p, code)) for p, code in raw.knocked)
    return Part(colors[raw.player], origin, layout.name(raw.player, raw.target), knocked)
