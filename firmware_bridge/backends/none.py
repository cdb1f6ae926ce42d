"""The `none` backend: a strip that shows nothing (LEDs switched off by configuration)."""

from __future__ import annotations

from firmware_bridge.colors import Rgb
from firmware_bridge.strip import LedStrip


class NoStrip(LedStrip):
    """Accepts every frame and sends it nowhere."""

    backend = "none"

    def _write(self, pixels: list[Rgb]) -> None:
        pass
