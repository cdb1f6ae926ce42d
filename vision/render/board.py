"""The empty board seen straight from above: material texture, paint, drilled holes and markers.

Everything here is drawn once per (profile, material, variant, scale) and cached; a frame copies
the cached canvas, adds the marbles and warps it into the camera's view.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from hw import BoardProfile, Marker

MATERIALS = ("wood", "aluminium")

PAINT_BGR = {
    "red": (48, 52, 196), "yellow": (40, 196, 236), "green": (70, 150, 52),
    "blue": (176, 96, 36), "white": (236, 238, 238), "black": (38, 36, 36),
}
_HOLE_LIGHT = np.array([-0.35, 0.45, 0.82])  # fixed lamp direction baked into the hole shading
_LOGO_BGR = (40, 60, 90)
_QUIET_ZONE_MODULES = 1.5  # white paper around a marker, in marker modules


@dataclass(frozen=True)
class BoardCanvas:
    """The board drawn top-down: +y up, `px_per_mm` canvas pixels per board millimetre."""

    image: np.ndarray
    px_per_mm: float
    board_mm: tuple[float, float]

    @property
    def from_board(self) -> np.ndarray:
        """3x3 matrix mapping board mm (x, y, 1) to canvas pixels."""
        s = self.px_per_mm
        w, h = self.board_mm
        return np.array([[s, 0.0, w / 2 * s - 0.5], [0.0, -s, h / 2 * s - 0.5], [0.0, 0.0, 1.0]])

    def to_canvas(self, points_mm: np.ndarray) -> np.ndarray:
        """Canvas pixels of (N, 2) board points."""
        points = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        return np.asarray(points @ self.from_board[:2, :2].T + self.from_board[:2, 2])


@lru_cache(maxsize=32)
def board_canvas(profile: BoardProfile, material: str, variant: int,
                 px_per_mm: float) -> BoardCanvas:
    """The cached, read-only empty board of one material and texture variant."""
    if material not in MATERIALS:
        raise ValueError(f"material {material!r} is not one of {', '.join(MATERIALS)}")
    rng = np.random.default_rng([variant, MATERIALS.index(material)])
    width, height = (round(v * px_per_mm) for v in profile.board_mm)
    canvas = BoardCanvas(np.empty((height, width, 3), np.uint8), px_per_mm, profile.board_mm)
    surface = wood_texture if material == "wood" else aluminium_texture
    image = surface(rng, (height, width), px_per_mm)
    _paint_decorations(image, canvas, profile)
    _drill_holes(image, canvas, profile, material)
    for marker in profile.markers:
        _stick_marker(image, canvas, marker)
    _bevel_edges(image, px_per_mm)
    image.flags.writeable = False
    return BoardCanvas(image, px_per_mm, profile.board_mm)


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int],
                 cells: tuple[int, int]) -> np.ndarray:
    """Zero-mean noise of `shape` that varies over about `cells` (rows, columns) cells."""
    grid = rng.standard_normal((max(2, cells[0]), max(2, cells[1]))).astype(np.float32)
    return cv2.resize(grid, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def wood_texture(rng: np.random.Generator, shape: tuple[int, int],
                 px_per_mm: float) -> np.ndarray:
    """Varnished hardwood: growth rings running along x, fibres, tone variation."""
    height, width = shape
    y_mm = np.arange(height, dtype=np.float32)[:, None] / px_per_mm
    warp = smooth_noise(rng, shape, (5, 3)) * 9 + smooth_noise(rng, shape, (40, 6)) * 1.2
    rings = (0.5 + 0.5 * np.sin(2 * np.pi * (y_mm + warp) / rng.uniform(5, 10))) ** 5
    fibres = smooth_noise(rng, shape, (height // 2, max(2, width // 60)))
    tone = smooth_noise(rng, shape, (3, 3))
    light = np.array([148, 198, 230], np.float32) * rng.uniform(0.8, 1.04)
    light *= np.array([rng.uniform(0.8, 1.05), rng.uniform(0.96, 1.02), 1.0], np.float32)
    dark = light * np.array([0.62, 0.74, 0.84], np.float32)
    mix = np.clip(0.32 * rings + 0.08 * fibres + 0.1 * tone + 0.12, 0, 1)[..., None]
    image = light * (1 - mix) + dark * mix
    return np.clip(image, 0, 255).astype(np.uint8)


def aluminium_texture(rng: np.random.Generator, shape: tuple[int, int],
                      px_per_mm: float) -> np.ndarray:
    """Brushed aluminium: fine streaks along x over a slowly varying sheen."""
    height, width = shape
    streaks = rng.standard_normal((height, 1)).astype(np.float32) * 3.0
    streaks = streaks + smooth_noise(rng, shape, (height, max(2, width // 90))) * 4.0
    sheen = smooth_noise(rng, shape, (2, 4)) * 9.0
    base = np.array([198, 196, 192], np.float32) * rng.uniform(0.88, 1.02)
    image = base + (streaks + sheen)[..., None]
    return np.clip(image, 0, 255).astype(np.uint8)


def _paint_decorations(image: np.ndarray, canvas: BoardCanvas, profile: BoardProfile) -> None:
    """Print seat colours near kennels, start and home fields and engrave the track, in place."""
    paint = np.zeros(image.shape, np.float32)
    alpha = np.zeros(image.shape[:2], np.float32)
    s = canvas.px_per_mm
    hole_r = profile.hole_diameter_mm / 2
    _engrave_track(paint, alpha, canvas, profile)
    for seat in range(profile.seats):
        colour = PAINT_BGR.get(_seat_colour(profile, seat), (120, 120, 120))
        kennel = [h for h in profile.holes if h.kind == "kennel" and h.seat == seat]
        home = [h for h in profile.holes if h.kind == "home" and h.seat == seat]
        start = [h for h in profile.holes if h.kind == "track" and h.seat == seat]
        if kennel:
            pts = _px(canvas, [(h.x, h.y) for h in kennel])
            cv2.polylines(alpha, [pts], False, 0.35, round(2 * (hole_r + 7) * s), cv2.LINE_AA)
            cv2.polylines(paint, [pts], False, colour, round(2 * (hole_r + 7) * s), cv2.LINE_AA)
        for hole in home + start:
            centre = tuple(_px(canvas, [(hole.x, hole.y)])[0])
            ring = round((hole_r + 3.2) * s)
            cv2.circle(alpha, centre, ring, 0.7, max(1, round(2.2 * s)), cv2.LINE_AA)
            cv2.circle(paint, centre, ring, colour, max(1, round(2.2 * s)), cv2.LINE_AA)
    _print_logo(paint, alpha, canvas)
    painted = alpha > 0
    under = image[painted].astype(np.float32)
    grain = np.clip(under / image[::8, ::8].reshape(-1, 3).mean(axis=0), 0.7, 1.2)
    a = alpha[painted][:, None]
    image[painted] = np.clip(under * (1 - a) + paint[painted] * grain * a, 0, 255)


def _engrave_track(paint: np.ndarray, alpha: np.ndarray, canvas: BoardCanvas,
                   profile: BoardProfile) -> None:
    """A thin darker groove joining the track holes in order."""
    track = [h for h in profile.holes if h.kind == "track"]
    width = max(1, round(1.4 * canvas.px_per_mm))
    pts = _px(canvas, [(h.x, h.y) for h in track])
    cv2.polylines(alpha, [pts], True, 0.25, width, cv2.LINE_AA)
    cv2.polylines(paint, [pts], True, (30, 45, 60), width, cv2.LINE_AA)


def _print_logo(paint: np.ndarray, alpha: np.ndarray, canvas: BoardCanvas) -> None:
    """The maker's ring and name in the middle of the board."""
    h, w = alpha.shape
    centre = (w // 2, h // 2)
    radius = round(min(w, h) * 0.09)
    line = max(1, round(1.5 * canvas.px_per_mm))
    cv2.circle(alpha, centre, radius, 0.3, line, cv2.LINE_AA)
    cv2.circle(paint, centre, radius, _LOGO_BGR, line, cv2.LINE_AA)
    scale = radius / 40
    (tw, th), _ = cv2.getTextSize("DOG", cv2.FONT_HERSHEY_TRIPLEX, scale, 2)
    origin = (centre[0] - tw // 2, centre[1] + th // 2)
    text = np.zeros(alpha.shape, np.uint8)
    cv2.putText(text, "DOG", origin, cv2.FONT_HERSHEY_TRIPLEX, scale, 255, max(1, round(scale * 2)),
                cv2.LINE_AA)
    inked = text > 0
    alpha[inked] = text[inked] * (0.3 / 255)
    paint[inked] = _LOGO_BGR


def _drill_holes(image: np.ndarray, canvas: BoardCanvas, profile: BoardProfile,
                 material: str) -> None:
    """Darken every hole like a shallow drilled dimple lit by the room lamp."""
    radius = profile.hole_diameter_mm / 2 * canvas.px_per_mm
    half = int(np.ceil(radius + 3))
    for centre in canvas.to_canvas(np.array([(h.x, h.y) for h in profile.holes])):
        offset = centre - np.round(centre) + half
        factor = hole_shading(radius, (offset[0], offset[1]), 2 * half + 1, material)
        apply_sprite(image, centre, factor, lambda patch, f: patch * f)


def apply_sprite(canvas: np.ndarray, centre_px: np.ndarray, sprite: np.ndarray,
                 combine: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> None:
    """Replace the uint8 canvas patch under an odd-sized square `sprite` centred at
    `centre_px` by `combine(patch as float32, sprite)`; what falls off the canvas is dropped."""
    size = sprite.shape[0]
    x0, y0 = (round(float(c)) - size // 2 for c in centre_px)
    cx0, cy0 = max(x0, 0), max(y0, 0)
    cx1, cy1 = min(x0 + size, canvas.shape[1]), min(y0 + size, canvas.shape[0])
    if cx0 >= cx1 or cy0 >= cy1:
        return
    patch = canvas[cy0:cy1, cx0:cx1].astype(np.float32)
    part = sprite[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
    canvas[cy0:cy1, cx0:cx1] = np.clip(combine(patch, part), 0, 255).astype(np.uint8)


def hole_shading(radius: float, centre: tuple[float, float], size: int,
                 material: str) -> np.ndarray:
    """Per-channel brightness factor of a concave dimple: dark wall toward the lamp, darker
    bottom, a thin rim; drilled wood shows darker, warmer end grain."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    x, y = (xx - centre[0]) / radius, -(yy - centre[1]) / radius
    r = np.sqrt(x * x + y * y)
    z = np.sqrt(np.clip(1 - r * r, 0, 1))
    lit = np.clip(-x * _HOLE_LIGHT[0] - y * _HOLE_LIGHT[1] + z * _HOLE_LIGHT[2], 0, 1)
    depth = 0.32 + 0.3 * lit + 0.18 * r
    inside = np.clip((1 - r) * radius + 0.5, 0, 1)
    rim_width = 0.9 if material == "wood" else 1.4
    rim = np.clip(1 - np.abs(r - 1 - rim_width / radius / 2) * radius / rim_width, 0, 1)
    rim_light = 0.12 if material == "aluminium" else -0.08
    rim_side = 0.5 + 0.5 * (x * _HOLE_LIGHT[0] + y * _HOLE_LIGHT[1])
    outside = 1 + rim_light * rim * (0.4 + rim_side)
    end_grain = np.array((0.9, 0.94, 1.0) if material == "wood" else (1.0, 1.0, 1.0), np.float32)
    inner = (inside * depth)[..., None] * end_grain
    return np.asarray(inner + ((1 - inside) * outside)[..., None])


def _stick_marker(image: np.ndarray, canvas: BoardCanvas, marker: Marker) -> None:
    """A printed ArUco marker with its white quiet zone, upright (top edge toward +y)."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, marker.dictionary))
    modules = dictionary.markerSize + 2
    module_px = 16
    quiet = round(_QUIET_ZONE_MODULES * module_px)
    sticker = np.full((modules * module_px + 2 * quiet,) * 2, 244, np.uint8)
    code = cv2.aruco.generateImageMarker(dictionary, marker.id, modules * module_px, borderBits=1)
    sticker[quiet:-quiet, quiet:-quiet] = np.maximum(code, 22)
    scale = marker.size / (modules * module_px) * canvas.px_per_mm
    cx, cy = canvas.to_canvas(np.array([[marker.x, marker.y]]))[0]
    mid = (sticker.shape[0] - 1) / 2
    affine = np.array([[scale, 0.0, cx - mid * scale], [0.0, scale, cy - mid * scale]])
    paper = cv2.cvtColor(sticker, cv2.COLOR_GRAY2BGR)
    cv2.warpAffine(paper, affine, image.shape[1::-1], dst=image, flags=cv2.INTER_LINEAR,
                   borderMode=cv2.BORDER_TRANSPARENT)


def _bevel_edges(image: np.ndarray, px_per_mm: float) -> None:
    """Darken a few millimetres along the board's edge, like a rounded bevel."""
    band = max(2, round(4 * px_per_mm))
    ramp = np.linspace(0.72, 1.0, band, dtype=np.float32)
    for axis in (0, 1):
        shape = [1, 1, 1]
        shape[axis] = band
        edge = ramp.reshape(shape)
        lead = [slice(None)] * 3
        lead[axis] = slice(0, band)
        image[tuple(lead)] = (image[tuple(lead)] * edge).astype(np.uint8)
        lead[axis] = slice(-band, None)
        image[tuple(lead)] = (image[tuple(lead)] * np.flip(edge, axis)).astype(np.uint8)


def _seat_colour(profile: BoardProfile, seat: int) -> str:
    return profile.default_colors[seat] if seat < len(profile.default_colors) else "grey"


def _px(canvas: BoardCanvas, points: list[tuple[float, float]]) -> np.ndarray:
    """Integer canvas points for cv2 drawing."""
    return np.round(canvas.to_canvas(np.array(points, dtype=np.float64))).astype(np.int32)
