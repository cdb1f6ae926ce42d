"""Buttons through gpiozero's MockFactory: presses become events for callbacks and queues."""

from __future__ import annotations

import queue

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge.buttons import ButtonConfig, ButtonEvent, ButtonPanel, open_buttons


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


@pytest.fixture
def panel(factory):
    config = ButtonConfig.parse("confirm=17,undo=27,cannot_play=22,next=23")
    with ButtonPanel(config, pin_factory=factory) as panel:
        yield panel


def press(factory: MockFactory, gpio: int) -> None:
    pin = factory.pin(gpio)
    pin.drive_low()
    pin.drive_high()


def test_a_press_reaches_callbacks_and_queues(panel, factory) -> None:
    seen: list[ButtonEvent] = []
    panel.subscribe(seen.append)
    events = panel.queue()
    press(factory, 17)
    press(factory, 22)
    assert [e.name for e in seen] == ["confirm", "cannot_play"]
    assert events.get_nowait().name == "confirm"
    assert events.get_nowait().name == "cannot_play"
    assert seen[0].timestamp <= seen[1].timestamp


def test_release_alone_is_no_press(panel, factory) -> None:
    events = panel.queue()
    factory.pin(23).drive_high()
    with pytest.raises(queue.Empty):
        events.get_nowait()


def test_unsubscribe_and_failing_subscriber(panel, factory) -> None:
    seen: list[ButtonEvent] = []
    unsubscribe = panel.subscribe(seen.append)
    panel.subscribe(lambda event: 1 / 0)
    press(factory, 27)
    unsubscribe()
    press(factory, 27)
    assert [e.name for e in seen] == ["undo"]


def test_buttons_use_pull_ups_and_debounce(panel, factory) -> None:
    pin = factory.pin(17)
    assert pin.pull == "up"
    assert pin.bounce == pytest.approx(0.05)
    assert panel.names == ("confirm", "undo", "cannot_play", "next")


def test_software_press(panel) -> None:
    events = panel.queue()
    assert panel.press("next").name == "next"
    assert events.get_nowait().name == "next"
    with pytest.raises(ValueError, match="unknown button"):
        panel.press("shuffle")


def test_close_releases_the_pins(panel, factory) -> None:
    seen: list[ButtonEvent] = []
    panel.subscribe(seen.append)
    panel.close()
    press(factory, 17)
    assert seen == [], "a closed panel delivers no presses"
    # gpiozero refuses a pin that is still held (GPIOPinInUse): a new panel gets GPIO 17.
    with ButtonPanel(ButtonConfig.parse("confirm=17"), pin_factory=factory) as again:
        events = again.queue()
        press(factory, 17)
        assert events.get_nowait().name == "confirm"


def test_no_buttons_configured_is_a_quiet_panel() -> None:
    with open_buttons(ButtonConfig.from_env({})) as panel:
        assert panel.names == ()
        events = panel.queue()
        panel.press("confirm")
        assert events.get_nowait().name == "confirm"


def test_configuration_from_environment() -> None:
    config = ButtonConfig.from_env({"DOG_BUTTONS": " confirm=5, undo=6 ",
                                    "DOG_BUTTON_BOUNCE": "0.1"})
    assert config == ButtonConfig((("confirm", 5), ("undo", 6)), 0.1)


@pytest.mark.parametrize(("text", "message"), [
    ("confirm=17,shuffle=5", "unknown button 'shuffle'"),
    ("confirm", "NAME=GPIO"),
    ("confirm=x", "NAME=GPIO"),
    ("confirm=40", "GPIO 40"),
    ("confirm=17,undo=17", "GPIO 17 is given to two"),
    ("undo=5,undo=6", "'undo' is given twice"),
])
def test_bad_configuration_is_named(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ButtonConfig.parse(text)


def test_bad_bounce_is_named() -> None:
    with pytest.raises(ValueError, match="DOG_BUTTON_BOUNCE"):
        ButtonConfig.from_env({"DOG_BUTTON_BOUNCE": "soon"})


def test_without_gpio_the_mock_factory_stands_in(monkeypatch, caplog) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    with ButtonPanel(ButtonConfig.parse("confirm=17")) as panel:
        assert panel.names == ("confirm",)
    assert "MockFactory" in caplog.text
