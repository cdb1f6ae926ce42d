"""Hands, arms, cards and other things over the board: where the bare board changed.

The bare board is sampled on a grid between the holes (every few millimetres, away from holes,
markers and the edge) and in a ring around every hole, and compared with the same points of
the reference frame (a `Baseline`, learnt once). Light that changed over the whole board
(level, colour temperature) is taken out as the median change; what remains should look like
light: shadows and gradients darken or brighten the channels alike, glare pales the board's
colour in a known direction. Points whose colour changed beyond that (and beyond the frame's
own noise, at single points and averaged over the points around them), or that became darker
than any shadow, are *foreign*; foreign regions large enough to be a finger or a card count.
Regions much brighter than the board are kept apart: a pale hand on a grey board brightens it
as a lamp does, and counts only where it hides the grain and the dimples of the holes below.
Each hole's distance to them is part of the evidence on which the reader's trust network
decides (`trust`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

import cv2
import numpy as np

from hw import BoardProfile
from vision.locate import BoardFit
from vision.reader.features import LOG_OFFSET

GRID_MM = 5.0  # spacing of the surface sample points (at least)
GRID_CELLS = 100.0  # and at least the board's larger side over this
AVERAGE_MM = 25.0  # colour changes are also judged averaged over squares about this wide
SHRINK_HALVINGS = 2  # the frame is halved this often before sampling the surface
SHRINK = 2 ** SHRINK_HALVINGS
HOLE_CLEARANCE_MM = 12.5  # surface points closer than this to a hole centre are skipped
EDGE_MM = 8.0  # nor within this of the board's edge
OUTSIDE_MM = 12.0  # the table beside the board is sampled this far beyond its edge
ARM_MM = 20.0  # an arm changes that much of the table along the edge at least (noise: spots)
ARM_SEEDS = 2  # ... and of it this many points clearly
# A table darker than this (8-bit level, in either frame) tells no colour: quantisation and
# JPEG blocks change its log colour in runs as long as an arm (seed 2025 case 515, no hand:
# levels 4-24; an arm on seed 31 case 272: 27-32).
DARK_TABLE_LEVEL = 25
CHROMA_LIMIT = 0.10  # log colour change beyond a neutral (shadow-like) change
NOISE_FACTOR = 4.0  # and beyond this many times the typical change of the whole board
WEAK_SHARE = 0.6  # a foreign region extends over points this share of the colour limit
WEAK_NOISE_FACTOR = 2.5  # or this many times the typical change
DARKER_LIMIT = -1.6  # deeper than any shadow
BRIGHTENED_LIMIT = 0.4  # brighter than the board's upper quartile (log): light or a pale thing
MIN_REGION_MM2 = 200.0  # smaller foreign regions are noise or a glint ...
MIN_SEEDS = 3  # ... and so are regions with fewer clearly changed points ...
LARGE_REGION_MM2 = 1000.0  # ... unless they are this large (an arm in dim, noisy light)
STRAY_REGION_MM2 = 2000.0  # smaller regions off the board's edge are no hand (nor a card)
GLARE_SLACK = 0.05  # glare (and JPEG colour noise) may move a grey board's colour this much
GLARE_SHARE = 1.0  # ... plus this share of the board colour's own distance from grey
PALED_LIMIT = 0.3  # log colour change toward white that no light explains
KENNEL_SLACK = 0.06  # log colour change around a full kennel that its marbles explain
GLINT_SCALE_MM = 40.0  # a glint is brighter than the board this far around it ...
GLINT_LIMIT = 0.08  # ... by this much (log brightness)
RING_REACH_MM = 12.0  # a changed ring stands for this much board around its hole
GRAIN_HOLES = 3  # a region over this many holes or more ...
GRAIN_MATCH = 0.6  # ... whose rings show the reference's grain this well (median) is light
DIMPLE_MATCH = 0.9  # ... as is one whose holes' discs show the reference's dimples this well
# A region much brighter than the board hides the dimples of the holes it lies over when their
# discs match the reference's below this (median; path-traced 0389-0630, brightness measured
# against the median change: hands and mugs -0.72 to 0.51 but one at 0.87, lamps switched on or
# moved 0.78 to 0.97).
HIDDEN_DIMPLE_MATCH = 0.65
GRAIN_REACH_MM = 6.0  # the holes within this of a region are the ones it lies over
BLIND_MARGIN = 0.15  # log: how far below clipping a channel must be to tell a colour there
BLIND_MIN_POINTS = 50  # unclipped surface points needed to tell the board's typical colour
PAINT_STEP = 0.25  # log: a blind paint's one unclipped channel, binned this finely, names it
PAINT_MIN_POINTS = 8  # a blind paint's points needed to tell its own colour in a frame
DRIFT_SUBSAMPLE = 5  # every so many surface points estimate the board-wide light change
DRIFT_MIN_SAMPLES = 20  # fewer samples free of overexposure: the change is taken from all
CLIPPED_LOG = float(np.log(235 + LOG_OFFSET))  # samples this bright may be overexposed
_LOG_LEVELS = np.log(np.arange(256, dtype=np.float32) + LOG_OFFSET)  # log of each 8-bit level
_ROW = 256  # surface points per row of the remap
_DARK_TABLE_LOG = float(np.log(DARK_TABLE_LEVEL + LOG_OFFSET))
# pixel offsets averaged around a point beside the board (as a `SHRINK`-fold shrink would)
_BOX_OFFSETS = np.stack(np.meshgrid(np.arange(SHRINK) - (SHRINK - 1) / 2,
                                    np.arange(SHRINK) - (SHRINK - 1) / 2),
                        axis=-1).reshape(-1, 2).astype(np.float32)


@dataclass(frozen=True)
class SurfaceGrid:
    """Sample points of the bare board: a regular grid in board mm (rows run toward -y) of
    which only the points away from holes, markers and the edge are used."""

    shape: tuple[int, int]
    spacing_mm: float
    points_mm: np.ndarray  # (M, 1, 2) the usable points
    cells: tuple[np.ndarray, np.ndarray]  # their (rows, cols) in the grid
    hole_cells: np.ndarray  # (N, 2) grid (row, col) of each hole centre, fractional
    edge: np.ndarray  # (H, W) bool: cells at the board's edge or beside a marker
    outside_mm: np.ndarray  # (E, 2) points on the table, `OUTSIDE_MM` beyond the board's edge
    # their (rows, cols) in the grid padded by one cell: beside the grid's outermost cells
    outside_cells: tuple[np.ndarray, np.ndarray]
    # pixel positions of the last fit and frame size, see `_pixels`
    _pixels_of: dict[tuple[object, ...], tuple[np.ndarray, tuple[slice, slice]]] = (
        field(default_factory=dict, init=False, repr=False, compare=False))
    # pixels averaged around the points beside the board, and which the frame shows, likewise
    _outside_of: dict[tuple[object, ...], tuple[np.ndarray, np.ndarray]] = (
        field(default_factory=dict, init=False, repr=False, compare=False))

    @cached_property
    def ring_cells(self) -> tuple[np.ndarray, np.ndarray]:
        """Grid (rows, cols) of the hole centres, rounded into the grid."""
        rows = np.clip(np.round(self.hole_cells[:, 0]).astype(int), 0, self.shape[0] - 1)
        cols = np.clip(np.round(self.hole_cells[:, 1]).astype(int), 0, self.shape[1] - 1)
        return rows, cols

    @cached_property
    def flat_cells(self) -> np.ndarray:
        """Index of every usable point in the flattened grid."""
        return np.ravel_multi_index(self.cells, self.shape)

    @classmethod
    def for_profile(cls, profile: BoardProfile) -> SurfaceGrid:
        """The grid of one board profile. The camera sees a larger board with fewer pixels per
        mm (it frames the whole board): its grid is coarser, a finer one would sample the same
        pixels of the shrunk frame again."""
        spacing = max(GRID_MM, max(profile.board_mm) / GRID_CELLS)
        half_w, half_h = profile.board_mm[0] / 2 - EDGE_MM, profile.board_mm[1] / 2 - EDGE_MM
        xs = np.arange(-half_w, half_w + 1e-9, spacing)
        ys = np.arange(half_h, -half_h - 1e-9, -spacing)
        xx, yy = np.meshgrid(xs, ys)
        centres = np.array([(hole.x, hole.y) for hole in profile.holes])
        usable = np.ones(xx.shape, bool)
        for x, y in centres:
            usable &= (xx - x) ** 2 + (yy - y) ** 2 >= HOLE_CLEARANCE_MM ** 2
        edge = np.zeros(xx.shape, bool)
        edge[[0, -1], :] = edge[:, [0, -1]] = True
        for marker in profile.markers:
            reach = marker.size * 0.75 + spacing
            off = np.maximum(np.abs(xx - marker.x), np.abs(yy - marker.y))  # square distance
            usable &= off >= reach
            edge |= off < reach + spacing
        rows, cols = np.nonzero(usable)
        points = np.stack([xx[rows, cols], yy[rows, cols]], axis=1).reshape(-1, 1, 2)
        hole_cells = np.column_stack([(ys[0] - centres[:, 1]) / spacing,
                                      (centres[:, 0] - xs[0]) / spacing])
        outside, outside_cells = _outside_points(profile.board_mm, xs, ys)
        return cls(xx.shape, spacing, points, (rows, cols), hole_cells, edge, outside,
                   outside_cells)

    @cached_property
    def average_cells(self) -> int:
        """Width of the `AVERAGE_MM` square in grid cells (odd: centred on its point)."""
        return 2 * round((AVERAGE_MM / self.spacing_mm - 1) / 2) + 1

    def box_sum(self, plane: np.ndarray) -> np.ndarray:
        """Sum over the `average_cells` square around every cell (nothing beyond the grid)."""
        size = (self.average_cells, self.average_cells)
        return cv2.boxFilter(plane, -1, size, normalize=False, borderType=cv2.BORDER_CONSTANT)

    @cached_property
    def _point_of_cell(self) -> np.ndarray:
        """(H * W,): the usable point at each grid cell, M (a zero column) elsewhere."""
        index = np.full(self.shape[0] * self.shape[1], len(self.points_mm), np.intp)
        index[self.flat_cells] = np.arange(len(self.points_mm))
        return index

    @cached_property
    def _average_weight(self) -> np.ndarray:
        """(M,) how many usable points the `average` square around each usable point holds."""
        usable = np.zeros(self.shape, np.float32)
        usable[self.cells] = 1.0
        return np.asarray(self.box_sum(usable).reshape(-1)[self.flat_cells])

    def average(self, values: np.ndarray) -> np.ndarray:
        """(3, M) values of the usable points, each replaced by the mean over the usable points
        in the `AVERAGE_MM` square around it."""
        padded = np.concatenate([values, np.zeros((3, 1), values.dtype)], axis=1)
        # (Gathers: numpy takes many times faster than it scatters.)
        # (The indices are known to be valid: "clip" spares numpy checking them.)
        planes = np.take(padded, self._point_of_cell, axis=1, mode="clip").reshape(3, *self.shape)
        averaged = np.empty_like(values)
        for channel, plane in enumerate(planes):
            total = self.box_sum(plane).reshape(-1)
            averaged[channel] = np.take(total, self.flat_cells, mode="clip") / self._average_weight
        return averaged

    def told_average(self, values: np.ndarray, least: int) -> np.ndarray:
        """(M,) each usable point's ``values`` (M,; NaN: untold) averaged over the told points
        in the `AVERAGE_MM` square around it; NaN where fewer than ``least`` tell."""
        told = np.isfinite(values)
        planes = np.zeros((2, *self.shape), np.float32)
        planes[0][self.cells] = np.where(told, values, 0.0)
        planes[1][self.cells] = told
        total, count = (self.box_sum(plane)[self.cells] for plane in planes)
        return np.where(count >= least, total / np.maximum(count, 1.0), np.nan)

    def parts(self, region: np.ndarray) -> Iterator[np.ndarray]:
        """The connected parts of an (H, W) region."""
        count, labels = cv2.connectedComponents(region.astype(np.uint8), connectivity=8)
        for label in range(1, count):
            yield labels == label

    def grown(self, part: np.ndarray, points: np.ndarray) -> np.ndarray:
        """The (H, W) part with those of the usable ``points`` (indices) that connect to it."""
        joined = part.copy()
        joined[self.cells[0][points], self.cells[1][points]] = True
        _, labels = cv2.connectedComponents(joined.astype(np.uint8), connectivity=8)
        return np.asarray(np.isin(labels, np.unique(labels[part])))

    def sample(self, image: np.ndarray, fit: BoardFit) -> np.ndarray:
        """(M, 3) float32 log colour of an 8-bit BGR image around every usable grid point,
        where ``fit`` puts the board.

        The image is first shrunk by `SHRINK` (box average): each sample then averages a few
        pixels, which keeps sensor noise and JPEG blocks from looking like a change. Only the
        part of the frame around the grid points is shrunk.
        """
        pixels, (rows, cols) = self._pixels(fit, image.shape[:2])
        small = image[rows, cols]
        for _ in range(SHRINK_HALVINGS):  # each halving averages 2 x 2 pixels
            small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2),
                               interpolation=cv2.INTER_LINEAR)
        values = cv2.remap(small, pixels, None, cv2.INTER_LINEAR,  # type: ignore[call-overload, unused-ignore]
                           borderMode=cv2.BORDER_REPLICATE)
        return np.asarray(cv2.LUT(values, _LOG_LEVELS).reshape(-1, 3)[:len(self.points_mm)])

    def sample_outside(self, image: np.ndarray, fit: BoardFit) -> tuple[np.ndarray, np.ndarray]:
        """(E, 3) float32 log colour of an 8-bit BGR image at every point of `outside_mm`, each
        averaged over `SHRINK` x `SHRINK` pixels as `sample` does, and (E,) which of them the
        frame shows."""
        key = (fit.homography.tobytes(), fit.lens, image.shape[:2])
        cached = self._outside_of.get(key)
        if cached is None:
            height, width = image.shape[:2]
            pixels = fit.project(self.outside_mm).astype(np.float32)
            seen = ((pixels[:, 0] >= SHRINK) & (pixels[:, 0] < width - SHRINK)
                    & (pixels[:, 1] >= SHRINK) & (pixels[:, 1] < height - SHRINK))
            cached = (pixels[:, None, :] + _BOX_OFFSETS[None]).reshape(1, -1, 2), seen
            self._outside_of.clear()
            self._outside_of[key] = cached
        spots, seen = cached
        values = cv2.remap(image, spots, None, cv2.INTER_LINEAR,  # type: ignore[call-overload, unused-ignore]
                           borderMode=cv2.BORDER_REPLICATE)
        means = values.reshape(len(seen), -1, 3).astype(np.float32).mean(axis=1)
        return np.log(means + LOG_OFFSET), seen

    def _pixels(self, fit: BoardFit,
                image_shape: tuple[int, ...]) -> tuple[np.ndarray, tuple[slice, slice]]:
        """Where the grid points lie in the shrunk frame, in rows of `_ROW` (float32), and which
        part of the frame (rows, cols) to shrink; kept while the fit and frame size stay the
        same."""
        key = (fit.homography.tobytes(), fit.lens, image_shape)
        cached = self._pixels_of.get(key)
        if cached is None:
            pixels = fit.project(self.points_mm.reshape(-1, 2)) / SHRINK
            pixels += (1 / SHRINK - 1) / 2  # pixel centres: small (0, 0) is the big (1.5, 1.5)
            pixels = pixels.astype(np.float32)
            part = (slice(None), slice(None))
            height, width = image_shape[:2]
            low = np.maximum(np.floor(pixels.min(axis=0)).astype(int) - 1, 0)
            high = np.minimum(np.floor(pixels.max(axis=0)).astype(int) + 2,
                              (width // SHRINK, height // SHRINK))
            if height % SHRINK == 0 and width % SHRINK == 0 and (high > low).all():
                # Shrinking whole blocks of a part gives the same pixels as shrinking the whole
                # frame, and interpolating reads only pixels within it (or beyond the frame).
                pixels -= low.astype(np.float32)  # exact: whole numbers below the points
                part = (slice(low[1] * SHRINK, high[1] * SHRINK),
                        slice(low[0] * SHRINK, high[0] * SHRINK))
            # Long rows: remap handles them much faster than rows of one point.
            cached = np.resize(pixels, (-(-len(pixels) // _ROW), _ROW, 2)), part
            self._pixels_of.clear()
            self._pixels_of[key] = cached
        return cached


def _outside_points(board_mm: tuple[float, float], xs: np.ndarray,
                    ys: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """Points on the table `OUTSIDE_MM` beyond each edge of the board, one beside each of the
    grid's outermost cells (``xs``, ``ys``: its columns' and rows' positions), and their cells
    in the grid padded by one cell."""
    beyond_x, beyond_y = board_mm[0] / 2 + OUTSIDE_MM, board_mm[1] / 2 + OUTSIDE_MM
    columns, rows = np.arange(len(xs)), np.arange(len(ys))
    points = np.concatenate([
        np.column_stack([xs, np.full(len(xs), beyond_y)]),  # above the top row
        np.column_stack([xs, np.full(len(xs), -beyond_y)]),  # below the bottom row
        np.column_stack([np.full(len(ys), -beyond_x), ys]),  # left of the left column
        np.column_stack([np.full(len(ys), beyond_x), ys])])  # right of the right column
    cells = (np.concatenate([np.zeros_like(columns), np.full_like(columns, len(ys) + 1),
                             rows + 1, rows + 1]),
             np.concatenate([columns + 1, columns + 1, np.zeros_like(rows),
                             np.full_like(rows, len(xs) + 1)]))
    return points, cells


def glare_bounds(colours: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For log colours (3, K): the unit direction (3, K) in which added white light moves each
    (most in its darkest channel), and how far along it the light can move it at most (K,).
    White light can pale a colour at most to grey: a grey board's colour hardly moves (there,
    a skin-coloured hand must not pass for glare)."""
    glare = 1.0 / (np.exp(colours) + 1.0)
    glare -= glare.mean(axis=0)
    glare /= np.sqrt((glare * glare).sum(axis=0)) + 1e-6
    own = colours - colours.mean(axis=0)
    saturation = np.sqrt((own * own).sum(axis=0))
    pale = GLARE_SLACK + GLARE_SHARE * saturation
    return glare.astype(np.float32), pale.astype(np.float32)


def blind_paints(reference: np.ndarray, clipped: np.ndarray) -> np.ndarray:
    """(K,) the paint of each point of a reference (log colours (3, K), ``clipped`` (3, K) its
    overexposed channels) overexposed in exactly two channels: which channel is not, and its
    level in steps of `PAINT_STEP` (a coloured band whose light channels clip); -1 elsewhere.
    Points of one paint change alike with the light."""
    shown = np.argmin(clipped, axis=0)
    level = np.floor(reference[shown, np.arange(reference.shape[1])] / PAINT_STEP)
    steps = int(np.ceil(CLIPPED_LOG / PAINT_STEP)) + 1
    paints = shown * steps + np.clip(level, 0, steps - 1).astype(int)
    return np.asarray(np.where(clipped.sum(axis=0) == 2, paints, -1))


def _glinting(grid: SurfaceGrid, reference: np.ndarray, rings: np.ndarray) -> np.ndarray:
    """Points of a reference frame (grid points, then hole rings) lit by a glint: brighter
    than the board around them. Comparisons there mean little, so they are skipped."""
    level = np.full(grid.shape, np.nan, np.float32)
    level[grid.cells] = reference.mean(axis=1)
    known = (~np.isnan(level)).astype(np.float32)
    sigma = GLINT_SCALE_MM / grid.spacing_mm
    total = cv2.GaussianBlur(np.nan_to_num(level), (0, 0), sigma)
    weight = cv2.GaussianBlur(known, (0, 0), sigma)
    around = total / np.maximum(weight, 1e-3)
    points = reference.mean(axis=1) - around[grid.cells] > GLINT_LIMIT
    ring_points = rings.mean(axis=1) - around[grid.ring_cells] > GLINT_LIMIT
    return np.concatenate([points, ring_points])


class Foreign(NamedTuple):
    """What `Baseline.foreign_regions` finds in a frame."""

    region: np.ndarray  # (H, W) bool grid: changed beyond what light does
    brighter: np.ndarray  # (H, W) bool grid: much brighter, as light or a pale thing
    ring_changed: np.ndarray  # (N,) each hole's ring changed beyond what light does
    noise: float  # the typical colour change of the bare board (8-bit levels)


@dataclass(frozen=True)
class Baseline:
    """The bare board of the reference frame: grid points, then the ring around every hole
    (log colours), with what is fixed per reference worked out once."""

    grid: SurfaceGrid
    reference: np.ndarray  # (3, M + N): channels as rows
    glare: np.ndarray  # (3, M + N) unit direction in which added white light moves a colour
    pale: np.ndarray  # (M + N,) how far along it added white light can move it at most
    clipped: np.ndarray  # (3, M + N) overexposed in the reference
    skip: np.ndarray  # (M + N,) glints in the reference: not judged
    blind: np.ndarray  # (M + N,) overexposed in two or three channels in the reference
    slack: np.ndarray  # (M + N,) colour change not counted (around full kennels)
    paints: np.ndarray  # (M + N,) blind points' paint (`blind_paints`), -1 for the others
    # the table beside the board (`SurfaceGrid.sample_outside`): log colours, seen
    outside: tuple[np.ndarray, np.ndarray] | None = None

    @classmethod
    def learn(cls, grid: SurfaceGrid, surface: np.ndarray, rings: np.ndarray,
              kennels: np.ndarray | None = None,
              outside: tuple[np.ndarray, np.ndarray] | None = None) -> Baseline:
        """The baseline of one reference frame (its `SurfaceGrid.sample` and hole rings).

        ``kennels`` (M + N,) marks the samples around the full kennels of the reference: the
        shadows, coloured light and blurred edges of their marbles fall there, and move when a
        marble rests elsewhere in its hole or leave with it; `KENNEL_SLACK` of colour change is
        not counted there. (On held-out training frames without hands, 2.2 % of kennel rings
        changed by more than 0.1, against 1.4 % of track rings; under a hand, half of them by
        more than 0.19.)"""
        reference = np.ascontiguousarray(np.concatenate([surface, rings]).T)
        # Glare adds white light: on a coloured board it pales the colour along a known
        # direction (most in the board's darkest channel); a glint in the reference deepens it.
        glare, pale = glare_bounds(reference)
        clipped = reference >= CLIPPED_LOG
        return cls(grid, reference, glare, pale, clipped,
                   _glinting(grid, surface, rings), clipped.sum(axis=0) >= 2,
                   np.zeros(reference.shape[1], np.float32) if kennels is None
                   else np.where(kennels, KENNEL_SLACK, 0.0).astype(np.float32),
                   blind_paints(reference, clipped), outside)

    def foreign_regions(self, surface: np.ndarray, rings: np.ndarray,
                        outside: tuple[np.ndarray, np.ndarray] | None = None) -> Foreign:
        """Where something that is not the board covers it (`Foreign`).

        A region counts when it is large (`MIN_REGION_MM2`) and has several clearly changed
        points (`MIN_SEEDS`), or is very large: a glint, JPEG blocks or noise change a few
        scattered points, a hand or a card a connected stretch of board several holes wide.

        The rings (board colour around every hole) count too: between the holes of a track
        there is little bare board, and a finger along the track shows mostly there.

        So does the table beside the board (``outside``, `SurfaceGrid.sample_outside`): a hand
        reaches in over the edge, and fingers that only just reach over a kennel or the edge
        change a few scattered points of the board; joined by the arm beside the board they
        count (the table's part is not part of the region).

        Regions brighter than the board's upper quartile by `BRIGHTENED_LIMIT` (seeds; the region
        extends over points `WEAK_SHARE` of that) are found the same way, apart: a pale hand
        over a grey board changes its brightness only, as a lamp does.
        """
        grid, points = self.grid, len(surface)
        # Channels as rows (3, M + N), contiguous: numpy reduces long rows far faster.
        now = np.ascontiguousarray(np.concatenate([surface, rings]).T)
        residual = now - self.reference
        over = now >= CLIPPED_LOG
        clear = ~(over[0] | over[1] | over[2])  # no channel overexposed in this frame
        # The board-wide change (light level, colour temperature); rings are upper quartiles,
        # not averages, so noise biases them differently: their own.
        # Overexposed samples do not show the change: it is measured where no channel is
        # overexposed in either frame (the same samples for every channel, so that a biased
        # choice of samples shifts the level only, not the colour).
        for part, step, reference_fair in self._drift_parts:
            fair = reference_fair & clear[part][::step]
            if np.count_nonzero(fair) < DRIFT_MIN_SAMPLES:
                fair = None
            residual[:, part] -= _row_medians(residual[:, part][:, ::step], fair)
        # A channel overexposed in either frame says little: let it follow the others.
        clipped = self.clipped | over
        glare, pale = self.glare, self.pale
        if self.blind.any():
            glare, pale = self._compare_blind(now, clear, residual, clipped, points)
        if clipped.any():
            kept = np.where(clipped, 0.0, residual)
            seen = np.maximum(3 - clipped.sum(axis=0, dtype=np.int8), 1)
            residual = np.where(clipped, (kept[0] + kept[1] + kept[2]) / seen, residual)
        brightness = (residual[0] + residual[1] + residual[2]) / 3
        neutral = residual - brightness
        # Colour change along the glare direction does not count (JPEG's colour noise also
        # lies much along it).
        along = neutral[0] * glare[0] + neutral[1] * glare[1] + neutral[2] * glare[2]
        # (as np.clip, which is several times slower with bounds per point)
        neutral -= np.minimum(np.maximum(along, -pale), pale) * glare
        # Around full kennels a little change is the marbles' (not when averaged, below: a
        # hand's change is coherent over the square, a marble's shadow is not).
        chroma = np.maximum(np.sqrt(neutral[0] ** 2 + neutral[1] ** 2 + neutral[2] ** 2)
                            - self.slack, 0.0)
        # Sensor noise alone changes colours, the more the darker a spot (in log units it goes
        # with 1 / level): never flag less than it explains, measured on the frame itself.
        level = np.exp((now[0] + now[1] + now[2]) / 3)
        every = slice(None, None, DRIFT_SUBSAMPLE)
        typical_noise = 1.4826 * float(_row_medians((chroma[every] * level[every])[None])[0, 0])
        noise = typical_noise / level
        strong, weak = _changed(chroma, brightness, noise)
        # A dark hand in dim light looks much like a shadow, and its colour change at single
        # points drowns in the noise there; averaged over the points around (`AVERAGE_MM`)
        # the noise cancels and the hand's coherent change of colour remains.
        averaged = grid.average(neutral[:, :points])
        averaged_chroma = np.sqrt(averaged[0] ** 2 + averaged[1] ** 2 + averaged[2] ** 2)
        point_level = level[:points]
        averaged_noise = 1.4826 * _row_medians(
            (averaged_chroma[every] * point_level[every])[None])[0, 0] / point_level
        strong[:points] |= averaged_chroma > np.maximum(CHROMA_LIMIT,
                                                        NOISE_FACTOR * averaged_noise)
        weak[:points] |= averaged_chroma > np.maximum(CHROMA_LIMIT * WEAK_SHARE,
                                                      WEAK_NOISE_FACTOR * averaged_noise)
        # The lamps stay put: glare in this frame shows in the reference too (skipped there), so
        # a strong paling elsewhere is something white or pale lying on the board (a card).
        strong |= along > PALED_LIMIT
        weak |= along > PALED_LIMIT * WEAK_SHARE
        strong &= ~self.skip
        weak &= ~self.skip
        # Brighter than most of the board (its upper quartile): where a shadow falls over half
        # of it, the median change is the shadow's, and the rest of the board is brighter.
        sampled = brightness[:points][every]
        lift = brightness - np.partition(sampled, 3 * len(sampled) // 4)[3 * len(sampled) // 4]
        brighter = (lift > BRIGHTENED_LIMIT) & ~self.skip
        lighter = (lift > BRIGHTENED_LIMIT * WEAK_SHARE) & ~self.skip
        beside = None if outside is None else self._outside_changed(outside)
        return Foreign(self._large_regions(weak, strong, beside),
                       self._large_regions(lighter, brighter), weak[points:], typical_noise)

    def _outside_changed(self, outside: tuple[np.ndarray, np.ndarray],
                         ) -> tuple[np.ndarray, np.ndarray] | None:
        """(E,) the points beside the board whose colour changed beyond the weak and the strong
        limits (as on the board, less the change of the table's light, against the table's own
        noise: a cloth's or a wooden table's texture is not the board's), where both frames
        show them unclipped and brighter than `DARK_TABLE_LEVEL`, in runs along the edge as
        long as an arm is wide (`ARM_MM`, with `ARM_SEEDS` strong points); None when the
        reference has no such points or too few are judged."""
        if self.outside is None:
            return None
        (now, seen), (before, seen_before) = outside, self.outside
        judged = (seen & seen_before & (now < CLIPPED_LOG).all(axis=1)
                  & (before < CLIPPED_LOG).all(axis=1)
                  & (np.minimum(now, before).mean(axis=1) >= _DARK_TABLE_LOG))
        if np.count_nonzero(judged) < DRIFT_MIN_SAMPLES:
            return None
        residual = now - before
        residual -= np.median(residual[judged], axis=0)
        brightness = residual.mean(axis=1)
        chroma = np.sqrt(((residual - brightness[:, None]) ** 2).sum(axis=1))
        level = np.exp(now.mean(axis=1))
        noise = 1.4826 * float(np.median((chroma * level)[judged])) / level
        strong, weak = _changed(chroma, brightness, noise)
        weak &= judged
        strong &= weak
        # Runs along the edge: the outside cells of the padded grid touch along it only.
        grid = self.grid
        canvas = np.zeros((grid.shape[0] + 2, grid.shape[1] + 2), np.uint8)
        canvas[grid.outside_cells] = weak
        count, labels = cv2.connectedComponents(canvas, connectivity=8)
        run = labels[grid.outside_cells]
        long = ((np.bincount(run, minlength=count) * grid.spacing_mm >= ARM_MM)
                & (np.bincount(run, weights=strong, minlength=count) >= ARM_SEEDS))
        long[0] = False
        return long[run], strong & long[run]

    def _large_regions(self, weak: np.ndarray, strong: np.ndarray,
                       beside: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """(H, W) bool grid of the regions of ``weak`` points (M + N: grid points, then rings,
        each ring standing for `RING_REACH_MM` around its hole) that are large enough and hold
        enough ``strong`` points (hysteresis, as Canny). ``beside``: the weak and strong points
        beside the board (E,), which join and count toward the regions they touch but are no
        part of them."""
        grid, points = self.grid, len(self.grid.points_mm)
        mask = np.zeros(grid.shape, np.uint8)
        mask.reshape(-1)[grid.flat_cells] = weak[:points]
        seeds = np.zeros(grid.shape, bool)
        seeds.reshape(-1)[grid.flat_cells] = strong[:points]
        rows, cols = grid.ring_cells
        changed_rings = np.flatnonzero(weak[points:])
        _mark_around_holes(grid, mask, changed_rings)
        seeded = changed_rings[strong[points:][changed_rings]]
        seeds[rows[seeded], cols[seeded]] = True
        if beside is not None:
            mask, seeds = np.pad(mask, 1), np.pad(seeds, 1)
            mask[grid.outside_cells] = beside[0]
            seeds[grid.outside_cells] = beside[1]
        count, labels = cv2.connectedComponents(mask, connectivity=8)
        seed_count = np.bincount(labels[seeds], minlength=count)
        area = np.bincount(labels.reshape(-1), minlength=count) * grid.spacing_mm ** 2
        large = ((area >= MIN_REGION_MM2) & (seed_count >= MIN_SEEDS)) | (
            (area >= LARGE_REGION_MM2) & (seed_count >= 1))
        large[0] = False
        region = large[labels]
        return np.asarray(region if beside is None else region[1:-1, 1:-1])

    def _compare_blind(self, now: np.ndarray, unclipped: np.ndarray, residual: np.ndarray,
                       clipped: np.ndarray, points: int,
                       ) -> tuple[np.ndarray, np.ndarray]:
        """Where the reference is overexposed in two channels it tells no colour: compare with
        the board's typical colour in this frame (where it is not overexposed) instead, or
        with a blind paint's own (`blind_paints`) where most of its points, and
        `PAINT_MIN_POINTS` at least, show it (a hand over the rest stands out);
        ``residual`` and ``clipped`` are updated in place. Returns the glare directions and
        bounds (`glare_bounds`) to judge the residuals with: the typical colour's there."""
        glare, pale = self.glare.copy(), self.pale.copy()
        usable = np.zeros_like(self.blind)
        if (np.count_nonzero(unclipped[:points]) >= BLIND_MIN_POINTS
                and np.count_nonzero(unclipped[points:]) >= BLIND_MIN_POINTS // 5):
            # ... from the channels this frame shows well below clipping, two at least
            near_clip = now >= CLIPPED_LOG - BLIND_MARGIN
            usable = self.blind & (near_clip.sum(axis=0, dtype=np.int8) <= 1)
            # The board's typical colour; rings are upper quartiles: they lie higher by a lift
            # of their own. A blind paint (a kennel's band) has its own colour, where it shows.
            board = _row_medians(now[:, :points], unclipped[:points])
            ring_lift = _row_medians(now[:, points:], unclipped[points:]) - board
            typical = np.repeat(board, len(usable), axis=1)
            for paint in np.unique(self.paints[usable & (self.paints >= 0)]):
                members = self.paints == paint
                own = usable[:points] & members[:points]
                if np.count_nonzero(own) >= max(PAINT_MIN_POINTS,
                                                np.count_nonzero(members[:points]) / 2):
                    typical[:, members] = _row_medians(now[:, :points][:, own])
            typical[:, points:] += ring_lift
            where = np.flatnonzero(usable)
            residual[:, where] = now[:, where] - typical[:, where]
            glare[:, where], pale[where] = glare_bounds(typical[:, where])
            clipped[:, usable] = near_clip[:, usable]
        residual[:, self.blind & ~usable] = 0.0
        return glare, pale

    @cached_property
    def _drift_parts(self) -> tuple[tuple[slice, int, np.ndarray], ...]:
        """Grid points (every few), then rings: where, how sparsely, and which of those samples
        are free of overexposure in the reference."""
        points = len(self.grid.points_mm)
        parts = ((slice(0, points), DRIFT_SUBSAMPLE), (slice(points, None), 1))
        clear = np.asarray(~self.clipped.any(axis=0))
        return tuple((part, step, clear[part][::step]) for part, step in parts)


def _row_medians(rows: np.ndarray, kept: np.ndarray | None = None) -> np.ndarray:
    """(R, 1) median of every row (of its ``kept`` columns), exactly as ``np.median(rows,
    axis=1, keepdims=True)``, but partitioning the rows one by one around a single rank: numpy
    does that many times faster than along an axis or around two ranks."""
    medians = []
    for row in rows:
        values = row if kept is None else row[kept]
        half = len(values) // 2
        ordered = np.partition(values, half)
        upper = ordered[half]
        medians.append(upper if len(values) % 2 else (ordered[:half].max() + upper) / 2)
    return np.array(medians, rows.dtype)[:, None]


def _changed(chroma: np.ndarray, brightness: np.ndarray,
             noise: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Changed beyond what light does (colour, or darker than any shadow), against the
    ``noise`` at each point: clearly (`CHROMA_LIMIT`, `NOISE_FACTOR`) and weakly
    (`WEAK_SHARE`, `WEAK_NOISE_FACTOR`)."""
    darker = brightness < DARKER_LIMIT
    strong = (chroma > np.maximum(CHROMA_LIMIT, NOISE_FACTOR * noise)) | darker
    weak = (chroma > np.maximum(CHROMA_LIMIT * WEAK_SHARE, WEAK_NOISE_FACTOR * noise)) | darker
    return strong, weak


def nothing_over_board(grid: SurfaceGrid, region: np.ndarray) -> bool:
    """Whether no hand, arm or card is over the board: every foreign region is small
    (`STRAY_REGION_MM2`) and keeps off the board's edge. A hand always reaches in over the
    edge, and a card is larger; a small patch inside the board is a glint or a marble's
    coloured shadow the light test took for a change."""
    if not region.any():
        return True
    count, labels = cv2.connectedComponents(region.astype(np.uint8), connectivity=8)
    area = np.bincount(labels.reshape(-1), minlength=count)[1:] * grid.spacing_mm ** 2
    return bool(area.max() < STRAY_REGION_MM2 and not region[grid.edge].any())


def without_grain_shown(grid: SurfaceGrid, region: np.ndarray, ring_match: np.ndarray,
                        disc_match: np.ndarray, witnesses: np.ndarray) -> np.ndarray:
    """The region without its parts through which the board still shows: over `GRAIN_HOLES`
    holes or more of the ``witnesses`` (N,) whose rings' brightness patterns match the
    reference's by `GRAIN_MATCH` or more (median: the grain), or whose discs' patterns do by
    `DIMPLE_MATCH` (the empty dimples; a printed ring's edge or a new lamp's gradient can
    change a ring's pattern). A lamp switched on, off or moved changes the board's colour there
    the way a thing would, but a hand or a card hides the grain and the dimples. (Give as
    witnesses the holes empty in the reference: around a full kennel the marbles' shadows and
    coloured light keep their pattern between the fingers of a hand.)"""
    kept = region.copy()
    for part, (rings, discs) in _witnessed_parts(grid, region, ring_match, disc_match,
                                                 witnesses):
        if rings >= GRAIN_MATCH or discs >= DIMPLE_MATCH:
            kept &= ~part
    return kept


def hiding_grain(grid: SurfaceGrid, region: np.ndarray, ring_match: np.ndarray,
                 disc_match: np.ndarray, witnesses: np.ndarray) -> np.ndarray:
    """The parts of the region that lie over `GRAIN_HOLES` holes or more of the ``witnesses``
    and hide their grain (`GRAIN_MATCH`) and their dimples (`HIDDEN_DIMPLE_MATCH`, stricter
    than `without_grain_shown`): of a region much brighter than the board
    (`Foreign.brighter`), those are a pale hand or a card, not a lamp."""
    kept = np.zeros_like(region)
    for part, (rings, discs) in _witnessed_parts(grid, region, ring_match, disc_match,
                                                 witnesses):
        if rings < GRAIN_MATCH and discs < HIDDEN_DIMPLE_MATCH:
            kept |= part
    return kept


def unwitnessed_parts(grid: SurfaceGrid, region: np.ndarray,
                      witnesses: np.ndarray) -> Iterator[np.ndarray]:
    """The connected parts of the region over fewer than `GRAIN_HOLES` of the ``witnesses``
    (within `GRAIN_REACH_MM`): too few holes to tell by their grain whether light or a thing
    changed the board there."""
    for part, over in _parts_over(grid, region, witnesses):
        if over.sum() < GRAIN_HOLES:
            yield part


def _witnessed_parts(grid: SurfaceGrid, region: np.ndarray, ring_match: np.ndarray,
                     disc_match: np.ndarray, witnesses: np.ndarray,
                     ) -> Iterator[tuple[np.ndarray, tuple[float, float]]]:
    """The connected parts of the region over `GRAIN_HOLES` or more of the ``witnesses``
    (within `GRAIN_REACH_MM`), each with the median ring and disc match of those holes."""
    for part, over in _parts_over(grid, region, witnesses):
        if over.sum() >= GRAIN_HOLES:
            yield part, (float(np.median(ring_match[over])), float(np.median(disc_match[over])))


def _parts_over(grid: SurfaceGrid, region: np.ndarray,
                witnesses: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Each connected part of the region with the ``witnesses`` (N,) it lies over (within
    `GRAIN_REACH_MM`)."""
    rows, cols = grid.ring_cells
    for part in grid.parts(region):
        apart = cv2.distanceTransform((~part).astype(np.uint8), cv2.DIST_L2, 3)
        yield part, witnesses & ((apart[rows, cols] * grid.spacing_mm) <= GRAIN_REACH_MM)


def region_distance(grid: SurfaceGrid, region: np.ndarray) -> np.ndarray:
    """Per hole: distance (mm) from its centre to the nearest point of the region (inf: none)."""
    if not region.any():
        return np.full(len(grid.hole_cells), np.inf)
    distance = cv2.distanceTransform((~region).astype(np.uint8), cv2.DIST_L2, 3)
    return np.asarray(distance[grid.ring_cells] * grid.spacing_mm)


def with_holes(grid: SurfaceGrid, region: np.ndarray, holes: np.ndarray) -> np.ndarray:
    """The region grid with the board within `RING_REACH_MM` of each hole in ``holes`` (N,)
    bool added: a hole that shows something over it stands for the board around it, as a
    changed ring does."""
    mask = region.astype(np.uint8)
    _mark_around_holes(grid, mask, np.flatnonzero(holes))
    return mask.astype(bool)


def _mark_around_holes(grid: SurfaceGrid, mask: np.ndarray, holes: np.ndarray) -> None:
    """Set the cells of the uint8 grid ``mask`` within `RING_REACH_MM` of each hole whose
    index is in ``holes``, in place."""
    rows, cols = grid.ring_cells
    reach = round(RING_REACH_MM / grid.spacing_mm)
    for index in holes:
        cv2.circle(mask, (int(cols[index]), int(rows[index])), reach, 1, -1)


def region_share(grid: SurfaceGrid, region: np.ndarray) -> np.ndarray:
    """Per hole: the share of the `AVERAGE_MM` square around its centre that the region covers
    (a fingertip or a whole hand)."""
    if not region.any():
        return np.zeros(len(grid.hole_cells), np.float32)
    covered = grid.box_sum(region.astype(np.float32)) / grid.average_cells ** 2
    return np.asarray(covered[grid.ring_cells])
