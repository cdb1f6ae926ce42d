"""LedConfig from code and from DOG_LED* variables; bad values are named."""

from __future__ import annotations

import pytest

from firmware_bridge import cli
from firmware_bridge.config import BACKENDS, LedConfig


def test_defaults() -> None:
    config = LedConfig()
    assert (config.backend, config.pin, config.order, config.budget_ma) == (
        "auto", 18, "GRB", 2000.0)
    assert config.count is None


def test_from_environment() -> None:
    env = {"DOG_LEDS": "SIM", "DOG_LED_PIN": "10", "DOG_LED_COUNT": "120",
           "DOG_LED_ORDER": "rgb", "DOG_LED_BRIGHTNESS": "0.5", "DOG_LED_BUDGET_MA": "3000",
           "DOG_LED_GAMMA": "2.8", "DOG_LED_NIGHT": "0.05"}
    config = LedConfig.from_env(env)
    assert config == LedConfig(backend="sim", pin=10, count=120, order="RGB", brightness=0.5,
                               budget_ma=3000.0, gamma=2.8, night_brightness=0.05)


def test_overrides_win_over_the_environment() -> None:
    config = LedConfig.from_env({"DOG_LEDS": "none"}, backend="sim", count=None)
    assert config.backend == "sim"


@pytest.mark.parametrize(("env", "message"), [
    ({"DOG_LEDS": "neopixel"}, "neopixel"),
    ({"DOG_LED_PIN": "eighteen"}, "DOG_LED_PIN"),
    ({"DOG_LED_ORDER": "BGR"}, "BGR"),
    ({"DOG_LED_BRIGHTNESS": "2"}, "brightness"),
    ({"DOG_LED_COUNT": "0"}, "count"),
    ({"DOG_LED_BUDGET_MA": "-1"}, "budget"),
])
def test_bad_values_are_named(env: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LedConfig.from_env(env)


def test_with_count_keeps_an_explicit_count() -> None:
    assert LedConfig().with_count(80).count == 80
    assert LedConfig(count=90).with_count(80).count == 90


def test_cli_offers_every_backend() -> None:
    assert cli.BACKEND_CHOICES == BACKENDS
