"""The `ws281x` backend: rpi_ws281x's PixelStrip on a Raspberry Pi 3, 4 or Zero 2.

Never construct this off a Pi: the library's C side crashes the interpreter at exit there.
`open_strip` checks the board model first; tests fake the `rpi_ws281x` module.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_bridge.colors import Rgb
from firmware_bridge.config import LedConfig
from firmware_bridge.strip import LedBackendError, LedStrip, import_library

FREQ_HZ = 800_000
PIN_CHANNELS = {12: 0, 18: 0, 13: 1, 19: 1, 10: 0, 21: 0}
"""Data pins rpi_ws281x can drive and their channel: PWM0 (12, 18), PWM1 (13, 19), SPI (10),
PCM (21)."""
INSTALL_HINT = "pip install rpi_ws281x (run as root, or use GPIO 10 with SPI enabled)"


class Ws281xStrip(LedStrip):
    """WS2812B strip on a PWM, PCM or SPI pin through rpi_ws281x (DMA, 800 kHz)."""

    backend = "ws281x"

    def __init__(self, config: LedConfig) -> None:
        super().__init__(config)
        if config.pin not in PIN_CHANNELS:
            pins = ", ".join(str(p) for p in sorted(PIN_CHANNELS))
            raise LedBackendError(f"GPIO {config.pin} cannot drive a ws281x strip (use {pins})")
        library = import_library("rpi_ws281x", INSTALL_HINT)
        strip_type = {
            "GRB": library.ws.WS2811_STRIP_GRB,
            "RGB": library.ws.WS2811_STRIP_RGB,
        }[config.order]
        self._color = library.Color
        self._pixels = library.PixelStrip(
            self.count,
            config.pin,
            FREQ_HZ,
            config.dma,
            False,  # invert: a 74AHCT125 does not invert
            255,  # the library's brightness: ours is applied before gamma
            PIN_CHANNELS[config.pin],
            strip_type,
        )
        try:
            self._pixels.begin()
        except RuntimeError as err:
            raise LedBackendError(f"rpi_ws281x could not start on GPIO {config.pin}: {err}") \
                from err

    def _write(self, pixels: Sequence[Rgb]) -> None:
        color = self._color
        set_pixel = self._pixels.setPixelColor
        for index, (r, g, b) in enumerate(pixels):
            set_pixel(index, color(r, g, b))
        self._pixels.show()
