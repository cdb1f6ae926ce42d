"""Board ↔ position: the camera's hole reading and the game's ``dog-position/1`` position.

A reading names every hole of the board profile (``T<n>``, ``H<p>.<k>``, ``K<p>.<j>``) with a
marble colour or None. A position names every peg of every player. The translation needs the
game's layout (who plays which colour at which seat) and, for one thing the camera cannot see,
the game's history: whether a marble on its start field is *fresh* (``*``).

Comparisons use a *board view*: track and home holes with their colour, each kennel as the
sorted colours in it (which kennel hole a marble sits in does not matter), and no ``*``.

A kennel has as many holes as the profile gives it (four on the Brandi boards), a player may
have more marbles (five under Schmidt rules): the marbles of a full kennel beyond its holes lie
beside it, where the camera does not look. So a player's kennel marbles are its marbles minus
those seen on the track and at home, and a kennel may show that many fewer (a player takes
any marble out of a full kennel, from a hole or from beside it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules import Position
from hw import BoardProfile

Holes = Mapping[str, str | None]
View = dict[str, str | None]
"""Board view: track/home hole id → colour or None; ``K<seat>`` → ``"red,red"`` or None."""


def start_holes(profile: BoardProfile) -> dict[str, str | None]:
    """Every marble in its kennel, in its seat's default colour; track and homes empty."""
    return {hole.id: (profile.default_colors[hole.seat] if hole.kind == "kennel"
                      and hole.seat is not None else None)
            for hole in profile.holes}


class ReadingError(ValueError):
    """A reading that no position of this game can explain; the message says why in
    English, ``code`` and ``args`` say it for translation (``unreadable``, ``unknown_colour``,
    ``seat_not_playing``, ``wrong_owner``, ``too_many``, ``too_few``, ``bad_holes``)."""

    def __init__(self, message: str, code: str = "bad_holes",
                 args: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.details = dict(args or {})


class BoardMap:
    """The translator for one game (its layout) on one board profile."""

    def __init__(self, profile: BoardProfile, template: Position) -> None:
        if profile.seats != template.board:
            raise ValueError(f"board {profile.name!r} has {profile.seats} seats, the game is "
                             f"for a board of {template.board}")
        self.profile = profile
        self.template = template
        layout = template.layout
        self.colors = layout.colors
        self.seats = layout.seats
        self.pegs = layout.pegs_per_player
        self.track_len = layout.track_len
        self.player_of_color = {color: i for i, color in enumerate(layout.colors)}
        self.player_at_seat = {seat: i for i, seat in enumerate(layout.seats)}
        self.hole_ids = tuple(hole.id for hole in profile.holes)
        self.kind = {hole.id: hole.kind for hole in profile.holes}
        self.seat = {hole.id: hole.seat for hole in profile.holes}
        self.kennels: dict[int, tuple[str, ...]] = {}
        for hole in profile.holes_of_kind("kennel"):
            assert hole.seat is not None
            self.kennels.setdefault(hole.seat, ())
            self.kennels[hole.seat] += (hole.id,)
        self.starts = tuple(layout.starts)

    # -- position → holes ---------------------------------------------------------------

    def hole_of(self, player: int, location: str) -> str | None:
        """The hole of one peg location (``T5``, ``T0*``, ``H2``) of ``player``; None for
        the kennel."""
        if location == "K":
            return None
        if location.startswith("T"):
            return location.rstrip("*")
        return f"H{self.seats[player]}.{location[1:]}"

    def holes(self, position: Position) -> dict[str, str | None]:
        """Every hole of the profile as the position fills it (kennels from their first hole;
        kennel marbles beyond the kennel's holes lie beside it, in no hole)."""
        holes: dict[str, str | None] = dict.fromkeys(self.hole_ids)
        for player, entry in enumerate(position.players):
            in_kennel = 0
            for location in entry.pegs:
                hole = self.hole_of(player, location)
                if hole is None:
                    in_kennel += 1
                else:
                    holes[hole] = entry.color
            for hole in self.kennels.get(entry.seat, ())[:in_kennel]:
                holes[hole] = entry.color
        return holes

    def view(self, position: Position) -> View:
        """The board view of a position."""
        return self.view_of(self.holes(position))

    def view_of(self, holes: Holes) -> View:
        """The board view of a reading (every hole named, no ``?``)."""
        view: View = {}
        kennel: dict[int, list[str]] = {}
        for hole in self.hole_ids:
            color = holes.get(hole)
            if self.kind[hole] == "kennel":
                seat = self.seat[hole]
                assert seat is not None
                marbles = kennel.setdefault(seat, [])
                if color is not None:
                    marbles.append(color)
            else:
                view[hole] = color
        for seat, marbles in kennel.items():
            view[f"K{seat}"] = ",".join(sorted(marbles)) or None
        return view

    # -- holes → position ---------------------------------------------------------------

    def check_holes(self, holes: Mapping[str, Any]) -> dict[str, str | None]:
        """A reading entered by hand: every hole of the profile, each a colour or null."""
        if not isinstance(holes, Mapping):
            raise ReadingError("holes: expected an object of hole id → colour or null")
        unknown = sorted(set(holes) - set(self.hole_ids))
        if unknown:
            raise ReadingError(f"holes: board {self.profile.name!r} has no hole {unknown[0]!r}")
        missing = [hole for hole in self.hole_ids if hole not in holes]
        if missing:
            raise ReadingError(f"holes: hole {missing[0]!r} is missing (name every hole of the "
                               "board, kennels included)")
        checked: dict[str, str | None] = {}
        for hole in self.hole_ids:
            value = holes[hole]
            if value == "?":
                raise ReadingError(f"holes: {hole} is '?': a reading entered by hand names "
                                   "every marble")
            if value is not None and not isinstance(value, str):
                raise ReadingError(f"holes: {hole} is {value!r}, not a colour or null")
            checked[hole] = value
        return checked

    def position(self, holes: Holes, before: Position) -> Position:
        """The position a reading shows, ``before`` (the position of the game before the
        move) telling which marble on its start field is fresh; its turn is kept.

        :class:`ReadingError` when no position explains the reading.
        """
        track: list[list[str]] = [[] for _ in self.colors]
        kennel_seen = [0] * len(self.colors)
        for hole in self.hole_ids:
            color = holes.get(hole)
            if color is None:
                continue
            if color == "?":
                raise ReadingError(f"{hole} cannot be read (something is over it)",
                                   "unreadable", {"hole": hole})
            player = self.player_of_color.get(color)
            if player is None:
                raise ReadingError(f"{hole} holds a {color} marble, a colour nobody plays "
                                   f"(playing: {', '.join(self.colors)})", "unknown_colour",
                                   {"hole": hole, "color": color})
            kind = self.kind[hole]
            seat = self.seat[hole]
            if kind == "track":
                track[player].append(hole)
                continue
            owner = self.player_at_seat.get(seat) if seat is not None else None
            where = "home" if kind == "home" else "kennel"
            if owner is None:
                raise ReadingError(f"{hole} holds a {color} marble in the {where} of seat "
                                   f"{seat}, where nobody plays", "seat_not_playing",
                                   {"hole": hole, "color": color, "seat": seat})
            if owner != player:
                raise ReadingError(f"{hole} holds a {color} marble in {self.colors[owner]}'s "
                                   f"{where}", "wrong_owner",
                                   {"hole": hole, "color": color, "owner": self.colors[owner]})
            if kind == "home":
                track[player].append(f"H{hole.split('.')[1]}")
            else:
                kennel_seen[player] += 1
        before_pegs = before.players
        players: list[dict[str, Any]] = []
        for player, color in enumerate(self.colors):
            outside = len(track[player])
            in_kennel = self.pegs - outside  # those not in a kennel hole lie beside it
            seen = kennel_seen[player]
            kennel_holes = len(self.kennels.get(self.seats[player], ()))
            if in_kennel < 0 or seen > in_kennel:
                raise ReadingError(f"{outside + seen} {color} marbles on the board; "
                                   f"{color} plays {self.pegs}", "too_many",
                                   {"color": color, "seen": outside + seen,
                                    "expected": self.pegs})
            beside = max(0, self.pegs - kennel_holes)  # marbles a full kennel has no hole for
            if in_kennel - seen > beside:
                raise ReadingError(
                    f"{outside + seen} {color} marbles seen, {self.pegs} expected (one "
                    "between holes, in a hand or off the board?)", "too_few",
                    {"color": color, "seen": outside + seen, "expected": self.pegs})
            start = f"T{self.starts[player]}"
            was = before_pegs[player].pegs
            came_out = in_kennel < was.count("K")
            pegs = []
            for location in track[player]:
                fresh = location == start and (came_out or f"{start}*" in was)
                pegs.append(f"{location}*" if fresh else location)
            pegs += ["K"] * in_kennel
            players.append({"color": color, "at": self.seats[player], "pegs": pegs})
        obj = before.to_json()
        obj["players"] = players
        try:
            return Position.from_json(obj)
        except ValueError as error:
            raise ReadingError(str(error)) from None
