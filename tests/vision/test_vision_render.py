"""Synthetic frames: size, determinism, markers a real detector finds, occlusion, marbles.

The `brandi4` and `brandi6` profile fixtures come from this folder's conftest."""

from __future__ import annotations

import warnings
from dataclasses import replace

import cv2
import numpy as np
import pytest

from hw import load_profile
from vision.render import (
    COLOURS,
    OCCLUDED_SHARE,
    RenderConditions,
    Rendered,
    random_conditions,
    render,
    start_occupancy,
)
from vision.render.camera import apply_homography

SMALL = RenderConditions(width=640, height=480)


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Centre pixel of every DICT_4X4_50 marker an ArucoDetector finds."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2).mean(axis=0) for i, c in zip(ids.ravel(), corners, strict=True)}


def expected_centres(profile, rendered: Rendered) -> dict[int, np.ndarray]:
    points = np.array([(m.x, m.y) for m in profile.markers])
    mapped = apply_homography(rendered.homography, points)
    return {m.id: p for m, p in zip(profile.markers, mapped, strict=True)}


def hole_pixels(rendered: Rendered, profile, hole_id: str, radius_mm: float) -> np.ndarray:
    """The BGR pixels inside one hole's circle."""
    hole = profile.hole(hole_id)
    mask = np.zeros(rendered.image.shape[:2], np.uint8)
    ring = [(hole.x + radius_mm * np.cos(t), hole.y + radius_mm * np.sin(t))
            for t in np.linspace(0, 2 * np.pi, 24, endpoint=False)]
    outline = np.round(apply_homography(rendered.homography, np.array(ring))).astype(np.int32)
    cv2.fillPoly(mask, [outline], 255)
    return rendered.image[mask > 0].astype(np.float32)


def pixel(rendered: Rendered, x_mm: float, y_mm: float) -> tuple[int, int]:
    """(row, column) of the pixel a board point lands on."""
    x, y = apply_homography(rendered.homography, np.array([[x_mm, y_mm]]))[0]
    return round(y), round(x)


def test_default_frame_is_a_1280_by_960_bgr_image(brandi4):
    rendered = render(brandi4, {})
    assert rendered.image.shape == (960, 1280, 3)
    assert rendered.image.dtype == np.uint8
    assert rendered.homography.shape == (3, 3)
    assert rendered.occluded == frozenset()


def test_same_seed_same_frame_other_seed_other_frame(brandi4):
    cond = _small(random_conditions(np.random.default_rng(3), hands=True))
    occupancy = start_occupancy(brandi4)
    first = render(brandi4, occupancy, cond, seed=5)
    again = render(brandi4, occupancy, cond, seed=5)
    other = render(brandi4, occupancy, cond, seed=6)
    assert np.array_equal(first.image, again.image)
    assert first.occluded == again.occluded
    assert not np.array_equal(first.image, other.image)


@pytest.mark.parametrize("material", ["wood", "aluminium"])
@pytest.mark.parametrize("name", ["brandi-4", "brandi-6"])
def test_markers_found_where_the_homography_puts_them(name, material):
    profile = load_profile(name)
    rendered = render(profile, start_occupancy(profile), RenderConditions(material=material))
    found = detect_markers(rendered.image)
    expected = expected_centres(profile, rendered)
    assert set(found) == set(expected)
    for marker_id, centre in expected.items():
        assert np.linalg.norm(found[marker_id] - centre) < 2.0


def test_markers_found_under_most_random_conditions(brandi4, brandi6):
    rng = np.random.default_rng(11)
    found_total, expected_total, worst = 0, 0, 0.0
    for case in range(16):
        profile = brandi6 if case % 4 == 0 else brandi4
        rendered = render(profile, start_occupancy(profile), random_conditions(rng, hands=False),
                          seed=case)
        found, expected = detect_markers(rendered.image), expected_centres(profile, rendered)
        found_total += len(set(found) & set(expected))
        expected_total += len(expected)
        worst = max([worst, *(np.linalg.norm(found[i] - expected[i]) for i in found
                              if i in expected)])
    assert found_total >= 0.9 * expected_total
    assert worst < 3.0


def test_occluded_lists_holes_only_when_hands_are_over_the_board(brandi4):
    rng = np.random.default_rng(2)
    occupancy = start_occupancy(brandi4)
    for seed in range(4):
        with_hands = random_conditions(rng, hands=True)
        without = random_conditions(rng, hands=False)
        covered = render(brandi4, occupancy, _small(with_hands), seed=seed)
        bare = render(brandi4, occupancy, _small(without), seed=seed)
        assert covered.occluded and covered.occluded <= covered.touched
        assert set(covered.cover) == covered.touched
        assert all((share >= OCCLUDED_SHARE) == (hole in covered.occluded) and 0 < share <= 1
                   for hole, share in covered.cover.items())
        assert bare.occluded == bare.touched == frozenset() and not bare.cover


def test_occluded_holes_really_change_under_the_hand(brandi4):
    cond = RenderConditions(hands=1)
    covered = render(brandi4, {}, cond, seed=4)
    bare = render(brandi4, {}, RenderConditions(), seed=4)
    visible_ids = {hole.id for hole in brandi4.holes} - covered.occluded
    for hole_id in visible_ids:
        bare_px = hole_pixels(bare, brandi4, hole_id, 5.0)
        covered_px = hole_pixels(covered, brandi4, hole_id, 5.0)
        assert np.abs(bare_px.mean(axis=0) - covered_px.mean(axis=0)).max() < 60, hole_id


@pytest.mark.parametrize("colour", COLOURS)
def test_a_marble_looks_different_from_an_empty_hole(brandi6, colour):
    empty = render(brandi6, {}, SMALL)
    full = render(brandi6, {"T5": colour}, SMALL)
    empty_px = hole_pixels(empty, brandi6, "T5", 5.0)
    full_px = hole_pixels(full, brandi6, "T5", 5.0)
    assert np.abs(full_px.mean(axis=0) - empty_px.mean(axis=0)).max() > 40
    elsewhere = hole_pixels(full, brandi6, "T9", 5.0)
    assert np.array_equal(elsewhere, hole_pixels(empty, brandi6, "T9", 5.0))


@pytest.mark.parametrize(("tilt", "yaw"), [(0.0, 0.0), (15.0, 37.0), (20.0, 250.0)])
def test_holes_and_marbles_sit_where_the_homography_says(brandi4, tilt, yaw):
    # the lamp straight above keeps each drop shadow centred under its marble
    cond = RenderConditions(width=800, height=600, tilt_deg=tilt, yaw_deg=yaw,
                            light_elevation_deg=90.0)
    occupancy = {"T8": "blue", "K2.0": "black", "H3.1": "white"}
    empty = render(brandi4, {}, cond)
    full = render(brandi4, occupancy, cond)
    empty_gray = cv2.cvtColor(empty.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    for hole in brandi4.holes:
        inside = hole_pixels(empty, brandi4, hole.id, 2.5).mean()
        around = np.mean([empty_gray[pixel(empty, hole.x + dx, hole.y + dy)]
                          for dx, dy in ((9, 9), (-9, 9), (9, -9), (-9, -9))])
        assert inside < around - 20, hole.id
    changed = np.abs(cv2.cvtColor(full.image, cv2.COLOR_BGR2GRAY) - empty_gray) > 30
    for hole_id in occupancy:
        hole = brandi4.hole(hole_id)
        row, col = pixel(full, hole.x, hole.y)
        ys, xs = np.nonzero(changed[row - 20:row + 21, col - 20:col + 21])
        offset = np.array([xs.mean() - 20, ys.mean() - 20])
        assert np.linalg.norm(offset) < 4.0, hole_id


def test_moving_one_marble_changes_the_frame_only_around_its_two_holes(brandi4):
    rng = np.random.default_rng(21)
    cond = replace(_small(random_conditions(rng, hands=True)), jpeg_quality=None)
    before = start_occupancy(brandi4)
    after = {**before, "K0.0": None, "T3": before["K0.0"]}
    first, second = render(brandi4, before, cond, seed=8), render(brandi4, after, cond, seed=8)
    changed = np.abs(first.image.astype(int) - second.image).max(axis=2) > 0
    allowed = np.zeros(changed.shape, np.uint8)
    for hole_id in ("K0.0", "T3"):
        row, col = pixel(first, brandi4.hole(hole_id).x, brandi4.hole(hole_id).y)
        cv2.circle(allowed, (col, row), 16, 1, -1)
    assert changed.any()
    assert not (changed & (allowed == 0)).any()


def test_random_conditions_honour_the_hands_request():
    rng = np.random.default_rng(9)
    for _ in range(20):
        assert random_conditions(rng, hands=True).hands >= 1
        hidden = random_conditions(rng, hands=False)
        assert hidden.hands == 0 and hidden.cards == 0
        drawn = random_conditions(rng)
        assert 0.3 <= drawn.light_level <= 1.35
        assert 2700 <= drawn.color_temperature_k <= 6500
        assert 0 <= drawn.tilt_deg <= 20 and drawn.material in ("wood", "aluminium")


def test_start_occupancy_fills_each_kennel_with_its_seat_colour(brandi4):
    occupancy = start_occupancy(brandi4)
    assert set(occupancy) == {hole.id for hole in brandi4.holes}
    assert occupancy["K2.3"] == "green"
    assert occupancy["T0"] is None and occupancy["H1.0"] is None
    assert start_occupancy(brandi4, ["white"] * 4)["K0.0"] == "white"


def test_bad_occupancy_is_rejected_by_name(brandi4):
    with pytest.raises(ValueError, match="T99"):
        render(brandi4, {"T99": "red"}, SMALL)
    with pytest.raises(ValueError, match="purple"):
        render(brandi4, {"T1": "purple"}, SMALL)


def _small(cond: RenderConditions) -> RenderConditions:
    return replace(cond, width=640, height=480)


def test_glare_seed_keeps_the_board_glare_in_place(brandi4):
    """Fixed lamps: frames sharing `glare_seed` have their glare spots in the same places."""
    def frame(seed, glare_seed):
        cond = RenderConditions(board_glare_spots=3, glare_strength=1.4, glare_seed=glare_seed)
        return render(brandi4, {}, cond, seed=seed).image.astype(np.float32)

    same = np.abs(frame(1, 5) - frame(2, 5)).mean()
    moved = np.abs(frame(1, None) - frame(2, None)).mean()
    assert same < 0.5 < moved


def test_a_sharp_shadow_renders_without_overflow(brandi4):
    cond = RenderConditions(shadow_depth=0.6, shadow_softness_mm=0.0, shadow_offset_mm=0.0,
                            noise_sigma=0.0, jpeg_quality=None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's overflow warning would fail the test
        image = render(brandi4, {}, cond, seed=1).image.astype(np.float32)
    lit = render(brandi4, {}, replace(cond, shadow_depth=0.0), seed=1).image.astype(np.float32)
    assert (image <= lit + 1).all() and image.mean() < 0.9 * lit.mean()


def test_marbles_and_hands_hide_the_glare_on_the_board(brandi4):
    """The lamps' reflections lie on the board's surface: what stands or hovers above it hides
    them (a marble keeps its own highlight, which `glare_strength` scales alike)."""
    every_hole = {hole.id: "blue" for hole in brandi4.holes}
    plain = RenderConditions(noise_sigma=0.0, blur_sigma=0.0, jpeg_quality=None,
                             glare_strength=1.4, glare_seed=5, hands=1)

    def frame(spots: int) -> Rendered:
        return render(brandi4, every_hole, replace(plain, board_glare_spots=spots), seed=3)

    dull, glaring = frame(0), frame(3)
    added = glaring.image.astype(np.float32) - dull.image.astype(np.float32)
    assert added.max() > 60  # the spots are there, on the bare board

    def change(hole_id: str) -> float:
        """The largest change the spots make inside a hole's marble (2 mm around its centre)."""
        now, before = (hole_pixels(f, brandi4, hole_id, 2.0) for f in (glaring, dull))
        return float(np.abs(now - before).max())

    assert max(change(h.id) for h in brandi4.holes if h.id not in glaring.touched) <= 1
    under_hand = [hole for hole, share in glaring.cover.items() if share == 1.0]
    assert under_hand and max(map(change, under_hand)) <= 1
