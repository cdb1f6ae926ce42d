"""The board's grain between the holes (`vision.reader.texture`): light keeps it, hands hide it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.locate import BoardFit
from vision.reader.texture import (
    CLIPPED_LEVEL,
    HIDDEN_TEXTURE,
    TEXTURE_WITNESSES,
    SurfaceTexture,
    hides_texture,
    shows_texture,
)

# Board mm to pixels: 2 px per mm, y up, the board's centre at (200, 200).
FIT = BoardFit(np.array([[2.0, 0.0, 200.0], [0.0, -2.0, 200.0], [0.0, 0.0, 1.0]]), 0.0, ())
POINTS = np.array([(x, y) for x in range(-80, 81, 10) for y in range(-80, 81, 10)], float)


def grained_board(seed: int = 1, level: float = 120.0) -> np.ndarray:
    """A grey board with a fine grain (a few levels of blurred noise), 8-bit BGR."""
    grain = cv2.GaussianBlur(np.random.default_rng(seed).normal(size=(400, 400)), (0, 0), 1.2)
    grey = np.clip(level * np.exp(0.15 * grain / grain.std()), 0, 255).astype(np.uint8)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)


def test_light_keeps_the_grain_a_smooth_pale_thing_hides_it():
    board = grained_board()
    texture = SurfaceTexture.learn(POINTS, board, FIT)
    assert texture.told.all()
    # A lamp: brighter, warmer and uneven across the board; the grain stays.
    gain = 1.1 + 0.3 * np.arange(400)[None, :] / 400
    lit = np.clip(board * gain[..., None] * (0.9, 1.0, 1.1) + 10, 0, 254).astype(np.uint8)
    match = texture.match(lit, FIT, np.arange(len(POINTS)))
    assert np.isfinite(match).mean() > 0.8 and np.nanmin(match) > 0.9
    # A pale hand, smooth skin over the middle of the board.
    hand = board.copy()
    cv2.ellipse(hand, (200, 200), (120, 50), 20, 0, 360, (170, 180, 200), -1)
    inside = np.flatnonzero(np.hypot(*POINTS.T) < 20)
    outside = np.flatnonzero(np.hypot(*POINTS.T) > 80)
    assert np.max(texture.match(hand, FIT, inside)) < HIDDEN_TEXTURE
    assert np.min(texture.match(hand, FIT, outside)) > 0.9
    assert hides_texture(texture.match(hand, FIT, inside))
    assert not shows_texture(texture.match(hand, FIT, inside))
    assert shows_texture(texture.match(lit, FIT, inside))
    assert not hides_texture(texture.match(lit, FIT, inside))


def test_overexposed_or_textureless_squares_tell_nothing():
    board = grained_board()
    flat = board.copy()
    flat[:, :200] = 120  # no grain on the left half of the reference
    texture = SurfaceTexture.learn(POINTS, flat, FIT)
    left, right = POINTS[:, 0] < 0, POINTS[:, 0] > 0  # (the squares at 0 straddle the edge)
    assert not texture.told[left].any() and texture.told[right].all()
    glare = board.copy()
    glare[:200] = CLIPPED_LEVEL  # the top half overexposed in the game
    match = texture.match(glare, FIT, np.arange(len(POINTS)))
    top, bottom = POINTS[:, 1] > 0, POINTS[:, 1] < 0
    assert np.isnan(match[left | top]).all()
    assert np.isfinite(match[right & bottom]).all()


@pytest.mark.parametrize("told", [TEXTURE_WITNESSES - 1, TEXTURE_WITNESSES])
def test_a_region_hides_the_grain_only_where_enough_of_its_points_tell(told):
    match = np.concatenate([np.full(told, 0.0), np.full(20, np.nan)])
    assert hides_texture(match) == (told >= TEXTURE_WITNESSES)
    assert shows_texture(match + 1.0) == (told >= TEXTURE_WITNESSES)


def test_no_points_no_matches():
    texture = SurfaceTexture.learn(POINTS, grained_board(), FIT)
    assert texture.match(grained_board(2), FIT, np.zeros(0, int)).shape == (0,)
    assert not hides_texture(np.zeros(0)) and not shows_texture(np.zeros(0))


def test_a_region_with_a_few_points_hiding_the_grain_is_no_light():
    """A hand and its shadow make one region: most of it may show the grain."""
    shadow = np.full(20, 0.9)
    assert shows_texture(shadow)
    assert not shows_texture(np.concatenate([shadow, np.zeros(int(0.1 * 20) + 1)]))


def test_the_grain_is_in_view_only_where_most_of_the_board_keeps_it():
    """A smooth board's "texture" is the sensor's noise: it matches nothing in the next
    frame, and tells nothing about hands."""
    grained = SurfaceTexture.learn(POINTS, grained_board(), FIT)
    assert grained.in_view(grained_board(), FIT)

    def noisy(seed: int) -> np.ndarray:
        noise = np.random.default_rng(seed).normal(0.0, 6.0, (400, 400, 1))
        return np.clip(120 + noise, 0, 255).repeat(3, axis=2).astype(np.uint8)

    smooth = SurfaceTexture.learn(POINTS, noisy(1), FIT)
    assert smooth.told.any()  # the noise passes for texture in one frame ...
    assert not smooth.in_view(noisy(2), FIT)  # ... but not in the next
