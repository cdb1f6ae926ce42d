"""The live table: the board as last seen, and who is listening for changes.

This is where camera readings, card announcements, the rules and the LEDs meet. For now it
holds the current reading of the board and tells subscribers (the page's SSE streams) when
it changes.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from typing import Any

from hw import BoardProfile


def start_reading(profile: BoardProfile) -> dict[str, str | None]:
    """Every marble in its kennel, in its seat's default colour; track and homes empty."""
    return {hole.id: (profile.default_colors[hole.seat] if hole.kind == "kennel"
                      and hole.seat is not None else None)
            for hole in profile.holes}


class Table:
    """The state of one physical (or simulated) table, shared with the web page."""

    def __init__(self, profile: BoardProfile, *, simulated: bool, hardware: dict[str, str]):
        self.profile = profile
        self.simulated = simulated
        self.hardware = dict(hardware)
        self._holes = start_reading(profile)
        self._leds: dict[str, str] = {}
        self._hole_of_led = {h.led: h.id for h in profile.holes if h.led is not None}
        self._version = 0
        self._lock = threading.Lock()
        self._listeners: list[queue.Queue[dict[str, Any] | None]] = []

    def snapshot(self) -> dict[str, Any]:
        """Everything the page shows, as JSON-ready data."""
        with self._lock:
            return {"version": self._version, "board": self.profile.name,
                    "simulated": self.simulated, "hardware": self.hardware,
                    "holes": dict(self._holes), "leds": dict(self._leds)}

    def update_holes(self, holes: dict[str, str | None]) -> None:
        """Take a new reading of some holes and tell every listener."""
        unknown = sorted(set(holes) - set(self._holes))
        if unknown:
            raise ValueError(f"board {self.profile.name!r} has no hole {unknown[0]!r}")
        with self._lock:
            self._holes.update(holes)
            self._version += 1
        self._publish(self.snapshot())

    def mirror_leds(self, colors: Sequence[tuple[int, int, int]]) -> None:
        """Show on the page what the LED strip shows: LED `i` has colour `colors[i]`.

        Hand it to the strip with `strip.add_listener(lambda shown: table.mirror_leds(
        shown.colors))`; lit holes appear in the snapshot as `"leds": {"T5": "#00ff00"}`.
        """
        leds = {self._hole_of_led[led]: "#{:02x}{:02x}{:02x}".format(*color)
                for led, color in enumerate(colors)
                if any(color) and led in self._hole_of_led}
        with self._lock:
            if leds == self._leds:
                return
            self._leds = leds
            self._version += 1
        self._publish(self.snapshot())

    def subscribe(self) -> queue.Queue[dict[str, Any] | None]:
        """A queue that receives a snapshot now and after every change, and None at close."""
        listener: queue.Queue[dict[str, Any] | None] = queue.Queue(maxsize=16)
        listener.put(self.snapshot())
        with self._lock:
            self._listeners.append(listener)
        return listener

    def unsubscribe(self, listener: queue.Queue[dict[str, Any] | None]) -> None:
        """Stop sending to a listener (its page was closed)."""
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def close(self) -> None:
        """The table shuts down: every listener gets None and its stream ends."""
        self._publish(None)

    def _publish(self, snapshot: dict[str, Any] | None) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener.put_nowait(snapshot)
            except queue.Full:      # a stalled page skips to the newest state
                self._drain(listener)
                listener.put_nowait(snapshot)

    @staticmethod
    def _drain(listener: queue.Queue[dict[str, Any] | None]) -> None:
        while True:
            try:
                listener.get_nowait()
            except queue.Empty:
                return
