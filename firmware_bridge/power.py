"""Power and comfort: the gamma table and the current budget of a frame.

Estimated draw of a WS2812B: about 20 mA per colour channel at full duty (60 mA for a white
LED) plus about 1 mA when dark. A frame above the budget is scaled down, all LEDs alike, until
its estimate fits.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_bridge.colors import Rgb
from firmware_bridge.config import IDLE_MA_PER_LED, MA_PER_CHANNEL


def gamma_table(gamma: float) -> tuple[int, ...]:
    """256 output levels: level `i` is `255 · (i/255)^gamma`, rounded; gamma 1.0 is identity."""
    if gamma <= 0:
        raise ValueError(f"gamma {gamma!r} must be positive")
    return tuple(round(255 * (i / 255) ** gamma) for i in range(256))


def estimate_ma(pixels: Sequence[Rgb]) -> float:
    """Estimated current of a strip showing `pixels` (one entry per LED, dark ones included)."""
    duty = sum(r + g + b for r, g, b in pixels)
    return duty * (MA_PER_CHANNEL / 255) + len(pixels) * IDLE_MA_PER_LED


def fit_budget(pixels: Sequence[Rgb], budget_ma: float) -> list[Rgb]:
    """`pixels` scaled down evenly so that `estimate_ma` stays within `budget_ma`.

    A frame already within the budget comes back unchanged. Levels are rounded down, so the
    result never exceeds the budget. `ValueError` if even a dark strip would exceed it.
    """
    idle = len(pixels) * IDLE_MA_PER_LED
    if budget_ma < idle:
        raise ValueError(f"budget {budget_ma:g} mA is below the idle draw {idle:g} mA")
    duty = sum(r + g + b for r, g, b in pixels)
    active = duty * (MA_PER_CHANNEL / 255)
    if active + idle <= budget_ma:
        return list(pixels)
    factor = (budget_ma - idle) / active
    return [(int(r * factor), int(g * factor), int(b * factor)) for r, g, b in pixels]
