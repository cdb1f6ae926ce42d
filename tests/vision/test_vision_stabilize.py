"""The stabilizer: only settled, undisturbed readings are emitted, never a half-way state."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.stabilize import Observation, Stabilizer

START = {"T0": "red", "T1": None, "T2": None}
MOVED = {"T0": None, "T1": None, "T2": "red"}
LIFTED = {"T0": None, "T1": None, "T2": None}


def feed(stabilizer, frames):
    return [out for frame in frames if (out := stabilizer.update(frame)) is not None]


def test_a_reading_is_emitted_once_it_has_been_stable_long_enough():
    stabilizer = Stabilizer(0.3)
    frames = [Observation(t / 10, START) for t in range(6)]
    assert feed(stabilizer, frames) == [START]
    assert stabilizer.update(Observation(0.7, START)) is None  # not repeated


def test_nothing_is_emitted_before_the_time_is_up():
    stabilizer = Stabilizer(0.3)
    assert feed(stabilizer, [Observation(0.0, START), Observation(0.29, START)]) == []


def test_a_marble_being_moved_is_never_emitted_half_way():
    stabilizer = Stabilizer(0.3)
    frames = [Observation(t / 10, START) for t in range(5)]
    # The hand comes in (occluded), lifts the marble (hole empty, hand still there) ...
    frames += [Observation(0.5, START, occluded=True), Observation(0.6, LIFTED, occluded=True)]
    # ... the marble is briefly seen nowhere while the hand moves away ...
    frames += [Observation(0.7, LIFTED, motion=True), Observation(0.8, LIFTED)]
    frames += [Observation(0.9, {**LIFTED, "T2": "?"})]
    # ... and lands in its new hole, rolling a little before it settles.
    frames += [Observation(1.0, MOVED, motion=True)]
    frames += [Observation(1.0 + t / 10, MOVED) for t in range(1, 6)]
    assert feed(stabilizer, frames) == [START, MOVED]


def test_a_hand_passing_over_without_moving_anything_emits_nothing_new():
    stabilizer = Stabilizer(0.2)
    frames = [Observation(t / 10, START) for t in range(4)]
    frames += [Observation(0.4, START, occluded=True), Observation(0.5, START, occluded=True)]
    frames += [Observation(0.6 + t / 10, START) for t in range(4)]
    assert feed(stabilizer, frames) == [START]


def test_time_going_backwards_is_refused():
    stabilizer = Stabilizer()
    stabilizer.update(Observation(1.0, START))
    with pytest.raises(ValueError, match="earlier"):
        stabilizer.update(Observation(0.5, START))


def test_negative_stable_time_is_refused():
    with pytest.raises(ValueError, match="stable_s"):
        Stabilizer(-0.1)


STATES = [START, MOVED, LIFTED]


@given(st.lists(st.tuples(st.integers(0, 2), st.integers(1, 8), st.booleans()), max_size=30))
def test_every_emitted_state_was_held_undisturbed_for_the_stable_time(steps):
    """Property: an emitted board was seen unchanged and undisturbed for >= stable_s."""
    stabilizer = Stabilizer(0.3)
    history: list[Observation] = []
    now = 0.0
    for state, tenths, disturbed in steps:
        for _ in range(tenths):
            observation = Observation(now, STATES[state], occluded=disturbed)
            history.append(observation)
            emitted = stabilizer.update(observation)
            if emitted is not None:
                calm = [o for o in history if o.timestamp >= now - 0.3 + 1e-9]
                assert all(o.holes == emitted and not o.occluded for o in calm)
                assert any(o.timestamp <= now - 0.3 + 1e-9 for o in history)
            now = round(now + 0.1, 6)
