"""Effects: from hole ids and colours to frames, on both reference boards."""

from __future__ import annotations

import pytest

from firmware_bridge import effects
from firmware_bridge.colors import NAMED, shades, to_rgb

RED, GREEN, WHITE = NAMED["red"], NAMED["green"], NAMED["white"]


def test_targets_light_each_hole_in_its_colour(brandi4) -> None:
    scene = effects.targets(brandi4, {"T5": "green", "H0.2": "#ff0000", "K0.1": "blue"})
    assert not scene.animated
    assert scene.frame_at(0.0) == {5: GREEN, 66: RED}, "kennel holes have no LED"


def test_unknown_hole_or_colour_is_a_clear_error(brandi4) -> None:
    with pytest.raises(ValueError, match="no hole 'T64'"):
        effects.targets(brandi4, {"T64": "red"})
    with pytest.raises(ValueError, match="unknown colour 'mauve'"):
        effects.targets(brandi4, {"T1": "mauve"})
    with pytest.raises(ValueError, match="no seat 4"):
        effects.turn(brandi4, 4, "red")


def test_six_seat_board_uses_its_own_leds(brandi6) -> None:
    frame = effects.targets(brandi6, {"T95": "white", "H5.3": "white"}).frame_at(0)
    assert frame == {95: WHITE, 119: WHITE}


def test_seven_gives_each_marble_its_own_shade(brandi4) -> None:
    scene = effects.seven_reach(brandi4, {"T0": ["T3", "T7"], "T20": ["T27"]}, "red")
    first, second = shades(RED, 2)
    frame = scene.frame_at(0)
    assert frame[3] == first and frame[27] == second
    assert first != second
    assert frame[0] != first and frame[0] != (0, 0, 0), "the marble's own hole glows dimly"


def test_seven_mixes_shades_where_two_marbles_reach_one_hole(brandi4) -> None:
    frame = effects.seven_reach(brandi4, {"T0": ["T7"], "T5": ["T7"]}, "blue").frame_at(0)
    a, b = shades(NAMED["blue"], 2)
    assert frame[7] == tuple(round((x + y) / 2) for x, y in zip(a, b, strict=True))


def test_jack_candidates_pulse(brandi4) -> None:
    scene = effects.jack_candidates(brandi4, {"T3": "red", "T40": "blue"})
    assert scene.animated
    dim, bright = scene.frame_at(0.0), scene.frame_at(0.5)
    assert set(dim) == set(bright) == {3, 40}
    assert sum(dim[3]) < sum(bright[3]) and bright[3] == RED


def test_turn_glows_on_the_players_start_field(brandi4, brandi6) -> None:
    assert set(effects.turn(brandi4, 2, "green").frame_at(1.0)) == {32}
    assert effects.turn(brandi6, 5, "black").frame_at(1.0) == {80: NAMED["black"]}
    assert effects.start_field(brandi6, 5) == "T80"


def test_start_move_pulses_the_start_field(brandi4) -> None:
    scene = effects.start_move(brandi4, 1, "yellow")
    assert scene.animated and set(scene.frame_at(0.3)) == {16}


def test_illegal_move_blinks_red_where_wrong_and_shows_green_where_expected(brandi4) -> None:
    scene = effects.illegal_move(brandi4, wrong=["T9"], expected=["T8", "K0.0"])
    assert scene.frame_at(0.0) == {9: RED, 8: GREEN}
    assert scene.frame_at(0.3) == {8: GREEN}


def test_marble_back_to_kennel_flashes_its_hole(brandi4) -> None:
    scene = effects.back_to_kennel(brandi4, "T12", "blue")
    assert scene.frame_at(0.0) == {12: NAMED["blue"]}
    assert scene.frame_at(0.2)[12] != NAMED["blue"]


def test_round_over_runs_a_comet_round_the_track(brandi4) -> None:
    scene = effects.round_over(brandi4)
    early, later = scene.frame_at(0.0), scene.frame_at(1.0)
    assert len(early) == 6 and len(later) == 6
    def head(frame: dict) -> int:
        return max(frame, key=lambda led: sum(frame[led]))

    assert head(early) != head(later)
    assert all(led < 64 for led in later), "only the track"


def test_game_won_circles_the_winners_colours(brandi6) -> None:
    frame = effects.game_won(brandi6, ["red", "white"]).frame_at(0.0)
    assert len(frame) == 96 and set(frame.values()) == {RED, WHITE}
    with pytest.raises(ValueError):
        effects.game_won(brandi6, [])


def test_overlay_later_scene_wins(brandi4) -> None:
    scene = effects.overlay(effects.turn(brandi4, 0, "red"),
                            effects.targets(brandi4, {"T0": "green", "T1": "green"}))
    assert scene.animated
    assert scene.frame_at(0.0) == {0: GREEN, 1: GREEN}
    assert effects.nothing().frame_at(0.0) == {}


@pytest.mark.parametrize("text", ["#12ab", "#zzzzzz", "rouge", ""])
def test_bad_colour_text(text: str) -> None:
    with pytest.raises(ValueError):
        to_rgb(text)


def test_colour_forms() -> None:
    assert to_rgb("#0A0b0C") == (10, 11, 12)
    assert to_rgb([1, 2, 3]) == (1, 2, 3)
    with pytest.raises(ValueError):
        to_rgb((1, 2, 300))
