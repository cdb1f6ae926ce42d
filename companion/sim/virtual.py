"""The virtual table: a board whose marbles are moved by simulated hands, seen by a camera.

:class:`VirtualTable` holds the true marble of every hole of a board profile, and of the spot
beside every kennel (``K<p>.beside``, `companion.sim.holes`: where the fifth marble of a full
kennel lies), and renders camera frames of the holes with `vision.render` (fixed camera pose,
the board's material, a slow drift of the room light; a marble beside a kennel is not drawn).
Moves are animated: a hand reaches in over a marble, covers that part of the board, lifts the
marble, carries it, puts it down and leaves; a knocked-out marble is carried back to its
kennel, beside it when the kennel's holes are full; a 7 is played part by part (the hand
leaves the board for a moment between parts). It is a `vision.sources.FrameSource`, so the
table's camera loop reads it like a camera.

Time is the table's own: every :meth:`~VirtualTable.read` returns the frame at the current
time and moves the clock on by one frame (``1 / fps`` seconds), so a test drives it frame by
frame; with ``pace=True`` it also waits for the wall clock, for a live demo. Identical scenes
(same marbles, same hand, same light step) are rendered once and then served from a cache.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from companion.rules import Move, Position
from companion.sim.holes import HoleMap, Holes, every_spot, on_holes, reach, spots
from hw import BoardProfile
from vision.render import RenderConditions, render, start_occupancy
from vision.sources import EndOfSource, Frame, FrameSource

__all__ = ["Motion", "Timing", "VirtualTable", "hand_seed"]

HAND_SEEDS = 6000
"""Render seeds searched for one whose hand reaches for a given hole."""
CACHE_FRAMES = 12
"""Rendered scenes kept for reuse (a board at rest is one scene per light step; each scene
of a hand at work is new, so a long cache keeps memory, 0.9 MB a 640 × 480 frame, for
nothing)."""


@dataclass(frozen=True)
class Motion:
    """One marble carried by hand from hole ``source`` to hole ``target``."""

    colour: str
    source: str
    target: str


@dataclass(frozen=True)
class Timing:
    """How long each phase of a hand's work lasts, in seconds at speed 1."""

    reach: float = 0.6
    lift: float = 0.3
    carry: float = 0.5
    put: float = 0.3
    part_pause: float = 1.0
    """Between two parts of a 7 the hand leaves the board this long (0: it stays)."""

    def scaled(self, speed: float) -> Timing:
        """The timing at ``speed`` times the normal pace."""
        return Timing(*(value / speed for value in (self.reach, self.lift, self.carry,
                                                    self.put, self.part_pause)))


@dataclass(frozen=True)
class _Step:
    """A stretch of time with the board in ``holes`` and a hand over ``hand`` (or none)."""

    duration: float
    holes: tuple[tuple[str, str | None], ...]
    hand: str | None


@dataclass(frozen=True)
class Shot:
    """What the last frame showed: its time, the true marbles, the hole a hand was over, and
    the rendering's wall-clock and CPU seconds (0 for a frame from the cache)."""

    timestamp: float
    holes: Mapping[str, str | None]
    hand: str | None
    render_s: float
    cached: bool
    render_cpu_s: float = 0.0


class VirtualTable(FrameSource):
    """A simulated board and camera; see the module docstring.

    ``conditions`` fixes the camera and board (`vision.render.RenderConditions`; its size,
    material and camera pose are kept, hands are added by the animation); ``drift`` is the
    relative amplitude of the room light's slow change over ``drift_period_s``, rendered in
    steps of ``drift_step_s``.
    """

    name = "virtual"

    def __init__(self, profile: BoardProfile, holes: Mapping[str, str | None] | None = None, *,
                 conditions: RenderConditions | None = None, fps: float = 5.0,
                 speed: float = 1.0,
                 timing: Timing | None = None, seed: int = 0, drift: float = 0.15,
                 drift_period_s: float = 180.0, drift_step_s: float = 6.0,
                 pace: bool = False) -> None:
        if fps <= 0:
            raise ValueError(f"fps: {fps!r} must be positive")
        if speed <= 0:
            raise ValueError(f"speed: {speed!r} must be positive")
        self.profile = profile
        self.conditions = conditions if conditions is not None else RenderConditions(
            width=640, height=480, noise_sigma=1.5, jpeg_quality=90)
        self.fps = fps
        self.base_timing = timing or Timing()
        """The hand's timing at speed 1."""
        self.timing = self.base_timing.scaled(speed)
        self.seed = seed
        self.drift = drift
        self.drift_period_s = drift_period_s
        self.drift_step_s = drift_step_s
        self.pace = pace
        self._ids = tuple(spots(profile))
        self._holes: Holes = every_spot(profile, start_occupancy(profile) if holes is None
                                        else holes)
        self._planned: Holes = dict(self._holes)
        self._steps: deque[_Step] = deque()
        self._step_end: float | None = None
        self._last_end = 0.0
        self._queued_at = 0.0
        self._hand: str | None = None
        self._time = 0.0
        self._wall_start: float | None = None
        self._cache: OrderedDict[tuple[object, ...], np.ndarray] = OrderedDict()
        self._closed = False
        self._lock = threading.RLock()  # the camera loop reads while a bot queues moves
        self.last: Shot | None = None
        """What the frame returned last showed (for tests and benchmarks)."""

    # -- the truth ----------------------------------------------------------------------------

    @property
    def holes(self) -> Holes:
        """The marbles on every spot now: each hole of the profile and the spot beside each
        kennel (`companion.sim.holes`); a marble in a hand is on no spot."""
        with self._lock:
            return dict(self._holes)

    @property
    def planned(self) -> Holes:
        """The marbles once every move queued so far is done."""
        with self._lock:
            return dict(self._planned)

    @property
    def busy(self) -> bool:
        """Whether a hand is still at work (queued moves not finished)."""
        with self._lock:
            return bool(self._steps) or self._hand is not None

    @property
    def now(self) -> float:
        """The table's clock: the timestamp of the next frame, in seconds."""
        return self._time

    def place(self, holes: Mapping[str, str | None]) -> None:
        """Set the board at once, without hands (setting up before a game); spots not named
        are empty."""
        unknown = sorted(set(holes) - set(self._ids))
        if unknown:
            raise ValueError(f"board {self.profile.name!r} has no hole {unknown[0]!r}")
        with self._lock:
            self._steps.clear()
            self._step_end = None
            self._hand = None
            self._holes = {hole_id: holes.get(hole_id) for hole_id in self._ids}
            self._planned = dict(self._holes)

    # -- moves ---------------------------------------------------------------------------------

    def play(self, hole_map: HoleMap, move: Move) -> None:
        """Queue a legal move part by part, knocked-out marbles carried back to their kennels."""
        with self._lock:
            self._play(hole_map, move)

    def _play(self, hole_map: HoleMap, move: Move) -> None:
        groups = motions_of_move(hole_map, move, self._planned)
        target = hole_map.holes(move.result, self._planned)
        if not _same_board(hole_map, _after(self._planned, groups), target):
            groups = [motions_between(self.profile, self._planned, target,
                                      _mover_colour(move))]
        for index, group in enumerate(groups):
            if index and self.timing.part_pause > 0:
                self._queue(self.timing.part_pause, self._planned, None)
            self._animate(group)
        self._queue(0.0, self._planned, None)

    def arrange(self, hole_map: HoleMap, position: Position, mover: str | None = None) -> None:
        """Queue the hand work that turns the board into ``position`` (``mover``'s marbles
        first): how a cheat is made, and how a board is put right."""
        with self._lock:
            target = hole_map.holes(position, self._planned)
            self._animate(motions_between(self.profile, self._planned, target, mover))
            self._queue(0.0, self._planned, None)

    def perform(self, motions: Sequence[Motion]) -> None:
        """Queue these hand motions, one after the other, then the hand leaves."""
        with self._lock:
            self._animate(list(motions))
            self._queue(0.0, self._planned, None)

    def _animate(self, motions: Sequence[Motion]) -> None:
        timing = self.timing
        state = self._planned
        held: list[tuple[str, str]] = []  # marbles in the hand: (colour, hole taken from)
        for motion in motions:
            if (motion.colour, motion.source) in held:
                held.remove((motion.colour, motion.source))
            else:
                if state.get(motion.source) != motion.colour:
                    raise ValueError(f"no {motion.colour} marble in hole {motion.source}")
                self._queue(timing.reach, state, motion.source)
                state[motion.source] = None
                self._queue(timing.lift, state, motion.source)
            self._queue(timing.carry, state, motion.target)
            occupant = state.get(motion.target)
            if occupant is not None:
                held.append((occupant, motion.target))
            state[motion.target] = motion.colour
            self._queue(timing.put, state, motion.target)
        if held:
            raise ValueError(f"marbles left in the hand: {held}")

    def _queue(self, duration: float, holes: Mapping[str, str | None], hand: str | None) -> None:
        if not self._steps:
            self._queued_at = self._time
        self._steps.append(_Step(duration, tuple((h, holes.get(h)) for h in self._ids),
                                 None if hand is None else reach(self.profile, hand)))

    # -- frames --------------------------------------------------------------------------------

    def read(self) -> Frame:
        """The frame at the table's clock; the clock moves on by one frame."""
        if self._closed:
            raise EndOfSource(self.name)
        if self.pace:
            self._wait()
        with self._lock:
            now = self._time
            self._advance(now)
            holes, hand = dict(self._holes), self._hand
        cpu = time.thread_time()
        image, render_s, cached = self._image(now, holes, hand)
        self.last = Shot(now, holes, hand, render_s, cached,
                         0.0 if cached else time.thread_time() - cpu)
        with self._lock:
            self._time = max(self._time, now + 1.0 / self.fps)
        return Frame(image, now)

    def close(self) -> None:
        self._closed = True

    def _wait(self) -> None:
        wall = time.monotonic()
        if self._wall_start is None:
            self._wall_start = wall - self._time
        ahead = self._wall_start + self._time - wall
        if ahead > 0:
            time.sleep(ahead)
        else:  # rendering fell behind: time follows the wall clock
            self._time = wall - self._wall_start

    def _advance(self, now: float) -> None:
        while self._steps:
            if self._step_end is None:
                start = max(self._last_end, self._queued_at)
                self._step_end = start + self._steps[0].duration
            if now < self._step_end:
                step = self._steps[0]
                self._holes = dict(step.holes)
                self._hand = step.hand
                return
            step = self._steps.popleft()
            self._holes = dict(step.holes)
            self._hand = step.hand
            self._last_end = self._step_end
            self._step_end = None
        self._hand = None

    def light(self, now: float) -> tuple[float, float]:
        """The light level and colour temperature at time ``now`` (its drift step)."""
        step = math.floor(now / self.drift_step_s) * self.drift_step_s
        phase = 2 * math.pi * step / self.drift_period_s
        level = self.conditions.light_level * (1 + self.drift * math.sin(phase))
        kelvin = self.conditions.color_temperature_k + 2500 * self.drift * math.sin(phase / 2)
        return round(level, 4), round(kelvin, 1)

    def _image(self, now: float, holes: Holes,
               hand: str | None) -> tuple[np.ndarray, float, bool]:
        level, kelvin = self.light(now)
        seen = on_holes(self.profile, holes)
        key = (tuple(seen.values()), hand, level, kelvin)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached, 0.0, True
        started = time.perf_counter()
        cond = replace(self.conditions, light_level=level, color_temperature_k=kelvin,
                       hands=1 if hand is not None else 0, cards=0)
        seed = self.seed if hand is None else hand_seed(self.profile, hand, self.seed)
        image = render(self.profile, seen, cond, seed=seed).image
        image.flags.writeable = False
        self._cache[key] = image
        if len(self._cache) > CACHE_FRAMES:
            self._cache.popitem(last=False)
        return image, time.perf_counter() - started, False


# -- planning hand motions ---------------------------------------------------------------------


def motions_of_move(hole_map: HoleMap, move: Move,
                    holes: Mapping[str, str | None]) -> list[list[Motion]]:
    """The hand motions of a legal move, one group per part (knocked-out marbles carried to
    their kennels right after the part that knocked them out)."""
    state = dict(holes)
    groups: list[list[Motion]] = []
    for part in move.parts:
        if part.swap_color is not None:
            mine = hole_map.hole(part.color, part.origin)
            theirs = hole_map.hole(part.swap_color, part.target)
            state[mine], state[theirs] = part.swap_color, part.color
            groups.append([Motion(part.color, mine, theirs),
                           Motion(part.swap_color, theirs, mine)])
            continue
        source = (hole_map.filled_kennel_hole(part.color, state) if part.origin == "K"
                  else hole_map.hole(part.color, part.origin))
        target = hole_map.hole(part.color, part.target)
        victims = [(colour, hole_map.hole(colour, where)) for colour, where in part.knocked]
        state[source] = None
        for _, victim in victims:
            state[victim] = None
        state[target] = part.color
        group = [Motion(part.color, source, target)]
        for colour, victim in victims:
            kennel = hole_map.free_kennel_hole(colour, state)
            state[kennel] = colour
            group.append(Motion(colour, victim, kennel))
        groups.append(group)
    return groups


def motions_between(profile: BoardProfile, before: Mapping[str, str | None],
                    after: Mapping[str, str | None], first: str | None = None) -> list[Motion]:
    """Hand motions that turn ``before`` into ``after``: each colour's marbles that left a
    hole paired with the holes its marbles arrive in, nearest first; ``first``'s colour moves
    first."""
    where = spots(profile)
    colours = sorted({c for c in (*before.values(), *after.values()) if c is not None},
                     key=lambda c: (c != first, c))
    motions: list[Motion] = []
    for colour in colours:
        left = [h for h, c in before.items() if c == colour and after.get(h) != colour]
        arrived = [h for h, c in after.items() if c == colour and before.get(h) != colour]
        if len(left) != len(arrived):
            raise ValueError(f"{colour}: {len(left)} marbles leave, {len(arrived)} arrive")
        while left:
            source, target = min(((s, t) for s in left for t in arrived),
                                 key=lambda pair: math.dist(where[pair[0]], where[pair[1]]))
            left.remove(source)
            arrived.remove(target)
            motions.append(Motion(colour, source, target))
    return motions


def _after(holes: Mapping[str, str | None], groups: Sequence[Sequence[Motion]]) -> Holes:
    state = dict(holes)
    for group in groups:
        for motion in group:
            if state.get(motion.source) == motion.colour:
                state[motion.source] = None
        for motion in group:
            state[motion.target] = motion.colour
    return state


def _same_board(hole_map: HoleMap, a: Mapping[str, str | None],
                b: Mapping[str, str | None]) -> bool:
    """Equal outside the kennels, and the same number of marbles in every kennel."""
    kennel = {h for holes in hole_map.kennels.values() for h in holes}
    if any(a.get(h) != b.get(h) for h in set(a) | set(b) if h not in kennel):
        return False
    return all(sum(a.get(h) is not None for h in holes) == sum(b.get(h) is not None
                                                               for h in holes)
               for holes in hole_map.kennels.values())


def _mover_colour(move: Move) -> str | None:
    return move.parts[0].color if move.parts else None


@cache
def _hand_seeds(profile: BoardProfile) -> dict[str, tuple[int, ...]]:
    """Render seeds by the hole the one hand of a frame reaches for (frames without cards).

    `vision.render` draws a hand's target hole first from the seed's hand stream."""
    seeds: dict[str, list[int]] = {}
    count = len(profile.holes)
    for seed in range(HAND_SEEDS):
        stream = np.random.SeedSequence(seed).spawn(4)[1]
        hole = profile.holes[int(np.random.default_rng(stream).integers(count))].id
        seeds.setdefault(hole, []).append(seed)
    return {hole: tuple(found) for hole, found in seeds.items()}


def hand_seed(profile: BoardProfile, hole: str, salt: int = 0) -> int:
    """A render seed whose hand reaches for ``hole`` (``salt`` picks among several)."""
    found = _hand_seeds(profile).get(hole)
    if not found:
        raise ValueError(f"no render seed below {HAND_SEEDS} puts a hand over hole {hole}")
    return found[salt % len(found)]
