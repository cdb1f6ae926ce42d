"""What is printed on a board, as an RGBA texture for the path tracer.

The seat-coloured bands under the kennels, rings around start and home fields, the groove along
the track, the maker's ring in the middle, optionally a ring around every track hole, and the
ArUco marker stickers with their white quiet zone. Paint wears off with the board's `wear`
(the stickers stay). Rows run from the board's bottom edge (-y) up, as Blender stores images;
colours are linear.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.markers import marker_bits

if TYPE_CHECKING:
    from hw import BoardProfile

PAINT_RGB = {
    "red": (0.55, 0.03, 0.03), "yellow": (0.85, 0.58, 0.02), "green": (0.03, 0.28, 0.05),
    "blue": (0.02, 0.08, 0.42), "white": (0.82, 0.82, 0.8), "black": (0.02, 0.02, 0.02),
}
GROOVE_RGB = (0.05, 0.03, 0.02)
PAPER_RGB = (0.8, 0.8, 0.78)
INK_RGB = (0.015, 0.015, 0.015)
QUIET_ZONE_CELLS = 1.5


def board_print(profile: BoardProfile, px_per_mm: float, wear: float, printed_rings: bool,
                seed: int) -> np.ndarray:
    """The (H, W, 4) float32 RGBA print of `profile` at `px_per_mm`."""
    width, height = (round(v * px_per_mm) for v in profile.board_mm)
    rgb = np.zeros((height, width, 3), np.float32)
    alpha = np.zeros((height, width), np.float32)

    def px(points: list[tuple[float, float]]) -> np.ndarray:
        pts = np.array(points, dtype=np.float64).reshape(-1, 2)
        cols = (pts[:, 0] + profile.board_mm[0] / 2) * px_per_mm
        rows = (pts[:, 1] + profile.board_mm[1] / 2) * px_per_mm
        fixed: np.ndarray = np.round(np.c_[cols, rows] * 16).astype(np.int32)
        return fixed  # 4 fractional bits

    def paint(colour: tuple[float, float, float], strength: float,
              draw: Callable[[np.ndarray], object]) -> None:
        """Draw a mask (255: paint), then lay the colour over the print where it is."""
        mask = np.zeros((height, width), np.uint8)
        draw(mask)
        rows, cols = np.nonzero(mask)
        share = mask[rows, cols].astype(np.float32)[:, None] / 255 * strength
        rgb[rows, cols] = rgb[rows, cols] * (1 - share) + np.array(colour, np.float32) * share
        alpha[rows, cols] = np.maximum(alpha[rows, cols], share[:, 0])

    def line(points: list[tuple[float, float]], closed: bool,
             thickness_mm: float) -> Callable[[np.ndarray], None]:
        def draw(mask: np.ndarray) -> None:
            cv2.polylines(mask, [px(points)], closed, 255,
                          max(1, round(thickness_mm * px_per_mm)), cv2.LINE_AA, 4)
        return draw

    def rings(centres: np.ndarray, radius_mm: float,
              thickness_mm: float) -> Callable[[np.ndarray], None]:
        def draw(mask: np.ndarray) -> None:
            for centre in centres:
                cv2.circle(mask, (int(centre[0]), int(centre[1])),
                           round(radius_mm * px_per_mm * 16), 255,
                           max(1, round(thickness_mm * px_per_mm)), cv2.LINE_AA, 4)
        return draw

    hole_r = profile.hole_diameter_mm / 2
    track = [(h.x, h.y) for h in profile.holes if h.kind == "track"]
    paint(GROOVE_RGB, 0.45, line(track, True, 1.4))
    for seat in range(profile.seats):
        colour = PAINT_RGB.get(profile.default_colors[seat], (0.3, 0.3, 0.3))
        kennel = [(h.x, h.y) for h in profile.holes if h.kind == "kennel" and h.seat == seat]
        ringed = [(h.x, h.y) for h in profile.holes
                  if h.seat == seat and h.kind in ("home", "track")]
        if kennel:
            paint(colour, 0.75, line(kennel, False, 2 * (hole_r + 7)))
        if ringed:
            paint(colour, 0.9, rings(px(ringed), hole_r + 3.2, 2.2))
    if printed_rings:
        paint(GROOVE_RGB, 0.7, rings(px(track), hole_r + 2.0, 1.0))
    logo = min(profile.board_mm) * 0.09
    paint((0.12, 0.05, 0.02), 0.5, rings(px([(0.0, 0.0)]), logo, 1.5))
    if wear > 0:
        alpha *= 1 - wear * _wear_pattern(np.random.default_rng([seed, 3]), (height, width))
    for marker in profile.markers:
        _stick_marker(rgb, alpha, marker_bits(marker), marker.x, marker.y, marker.size,
                      profile.board_mm, px_per_mm)
    return np.dstack([rgb, alpha])


def _wear_pattern(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """0…1 per pixel, how much paint is gone: blotches and scratches."""
    blotches = cv2.resize(rng.random((12, 12)).astype(np.float32), shape[::-1],
                          interpolation=cv2.INTER_CUBIC)
    fine = cv2.resize(rng.random((shape[0] // 6, shape[1] // 6)).astype(np.float32),
                      shape[::-1], interpolation=cv2.INTER_LINEAR)
    return np.clip(0.8 * blotches + 0.5 * fine - 0.35, 0, 1)


def _stick_marker(rgb: np.ndarray, alpha: np.ndarray, bits: np.ndarray, x_mm: float,
                  y_mm: float, size_mm: float, board_mm: tuple[float, float],
                  px_per_mm: float) -> None:
    """A marker sticker, its top row toward +y (the highest rows of the texture)."""
    cells = bits.shape[0]
    cell_mm = size_mm / cells
    quiet = QUIET_ZONE_CELLS * cell_mm
    left = (x_mm - size_mm / 2 + board_mm[0] / 2) * px_per_mm
    bottom = (y_mm - size_mm / 2 + board_mm[1] / 2) * px_per_mm
    q = quiet * px_per_mm
    r0, r1 = round(bottom - q), round(bottom + size_mm * px_per_mm + q)
    c0, c1 = round(left - q), round(left + size_mm * px_per_mm + q)
    rgb[r0:r1, c0:c1] = PAPER_RGB
    alpha[r0:r1, c0:c1] = 1.0
    upward = bits[::-1]  # row 0 of the bits is the marker's top edge
    for row, col in zip(*np.nonzero(upward), strict=True):
        rows = slice(round(bottom + row * cell_mm * px_per_mm),
                     round(bottom + (row + 1) * cell_mm * px_per_mm))
        cols = slice(round(left + col * cell_mm * px_per_mm),
                     round(left + (col + 1) * cell_mm * px_per_mm))
        rgb[rows, cols] = INK_RGB
