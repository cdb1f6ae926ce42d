"""Stand-ins for the hardware libraries: the real ones must never load in tests."""

from __future__ import annotations

import importlib.machinery
import types
from typing import Any, ClassVar

WS2811_STRIP_RGB = 0x00100800
WS2811_STRIP_GRB = 0x00081000


class FakePixelStrip:
    """Records what rpi_ws281x's PixelStrip would have been asked to do."""

    instances: ClassVar[list[FakePixelStrip]] = []

    def __init__(self, num: int, pin: int, freq_hz: int = 800_000, dma: int = 10,
                 invert: bool = False, brightness: int = 255, channel: int = 0,
                 strip_type: int | None = None, gamma: Any = None) -> None:
        self.args = dict(num=num, pin=pin, freq_hz=freq_hz, dma=dma, invert=invert,
                         brightness=brightness, channel=channel, strip_type=strip_type)
        self.began = False
        self.pixels = [0] * num
        self.shown: list[list[int]] = []
        FakePixelStrip.instances.append(self)

    def begin(self) -> None:
        self.began = True

    def setPixelColor(self, n: int, color: int) -> None:
        self.pixels[n] = color

    def show(self) -> None:
        self.shown.append(list(self.pixels))


def fake_rpi_ws281x() -> types.ModuleType:
    """A module that looks like `rpi_ws281x` from the outside."""
    module = types.ModuleType("rpi_ws281x")
    module.__spec__ = importlib.machinery.ModuleSpec("rpi_ws281x", None)
    module.PixelStrip = FakePixelStrip  # type: ignore[attr-defined]
    module.Color = lambda red, green, blue, white=0: (  # type: ignore[attr-defined]
        (white << 24) | (red << 16) | (green << 8) | blue)
    module.ws = types.SimpleNamespace(  # type: ignore[attr-defined]
        WS2811_STRIP_RGB=WS2811_STRIP_RGB, WS2811_STRIP_GRB=WS2811_STRIP_GRB)
    FakePixelStrip.instances = []
    return module


class FakePi5Neo:
    """Records what pi5neo's Pi5Neo (1.1 signature) would have been asked to do."""

    instances: ClassVar[list[FakePi5Neo]] = []

    def __init__(self, spi_device: str = "/dev/spidev0.0", num_leds: int = 10,
                 max_brightness: int = 100, spi_speed_khz: int = 800, pixel_type: Any = None,
                 quiet_mode: bool = False) -> None:
        self.spi_device, self.num_leds = spi_device, num_leds
        self.spi_speed_khz, self.quiet_mode = spi_speed_khz, quiet_mode
        self.leds = [(0, 0, 0)] * num_leds
        self.updates: list[tuple[list[tuple[int, int, int]], Any]] = []
        FakePi5Neo.instances.append(self)

    def set_led_color(self, index: int, red: int, green: int, blue: int, white: int = 0) -> bool:
        self.leds[index] = (red, green, blue)
        return True

    def update_strip(self, sleep_duration: Any = 0.1) -> None:
        self.updates.append((list(self.leds), sleep_duration))


class OldFakePi5Neo(FakePi5Neo):
    """pi5neo 1.0: no quiet mode, and update_strip takes no arguments."""

    def __init__(self, spi_device: str = "/dev/spidev0.0", num_leds: int = 10,
                 spi_speed_khz: int = 800) -> None:
        super().__init__(spi_device, num_leds, spi_speed_khz=spi_speed_khz)

    def update_strip(self) -> None:  # type: ignore[override]
        self.updates.append((list(self.leds), "no-argument"))


def fake_pi5neo(cls: type[FakePi5Neo] = FakePi5Neo) -> types.ModuleType:
    """A module that looks like `pi5neo` from the outside."""
    module = types.ModuleType("pi5neo")
    module.__spec__ = importlib.machinery.ModuleSpec("pi5neo", None)
    module.Pi5Neo = cls  # type: ignore[attr-defined]
    FakePi5Neo.instances = []
    return module
