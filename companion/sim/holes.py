"""Where a position's marbles sit in the holes of a board profile (the simulator's own view).

Track field ``T<n>`` is hole ``T<n>``; home field ``H<k>`` of the player at seat ``p`` is hole
``H<p>.<k>``; a marble in the kennel sits in one of the holes ``K<p>.<j>``. Which kennel hole
a marble takes does not matter to the rules, so :class:`HoleMap` keeps the kennel holes that
are already filled and fills the lowest free ones.

A player's marbles have the colour of the profile's seat (``default_colors[seat]``): that is
the colour the camera's reader names, so the players of a simulated game use those colours.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.rules import Position
from hw import BoardProfile

Holes = dict[str, str | None]


class HoleMap:
    """Converts positions of one game into hole occupancies of one board profile."""

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
        self.kennels = {seat: [h.id for h in profile.holes_of_kind("kennel") if h.seat == seat]
                        for seat in seats}

    @classmethod
    def of(cls, profile: BoardProfile, position: Position) -> HoleMap:
        """The map for the game ``position`` belongs to."""
        layout = position.layout
        return cls(profile, layout.colors, layout.seats)

    def empty(self) -> Holes:
        """Every hole of the profile, empty."""
        return {hole.id: None for hole in self.profile.holes}

    def hole(self, colour: str, location: str) -> str:
        """The hole of ``colour``'s marble at a track or home location (``T5``, ``T16*``,
        ``H2``)."""
        if location.startswith("T"):
            return location.rstrip("*")
        if location.startswith("H"):
            return f"H{self.seats[self.colors.index(colour)]}.{location[1:]}"
        raise ValueError(f"location {location!r} is no single hole (a kennel has several)")

    def holes(self, position: Position, current: Mapping[str, str | None] | None = None) -> Holes:
        """The occupancy of ``position``; kennel holes filled in ``current`` stay filled."""
        holes = self.empty()
        for player in position.players:
            in_kennel = 0
            for location in player.pegs:
                if location == "K":
                    in_kennel += 1
                else:
                    holes[self.hole(player.color, location)] = player.color
            kennel = self.kennels[player.seat]
            kept = [h for h in kennel if current is not None and current.get(h) == player.color]
            rest = [h for h in kennel if h not in kept]
            for hole_id in (kept + rest)[:in_kennel]:
                holes[hole_id] = player.color
        return holes

    def free_kennel_hole(self, colour: str, holes: Mapping[str, str | None]) -> str:
        """The lowest empty kennel hole of ``colour``'s seat."""
        kennel = self.kennels[self.seats[self.colors.index(colour)]]
        return next(h for h in kennel if holes.get(h) is None)

    def filled_kennel_hole(self, colour: str, holes: Mapping[str, str | None]) -> str:
        """The highest filled kennel hole of ``colour``'s seat (the marble taken out next)."""
        kennel = self.kennels[self.seats[self.colors.index(colour)]]
        return next(h for h in reversed(kennel) if holes.get(h) == colour)
