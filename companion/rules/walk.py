"""Where a peg goes: the fields it passes, in order, around the track and into its home.

The one place that knows the board's geometry for walking: the track's wrap, each player's
start field, the branch into the home under both rule options (``from_behind``) and the home
fields. The move generator (:class:`~companion.rules.work.Work`) applies the rules along these
walks (a protected peg ends a walk, an occupied home field too, pegs landed on or passed are
knocked out); the diagnosis (:mod:`companion.rules.diagnosis`) takes the exact :class:`Route`
between two locations from them, with everything passed, and judges it.

Locations are codes (:mod:`companion.rules.board`); a fresh peg (``FRESH``) walks from its
start field.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from companion.rules.board import FRESH, HOME_FIELDS, KENNEL
from companion.rules.position import Layout

__all__ = ["Lane", "Route", "lanes", "track_ahead"]


class Route(NamedTuple):
    """A peg's way from one location to another: steps, fields passed, where it lands.

    ``passed`` are the track fields passed (not the landing), in order; ``home_passed`` the
    home fields passed (0 … 3); ``enters_home`` whether it turns into its home on the way,
    ``from_start`` whether it turns in right from its start field (no step on the track).
    """

    steps: int
    passed: tuple[int, ...]
    home_passed: tuple[int, ...]
    landing: int
    enters_home: bool
    from_start: bool
    backward: bool


class Lane:
    """The ways of one player's pegs: the fields ahead of and behind each location.

    Forward, a peg walks the track from its field on; when it reaches its start field
    (:meth:`to_start` steps on) the home branches off, ``H0`` first. Under the rule set's
    ``from_behind`` option, and always for a fresh peg, standing on the start field is not
    reaching it: the peg must come round again (:meth:`entry`).
    """

    __slots__ = ("_ahead", "_behind", "from_behind", "home", "start", "track_len", "walks")

    def __init__(self, track_len: int, start: int, from_behind: bool) -> None:
        self.track_len = track_len
        self.start = start
        self.from_behind = from_behind
        self.home = tuple(range(track_len, track_len + HOME_FIELDS))
        """The home's codes, ``H0`` (entered first) to ``H3``."""
        self._ahead = track_ahead(track_len)
        self._behind = _track_behind(track_len)
        self.walks = {
            code: (self.ahead(code), self.entry(code)) for code in (FRESH, *range(track_len))
        }
        """``walks[code]``: :meth:`ahead` and :meth:`entry` of each track location at once, for
        the generator's inner loop (read only)."""

    def ahead(self, code: int) -> tuple[int, ...]:
        """The track fields ahead of a peg on track location ``code``, in the order it passes
        them: one full lap, the last its own field."""
        return self._ahead[self.start if code == FRESH else code]

    def behind(self, code: int) -> tuple[int, ...]:
        """The track fields behind a peg on track location ``code``, nearest first: one lap."""
        return self._behind[self.start if code == FRESH else code]

    def home_ahead(self, code: int) -> tuple[int, ...]:
        """The home fields ahead of a peg on home location ``code``, in order."""
        return self.home[code - self.track_len + 1:]

    def to_start(self, code: int) -> int:
        """The steps from track location ``code`` to the start field, where the home branches
        off (0 on the start field)."""
        here = self.start if code == FRESH else code
        return (self.start - here) % self.track_len

    def entry(self, code: int) -> int:
        """After how many steps on the track a peg on track location ``code`` may turn into
        its home: :meth:`to_start`, but a full lap for a peg on its start field that may not
        turn in from there (a fresh one; under ``from_behind``, any)."""
        steps = self.to_start(code)
        if steps == 0 and (code == FRESH or self.from_behind):
            return self.track_len
        return steps

    def steps(self, origin: int, target: int) -> int | None:
        """How many steps forward from ``origin`` to ``target``, None if no forward way leads
        there; a target in the home is reached by turning in at the start field, even right
        from it (the length of :meth:`route`, without building it)."""
        track_len = self.track_len
        if origin == KENNEL or target in (KENNEL, FRESH):
            return None
        if origin >= track_len:
            return target - origin if target > origin else None
        if target >= track_len:
            return self.to_start(origin) + 1 + target - track_len
        here = self.start if origin == FRESH else origin
        return (target - here) % track_len or None

    def route(self, origin: int, target: int, backward: bool = False) -> Route | None:
        """The way from ``origin`` to ``target``, forward or ``backward`` (never into or inside
        the home), None if there is none. Blockers are not looked at: every field passed is
        listed for the caller to judge."""
        track_len = self.track_len
        if backward:
            if origin == KENNEL or origin >= track_len or not 0 <= target < track_len:
                return None
            here = self.start if origin == FRESH else origin
            back = (here - target) % track_len
            if not back:
                return None
            return Route(back, self.behind(origin)[:back - 1], (), target, False, False, True)
        steps = self.steps(origin, target)
        if steps is None:
            return None
        if origin >= track_len:
            home_passed = tuple(range(origin - track_len + 1, target - track_len))
            return Route(steps, (), home_passed, target, False, False, False)
        if target >= track_len:
            k = target - track_len
            to_start = steps - 1 - k
            return Route(steps, self.ahead(origin)[:to_start], tuple(range(k)), target, True,
                         to_start == 0, False)
        return Route(steps, self.ahead(origin)[:steps - 1], (), target, False, False, False)


def lanes(layout: Layout) -> tuple[Lane, ...]:
    """Every player's :class:`Lane` on ``layout`` (made once per board, starts and rule set)."""
    return _lanes(layout.track_len, layout.starts, layout.rules.from_behind)


@cache
def _lanes(track_len: int, starts: tuple[int, ...], from_behind: bool) -> tuple[Lane, ...]:
    return tuple(Lane(track_len, start, from_behind) for start in starts)


@cache
def track_ahead(track_len: int) -> tuple[tuple[int, ...], ...]:
    """``ahead[f]``: the track fields after field ``f`` in the direction of movement, one full
    lap (the last is ``f``)."""
    return tuple(
        tuple((field + n) % track_len for n in range(1, track_len + 1))
        for field in range(track_len)
    )


@cache
def _track_behind(track_len: int) -> tuple[tuple[int, ...], ...]:
    """``behind[f]``: the track fields before field ``f``, nearest first, one full lap."""
    return tuple(
        tuple((field - n) % track_len for n in range(1, track_len + 1))
        for field in range(track_len)
    )
