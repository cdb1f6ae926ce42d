"""The `sim` backend: the strip in memory, mirrored on the web page and checked by tests."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from firmware_bridge.colors import Rgb
from firmware_bridge.config import LedConfig
from firmware_bridge.strip import LedStrip, ShownFrame


class SimStrip(LedStrip):
    """Keeps what the LEDs show now and the last `config.history` frames with timestamps.

    `add_listener` (from `LedStrip`) lets the web page mirror every shown frame.
    """

    backend = "sim"

    def __init__(self, config: LedConfig) -> None:
        super().__init__(config)
        self.pixels: list[Rgb] = [(0, 0, 0)] * self.count
        """What the LEDs show now (after brightness, gamma and budget)."""
        self.history: deque[ShownFrame] = deque(maxlen=config.history)
        """The last frames shown, oldest first."""

    def show(self) -> ShownFrame:
        """Show the pending frame and remember it in `history`."""
        shown = super().show()
        self.history.append(shown)
        return shown

    def _write(self, pixels: Sequence[Rgb]) -> None:
        self.pixels = list(pixels)
