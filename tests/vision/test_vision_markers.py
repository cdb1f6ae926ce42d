"""The printable marker sheet: true scale, detectable markers, labels and instructions."""

from __future__ import annotations

import re
import xml.dom.minidom

import cv2
import numpy as np
import pytest

from vision.markers import corner_name, marker_sheets

PX_PER_MM = 6


def _raster(svg: str) -> np.ndarray:
    """Draw the sheet's filled rectangles (all the sheet's graphics but text) in pixels."""
    document = xml.dom.minidom.parseString(svg)
    image = np.full((297 * PX_PER_MM, 210 * PX_PER_MM), 255, np.uint8)
    for rect in document.getElementsByTagName("rect"):
        if rect.getAttribute("fill") != "black":
            continue
        x, y, w, h = (float(rect.getAttribute(k)) * PX_PER_MM
                      for k in ("x", "y", "width", "height"))
        cv2.rectangle(image, (round(x), round(y)), (round(x + w) - 1, round(y + h) - 1), 0, -1)
    return image


@pytest.mark.parametrize("name", ["brandi-4", "brandi-6"])
def test_sheet_is_one_a4_page_with_every_marker_detectable_at_true_size(name, brandi4, brandi6):
    profile = brandi4 if name == "brandi-4" else brandi6
    pages = marker_sheets(profile)
    assert len(pages) == 1
    root = xml.dom.minidom.parseString(pages[0]).documentElement
    assert (root.getAttribute("width"), root.getAttribute("height")) == ("210.0mm", "297.0mm")
    image = _raster(pages[0])
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = detector.detectMarkers(image)
    assert ids is not None and sorted(ids.ravel()) == [0, 1, 2, 3]
    for marker_corners in corners:
        side = np.linalg.norm(marker_corners[0][0] - marker_corners[0][1]) / PX_PER_MM
        assert side == pytest.approx(36.0, abs=0.5)
        top_left, top_right = marker_corners[0][0], marker_corners[0][1]
        assert abs(top_left[1] - top_right[1]) < 1  # printed upright: top edge on top


def test_sheet_has_a_10_cm_scale_bar_and_the_instructions(brandi4):
    page = marker_sheets(brandi4)[0]
    assert '<rect x="15" y="50.0" width="100" height="2" fill="black"/>' in page
    assert "10 cm scale bar" in page and "100 %" in page
    for marker in brandi4.markers:
        assert f"marker id {marker.id}" in page
        assert f"centre x = {marker.x:g} mm" in page and f"centre y = {marker.y:g} mm" in page
    assert re.search(r"TOP\s+edge", page) and "seat 0" in page


def test_corner_names_are_seen_from_seat_0(brandi4):
    names = {marker.id: corner_name(marker) for marker in brandi4.markers}
    assert names == {0: "bottom-left", 1: "bottom-right", 2: "top-right", 3: "top-left"}


def test_too_many_markers_make_more_pages(brandi4):
    from dataclasses import replace

    extra = tuple(replace(brandi4.markers[0], id=i) for i in range(4, 12))
    pages = marker_sheets(replace(brandi4, markers=brandi4.markers + extra))
    assert len(pages) == 2 and "page 2 of 2" in pages[1]
