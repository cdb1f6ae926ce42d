"""The table's push buttons (confirm, undo, cannot play, next) as events, through gpiozero.

    panel = open_buttons()                 # pins from DOG_BUTTONS, none → a panel that never fires
    panel.subscribe(lambda event: print(event.name))
    events = panel.queue()                 # or read them from a queue

Each button connects a GPIO to ground; the internal pull-up holds it high, a press pulls it low.
Presses are debounced by gpiozero (`bounce_time`). Off a Pi, or with `GPIOZERO_PIN_FACTORY=mock`,
gpiozero's `MockFactory` stands in, and `press(name)` announces a press from software.
"""

from __future__ import annotations

import logging
import os
import queue
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from types import TracebackType
from typing import Any

from firmware_bridge.listeners import Listeners

log = logging.getLogger(__name__)

BUTTON_NAMES = ("confirm", "undo", "cannot_play", "next")
DEFAULT_BOUNCE_S = 0.05
GPIO_RANGE = range(2, 28)
"""GPIO 2…27: the pins on the 40-pin header."""


@dataclass(frozen=True)
class ButtonEvent:
    """A button was pressed: its name and the wall-clock time of the press."""

    name: str
    timestamp: float


Subscriber = Callable[[ButtonEvent], None]


@dataclass(frozen=True)
class ButtonConfig:
    """Which button sits on which GPIO. No pins: no buttons at all."""

    pins: tuple[tuple[str, int], ...] = ()
    bounce_time: float = DEFAULT_BOUNCE_S

    def __post_init__(self) -> None:
        names = [name for name, _ in self.pins]
        gpios = [gpio for _, gpio in self.pins]
        for name, gpio in self.pins:
            if name not in BUTTON_NAMES:
                raise ValueError(f"unknown button {name!r} (buttons: {', '.join(BUTTON_NAMES)})")
            if gpio not in GPIO_RANGE:
                raise ValueError(f"button {name}: GPIO {gpio!r} is not on the header (2…27)")
        for name in names:
            if names.count(name) > 1:
                raise ValueError(f"button {name!r} is given twice")
        for gpio in gpios:
            if gpios.count(gpio) > 1:
                raise ValueError(f"GPIO {gpio} is given to two buttons")
        if not 0.0 <= self.bounce_time <= 1.0:
            raise ValueError(f"bounce time {self.bounce_time!r} s must be between 0 and 1")

    @classmethod
    def parse(cls, text: str, bounce_time: float = DEFAULT_BOUNCE_S) -> ButtonConfig:
        """From `"confirm=17,undo=27,cannot_play=22,next=23"`; empty text means no buttons."""
        pins = []
        for item in (part.strip() for part in text.split(",")):
            if not item:
                continue
            name, sep, gpio = item.partition("=")
            if not sep or not gpio.strip().isdigit():
                raise ValueError(f"button entry {item!r} is not NAME=GPIO")
            pins.append((name.strip(), int(gpio)))
        return cls(tuple(pins), bounce_time)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ButtonConfig:
        """From `DOG_BUTTONS` (as `parse`) and `DOG_BUTTON_BOUNCE` (seconds)."""
        env = os.environ if environ is None else environ
        raw_bounce = env.get("DOG_BUTTON_BOUNCE", "").strip()
        try:
            bounce = float(raw_bounce) if raw_bounce else DEFAULT_BOUNCE_S
        except ValueError:
            raise ValueError(f"DOG_BUTTON_BOUNCE={raw_bounce!r} is not a number") from None
        return cls.parse(env.get("DOG_BUTTONS", ""), bounce)


class ButtonPanel:
    """The configured buttons; each press goes to every subscriber as a `ButtonEvent`.

    `pin_factory` is passed to gpiozero (tests give a `MockFactory`). Without one, gpiozero's
    default is used, and where it cannot run (no Pi) a `MockFactory` with a warning.
    """

    def __init__(self, config: ButtonConfig, pin_factory: Any = None) -> None:
        self.config = config
        self._subscribers: Listeners[ButtonEvent] = Listeners("button")
        self._buttons: dict[str, Any] = {}
        if config.pins:
            self._buttons = _make_buttons(config, pin_factory, self._pressed)

    @property
    def names(self) -> tuple[str, ...]:
        """Names of the buttons wired to this panel."""
        return tuple(name for name, _ in self.config.pins)

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call `subscriber(event)` on every press (from gpiozero's thread); returns unsubscribe."""
        return self._subscribers.add(subscriber)

    def queue(self) -> queue.Queue[ButtonEvent]:
        """A new queue that receives every later press."""
        events: queue.Queue[ButtonEvent] = queue.Queue()
        self.subscribe(events.put_nowait)
        return events

    def press(self, name: str) -> ButtonEvent:
        """Announce a press of `name` from software (web page, simulator) as if wired."""
        if name not in BUTTON_NAMES:
            raise ValueError(f"unknown button {name!r} (buttons: {', '.join(BUTTON_NAMES)})")
        return self._pressed(name)

    def close(self) -> None:
        """Release the GPIOs; no events are delivered afterwards."""
        self._subscribers.clear()
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _pressed(self, name: str) -> ButtonEvent:
        event = ButtonEvent(name, time.time())
        self._subscribers.notify(event)
        return event


def open_buttons(config: ButtonConfig | None = None, pin_factory: Any = None) -> ButtonPanel:
    """The button panel `config` asks for (default: from the environment)."""
    return ButtonPanel(ButtonConfig.from_env() if config is None else config, pin_factory)


def _make_buttons(
    config: ButtonConfig, pin_factory: Any, pressed: Callable[[str], Any]
) -> dict[str, Any]:
    from gpiozero import Button
    from gpiozero.exc import GPIOZeroError

    def build(factory: Any) -> dict[str, Any]:
        buttons: dict[str, Any] = {}
        try:
            for name, gpio in config.pins:
                button = Button(gpio, pull_up=True, bounce_time=config.bounce_time or None,
                                pin_factory=factory)
                button.when_pressed = partial(pressed, name)
                buttons[name] = button
        except BaseException:
            for button in buttons.values():
                button.close()
            raise
        return buttons

    if pin_factory is not None:
        return build(pin_factory)
    try:
        return build(None)
    except GPIOZeroError as err:
        from gpiozero.pins.mock import MockFactory

        log.warning("buttons: no GPIO here (%s): using gpiozero's MockFactory", err)
        return build(MockFactory())
