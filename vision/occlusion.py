"""Hands, arms, cards and other things over the board: which holes they hide.

The bare board between the holes is sampled on a grid (every few millimetres, away from holes,
markers and the edge) and compared with the same points in the reference frame. Light that
changed over the whole board (level, colour temperature) is taken out as the median change;
what remains should look like light too: shadows and gradients darken or brighten the colour
channels alike. Points whose colour changed beyond that, or that became much brighter or
darker than any shadow, are *foreign*; foreign regions large enough to be a finger or a card
(small specks are noise) are grown by a margin, and every hole they touch is hidden.
Independently a hole whose centre looks like no known class, or like flat surface where a
dimple or a marble should be, is hidden. Without a reference frame only the last test works.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from hw import BoardProfile

GRID_MM = 5.0  # spacing of the surface sample points
SHRINK_HALVINGS = 2  # the frame is halved this often before sampling the surface
SHRINK = 2 ** SHRINK_HALVINGS
HOLE_CLEARANCE_MM = 12.5  # surface points closer than this to a hole centre are skipped
EDGE_MM = 8.0  # nor within this of the board's edge
CHROMA_LIMIT = 0.10  # log colour change beyond a neutral (shadow-like) change
NOISE_FACTOR = 4.0  # and beyond this many times the typical change of the whole board
WEAK_SHARE = 0.6  # a foreign region extends over points this share of the colour limit
WEAK_NOISE_FACTOR = 2.5  # or this many times the typical change
BRIGHTER_LIMIT = 9.0  # log brightness gain beyond the board-wide change
DARKER_LIMIT = -1.6  # deeper than any shadow
MIN_REGION_MM2 = 125.0  # smaller foreign regions are noise or a glint
GLINT_SCALE_MM = 40.0  # a glint is brighter than the board this far around it ...
GLINT_LIMIT = 0.08  # ... by this much (log brightness)
RING_REACH_MM = 12.0  # a changed ring stands for this much board around its hole
MARGIN_MM = 10.0  # foreign regions grow by this before they hide a hole
HOLE_REACH_MM = 9.0  # a hole is hidden when a grown region comes this close to its centre
DRIFT_SUBSAMPLE = 5  # every so many surface points estimate the board-wide light change
_LOG_OFFSET = 4.0
CLIPPED_LOG = float(np.log(235 + _LOG_OFFSET))  # samples this bright may be overexposed


@dataclass(frozen=True)
class SurfaceGrid:
    """Sample points of the bare board: a regular grid in board mm (rows run toward -y) of
    which only the points away from holes, markers and the edge are used."""

    shape: tuple[int, int]
    points_mm: np.ndarray  # (M, 1, 2) the usable points
    cells: tuple[np.ndarray, np.ndarray]  # their (rows, cols) in the grid
    hole_cells: np.ndarray  # (N, 2) grid (row, col) of each hole centre, fractional

    @property
    def ring_cells(self) -> tuple[np.ndarray, np.ndarray]:
        """Grid (rows, cols) of the hole centres, rounded into the grid."""
        rows = np.clip(np.round(self.hole_cells[:, 0]).astype(int), 0, self.shape[0] - 1)
        cols = np.clip(np.round(self.hole_cells[:, 1]).astype(int), 0, self.shape[1] - 1)
        return rows, cols

    @classmethod
    def for_profile(cls, profile: BoardProfile) -> SurfaceGrid:
        """The grid of one board profile."""
        half_w, half_h = profile.board_mm[0] / 2 - EDGE_MM, profile.board_mm[1] / 2 - EDGE_MM
        xs = np.arange(-half_w, half_w + 1e-9, GRID_MM)
        ys = np.arange(half_h, -half_h - 1e-9, -GRID_MM)
        xx, yy = np.meshgrid(xs, ys)
        centres = np.array([(hole.x, hole.y) for hole in profile.holes])
        usable = np.ones(xx.shape, bool)
        for x, y in centres:
            usable &= (xx - x) ** 2 + (yy - y) ** 2 >= HOLE_CLEARANCE_MM ** 2
        for marker in profile.markers:
            reach = marker.size * 0.75 + GRID_MM
            usable &= ~((np.abs(xx - marker.x) < reach) & (np.abs(yy - marker.y) < reach))
        rows, cols = np.nonzero(usable)
        points = np.stack([xx[rows, cols], yy[rows, cols]], axis=1).reshape(-1, 1, 2)
        hole_cells = np.column_stack([(ys[0] - centres[:, 1]) / GRID_MM,
                                      (centres[:, 0] - xs[0]) / GRID_MM])
        return cls(xx.shape, points, (rows, cols), hole_cells)

    def sample(self, image: np.ndarray, homography: np.ndarray) -> np.ndarray:
        """(M, 3) float32 log colour of the image around every usable grid point.

        The image is first shrunk by `SHRINK` (box average): each sample then averages a few
        pixels, which keeps sensor noise and JPEG blocks from looking like a change.
        """
        small = image
        for _ in range(SHRINK_HALVINGS):  # each halving averages 2 x 2 pixels
            small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2),
                               interpolation=cv2.INTER_LINEAR)
        to_small = np.diag([1 / SHRINK, 1 / SHRINK, 1.0]) @ homography
        pixels = cv2.perspectiveTransform(self.points_mm, to_small)
        pixels += (1 / SHRINK - 1) / 2  # pixel centres: small (0, 0) is the big (1.5, 1.5)
        values = cv2.remap(small, pixels.astype(np.float32), None, cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
        return np.log(values.reshape(-1, 3).astype(np.float32) + _LOG_OFFSET)


def glinting(grid: SurfaceGrid, reference: np.ndarray, rings: np.ndarray) -> np.ndarray:
    """Points of a reference frame (grid points, then hole rings) lit by a glint: brighter
    than the board around them. Comparisons there mean little, so they are skipped."""
    level = np.full(grid.shape, np.nan, np.float32)
    level[grid.cells] = reference.mean(axis=1)
    known = (~np.isnan(level)).astype(np.float32)
    sigma = GLINT_SCALE_MM / GRID_MM
    total = cv2.GaussianBlur(np.nan_to_num(level), (0, 0), sigma)
    weight = cv2.GaussianBlur(known, (0, 0), sigma)
    around = total / np.maximum(weight, 1e-3)
    points = reference.mean(axis=1) - around[grid.cells] > GLINT_LIMIT
    ring_points = rings.mean(axis=1) - around[grid.ring_cells] > GLINT_LIMIT
    return np.concatenate([points, ring_points])


def foreign_regions(grid: SurfaceGrid, surface: np.ndarray, reference: np.ndarray,
                    rings: tuple[np.ndarray, np.ndarray] | None = None,
                    skip: np.ndarray | None = None) -> np.ndarray:
    """(H, W) bool grid: covered by something that is not the board, grown by a margin.

    ``rings`` (now, reference): the board colour around every hole (log, as the surface);
    between the holes of a track there is little bare board, and a finger along the track
    shows mostly there. ``skip``: points (grid, then rings) not to judge, see `glinting`.
    """
    residual = surface - reference
    residual -= np.median(residual[::DRIFT_SUBSAMPLE], axis=0)
    if rings is not None:
        # Rings are upper quartiles, not averages: noise biases them differently, hence
        # their own board-wide change.
        ring_change = rings[0] - rings[1]
        residual = np.concatenate([residual, ring_change - np.median(ring_change, axis=0)])
        surface = np.concatenate([surface, rings[0]])
        reference = np.concatenate([reference, rings[1]])
    # A channel overexposed in either frame says little: let it follow the others.
    clipped = np.maximum(surface, reference) >= CLIPPED_LOG
    if clipped.any():
        seen = (~clipped).sum(axis=1)
        mean_seen = np.where(clipped, 0.0, residual).sum(axis=1) / np.maximum(seen, 1)
        residual = np.where(clipped, mean_seen[:, None], residual)
    brightness = residual.mean(axis=1)
    neutral = residual - brightness[:, None]
    # Glare adds white light: on a coloured board it pales the colour along a known direction
    # (most in the board's darkest channel); a glint in the reference deepens it. Colour change
    # along that direction does not count (JPEG's colour noise also lies much along it).
    glare = 1.0 / (np.exp(reference) + 1.0)
    glare -= glare.mean(axis=1, keepdims=True)
    glare /= np.sqrt((glare * glare).sum(axis=1, keepdims=True)) + 1e-6
    neutral -= (neutral * glare).sum(axis=1, keepdims=True) * glare
    chroma = np.sqrt((neutral * neutral).sum(axis=1))
    # Sensor noise alone changes colours, the more the darker a spot (in log units it goes with
    # 1 / level): never flag less than it explains. Its size is measured on the frame itself.
    level = np.exp(np.minimum(surface, reference).mean(axis=1))
    noise = 1.4826 * np.median((chroma * level)[::DRIFT_SUBSAMPLE]) / level
    limits = (DARKER_LIMIT, BRIGHTER_LIMIT)
    strong = _changed(chroma, brightness, np.maximum(CHROMA_LIMIT, NOISE_FACTOR * noise), limits)
    weak = _changed(chroma, brightness,
                    np.maximum(CHROMA_LIMIT * WEAK_SHARE, WEAK_NOISE_FACTOR * noise), limits)
    if skip is not None:
        strong &= ~skip[:len(strong)]
        weak &= ~skip[:len(weak)]
    # A region counts if it is large and somewhere clearly changed (hysteresis, as in Canny).
    points = len(grid.cells[0])
    mask = np.zeros(grid.shape, np.uint8)
    mask[grid.cells] = weak[:points]
    rows, cols = grid.ring_cells
    seeds = np.zeros(grid.shape, bool)
    seeds[grid.cells] = strong[:points]
    if rings is not None:
        ring_disc = round(RING_REACH_MM / GRID_MM)
        for row, col, changed, sure in zip(rows, cols, weak[points:], strong[points:],
                                           strict=True):
            if changed:
                cv2.circle(mask, (int(col), int(row)), ring_disc, 1, -1)
                seeds[row, col] |= sure
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    seeded = np.zeros(count, bool)
    seeded[labels[seeds]] = True
    large = np.zeros(count, np.uint8)
    large[1:] = seeded[1:] & (stats[1:, cv2.CC_STAT_AREA] >= MIN_REGION_MM2 / GRID_MM ** 2)
    radius = round(MARGIN_MM / GRID_MM)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    return cv2.dilate(large[labels], kernel).astype(bool)


def _changed(chroma: np.ndarray, brightness: np.ndarray, chroma_limit: np.ndarray,
             bright_limits: tuple[float, float]) -> np.ndarray:
    """Changed beyond what light does: colour, or brightness beyond glare or shadow."""
    return ((chroma > chroma_limit) | (brightness < bright_limits[0])
            | (brightness > bright_limits[1]))


def holes_touching(grid: SurfaceGrid, region: np.ndarray) -> np.ndarray:
    """Per hole: does the region come within `HOLE_REACH_MM` of its centre?"""
    if not region.any():
        return np.zeros(len(grid.hole_cells), bool)
    distance = cv2.distanceTransform((~region).astype(np.uint8), cv2.DIST_L2, 3)
    return distance[grid.ring_cells] * GRID_MM <= HOLE_REACH_MM
