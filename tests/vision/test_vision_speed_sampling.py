"""The shortcuts of sampling (cached pixel positions, shrinking only part of the frame, one-rank
medians) give exactly what the plain computation gives."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tests.vision.conftest import rendered_start
from vision.locate import BoardFit, Locator
from vision.reader.holes import HoleSampler
from vision.reader.occlusion import SHRINK, SHRINK_HALVINGS, SurfaceGrid, _row_medians


def _plain_surface(grid: SurfaceGrid, image: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """`SurfaceGrid.sample` the plain way: the whole frame shrunk, every point its own row."""
    small = image
    for _ in range(SHRINK_HALVINGS):
        small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2),
                           interpolation=cv2.INTER_LINEAR)
    to_small = np.diag([1 / SHRINK, 1 / SHRINK, 1.0]) @ homography
    pixels = cv2.perspectiveTransform(grid.points_mm, to_small) + (1 / SHRINK - 1) / 2
    values = cv2.remap(small, pixels.astype(np.float32), None, cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    return np.log(values.reshape(-1, 3).astype(np.float32) + 4.0)


def _shifted(fit: BoardFit, dx: float, dy: float) -> BoardFit:
    shift = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]])
    return replace(fit, homography=shift @ fit.homography)


def test_surface_sample_is_the_whole_frames(brandi4):
    image = rendered_start("brandi-4").image
    fit = Locator(brandi4).locate(image)
    grid = SurfaceGrid.for_profile(brandi4)
    # The board inside the frame, partly beyond its left and bottom edge, then back again
    # (one grid: its cached positions must follow); an odd height shrinks the whole frame.
    for moved in (fit, _shifted(fit, -300, 0), _shifted(fit, 5.3, 250), fit):
        for frame in (image, image[:-1]):
            assert np.array_equal(grid.sample(frame, moved),
                                  _plain_surface(grid, frame, moved.homography))


def test_hole_sampler_follows_a_new_homography(brandi4):
    image = rendered_start("brandi-4").image
    fit = Locator(brandi4).locate(image)
    sampler = HoleSampler(brandi4)
    moved = _shifted(fit, 7.5, -3.0)
    first = sampler.sample(image, fit)
    for now in (moved, fit):
        cached = sampler.sample(image, now)
        fresh = HoleSampler(brandi4).sample(image, now)
        assert np.array_equal(cached.disc, fresh.disc)
        assert np.array_equal(cached.ring, fresh.ring)
    assert not np.array_equal(first.disc, HoleSampler(brandi4).sample(image, moved).disc)


def test_row_medians_are_numpys():
    rng = np.random.default_rng(0)
    for length in (1, 2, 7, 8, 1001):
        rows = np.round(rng.normal(size=(3, length)), 1).astype(np.float32)  # with ties
        kept = rng.random(length) < 0.7
        kept[0] = True
        assert np.array_equal(_row_medians(rows), np.median(rows, axis=1, keepdims=True))
        assert np.array_equal(_row_medians(rows, kept),
                              np.median(rows[:, kept], axis=1, keepdims=True))
        assert _row_medians(rows).dtype == np.float32
