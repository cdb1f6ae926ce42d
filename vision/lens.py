"""Radial lens distortion, the camera model of a wide lens.

A wide lens (the Camera Module 3 Wide that brandi-6 needs at 69 cm) bends straight lines. A
board point whose ideal (pinhole) image lies at distance r from the frame's centre shows at
r·(1 + k1·r²), r in half the frame's diagonal (k1 < 0: barrel). `vision.calibrate` finds k1
in the reference frame; the reader's fits then carry the lens (`BoardFit.lens`): each point it
samples is projected by the homography and bent by the lens, so no frame is remapped.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

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

    @property
    def _centre(self) -> tuple[np.ndarray, float]:
        width, height = self.size
        centre = np.array([(width - 1) / 2, (height - 1) / 2])
        return centre, float(np.hypot(*centre))

    @cached_property
    def _distort_maps(self) -> tuple[np.ndarray, np.ndarray]:
        """`cv2.remap` maps (fixed point, which it reads fastest): for every pixel the camera
        shows, where it lies in the ideal frame."""
        width, height = self.size
        rows, cols = np.mgrid[0:height, 0:width]
        pixels = np.stack([cols, rows], axis=-1).reshape(-1, 2)
        source = self.ideal(pixels).reshape(height, width, 2).astype(np.float32)
        first, second = cv2.convertMaps(source[..., 0], source[..., 1], cv2.CV_16SC2)
        return first, second
