"""How sharp a frame is: the blur that turns the markers' printed pattern into what it shows.

Each marker's black cells and white quiet zone are known exactly, and the board fit says where
they lie in the frame. Drawn into the frame's pixels (each pixel the share of it that is
black), blurred by a Gaussian of width σ and matched to the frame's brightness by least squares
(a level for white, one for black and one for the board beyond the quiet zone, whose look is
not known), the pattern fits the frame best at the camera's blur. In focus that is about half
a pixel (the pixels themselves and the lens); a camera out of focus spreads every edge wider.
"""

from __future__ import annotations

import cv2
import numpy as np

from hw import BoardProfile, Marker
from vision.locate import BoardFit
from vision.markers import QUIET_ZONE_CELLS, marker_bits

SUBPIXELS = 4  # each pixel's black share is taken from this many points per side
SIGMAS_PX = np.arange(0.0, 4.01, 0.125)  # the blurs tried, in pixels
PAD_PX = 12  # the drawn pattern reaches this far beyond the quiet zone (the widest blur's 3 σ)
GAMMA = 2.2  # frames are gamma encoded; blur mixes light, so the fit is made in linear light
LEAST_CONTRAST = 0.5  # black darker than white by this share of white's light: a marker seen
LEAST_FIT = 0.8  # share of the brightness variance the blurred pattern must explain


def marker_blur(image: np.ndarray, profile: BoardProfile, fit: BoardFit,
                ) -> tuple[float, float] | None:
    """The frame's blur (Gaussian σ, `SIGMAS_PX` refined between steps) in pixels and in board
    mm (each marker's pixels by its own scale): the medians over the markers of ``fit`` whose
    pattern the frame shows (`LEAST_CONTRAST`, `LEAST_FIT`); None when it shows none."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    markers = {marker.id: marker for marker in profile.markers}
    blurs = []
    for marker in (markers[i] for i in fit.markers if i in markers):
        blur_px = _marker_blur(grey, marker, fit)
        if blur_px is not None:
            blurs.append((blur_px, blur_px / _pixels_per_mm(marker, fit)))
    if not blurs:
        return None
    in_px, in_mm = np.median(np.array(blurs), axis=0)
    return float(in_px), float(in_mm)


def _pixels_per_mm(marker: Marker, fit: BoardFit) -> float:
    """The frame's scale at a marker: its four sides' mean length in pixels over its size."""
    half = marker.size / 2
    corners = fit.project(np.array([(marker.x + dx * half, marker.y + dy * half)
                                    for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]))
    sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
    return float(sides.mean() / marker.size)


def _marker_blur(grey: np.ndarray, marker: Marker, fit: BoardFit) -> float | None:
    drawn = _drawn_pattern(grey.shape, marker, fit)
    if drawn is None:
        return None
    (top, left), black, beyond = drawn
    window = grey[top:top + black.shape[0], left:left + black.shape[1]]
    seen = ((window.astype(np.float32) / 255.0) ** GAMMA).reshape(-1)
    inside = beyond.reshape(-1) < 0.5
    residuals = []
    for sigma in SIGMAS_PX:
        design = np.column_stack([np.ones(inside.sum()), _blurred(black, sigma)[inside],
                                  _blurred(beyond, sigma)[inside]])
        levels, *_ = np.linalg.lstsq(design, seen[inside], rcond=None)
        residuals.append((float(((design @ levels - seen[inside]) ** 2).sum()), levels))
    costs = np.array([cost for cost, _ in residuals])
    best = int(costs.argmin())
    white, black_below_white = residuals[best][1][:2]
    contrast = -black_below_white / white if white > 0 else 0.0
    variance = float(seen[inside].var() * inside.sum())
    if contrast < LEAST_CONTRAST or costs[best] > (1 - LEAST_FIT) * variance:
        return None
    return _refined(SIGMAS_PX, costs, best)


def _drawn_pattern(shape: tuple[int, ...], marker: Marker, fit: BoardFit,
                   ) -> tuple[tuple[int, int], np.ndarray, np.ndarray] | None:
    """The marker drawn into the frame's pixels around it: the window's top-left pixel, each
    pixel's share of black and its share beyond the quiet zone (the window reaches `PAD_PX`
    beyond it, as far as the frame goes); None if the quiet zone leaves the frame."""
    bits = marker_bits(marker)
    cells = bits.shape[0]
    cell_mm = marker.size / cells
    reach = marker.size / 2 + QUIET_ZONE_CELLS * cell_mm
    outline = fit.project(np.array([(marker.x + dx * reach, marker.y + dy * reach)
                                    for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]))
    left, top = np.floor(outline.min(axis=0)).astype(int)
    right, bottom = np.ceil(outline.max(axis=0)).astype(int)
    if left < 0 or top < 0 or right > shape[1] or bottom > shape[0]:
        return None
    left, top = max(left - PAD_PX, 0), max(top - PAD_PX, 0)
    right, bottom = min(right + PAD_PX, shape[1]), min(bottom + PAD_PX, shape[0])
    steps = (np.arange(SUBPIXELS) + 0.5) / SUBPIXELS - 0.5
    xs = (np.arange(left, right)[:, None] + steps).reshape(-1)
    ys = (np.arange(top, bottom)[:, None] + steps).reshape(-1)
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    ideal = grid if fit.lens is None else fit.lens.ideal(grid)
    board = cv2.perspectiveTransform(ideal.reshape(-1, 1, 2).astype(np.float64),
                                     np.linalg.inv(fit.homography)).reshape(-1, 2)
    column = (board[:, 0] - (marker.x - marker.size / 2)) / cell_mm
    row = ((marker.y + marker.size / 2) - board[:, 1]) / cell_mm
    on_marker = (column >= 0) & (column < cells) & (row >= 0) & (row < cells)
    black = np.zeros(len(grid))
    black[on_marker] = bits[row[on_marker].astype(int), column[on_marker].astype(int)]
    quiet = QUIET_ZONE_CELLS
    beyond = ((column < -quiet) | (column >= cells + quiet)
              | (row < -quiet) | (row >= cells + quiet)).astype(float)
    size = (bottom - top, right - left)
    return (int(top), int(left)), _pixel_shares(black, size), _pixel_shares(beyond, size)


def _pixel_shares(values: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The mean of each pixel's `SUBPIXELS` × `SUBPIXELS` sample points."""
    height, width = size
    shares = values.reshape(height, SUBPIXELS, width, SUBPIXELS).mean(axis=(1, 3))
    return np.asarray(shares, np.float32)


def _blurred(plane: np.ndarray, sigma: float) -> np.ndarray:
    if sigma <= 0:
        return plane.reshape(-1)
    return np.asarray(cv2.GaussianBlur(plane, (0, 0), sigma,
                                       borderType=cv2.BORDER_REPLICATE)).reshape(-1)


def _refined(values: np.ndarray, costs: np.ndarray, best: int) -> float:
    """The minimum of the parabola through the best cost and its neighbours."""
    if best == 0 or best == len(costs) - 1:
        return float(values[best])
    before, at, after = costs[best - 1:best + 2]
    curvature = before - 2 * at + after
    step = float(values[1] - values[0])
    offset = 0.5 * (before - after) / curvature if curvature > 0 else 0.0
    return float(values[best] + offset * step)
