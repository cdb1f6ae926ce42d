"""Where a position's marbles sit on a board profile (the simulator's own view).

Track field ``T<n>`` is hole ``T<n>``; home field ``H<k>`` of the player at seat ``p`` is hole
``H<p>.<k>``; a marble in the kennel sits in one of the holes ``K<p>.<j>``. Which kennel hole
a marble takes does not matter to the rules, so :class:`HoleMap` keeps the kennel holes that
are already filled and fills the lowest free ones.

A kennel has four holes; under Schmidt rules a player has five marbles. The fifth marble of a
full kennel lies beside it, in no hole: the *spot* ``K<p>.beside`` (:func:`beside`). The
simulator's truth names every hole of the profile and the spot beside every kennel; the camera
sees the holes only (:func:`on_holes`). A kennel's marble beside it is the first taken out and
the last put back, so the spot is filled only while the kennel's holes are full.

A player's marbles have the colour of the profile's seat (``default_colors[seat]``): that is
the colour the camera's reader names, so the players of a simulated game use those colours.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from companion.rules import Position
from hw import BoardProfile

Holes = dict[str, str | None]
"""Spot (hole id or ``K<p>.beside``) → marble colour or None."""

BESIDE = "beside"


def beside(seat: int) -> str:
    """The spot beside the kennel of ``seat`` (where a full kennel's fifth marble lies)."""
    return f"K{seat}.{BESIDE}"


def kennel_holes(profile: BoardProfile, seat: int) -> tuple[str, ...]:
    """The kennel holes of ``seat``, in the profile's order."""
    return tuple(h.id for h in profile.holes_of_kind("kennel") if h.seat == seat)


def spots(profile: BoardProfile) -> Mapping[str, tuple[float, float]]:
    """Every hole of the profile and the spot beside every kennel, with its board
    coordinates (the spot beside a kennel continues its row of holes by one step)."""
    return _spots(profile)


@cache
def _spots(profile: BoardProfile) -> dict[str, tuple[float, float]]:
    where = {hole.id: (hole.x, hole.y) for hole in profile.holes}
    for seat in range(profile.seats):
        kennel = kennel_holes(profile, seat)
        if len(kennel) < 2:
            continue
        (x1, y1), (x2, y2) = where[kennel[-2]], where[kennel[-1]]
        where[beside(seat)] = (2 * x2 - x1, 2 * y2 - y1)
    return where


def every_spot(profile: BoardProfile, holes: Mapping[str, str | None]) -> Holes:
    """``holes`` on every spot of the profile (spots not named are empty)."""
    return {spot: holes.get(spot) for spot in spots(profile)}


def on_holes(profile: BoardProfile, holes: Mapping[str, str | None]) -> Holes:
    """The marbles in the profile's holes (what a camera can see): the spots beside the
    kennels left out."""
    return {hole.id: holes.get(hole.id) for hole in profile.holes}


def reach(profile: BoardProfile, spot: str) -> str:
    """The hole a hand reaches for to work at ``spot``: the spot itself, or for the spot
    beside a kennel the kennel's last hole."""
    if spot.endswith(f".{BESIDE}"):
        return kennel_holes(profile, int(spot[1:].split(".")[0]))[-1]
    return spot


class HoleMap:
    """Converts positions of one game into marbles on the spots of one board profile."""

    def __init__(self, profile: BoardProfile, colors: tuple[str, ...],
                 seats: tuple[int, ...]) -> None:
        for colour, seat in zip(colors, seats, strict=True):
            expected = profile.default_colors[seat]
            if colour != expected:
                raise ValueError(f"colour {colour!r} at seat {seat}: board {profile.name!r} has "
                                 f"{expected!r} marbles there")
        self.profile = profile
        self.colors = colors
        self.seats = seats
        self.kennels = {seat: (*kennel_holes(profile, seat), beside(seat)) for seat in seats}
        """Each seat's kennel spots: its holes, then the spot beside it."""

    @classmethod
    def of(cls, profile: BoardProfile, position: Position) -> HoleMap:
        """The map for the game ``position`` belongs to."""
        layout = position.layout
        return cls(profile, layout.colors, layout.seats)

    def empty(self) -> Holes:
        """Every spot of the profile, empty."""
        return dict.fromkeys(spots(self.profile))

    def hole(self, colour: str, location: str) -> str:
        """The hole of ``colour``'s marble at a track or home location (``T5``, ``T16*``,
        ``H2``)."""
        if location.startswith("T"):
            return location.rstrip("*")
        if location.startswith("H"):
            return f"H{self.seats[self.colors.index(colour)]}.{location[1:]}"
        raise ValueError(f"location {location!r} is no single hole (a kennel has several)")

    def holes(self, position: Position, current: Mapping[str, str | None] | None = None) -> Holes:
        """The marbles of ``position`` on every spot; kennel holes filled in ``current`` stay
        filled, a kennel's holes fill before the spot beside it."""
        holes = self.empty()
        for player in position.players:
            in_kennel = 0
            for location in player.pegs:
                if location == "K":
                    in_kennel += 1
                else:
                    holes[self.hole(player.color, location)] = player.color
            *kennel, aside = self.kennels[player.seat]
            kept = [h for h in kennel if current is not None and current.get(h) == player.color]
            rest = [h for h in kennel if h not in kept]
            if in_kennel > len(kennel) + 1:
                raise ValueError(f"{player.color}: {in_kennel} marbles in a kennel of "
                                 f"{len(kennel)} holes")
            for spot in (*kept, *rest, aside)[:in_kennel]:
                holes[spot] = player.color
        return holes

    def free_kennel_hole(self, colour: str, holes: Mapping[str, str | None]) -> str:
        """Where a marble of ``colour`` sent home goes: the lowest empty kennel hole of its
        seat, or the spot beside the kennel when its holes are full."""
        kennel = self.kennels[self.seats[self.colors.index(colour)]]
        free = next((h for h in kennel if holes.get(h) is None), None)
        if free is None:
            raise ValueError(f"{colour}: the kennel and the spot beside it are full")
        return free

    def filled_kennel_hole(self, colour: str, holes: Mapping[str, str | None]) -> str:
        """Where the marble of ``colour`` taken out next comes from: the spot beside the
        kennel when a marble lies there, else the highest filled kennel hole."""
        kennel = self.kennels[self.seats[self.colors.index(colour)]]
        return next(h for h in reversed(kennel) if holes.get(h) == colour)
