"""The frame's blur, measured at the markers (`vision.focus`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.focus import marker_blur
from vision.locate import Locator
from vision.render import RenderConditions, render, start_occupancy


@pytest.mark.parametrize("blur_px", [0.6, 1.2, 2.0])
def test_the_blur_a_frame_was_drawn_with_is_measured_at_its_markers(brandi4, blur_px):
    frame = render(brandi4, start_occupancy(brandi4), RenderConditions(blur_sigma=blur_px),
                   seed=1).image
    fit = Locator(brandi4).locate(frame)
    in_px, in_mm = marker_blur(frame, brandi4, fit)
    assert in_px == pytest.approx(blur_px, abs=0.2)
    marker = brandi4.markers[0]
    ends = fit.project(np.array([(marker.x - marker.size / 2, marker.y),
                                 (marker.x + marker.size / 2, marker.y)]))
    pixels_per_mm = np.linalg.norm(ends[1] - ends[0]) / marker.size
    assert in_mm == pytest.approx(in_px / pixels_per_mm, rel=0.1)


def test_a_dim_frame_is_measured_as_a_bright_one(brandi6):
    conditions = RenderConditions(blur_sigma=1.5)
    dim = RenderConditions(blur_sigma=1.5, light_level=0.25)
    blurs = []
    for light in (conditions, dim):
        frame = render(brandi6, start_occupancy(brandi6), light, seed=2).image
        blurs.append(marker_blur(frame, brandi6, Locator(brandi6).locate(frame))[0])
    assert blurs[1] == pytest.approx(blurs[0], abs=0.2)


def test_markers_the_frame_no_longer_shows_give_no_blur(brandi4):
    frame = render(brandi4, start_occupancy(brandi4), RenderConditions(), seed=1).image
    fit = Locator(brandi4).locate(frame)
    blank = np.full_like(frame, 128)
    assert marker_blur(blank, brandi4, fit) is None
    noise = np.random.default_rng(3).integers(0, 256, frame.shape, np.uint8)
    assert marker_blur(cv2.GaussianBlur(noise, (0, 0), 1.0), brandi4, fit) is None
