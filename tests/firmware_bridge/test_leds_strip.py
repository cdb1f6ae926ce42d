"""The LED strip through the simulated backend: frames, comfort, power, history, listeners."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.backends.sim import SimStrip
from firmware_bridge.config import LedConfig
from firmware_bridge.power import estimate_ma, fit_budget, gamma_table
from firmware_bridge.strip import ShownFrame


def sim(**options: object) -> SimStrip:
    config = LedConfig(backend="sim", count=options.pop("count", 8), gamma=1.0, **options)
    return SimStrip(config)


def test_shows_the_frame_and_darkens_the_rest() -> None:
    strip = sim()
    strip.set_frame({0: (10, 20, 30), 7: (255, 0, 0)})
    strip.show()
    assert strip.pixels[0] == (10, 20, 30)
    assert strip.pixels[7] == (255, 0, 0)
    assert strip.pixels[1:7] == [(0, 0, 0)] * 6


def test_set_changes_one_led_of_the_pending_frame() -> None:
    strip = sim()
    strip.set_frame({1: (1, 2, 3)})
    strip.set(2, (4, 5, 6))
    assert strip.frame == {1: (1, 2, 3), 2: (4, 5, 6)}
    assert strip.pixels == [(0, 0, 0)] * 8, "nothing reaches the LEDs before show()"


@pytest.mark.parametrize("frame", [{8: (1, 1, 1)}, {-1: (1, 1, 1)}, {0: (256, 0, 0)},
                                   {0: (1, 2)}, {0: (1.5, 0, 0)}, {0: 0xFF0000}])
def test_bad_frame_is_refused_and_changes_nothing(frame: dict) -> None:
    strip = sim()
    strip.set_frame({3: (9, 9, 9)})
    with pytest.raises(ValueError):
        strip.set_frame(frame)
    assert strip.frame == {3: (9, 9, 9)}


def test_history_is_a_ring_buffer_with_timestamps() -> None:
    strip = sim(history=3)
    for level in range(5):
        strip.set_frame({0: (level, 0, 0)})
        strip.show()
    assert [shown.output[0][0] for shown in strip.history] == [2, 3, 4]
    times = [shown.timestamp for shown in strip.history]
    assert times == sorted(times)


def test_listeners_see_every_frame_until_removed() -> None:
    strip = sim()
    seen: list[ShownFrame] = []
    remove = strip.add_listener(seen.append)
    strip.set_frame({0: (1, 1, 1)})
    strip.show()
    remove()
    strip.show()
    assert len(seen) == 1 and seen[0].colors[0] == (1, 1, 1)


def test_a_failing_listener_does_not_stop_the_strip() -> None:
    strip = sim()
    strip.add_listener(lambda shown: 1 / 0)
    strip.set_frame({0: (5, 5, 5)})
    strip.show()
    assert strip.pixels[0] == (5, 5, 5)


def test_close_darkens_and_refuses_more_frames() -> None:
    with sim() as strip:
        strip.set_frame({0: (255, 255, 255)})
        strip.show()
    assert strip.closed and strip.pixels == [(0, 0, 0)] * 8
    strip.close()
    with pytest.raises(RuntimeError):
        strip.show()


def test_brightness_and_night_mode_scale_before_gamma() -> None:
    strip = sim(night_brightness=0.1)
    strip.set_frame({0: (200, 100, 0)})
    strip.brightness = 0.5
    assert strip.show().colors[0] == (100, 50, 0)
    strip.night = True
    assert strip.show().colors[0] == (20, 10, 0)
    with pytest.raises(ValueError):
        strip.brightness = 1.5
    assert strip.brightness == 0.5


def test_gamma_is_applied_to_the_output_only() -> None:
    strip = SimStrip(LedConfig(backend="sim", count=2, gamma=2.0))
    strip.set_frame({0: (128, 255, 0)})
    shown = strip.show()
    assert shown.colors[0] == (128, 255, 0)
    assert shown.output[0] == (64, 255, 0)


def test_gamma_table() -> None:
    assert gamma_table(1.0) == tuple(range(256))
    table = gamma_table(2.2)
    assert table[0] == 0 and table[255] == 255
    assert list(table) == sorted(table)
    assert table[128] == 56


def test_current_estimate() -> None:
    assert estimate_ma([(0, 0, 0)] * 10) == pytest.approx(10.0)
    assert estimate_ma([(255, 255, 255)]) == pytest.approx(61.0)
    assert estimate_ma([(255, 0, 0)] * 2) == pytest.approx(42.0)


def test_frame_above_budget_is_scaled_down_evenly() -> None:
    strip = sim(count=80, budget_ma=2000)
    strip.set_frame({i: (255, 255, 255) for i in range(80)})
    shown = strip.show()
    assert shown.current_ma <= 2000
    assert shown.current_ma > 1900, "scaled to the budget, not far below it"
    assert len(set(shown.output)) == 1


def test_frame_within_budget_is_untouched() -> None:
    pixels = [(255, 0, 0)] * 10
    assert fit_budget(pixels, 2000) == pixels


@given(st.lists(st.tuples(*[st.integers(0, 255)] * 3), min_size=1, max_size=120),
       st.floats(200, 5000))
def test_budget_is_never_exceeded(pixels: list[tuple[int, int, int]], budget: float) -> None:
    fitted = fit_budget(pixels, budget)
    assert estimate_ma(fitted) <= budget + 1e-6
    assert all(new[c] <= old[c] for new, old in zip(fitted, pixels, strict=True) for c in range(3))


def test_budget_below_idle_draw_is_refused() -> None:
    with pytest.raises(ValueError, match="idle"):
        LedConfig(count=120, budget_ma=100)
    with pytest.raises(ValueError, match="idle"):
        fit_budget([(0, 0, 0)] * 120, 100)
