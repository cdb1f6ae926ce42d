"""Colours as the LEDs show them: names, `#rrggbb` and RGB triples, and shades of one colour."""

from __future__ import annotations

import colorsys
from collections.abc import Sequence

Rgb = tuple[int, int, int]
"""One LED colour: red, green, blue, each 0…255."""

ColorLike = str | Sequence[int]
"""A colour name (`"green"`), `"#00ff00"`, or an RGB triple."""

Frame = dict[int, Rgb]
"""LED index → colour; LEDs not in a frame are dark."""

OFF: Rgb = (0, 0, 0)

NAMED: dict[str, Rgb] = {
    "red": (255, 0, 0),
    "yellow": (255, 170, 0),
    "green": (0, 255, 0),
    "blue": (0, 60, 255),
    "white": (255, 255, 255),
    # A black marble's seat cannot glow black: the strip shows it in violet.
    "black": (140, 0, 255),
    "orange": (255, 80, 0),
    "purple": (140, 0, 255),
    "violet": (140, 0, 255),
    "cyan": (0, 255, 255),
    "magenta": (255, 0, 200),
    "pink": (255, 60, 120),
    "off": OFF,
}
"""Colour names understood everywhere, including the default seat colours of both boards."""


def to_rgb(color: ColorLike) -> Rgb:
    """The RGB triple of a colour name, `#rrggbb` string or triple; `ValueError` if it is none."""
    if isinstance(color, str):
        text = color.strip().lower()
        if text in NAMED:
            return NAMED[text]
        if text.startswith("#") and len(text) == 7:
            try:
                return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))
            except ValueError:
                pass
        known = ", ".join(sorted(NAMED))
        raise ValueError(f"unknown colour {color!r} (use #rrggbb or one of: {known})")
    values = tuple(color)
    if len(values) != 3 or not all(isinstance(v, int) and 0 <= v <= 255 for v in values):
        raise ValueError(f"colour {color!r} is not three integers 0…255")
    return (values[0], values[1], values[2])


def scale(color: Rgb, factor: float) -> Rgb:
    """`color` dimmed (or brightened, capped at 255) by `factor`."""
    return (
        min(255, round(color[0] * factor)),
        min(255, round(color[1] * factor)),
        min(255, round(color[2] * factor)),
    )


def blend(colors: Sequence[Rgb]) -> Rgb:
    """The average of several colours (used where two effects light the same LED)."""
    if not colors:
        return OFF
    n = len(colors)
    return (
        round(sum(c[0] for c in colors) / n),
        round(sum(c[1] for c in colors) / n),
        round(sum(c[2] for c in colors) / n),
    )


def shades(color: Rgb, count: int) -> list[Rgb]:
    """`count` shades of one colour that tell apart on a strip: hue nudged, lightness stepped.

    The first shade is the colour itself; a 7 shows each marble's reach in its own shade.
    """
    if count < 1:
        return []
    hue, lightness, saturation = colorsys.rgb_to_hls(*(c / 255 for c in color))
    result = [color]
    for i in range(1, count):
        step = (i + 1) // 2 * (1 if i % 2 else -1)
        h = (hue + 0.04 * step) % 1.0
        light = min(0.85, max(0.2, lightness + 0.12 * step))
        r, g, b = colorsys.hls_to_rgb(h, light, saturation)
        result.append((round(r * 255), round(g * 255), round(b * 255)))
    return result
