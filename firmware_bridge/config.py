"""`LedConfig`: which strip backend, how many LEDs, which pin, and how bright, from code or env.

Like gpiozero's `GPIOZERO_PIN_FACTORY`, the environment chooses the hardware:

| variable | meaning | default |
| --- | --- | --- |
| `DOG_LEDS` | `auto`, `ws281x`, `pi5`, `sim` or `none` | `auto` |
| `DOG_LED_COUNT` | LEDs on the strip | the board profile's |
| `DOG_LED_PIN` | GPIO of the data line (ws281x) | 18 |
| `DOG_LED_ORDER` | `GRB` (WS2812B) or `RGB` | `GRB` |
| `DOG_LED_BRIGHTNESS` | 0…1 | 1.0 |
| `DOG_LED_NIGHT` | brightness in night mode, 0…1 | 0.2 |
| `DOG_LED_BUDGET_MA` | current budget of the 5 V supply in mA | 2000 |
| `DOG_LED_GAMMA` | gamma exponent, 1.0 = none | 2.2 |
| `DOG_LED_DMA` | DMA channel (ws281x) | 10 |
| `DOG_LED_SPI` | SPI device (pi5) | `/dev/spidev0.0` |
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

BACKENDS = ("auto", "ws281x", "pi5", "sim", "none")
ORDERS = ("GRB", "RGB")
IDLE_MA_PER_LED = 1.0
"""What a WS2812B draws when dark."""
MA_PER_CHANNEL = 20.0
"""What one colour channel draws at full duty (a white LED: 3 × 20 mA)."""


@dataclass(frozen=True)
class LedConfig:
    """How to drive the LED strip. Every field is checked on construction (`ValueError`)."""

    backend: str = "auto"
    count: int | None = None
    """LEDs on the strip; None takes the board profile's count."""
    pin: int = 18
    order: str = "GRB"
    brightness: float = 1.0
    night_brightness: float = 0.2
    budget_ma: float = 2000.0
    gamma: float = 2.2
    dma: int = 10
    spi_device: str = "/dev/spidev0.0"
    history: int = 64
    """Frames the simulated strip remembers."""

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"LED backend {self.backend!r} is not one of {', '.join(BACKENDS)}")
        if self.count is not None and not (isinstance(self.count, int) and self.count > 0):
            raise ValueError(f"LED count {self.count!r} must be a positive integer")
        if self.order not in ORDERS:
            raise ValueError(f"LED colour order {self.order!r} is not one of {', '.join(ORDERS)}")
        for name in ("brightness", "night_brightness"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"LED {name} {value!r} must be between 0 and 1")
        if not 0.1 <= self.gamma <= 5.0:
            raise ValueError(f"LED gamma {self.gamma!r} must be between 0.1 and 5")
        if self.budget_ma <= 0:
            raise ValueError(f"LED current budget {self.budget_ma!r} mA must be positive")
        if self.count is not None and self.budget_ma <= self.count * IDLE_MA_PER_LED:
            raise ValueError(
                f"LED current budget {self.budget_ma:g} mA is below the idle draw of "
                f"{self.count} LEDs ({self.count * IDLE_MA_PER_LED:g} mA)"
            )
        if self.history < 1:
            raise ValueError(f"LED history {self.history!r} must be at least 1 frame")

    def with_count(self, count: int) -> LedConfig:
        """This configuration for a strip of `count` LEDs, unless a count was set explicitly."""
        return self if self.count is not None else replace(self, count=count)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> LedConfig:
        """The configuration from `DOG_LED*` variables; `overrides` (not None) win over them."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for name, (field_name, parse) in _ENV.items():
            raw = env.get(name, "").strip()
            if raw:
                try:
                    values[field_name] = parse(raw)
                except ValueError:
                    raise ValueError(f"{name}={raw!r} is not a valid {field_name}") from None
        values.update({k: v for k, v in overrides.items() if v is not None})
        unknown = set(values) - {f.name for f in fields(cls)}
        if unknown:
            raise TypeError(f"LedConfig has no field {sorted(unknown)[0]!r}")
        return cls(**values)


_ENV: dict[str, tuple[str, Callable[[str], Any]]] = {
    "DOG_LEDS": ("backend", str.lower),
    "DOG_LED_COUNT": ("count", int),
    "DOG_LED_PIN": ("pin", int),
    "DOG_LED_ORDER": ("order", str.upper),
    "DOG_LED_BRIGHTNESS": ("brightness", float),
    "DOG_LED_NIGHT": ("night_brightness", float),
    "DOG_LED_BUDGET_MA": ("budget_ma", float),
    "DOG_LED_GAMMA": ("gamma", float),
    "DOG_LED_DMA": ("dma", int),
    "DOG_LED_SPI": ("spi_device", str),
}
