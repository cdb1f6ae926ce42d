"""The Animator draws scene changes and animations, and sleeps when the scene is static.

`step(now)` is driven with made-up times; one test runs the real thread to the same end.
"""

from __future__ import annotations

import threading

import pytest

from firmware_bridge import effects
from firmware_bridge.animator import Animator
from firmware_bridge.backends.sim import SimStrip
from firmware_bridge.config import LedConfig
from firmware_bridge.strip import ShownFrame

PERIOD = 1 / 30


class Clock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def strip() -> SimStrip:
    return SimStrip(LedConfig(backend="sim", count=80, gamma=1.0))


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def animator(strip: SimStrip, clock: Clock) -> Animator:
    return Animator(strip, clock=clock)


def test_nothing_to_play_draws_nothing(animator, strip) -> None:
    assert animator.step(0.0) is None
    assert animator.frames_drawn == 0 and not strip.history


def test_static_scene_is_drawn_once_and_then_nothing_is_due(animator, strip, clock,
                                                            brandi4) -> None:
    animator.play(effects.targets(brandi4, {"T5": "green"}))
    assert animator.step(clock.now) is None
    assert strip.pixels[5] == (0, 255, 0)
    for later in (0.5, 60.0, 3600.0):
        assert animator.step(clock.now + later) is None
    assert animator.frames_drawn == 1


def test_a_new_scene_is_drawn_at_once(animator, strip, clock, brandi4) -> None:
    animator.play(effects.targets(brandi4, {"T5": "green"}))
    animator.step(clock.now)
    clock.now += 0.001
    animator.play(effects.targets(brandi4, {"T6": "red"}))
    assert animator.step(clock.now) is None
    assert animator.frames_drawn == 2
    assert strip.pixels[6] == (255, 0, 0) and strip.pixels[5] == (0, 0, 0)


def test_animated_scene_is_redrawn_each_period_from_its_own_start(animator, strip, clock,
                                                                  brandi4) -> None:
    scene = effects.jack_candidates(brandi4, {"T3": "red"})
    clock.now = 10.0
    animator.play(scene)
    due = animator.step(10.0)
    assert due == pytest.approx(10.0 + PERIOD)
    assert animator.step(10.0 + PERIOD / 2) == due, "not due yet: nothing drawn"
    assert animator.frames_drawn == 1
    assert animator.step(due) == pytest.approx(10.0 + 2 * PERIOD)
    assert animator.frames_drawn == 2
    assert strip.pixels[3] == scene.frame_at(PERIOD)[3]


def test_a_late_step_skips_the_missed_frames(animator, clock, brandi4) -> None:
    animator.play(effects.jack_candidates(brandi4, {"T3": "red"}))
    animator.step(clock.now)
    assert animator.step(clock.now + 1.0) == pytest.approx(clock.now + 1.0 + PERIOD)
    assert animator.frames_drawn == 2


def test_a_static_scene_ends_the_animation(animator, strip, clock, brandi4) -> None:
    animator.play(effects.jack_candidates(brandi4, {"T3": "red"}))
    due = animator.step(clock.now)
    assert due is not None
    animator.play(effects.nothing())
    assert animator.step(due) is None
    assert strip.pixels[3] == (0, 0, 0)
    assert animator.step(due + 10.0) is None
    assert animator.frames_drawn == 2


def test_a_failing_draw_is_logged_and_stepping_goes_on(animator, strip, clock, brandi4,
                                                       caplog) -> None:
    strip.close()
    animator.play(effects.targets(brandi4, {"T5": "green"}))
    assert animator.step(clock.now) is None
    assert "could not draw" in caplog.text
    assert animator.frames_drawn == 0


def test_frame_rate_is_capped(strip) -> None:
    with pytest.raises(ValueError, match="at most 30"):
        Animator(strip, fps=60)


def test_the_thread_draws_a_scene_and_sleeps_until_closed(strip, brandi4) -> None:
    shown: list[ShownFrame] = []
    drawn = threading.Event()
    strip.add_listener(lambda frame: (shown.append(frame), drawn.set()))
    with Animator(strip) as animator:
        assert animator.running
        animator.play(effects.targets(brandi4, {"T5": "green"}))
        assert drawn.wait(timeout=10), "the thread drew no frame"
    assert not animator.running
    assert [frame.colors[5] for frame in shown] == [(0, 255, 0)]
    # Woken by play() and by close() at most (both may fall into one wake-up): a static scene
    # leaves the thread no timeout to wake for.
    assert 1 <= animator.wakeups <= 2
