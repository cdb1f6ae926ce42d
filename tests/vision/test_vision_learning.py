"""BoardReader.learn and relearn: accepted positions move what the reader compares against."""

from __future__ import annotations

import numpy as np
import pytest

from hw import load_profile
from tests.vision.conftest import rendered_start, some_position
from vision.reader import BoardReader
from vision.reader.board_reader import ReadError
from vision.reader.learning import blend_surface, blend_table, interpolated
from vision.render import RenderConditions, render

PROFILE = load_profile("brandi-4")


def _reader() -> BoardReader:
    return BoardReader(PROFILE, rendered_start("brandi-4").image)


def _frame(occupancy: dict[str, str | None], **conditions: object) -> np.ndarray:
    return render(PROFILE, occupancy, RenderConditions(**conditions), seed=7).image  # type: ignore[arg-type]


def test_an_accepted_frame_is_learnt_and_moves_the_looks_half_way() -> None:
    reader = _reader()
    position = some_position(PROFILE, 3)
    image = _frame(position, light_level=0.7, color_temperature_k=4000)
    before = reader.reference
    assert before is not None and reader.prototypes is not None
    means_before = reader.prototypes.means.copy()
    assert reader.learn(image, position)
    after = reader.reference
    assert after is not None
    frame = reader.read(image).features
    empty_track = np.array([h.kind == "track" and position[h.id] is None
                            for h in PROFILE.holes])
    moved = (after.ring - before.ring)[empty_track]
    wanted = (frame.ring - before.ring)[empty_track]
    assert np.allclose(moved, 0.5 * wanted, atol=1e-4)
    assert not np.allclose(reader.prototypes.means, means_before)
    assert reader.read(image).holes == position


def test_an_occluded_frame_is_not_learnt() -> None:
    reader = _reader()
    position = some_position(PROFILE, 4)
    image = _frame(position, hands=1)
    reference = reader.reference
    assert not reader.learn(image, position)
    assert reader.reference is reference


def test_a_reading_that_disagrees_with_the_truth_is_not_learnt() -> None:
    reader = _reader()
    position = some_position(PROFILE, 5)
    image = _frame(position)
    told = dict(position)
    empty = [hole for hole, colour in position.items() if colour is None][:3]
    for hole in empty:
        told[hole] = "red"
    reference, prototypes = reader.reference, reader.prototypes
    assert not reader.learn(image, told)
    assert reader.reference is reference and reader.prototypes is prototypes


def test_a_wrong_truth_is_a_read_error() -> None:
    reader = _reader()
    position = some_position(PROFILE, 6)
    image = _frame(position)
    with pytest.raises(ReadError, match="purple"):
        reader.learn(image, position | {"T0": "purple"})
    with pytest.raises(ReadError, match="T0"):
        reader.learn(image, {k: v for k, v in position.items() if k != "T0"})
    with pytest.raises(ReadError, match="reference"):
        BoardReader(PROFILE).learn(image, position)


def test_learning_follows_a_darkening_evening() -> None:
    """Frame by frame darker and warmer: the learning reader keeps reading every hole."""
    reader = _reader()
    position = some_position(PROFILE, 8)
    for step in range(1, 6):
        image = _frame(position, light_level=1.0 - 0.14 * step,
                       color_temperature_k=5000 - 450 * step, gradient=0.08 * step)
        assert reader.read(image).holes == position
        assert reader.learn(image, position)


def lamp_switched_off(image: np.ndarray) -> np.ndarray:
    """The frame with a warm lamp switched off that lit its right part: from a third of the
    width on, darker and bluer, down to a hundredth of the red light and two fifths of the
    green. (A milder ramp the reader follows by itself: the board's grain still shows there,
    `occlusion.without_grain_shown`, and the census places the marbles left in doubt; with a
    fiftieth of the red, in every position 1-15 of `some_position`.)"""
    width = image.shape[1]
    ramp = np.clip((np.arange(width) / width - 0.3) / 0.3, 0, 1)[None, :, None]
    keep = 1 - 0.99 * ramp * np.array([0.1, 0.6, 1.0])  # BGR: the lamp's light is mostly red
    return np.clip(image * keep, 0, 255).astype(np.uint8)


def lamp_switched_off_game(later_seed: int) -> tuple[dict[str, str | None], np.ndarray,
                                                     dict[str, str | None], np.ndarray]:
    """An accepted position and its frame, then a later position (`some_position` of
    ``later_seed``) and its frame, both after a lamp was switched off."""
    accepted, later = some_position(PROFILE, 3), some_position(PROFILE, later_seed)
    now = lamp_switched_off(_frame(accepted, noise_sigma=2.0))
    after = lamp_switched_off(render(PROFILE, later, RenderConditions(noise_sigma=2.0),
                                      seed=8).image)
    return accepted, now, later, after


def test_a_lamp_switched_off_mid_game_is_relearnt_from_the_accepted_position() -> None:
    # The reader doubts more than the census can place and cannot learn the new light by
    # itself.
    reader = _reader()
    accepted, now, later, after = lamp_switched_off_game(9)
    assert reader.read(after).occluded          # the table would wait for ever
    assert not reader.learn(now, accepted)
    assert reader.relearn(now, accepted)
    reading = reader.read(after)
    assert reading.holes == later and not reading.occluded
    assert reader.learn(after, later)
    with pytest.raises(ReadError, match="purple"):
        reader.relearn(now, accepted | {"T0": "purple"})


@pytest.mark.parametrize("later_seed", [4, 5, 6, 10, 11])
def test_after_relearning_a_lamp_switched_off_no_marble_is_read_as_another_colour(
        later_seed: int) -> None:
    # Light only the relit training seed draws (`vision.render.relight`): in it a hole may be
    # "?", never a definite wrong value (a network fine-tuned without that seed read a red
    # marble here as blue).
    reader = _reader()
    accepted, now, later, after = lamp_switched_off_game(later_seed)
    assert reader.relearn(now, accepted)
    holes = reader.read(after).holes
    assert {h: v for h, v in holes.items() if v not in ("?", later[h])} == {}


def test_interpolation_takes_the_nearest_change_and_fair_points_their_own() -> None:
    known = np.array([[0.0, 0.0], [500.0, 0.0]])
    values = np.array([[1.0, 1.0, 1.0], [-1.0, -1.0, -1.0]])
    near = interpolated(values, known, np.array([[10.0, 0.0], [490.0, 0.0]]))
    assert near[0, 0] > 0.99 and near[1, 0] < -0.99
    stored = np.zeros((3, 3))
    frame = np.array([[0.2] * 3, [0.4] * 3, [9.0] * 3])
    points = np.array([[0.0, 0.0], [20.0, 0.0], [10.0, 0.0]])
    blended = blend_surface(stored, frame, np.array([True, True, False]), points)
    assert np.allclose(blended[:2, 0], [0.1, 0.2])
    assert np.isclose(blended[2, 0], 0.15)  # not its own (a marble's shadow), its neighbours'


def test_the_table_beside_the_board_follows_the_light_where_both_frames_show_it() -> None:
    before = (np.zeros((3, 3), np.float32), np.array([True, True, False]))
    now = (np.full((3, 3), 2.0, np.float32), np.array([True, False, True]))
    colours, seen = blend_table(before, now, 0.5)
    assert np.allclose(colours, 1.0)
    assert seen.tolist() == [True, False, False]
    assert blend_table(None, now, 0.5) is now
