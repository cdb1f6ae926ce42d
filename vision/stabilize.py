"""Only settled readings count: turn a stream of per-frame readings into board states.

A reading is emitted once it has stayed exactly the same for ``stable_s`` seconds in frames
without motion and without anything over the board; a hand, a moving marble or a changing
reading restarts the clock. So the half-way state of a marble being moved (lifted, in the
hand, rolling into its hole) is never emitted. Pure logic: timestamps are passed in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

Holes = Mapping[str, str | None]


@dataclass(frozen=True)
class Observation:
    """What one frame showed: hole classes, and whether the frame was disturbed."""

    timestamp: float
    holes: Holes
    occluded: bool = False
    motion: bool = False


class Stabilizer:
    """Emits a board state when it has been unchanged and undisturbed for ``stable_s``.

    Each distinct state is emitted once; the same state settling again after a disturbance
    (a hand passing over without moving anything) is not repeated.
    """

    def __init__(self, stable_s: float = 0.3) -> None:
        if stable_s < 0:
            raise ValueError(f"stable_s: {stable_s!r} must not be negative")
        self.stable_s = stable_s
        self._candidate: dict[str, str | None] | None = None
        self._since = 0.0
        self._last_time: float | None = None
        self.emitted: dict[str, str | None] | None = None

    def update(self, observation: Observation) -> dict[str, str | None] | None:
        """Feed one frame's observation; returns the newly settled state, or None."""
        if self._last_time is not None and observation.timestamp < self._last_time:
            raise ValueError(f"timestamp {observation.timestamp} is earlier than the previous "
                             f"one ({self._last_time})")
        self._last_time = observation.timestamp
        holes = dict(observation.holes)
        disturbed = (observation.occluded or observation.motion
                     or any(value == "?" for value in holes.values()))
        if disturbed:
            self._candidate = None
            return None
        if holes != self._candidate:
            self._candidate, self._since = holes, observation.timestamp
        if observation.timestamp - self._since < self.stable_s or holes == self.emitted:
            return None
        self.emitted = holes
        return holes
