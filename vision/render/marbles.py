"""Glass marbles drawn onto the top-down board canvas: drop shadow, body, rim and highlight."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from vision.render.board import apply_sprite

# Body colour of each marble, BGR, as the glass looks over a light board in white light.
MARBLE_BGR = {
    "red": (38, 34, 196), "yellow": (24, 196, 240), "green": (60, 168, 36),
    "blue": (196, 92, 22), "white": (232, 234, 234), "black": (26, 24, 24),
}


def resting_height_mm(marble_diameter_mm: float, hole_diameter_mm: float) -> float:
    """Height above the board of the centre of a marble resting on a hole's rim."""
    return float(np.sqrt(max((marble_diameter_mm / 2) ** 2 - (hole_diameter_mm / 2) ** 2, 0.0)))


def light_vector(azimuth_deg: float, elevation_deg: float) -> np.ndarray:
    """Unit vector toward the lamp in board axes (x right, y up, z toward the camera)."""
    az, el = np.radians(azimuth_deg), np.radians(elevation_deg)
    return np.array([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)])


@lru_cache(maxsize=64)
def marble_sprite(colour: str, radius_px: float, azimuth_deg: int, elevation_deg: int,
                  glare: float) -> tuple[np.ndarray, np.ndarray]:
    """A marble seen from above as (BGR float32 image, coverage alpha), centred in its square.

    Alpha is below 1 near the rim where the glass lets the board show through.
    """
    x, y, r = _disc_coordinates(radius_px)
    z = np.sqrt(np.clip(1 - r * r, 0, 1))
    light = light_vector(azimuth_deg, elevation_deg)
    half_way = light + np.array([0.0, 0.0, 1.0])
    half_way /= np.linalg.norm(half_way)
    facing = np.clip(x * half_way[0] + y * half_way[1] + z * half_way[2], 0, 1)
    body = _body(colour, x, y, z, r, light)
    highlight = glare * (255 * facing ** 90 + 40 * facing ** 12)
    image = body + highlight[..., None]
    see_through = 0.45 if colour in ("red", "yellow", "green", "blue") else 0.15
    alpha = np.clip((1 - r) * radius_px + 0.5, 0, 1) * (1 - see_through * r ** 6)
    return image.astype(np.float32), alpha.astype(np.float32)


def _body(colour: str, x: np.ndarray, y: np.ndarray, z: np.ndarray, r: np.ndarray,
          light: np.ndarray) -> np.ndarray:
    """Diffuse look of the glass without the specular highlight."""
    base = np.array(MARBLE_BGR[colour], np.float32)
    if colour == "black":
        reflection = 0.8 + 0.25 * z + 2.6 * r ** 5
        return base * reflection[..., None]
    if colour == "white":
        milk = 0.6 + 0.4 * z ** 0.8
        grey_rim = np.array([150, 152, 150], np.float32)
        edge = (r ** 4)[..., None]
        return np.asarray(base * milk[..., None] * (1 - edge) + grey_rim * edge)
    glow_x, glow_y = -0.35 * light[0], -0.35 * light[1]
    glow = np.exp(-((x - glow_x) ** 2 + (y - glow_y) ** 2) / 0.18)
    shade = 0.42 + 0.5 * z ** 0.6
    body = base * shade[..., None]
    bright = np.minimum(base * 1.6 + 40, 255)
    return np.asarray(body * (1 - 0.55 * glow[..., None]) + bright * (0.55 * glow[..., None]))


@lru_cache(maxsize=64)
def shadow_sprite(radius_px: float, height_px: float, azimuth_deg: int,
                  elevation_deg: int) -> np.ndarray:
    """Darkening (0 none … 1 black) a marble casts on the board, centred on the marble.

    A sphere `height_px` above the board throws an ellipse stretched away from the lamp by
    1 / sin(elevation), its centre shifted by height / tan(elevation); the edge is soft.
    """
    light = light_vector(azimuth_deg, elevation_deg)
    stretch = 1 / max(light[2], 0.3)
    shift = height_px * np.sqrt(stretch ** 2 - 1)
    reach = (radius_px * stretch + shift) / radius_px + 0.3
    x, y, _ = _disc_coordinates(radius_px * reach)
    x, y = x * reach * radius_px, y * reach * radius_px
    away = -light[:2] / max(np.linalg.norm(light[:2]), 1e-6)
    along = x * away[0] + y * away[1] - shift
    across = -x * away[1] + y * away[0]
    distance = np.sqrt((along / stretch) ** 2 + across ** 2)
    edge = np.clip((radius_px - distance) / (0.45 * radius_px) + 0.5, 0, 1)
    return np.asarray((0.5 * edge).astype(np.float32))


def _disc_coordinates(radius_px: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unit-disc coordinates (x right, y up, r) over a square one pixel larger than the disc."""
    half = int(np.ceil(radius_px)) + 1
    yy, xx = np.mgrid[-half:half + 1, -half:half + 1].astype(np.float32)
    x, y = xx / radius_px, -yy / radius_px
    return x, y, np.sqrt(x * x + y * y)


def draw_marble(canvas: np.ndarray, centre_px: np.ndarray, colour: str, radius_px: float,
                height_px: float, light: tuple[int, int], glare: float,
                tone: np.ndarray, outline: np.ndarray) -> None:
    """Draw one marble, its centre `height_px` above the board, and its drop shadow into a
    uint8 BGR canvas, in place, and where it hides the board into `outline` (uint8, 255 hidden).

    `light` is the lamp's (azimuth, elevation) in whole degrees, `glare` scales the highlight,
    `tone` (BGR factors near 1) makes this marble's glass a little unlike its siblings'.
    """
    shadow = shadow_sprite(radius_px, height_px, light[0], light[1])[..., None]
    tint = 1 - shadow
    if colour in ("red", "yellow", "green", "blue"):
        tint = tint + shadow * 0.6 * (np.array(MARBLE_BGR[colour], np.float32) / 255)
    apply_sprite(canvas, centre_px, tint, lambda patch, t: patch * t)
    image, alpha = marble_sprite(colour, radius_px, light[0], light[1], glare)
    sprite = np.dstack([image * tone, alpha])
    apply_sprite(canvas, centre_px, sprite,
           lambda patch, s: patch * (1 - s[..., 3:]) + s[..., :3] * s[..., 3:])
    apply_sprite(outline, centre_px, 255 * alpha, np.maximum)
