"""The Animator draws scene changes and animations, and sleeps when the scene is static."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from firmware_bridge import effects
from firmware_bridge.backends.sim import SimStrip
from firmware_bridge.config import LedConfig


def wait_until(condition: Callable[[], bool], limit: float = 5.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "the animator did not get there"
        time.sleep(0.01)


@pytest.fixture
def strip() -> SimStrip:
    return SimStrip(LedConfig(backend="sim", count=80, gamma=1.0))


def test_static_scene_is_drawn_once_then_the_thread_sleeps(strip, brandi4) -> None:
    with effects.Animator(strip) as animator:
        animator.play(effects.targets(brandi4, {"T5": "green"}))
        wait_until(lambda: animator.frames_drawn == 1)
        wakeups = animator.wakeups
        time.sleep(0.3)
        assert animator.wakeups == wakeups, "no wake-ups while nothing changes"
        assert animator.frames_drawn == 1
    assert strip.pixels[5] == (0, 255, 0)


def test_a_new_scene_wakes_the_thread(strip, brandi4) -> None:
    with effects.Animator(strip) as animator:
        animator.play(effects.targets(brandi4, {"T5": "green"}))
        wait_until(lambda: animator.frames_drawn == 1)
        animator.play(effects.targets(brandi4, {"T6": "red"}))
        wait_until(lambda: animator.frames_drawn == 2)
    assert strip.pixels[6] == (255, 0, 0) and strip.pixels[5] == (0, 0, 0)


def test_animated_scene_keeps_drawing_until_a_static_one(strip, brandi4) -> None:
    with effects.Animator(strip) as animator:
        animator.play(effects.jack_candidates(brandi4, {"T3": "red"}))
        wait_until(lambda: animator.frames_drawn >= 5)
        animator.play(effects.nothing())
        wait_until(lambda: strip.pixels[3] == (0, 0, 0))
        drawn = animator.frames_drawn
        time.sleep(0.2)
        assert animator.frames_drawn == drawn


def test_a_failing_draw_is_logged_and_the_thread_goes_on(strip, brandi4, caplog) -> None:
    with effects.Animator(strip) as animator:
        strip.close()
        animator.play(effects.targets(brandi4, {"T5": "green"}))
        wait_until(lambda: "could not draw" in caplog.text)
        assert animator.running
    assert not animator.running


def test_frame_rate_is_capped(strip) -> None:
    with pytest.raises(ValueError):
        effects.Animator(strip, fps=60)
