"""The `Animator`: a thread that plays a scene on a strip, at most 30 frames a second.

It draws only when something changes: a new scene wakes it; an animated scene is redrawn at the
frame rate; a static scene is drawn once and the thread then sleeps on an event with no timeout,
so an idle table costs no CPU.

The drawing decision is `step(now)`: the thread calls it in a loop and sleeps until the time it
returns; tests call it with times of their own instead of starting the thread.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firmware_bridge.effects import Scene
    from firmware_bridge.strip import LedStrip

log = logging.getLogger(__name__)

MAX_FPS = 30.0


class Animator:
    """Plays `Scene`s on `strip` from a background thread. Start it, `play()`, then `close()`.

    `clock` gives the time in seconds (default `time.monotonic`); `play()` reads it to start a
    scene, and `step(now)` takes times on the same clock.
    """

    def __init__(
        self,
        strip: LedStrip,
        fps: float = MAX_FPS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not 0 < fps <= MAX_FPS:
            raise ValueError(f"fps {fps!r} must be above 0 and at most {MAX_FPS:g}")
        self.strip = strip
        self.period = 1.0 / fps
        self._clock = clock
        self._scene: Scene | None = None
        self._started_at = 0.0
        self._changed = False
        self._next_frame = 0.0
        self._wake = threading.Event()
        self._stopping = False
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.wakeups = 0
        """How often the thread woke up (to check that an idle animator sleeps)."""
        self.frames_drawn = 0

    def play(self, scene: Scene) -> None:
        """Show `scene` from now on (its time starts at 0)."""
        with self._lock:
            self._scene = scene
            self._started_at = self._clock()
            self._changed = True
        self._wake.set()

    def step(self, now: float) -> float | None:
        """Draw the frame due at `now`, if one is; returns when the next one is due.

        A new scene is drawn at once; an animated one again each period (a late step skips the
        missed frames). None means nothing changes until the next `play()`. The thread calls
        this; call it yourself only on an animator that is not started.
        """
        with self._lock:
            scene, started_at, changed = self._scene, self._started_at, self._changed
            self._changed = False
        if scene is None:
            return None
        if not (changed or (scene.animated and now >= self._next_frame)):
            return self._next_frame if scene.animated else None
        self._draw(scene, now - started_at)
        if not scene.animated:
            return None
        self._next_frame = now + self.period if changed else self._next_frame + self.period
        if self._next_frame <= now:
            self._next_frame = now + self.period
        return self._next_frame

    def start(self) -> Animator:
        """Start the drawing thread; returns self."""
        if self._thread is not None:
            raise RuntimeError("the animator is already started")
        self._thread = threading.Thread(target=self._run, name="led-animator", daemon=True)
        self._thread.start()
        return self

    @property
    def running(self) -> bool:
        """True while the drawing thread runs."""
        return self._thread is not None and self._thread.is_alive()

    def close(self) -> None:
        """Stop the thread (the strip keeps its last frame; closing the strip darkens it)."""
        self._stopping = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join()

    def __enter__(self) -> Animator:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _run(self) -> None:
        while not self._stopping:
            due = self.step(self._clock())
            self._wake.wait(None if due is None else max(0.0, due - self._clock()))
            self._wake.clear()
            self.wakeups += 1

    def _draw(self, scene: Scene, t: float) -> None:
        try:
            self.strip.set_frame(scene.frame_at(t))
            self.strip.show()
            self.frames_drawn += 1
        except Exception:
            log.exception("LED animator could not draw a frame")
