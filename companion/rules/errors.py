"""The errors of the rules engine: every one names the offending key or text and its value."""

from __future__ import annotations


class PositionError(ValueError):
    """A position (or a pair of positions) is not valid ``dog-position/1``.

    The message starts with the path of the offending key, e.g.
    ``players[1].pegs[2]: "T99" is off the 64-field track``.
    """


class CardError(ValueError):
    """A text does not name a Dog card."""
