"""The `none` backend: a strip that shows nothing (LEDs switched off by configuration)."""

from __future__ import annotations

from collections.abc import Sequence

from firmware_bridge.colors import Rgb
from firmware_bridge.strip import LedStrip


class NoStrip(LedStrip):
    """Accepts every frame and sends it nowhere."""

    backend = "none"

    def _write(self, pixels: Sequence[Rgb]) -> None:
        pass
