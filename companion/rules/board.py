"""Board geometry and peg locations.

A board has 4 or 6 seat positions with 16 track fields each: ``T0 … T(16·board-1)``, numbered in
the direction of movement. Seat position ``p`` has its start field ``T(16p)``, a kennel ``K`` and a
home of four fields ``H0 … H3`` (``H0`` entered first, ``H3`` deepest).

Inside the engine a peg's location is a small int (a *code*), relative to its owner:

* ``KENNEL`` (-1) -- in the owner's kennel;
* ``FRESH`` (-2) -- on the owner's start field, fresh (placed from the kennel, not moved since);
* ``0 … L-1`` -- on track field ``n`` (``L`` = track length), not fresh;
* ``L + k`` -- on field ``k`` of the owner's home.

A whole position's locations also pack into one int, its *state key*: every player has a block
of :func:`key_block` bits; its lowest bits count the pegs in the kennel in unary, and bit
``KEY_CODE_BIT + code`` is set for each other location. Pegs of one player never share a location
outside the kennel, so two positions of one layout have equal keys exactly when their locations
are equal, and ``(a ^ b).bit_count() // 2`` is the number of pegs whose locations differ.
"""

from __future__ import annotations

import re

from companion.rules.errors import excerpt

FIELDS_PER_SEAT = 16
HOME_FIELDS = 4
BOARD_SIZES = (4, 6)

KENNEL = -1
FRESH = -2

KEY_CODE_BIT = 7
"""Bit of location code 0 in a player's block of a state key (below it: 5 kennel bits, FRESH)."""

_LOCATION = re.compile(r"K|T(0|[1-9][0-9]*)(\*?)|H(0|[1-9][0-9]*)")


def track_length(board: int) -> int:
    """The number of track fields of a board with ``board`` seat positions."""
    return FIELDS_PER_SEAT * board


def key_block(track_len: int) -> int:
    """The bits of one player's block in a state key (kennel count, fresh, track, home)."""
    return KEY_CODE_BIT + track_len + HOME_FIELDS


def start_field(seat: int) -> int:
    """The start field of seat position ``seat``."""
    return FIELDS_PER_SEAT * seat


def location_name(code: int, track_len: int, start: int) -> str:
    """The text of a location code: ``K``, ``T5``, ``T16*`` or ``H2``."""
    if code == KENNEL:
        return "K"
    if code == FRESH:
        return f"T{start}*"
    if code < track_len:
        return f"T{code}"
    return f"H{code - track_len}"


def parse_location(text: object, track_len: int, start: int) -> int:
    """The code of location text ``text`` for a peg whose owner starts on ``start``.

    Raises ``ValueError`` with a message about ``text`` (the caller adds the key path).
    """
    if not isinstance(text, str):
        raise ValueError(f"{excerpt(text)} is not a location string (K, T<n>, T<n>*, H<k>)")
    shown = excerpt(text)
    match = _LOCATION.fullmatch(text)
    if match is None:
        raise ValueError(f"{shown} is not a location (K, T<n>, T<n>*, H<k>)")
    if text == "K":
        return KENNEL
    track, star, home = match.groups()
    if home is not None:
        if len(home) > 1 or int(home) >= HOME_FIELDS:
            raise ValueError(f"{shown} is not a home field (H0 … H3)")
        return track_len + int(home)
    if len(track) > 3 or int(track) >= track_len:
        raise ValueError(f"{shown} is off the {track_len}-field track")
    n = int(track)
    if star:
        if n != start:
            raise ValueError(
                f"{shown}: only a peg on its own start field T{start} can be fresh (*)"
            )
        return FRESH
    return n


def track_field(code: int, start: int, track_len: int) -> int | None:
    """The track field a peg occupies, or None in kennel or home."""
    if code == FRESH:
        return start
    if 0 <= code < track_len:
        return code
    return None
