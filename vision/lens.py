"""Radial lens distortion: found in the reference frame, taken out of every frame.

A wide lens (the Camera Module 3 Wide that brandi-6 needs at 69 cm) bends straight lines. A
board point whose ideal (pinhole) image lies at distance r from the frame's centre shows at
r·(1 + k1·r²), r in half the frame's diagonal (k1 < 0: barrel). The four markers in the
board's corners cannot tell that from a homography; the start position's many empty holes can.
`find_lens` tries values of k1 and keeps the one under which the dark dimples of the track and
homes lie best on one homography; `Lens.undistort` then straightens every frame before the
reader locates and samples it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from hw import BoardProfile
from vision.locate import (
    DIMPLE_TOLERANCE_PX,
    FRESH_FIT_MARKERS,
    BoardFit,
    Locator,
    find_dimples,
    marker_corners_mm,
)

K1_RANGE = (-0.32, 0.08)  # the distortions looked for (a wide lens' barrel, some pincushion)
COARSE_STEP = 0.02
LENS_GAIN = 0.8  # a lens is kept only if it brings the misfit below this share of none's
FINE_STEPS = (0.01, 0.0025)  # the best k1 is refined on these steps, three either side
NEGLIGIBLE_K1 = 0.02  # smaller ones cost no hole (60 benchmark cases through -0.02: all right)
INVERSE_STEPS = 8  # Newton steps of `Lens.ideal` (from a hole's shift of 100 px: exact)


@dataclass(frozen=True)
class Lens:
    """Radial distortion ``k1`` of a camera whose frames are ``size`` (width, height) pixels."""

    k1: float
    size: tuple[int, int]

    def distort(self, points_px: np.ndarray) -> np.ndarray:
        """(N, 2) where the camera shows the ideal (undistorted) pixel positions ``points_px``."""
        centre, half_diagonal = self._centre
        offset = (np.asarray(points_px, np.float64) - centre) / half_diagonal
        stretch = 1 + self.k1 * (offset ** 2).sum(axis=-1, keepdims=True)
        return np.asarray(centre + offset * stretch * half_diagonal)

    def ideal(self, points_px: np.ndarray) -> np.ndarray:
        """(N, 2) the ideal pixel positions that the camera shows at ``points_px`` (the inverse
        of `distort`: Newton steps on each point's distance from the centre)."""
        centre, half_diagonal = self._centre
        shown = (np.asarray(points_px, np.float64) - centre) / half_diagonal
        seen = np.sqrt((shown ** 2).sum(axis=-1, keepdims=True))
        radius = seen.copy()
        for _ in range(INVERSE_STEPS):
            squared = radius ** 2
            radius -= (radius * (1 + self.k1 * squared) - seen) / (1 + 3 * self.k1 * squared)
        scale = np.divide(radius, seen, out=np.ones_like(seen), where=seen > 0)
        return np.asarray(centre + shown * scale * half_diagonal)

    def distort_image(self, image: np.ndarray) -> np.ndarray:
        """An ideal camera's frame as this lens shows it (for renderers)."""
        first, second = self._distort_maps
        return np.asarray(cv2.remap(image, first, second, cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE))

    def undistort(self, image: np.ndarray) -> np.ndarray:
        """The frame as an ideal camera would have taken it (same size; where that view lies
        beyond the frame, black)."""
        first, second = self._undistort_maps
        return np.asarray(cv2.remap(image, first, second, cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_CONSTANT))

    @property
    def _centre(self) -> tuple[np.ndarray, float]:
        width, height = self.size
        centre = np.array([(width - 1) / 2, (height - 1) / 2])
        return centre, float(np.hypot(*centre))

    @cached_property
    def _undistort_maps(self) -> tuple[np.ndarray, np.ndarray]:
        """For every pixel of the ideal frame, where the camera shows it."""
        return self._maps_of(self.distort)

    @cached_property
    def _distort_maps(self) -> tuple[np.ndarray, np.ndarray]:
        """For every pixel the camera shows, where it lies in the ideal frame."""
        return self._maps_of(self.ideal)

    def _maps_of(self, where: Callable[[np.ndarray], np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """`cv2.remap` maps (fixed point, which it reads fastest) that fill every pixel of a
        frame of `size` from ``where(pixel)`` in the source frame."""
        width, height = self.size
        rows, cols = np.mgrid[0:height, 0:width]
        pixels = np.stack([cols, rows], axis=-1).reshape(-1, 2)
        source = where(pixels).reshape(height, width, 2).astype(np.float32)
        first, second = cv2.convertMaps(source[..., 0], source[..., 1], cv2.CV_16SC2)
        return first, second


def find_lens(image: np.ndarray, profile: BoardProfile) -> Lens | None:
    """The lens distortion of a start-position frame (every marble in its kennel), or None
    when the frame is straight enough (`NEGLIGIBLE_K1`, `LENS_GAIN`). `LocateError` when the
    board is not found.

    Every k1 tried (`K1_RANGE`, on `COARSE_STEP`s, then finer around the best) straightens
    the marker corners; the homography through them, bent back by the lens, says where each
    empty hole should show, and `dimple_misfit` how far its dimple lies from there."""
    size = (image.shape[1], image.shape[0])
    corners_mm, corners_px = _marker_corners(image, profile)
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    centres = np.array([(h.x, h.y) for h in profile.holes if h.kind != "kennel"])
    tried: dict[float, float] = {}

    def misfit(k1: float) -> float:
        k1 = round(k1, 6)
        if k1 not in tried:
            lens = Lens(k1, size)
            homography, _ = cv2.findHomography(corners_mm, lens.ideal(corners_px), 0)
            fit = None if homography is None else BoardFit(homography, 0.0, ())
            tried[k1] = DIMPLE_TOLERANCE_PX ** 2 if fit is None else dimple_misfit(
                grey, lambda mm: lens.distort(fit.project(mm)), centres,
                profile.hole_diameter_mm / 2)
        return tried[k1]

    low, high = K1_RANGE
    best = min(np.arange(low, high + 1e-9, COARSE_STEP), key=misfit)
    for step in FINE_STEPS:
        best = min((best + step * offset for offset in range(-3, 4)), key=misfit)
    if abs(best) < NEGLIGIBLE_K1 or misfit(best) >= LENS_GAIN * misfit(0.0):
        return None
    return Lens(float(best), size)


def _marker_corners(image: np.ndarray, profile: BoardProfile) -> tuple[np.ndarray, np.ndarray]:
    """The corners of the markers in the frame: board mm (K, 2) and where they show (K, 2),
    as detected (a homography through them would bend them straight). Where the whole frame
    shows too few, the locator's fit says where they are (its searches find small and blurred
    markers; `LocateError` when it finds no board)."""
    layout = marker_corners_mm(profile)
    locator = Locator(profile)
    found = locator.markers(image)
    if len(found) < FRESH_FIT_MARKERS:
        corners_mm = np.concatenate(list(layout.values()))
        return corners_mm, locator.locate(image).project(corners_mm)
    ids = sorted(found)
    return (np.concatenate([layout[i] for i in ids]), np.concatenate([found[i] for i in ids]))


def dimple_misfit(grey: np.ndarray, project: Callable[[np.ndarray], np.ndarray],
                  centres_mm: np.ndarray, radius_mm: float) -> float:
    """How far the dark dimples of empty holes (``centres_mm``) lie from where ``project``
    puts them (`locate.find_dimples`): per hole the squared distance (px²),
    `DIMPLE_TOLERANCE_PX`² for a dimple farther or not found; the mean over the holes."""
    worst = DIMPLE_TOLERANCE_PX ** 2
    found_mm, found_px = find_dimples(grey, project, centres_mm, radius_mm)
    if len(found_mm) == 0:
        return worst
    squared = np.minimum(((project(found_mm) - found_px) ** 2).sum(axis=1), worst)
    return float((squared.sum() + (len(centres_mm) - len(found_mm)) * worst) / len(centres_mm))

