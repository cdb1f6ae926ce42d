"""The hue check: which colour names a marble's balanced look rules out (`vision.reader.hue`)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.reader.hue import RULED_OUT_COST, passing, ruled_out, without_ruled_out
from vision.reader.palette import PALETTE

NAMES = (None, "red", "yellow", "green", "blue", "white", "black")


def lch(lightness: float, chroma: float, hue_deg: float) -> np.ndarray:
    """One L*a*b* value from lightness, chroma and hue angle."""
    angle = np.radians(hue_deg)
    return np.array([lightness, chroma * np.cos(angle), chroma * np.sin(angle)])


def out_names(look: np.ndarray, names: tuple[str | None, ...] = NAMES) -> set[str | None]:
    row = ruled_out(look[None], names)[:, 0]
    return {name for name, out in zip(names, row, strict=True) if out}


def test_dark_green_glass_is_no_black_marble_and_no_other_hue():
    # Green glass on dark wood: L* 10, still colourful, near the palette's green hue.
    assert out_names(lch(10, 30, 150)) == {"black", "red", "yellow", "blue"}


def test_black_glass_mirroring_a_faint_tint_stays_black_where_the_networks_are_sure():
    # Black glass on light wood under a cool lamp: L* 26, chroma 20, bluish. Scores per class
    # of NAMES: black leads blue by 9 log-odds in hole 0, by 3 in hole 1.
    look = lch(26, 20, -77)
    scores = np.full((len(NAMES), 2), -20.0)
    scores[NAMES.index("black")] = [3.5, -3.0]
    scores[NAMES.index("blue")] = [-5.9, -6.0]
    out = ruled_out(np.stack([look, look]), NAMES, scores)
    black = NAMES.index("black")
    assert out[black].tolist() == [False, True]
    # As colourful as coloured glass: no lead keeps black.
    scores[black] = [30.0, 30.0]
    assert ruled_out(np.stack([lch(26, 35, -77)] * 2), NAMES, scores)[black].all()


def test_black_glass_is_no_coloured_marble():
    assert out_names(lch(16, 4, 100)) == {"red", "yellow", "green", "blue"}


def test_a_look_too_dark_for_a_hue_rules_nothing_out():
    assert out_names(lch(3, 5, 140)) == set()


def test_a_look_between_grey_and_colourful_rules_nothing_out():
    assert out_names(lch(30, 10, 30)) == set()


def test_tinted_white_glass_stays_white_until_clearly_coloured():
    assert "white" not in out_names(lch(95, 25, 90))
    assert "white" in out_names(lch(60, 45, 90))


@pytest.mark.parametrize("name", ["red", "yellow", "green", "blue", "orange", "purple"])
def test_every_palette_colour_keeps_its_own_name(name):
    assert name not in out_names(PALETTE[name], (None, name, "red", "yellow", "green", "blue"))


def test_a_hue_between_two_playing_names_rules_out_neither():
    # Orange glass dealt with red and yellow playing: both lie within the slack.
    assert out_names(lch(40, 40, 60), (None, "red", "yellow", "blue")) == {"blue"}


def test_names_outside_the_palette_and_the_empty_hole_are_never_ruled_out():
    assert out_names(lch(16, 4, 100), (None, "teal", "black")) == set()


def test_a_ruled_out_best_class_leaves_the_hole_a_marble_of_another_colour():
    # Hole 0 reads black (ruled out) over green; hole 1 reads empty, black ruled out there too.
    scores = np.array([[-2.0, 3.0],    # empty
                       [-6.0, -9.0],   # green
                       [4.0, 1.0]])    # black
    out = np.array([[False, False], [False, False], [True, True]])
    settled = without_ruled_out(scores, out)
    assert settled.argmax(axis=0).tolist() == [1, 0]
    assert settled[0, 0] == -2.0 - RULED_OUT_COST and settled[0, 1] == 3.0
    assert settled[2].tolist() == [4.0 - RULED_OUT_COST, 1.0 - RULED_OUT_COST]


def test_an_empty_hole_that_changed_since_the_reference_takes_the_best_colour():
    # The empty class ruled out (the hole changed): white, the runner-up, wins.
    scores = np.array([[-4.5], [-12.9], [-6.7]])  # empty, black, white
    out = np.array([[True], [False], [False]])
    assert without_ruled_out(scores, out).argmax(axis=0).tolist() == [2]


def test_the_check_judges_a_colour_only_where_it_keeps_the_kennels_own_marbles():
    # Holes 0-2 are black's kennel (known), hole 3 a track hole. Black's known marbles fail the
    # check in the first frame (a lamp the white there does not balance), pass in the second.
    known = np.array([[False] * 4, [True, True, True, False]])
    failing = np.array([[False] * 4, [True, True, False, True]])
    keeping = np.array([[False] * 4, [False, True, False, True]])
    assert passing(failing, known).tolist() == [False, False]
    assert passing(keeping, known).tolist() == [False, True]


@pytest.mark.slow
@pytest.mark.parametrize(("case", "hole", "mirrored"), [(149, "T95", "blue"), (519, "T40", "red")])
def test_black_glass_on_light_wood_is_not_named_after_the_tint_it_mirrors(case, hole, mirrored):
    """`bench/vision.py --seed 2027`: a black marble on the 6-seat board's light wood mirrors
    the wood and the lamps (chroma 17-20, over `COLOURFUL`); the networks take it for black by
    6.5 and 9.4 log-odds. It was named after the coloured class next in line."""
    from tests.vision.conftest import benchmark_case, read_in_a_stream

    profile, start, frame, occupancy = benchmark_case(2027, case)
    _, reading = read_in_a_stream(profile, start, frame)
    assert occupancy[hole] == "black" and hole not in frame.occluded
    assert reading.holes[hole] == "black" != mirrored
