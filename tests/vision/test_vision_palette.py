"""The colour palette: L*a*b* values, white balance, naming seats by colour."""

from __future__ import annotations

import numpy as np
import pytest

from vision.reader.palette import (
    PALETTE,
    PALETTE_SRGB,
    balanced_lab,
    lab_from_srgb,
    linear_bgr,
    name_seats,
)

BOARD_SET = ("red", "yellow", "green", "blue", "white", "black")
DAYLIGHT = np.full(3, 0.8)  # linear BGR of the white: neutral, a little under full scale


def seen(srgb, white=DAYLIGHT):
    """A marble of this sRGB colour as the camera sees it under `white`: (colour, white)."""
    return linear_bgr(np.array(srgb[::-1], float)) * white, white


def test_lab_values_of_white_black_and_primaries():
    assert np.allclose(lab_from_srgb((255, 255, 255)), (100, 0, 0), atol=0.1)
    assert np.allclose(lab_from_srgb((0, 0, 0)), (0, 0, 0), atol=0.1)
    red = lab_from_srgb((255, 0, 0))
    assert red[0] == pytest.approx(53.2, abs=0.3) and red[1] > 75 and red[2] > 60
    assert PALETTE["white"][0] > 90 and PALETTE["black"][0] < 15
    assert set(BOARD_SET) <= set(PALETTE) and set(PALETTE) == set(PALETTE_SRGB)


@pytest.mark.parametrize("name", sorted(PALETTE_SRGB))
def test_every_palette_colour_is_named_as_itself(name):
    assert name_seats({0: seen(PALETTE_SRGB[name])}, BOARD_SET) == {0: name}
    warm = np.array([0.35, 0.6, 0.9])  # and under a warm lamp
    assert name_seats({0: seen(PALETTE_SRGB[name], warm)}, BOARD_SET) == {0: name}


def test_a_lamps_colour_cancels_against_the_white_under_it():
    lamp = np.array([0.45, 0.7, 1.0])  # warm light: little blue, much red (linear B, G, R)
    white = lamp * 0.8
    marble = linear_bgr(np.array(PALETTE_SRGB["blue"][::-1], float)) * white
    assert np.allclose(balanced_lab(marble, white), PALETTE["blue"], atol=0.5)
    assert np.allclose(balanced_lab(white, white), (100, 0, 0), atol=0.5)


def test_seats_get_distinct_names_the_board_set_first():
    # Two bluish seats: the clearer one is blue, the other gets another name.
    looks = {0: seen((30, 100, 200)), 1: seen((60, 110, 190)), 2: seen((200, 40, 40))}
    named = name_seats(looks, ("red", "blue", "white"))
    assert named[0] == "blue" and named[2] == "red" and len(set(named.values())) == 3
    # A dark, clearly yellow kennel (glass over a dark hole) is yellow of the board's set, not
    # black from outside it; a dark grey one is black.
    dark_yellow = seen((245, 215, 40), np.full(3, 0.06))[0], DAYLIGHT
    dark_grey = seen((30, 30, 30), np.full(3, 0.6))[0], DAYLIGHT
    assert name_seats({0: dark_yellow}, ("red", "yellow", "green", "blue")) == {0: "yellow"}
    assert name_seats({0: dark_grey}, BOARD_SET) == {0: "black"}
    # An overexposed white kennel on a board whose set has no white is still white.
    glaring = (np.full(3, 0.83), DAYLIGHT)
    assert name_seats({0: glaring, 1: seen((200, 40, 40))}, ("red", "yellow", "blue"),
                      clipped=[0]) == {0: "white", 1: "red"}
    # Orange is no colour of the board's set, but a clearly orange kennel is named so.
    assert name_seats({0: seen((240, 130, 30))}, BOARD_SET) == {0: "orange"}


def test_overexposure_is_compared_as_the_camera_clips():
    # A white so bright that blue glass clips in its blue channel and white in all three.
    bright = np.full(3, 2.0)
    blue, white = seen(PALETTE_SRGB["blue"], bright), seen(PALETTE_SRGB["white"], bright)
    ceiling = linear_bgr(np.array(247.0))
    assert (blue[0] > ceiling).any() and (white[0] > ceiling).all()
    looks = {0: (np.minimum(blue[0], ceiling), bright), 1: (np.minimum(white[0], ceiling), bright)}
    assert name_seats(looks, BOARD_SET) == {0: "blue", 1: "white"}


def test_an_overexposed_kennel_takes_the_name_the_others_leave():
    washed = (np.array([0.9, 0.85, 0.75]), DAYLIGHT)  # a blue kennel washed out to pale cyan
    looks = {0: washed, 1: seen((240, 240, 240)), 2: seen((200, 40, 40))}
    assert name_seats(looks, ("red", "blue", "white"), clipped=[0]) == {
        0: "blue", 1: "white", 2: "red"}


def test_told_names_are_kept_and_not_given_to_other_seats():
    looks = {0: seen((200, 40, 40)), 1: seen((30, 100, 200))}
    named = name_seats(looks, BOARD_SET, told={1: "red"})
    assert named[1] == "red" and named[0] != "red"
    named = name_seats(looks, BOARD_SET, told={0: "crimson"})
    assert named == {0: "crimson", 1: "blue"}


@pytest.mark.parametrize("stops", [2.0, 3.0])
def test_glass_overexposed_until_a_channel_clips_keeps_its_name(stops):
    # Blue glass lit 4-8 times brighter than its name under this white: its blue channel
    # clips and the green one climbs, a pale cyan. With white free (an empty seat) it is
    # still blue, and a white kennel beside it still white.
    ceiling = linear_bgr(np.array(247.0))
    blue, white = seen(PALETTE_SRGB["blue"]), seen(PALETTE_SRGB["white"])
    overexposed = np.minimum(blue[0] * 2 ** stops, ceiling), DAYLIGHT
    assert name_seats({0: overexposed, 1: seen((200, 40, 40))}, BOARD_SET) == {
        0: "blue", 1: "red"}
    assert name_seats({0: overexposed, 1: white}, BOARD_SET) == {0: "blue", 1: "white"}


def test_a_white_kennel_in_glare_is_not_an_overexposed_colour():
    # Nearly every colour exposed far enough clips to white; white itself is nearer.
    ceiling = linear_bgr(np.array(247.0))
    glaring = np.minimum(seen(PALETTE_SRGB["white"])[0] * 1.3, ceiling), DAYLIGHT
    assert name_seats({0: glaring}, BOARD_SET) == {0: "white"}
    assert name_seats({0: glaring}, ("red", "yellow", "green", "blue")) == {0: "white"}
