"""The `pi5` backend: SPI through pi5neo on a Raspberry Pi 5 (data on MOSI, GPIO 10).

pi5neo always sends green, red, blue; for an RGB strip the first two are swapped here.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Sequence
from pathlib import Path

from firmware_bridge.colors import Rgb
from firmware_bridge.config import LedConfig
from firmware_bridge.strip import LedBackendError, LedStrip, import_library

SPI_SPEED_KHZ = 800
INSTALL_HINT = "pip install pi5neo (it needs spidev: apt install python3-spidev)"


class Pi5Strip(LedStrip):
    """WS2812B strip on the SPI MOSI pin of a Raspberry Pi 5."""

    backend = "pi5"

    def __init__(self, config: LedConfig) -> None:
        super().__init__(config)
        if not Path(config.spi_device).exists():
            raise LedBackendError(
                f"{config.spi_device} does not exist: enable SPI "
                "(dtparam=spi=on in /boot/firmware/config.txt, or raspi-config) and reboot")
        if not os.access(config.spi_device, os.R_OK | os.W_OK):
            raise LedBackendError(
                f"no permission to use {config.spi_device}: add the service user to the "
                "'spi' group (sudo usermod -aG spi USER) or run as root")
        library = import_library("pi5neo", INSTALL_HINT)
        options = inspect.signature(library.Pi5Neo).parameters
        extra = {"quiet_mode": True} if "quiet_mode" in options else {}
        self._neo = library.Pi5Neo(
            config.spi_device, self.count, spi_speed_khz=SPI_SPEED_KHZ, **extra)
        update = inspect.signature(self._neo.update_strip).parameters
        # Newer pi5neo sleeps 0.1 s after each update unless told not to.
        self._update_options = {"sleep_duration": None} if "sleep_duration" in update else {}
        self._swap_red_green = config.order == "RGB"

    def _write(self, pixels: Sequence[Rgb]) -> None:
        set_led = self._neo.set_led_color
        for index, (r, g, b) in enumerate(pixels):
            if self._swap_red_green:
                r, g = g, r
            set_led(index, r, g, b)
        self._neo.update_strip(**self._update_options)
