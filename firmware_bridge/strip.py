"""The LED strip: one interface, several backends, chosen like gpiozero chooses a pin factory.

    with open_strip(LedConfig.from_env(), led_count=profile.led_count) as strip:
        strip.set_frame({5: (0, 255, 0)})
        strip.show()

`LedStrip` keeps the frame to show (LED index → RGB, in the colours a person means), and `show()`
turns it into what the LEDs get: brightness (or night brightness), gamma, then the current
budget. Backends only push finished RGB triples to the hardware:

- `ws281x`: rpi_ws281x on a Raspberry Pi 3/4/Zero 2 (PWM on GPIO 18 by default);
- `pi5`: SPI through pi5neo on a Raspberry Pi 5;
- `sim`: in memory, with a short history, mirrored on the web page;
- `none`: nothing at all.

`auto` picks by the Pi model in `/proc/device-tree/model` and falls back to `sim`, with a log
line saying why, when there is no Pi or its library is missing. Each backend lives in its own
module under `firmware_bridge.backends`, named in `BACKEND_CLASSES` and imported only when it is
opened.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType, TracebackType

from firmware_bridge import shutdown
from firmware_bridge.colors import OFF, Frame, Rgb
from firmware_bridge.config import LedConfig
from firmware_bridge.listeners import Listeners
from firmware_bridge.power import estimate_ma, fit_budget, gamma_table

log = logging.getLogger(__name__)

MODEL_PATH = Path("/proc/device-tree/model")

class LedBackendError(RuntimeError):
    """A backend cannot run here: wrong machine, missing library or device."""


@dataclass(frozen=True)
class ShownFrame:
    """One frame as it went out: `colors` as meant (after brightness), `output` as sent."""

    timestamp: float
    colors: tuple[Rgb, ...]
    output: tuple[Rgb, ...]
    current_ma: float


Listener = Callable[[ShownFrame], None]


class LedStrip(ABC):
    """A strip of `count` RGB LEDs. Thread-safe; a context manager that goes dark on exit."""

    backend: str = ""

    def __init__(self, config: LedConfig) -> None:
        if config.count is None:
            raise ValueError("LED count unknown: give the board profile's led_count or a count")
        self.config = config
        self.count = config.count
        self._frame: Frame = {}
        self._brightness = config.brightness
        self._night = False
        self._gamma = gamma_table(config.gamma)
        self._listeners: Listeners[ShownFrame] = Listeners("LED")
        self._lock = threading.RLock()
        self._closed = False
        self.last_shown: ShownFrame | None = None
        self.reason = f"{self.backend} opened directly"
        """Why this backend drives the LEDs (set by `open_strip`)."""

    # -- what to show -------------------------------------------------------------------------
    def set(self, index: int, color: Rgb) -> None:
        """Set one LED of the pending frame (shown by the next `show()`)."""
        with self._lock:
            self.set_frame({**self._frame, index: color})

    def set_frame(self, frame: Mapping[int, Rgb]) -> None:
        """Replace the pending frame; `ValueError` (and no change) on a bad index or colour."""
        checked = {}
        for index, color in frame.items():
            if not (isinstance(index, int) and 0 <= index < self.count):
                raise ValueError(f"LED index {index!r} is outside the strip (0…{self.count - 1})")
            if not (isinstance(color, tuple | list) and len(color) == 3
                    and all(isinstance(v, int) and 0 <= v <= 255 for v in color)):
                raise ValueError(f"LED {index}: colour {color!r} is not three integers 0…255")
            if tuple(color) != OFF:
                checked[index] = (color[0], color[1], color[2])
        with self._lock:
            self._frame = checked

    @property
    def frame(self) -> Frame:
        """A copy of the pending frame."""
        with self._lock:
            return dict(self._frame)

    # -- comfort ------------------------------------------------------------------------------
    @property
    def brightness(self) -> float:
        """Day brightness 0…1 (in perceived terms: gamma is applied after it)."""
        return self._brightness

    @brightness.setter
    def brightness(self, value: float) -> None:
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"brightness {value!r} must be between 0 and 1")
        self._brightness = value

    @property
    def night(self) -> bool:
        """Night mode: `config.night_brightness` instead of `brightness`."""
        return self._night

    @night.setter
    def night(self, value: bool) -> None:
        self._night = bool(value)

    # -- output -------------------------------------------------------------------------------
    def show(self) -> ShownFrame:
        """Push the pending frame to the LEDs through brightness, gamma and the budget."""
        with self._lock:
            if self._closed:
                raise RuntimeError(f"the {self.backend} LED strip is closed")
            shown = self._render(self._frame)
            self._write(shown.output)
            self.last_shown = shown
        self._listeners.notify(shown)
        return shown

    def off(self) -> None:
        """Turn every LED dark now."""
        self.set_frame({})
        self.show()

    def close(self) -> None:
        """Go dark and stop accepting frames; closing twice is harmless.

        The hardware libraries free their device themselves when the process ends.
        """
        with self._lock:
            if self._closed:
                return
            try:
                self.off()
            finally:
                self._closed = True
                shutdown.unregister(self)

    @property
    def closed(self) -> bool:
        """True once `close()` ran."""
        return self._closed

    def add_listener(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(shown_frame)` after every `show()`; returns a function to remove it."""
        return self._listeners.add(listener)

    def __enter__(self) -> LedStrip:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return f"<{type(self).__name__} {self.backend} count={self.count} {state}>"

    def _render(self, frame: Frame) -> ShownFrame:
        level = self.config.night_brightness if self._night else self._brightness
        colors = [OFF] * self.count
        for index, (r, g, b) in frame.items():
            colors[index] = (round(r * level), round(g * level), round(b * level))
        table = self._gamma
        corrected = [(table[r], table[g], table[b]) for r, g, b in colors]
        output = fit_budget(corrected, self.config.budget_ma)
        return ShownFrame(time.time(), tuple(colors), tuple(output), estimate_ma(output))

    @abstractmethod
    def _write(self, pixels: Sequence[Rgb]) -> None:
        """Send one finished frame (RGB, one entry per LED) to the hardware."""


def import_library(module: str, install_hint: str) -> ModuleType:
    """Import a hardware library or raise `LedBackendError` saying how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise LedBackendError(f"the Python module {module!r} is missing: {install_hint}") from err


def read_pi_model(path: Path) -> str:
    """The board's model string (e.g. "Raspberry Pi 4 Model B Rev 1.4"), "" if not a Pi."""
    try:
        return path.read_bytes().rstrip(b"\x00\n").decode("ascii", "replace")
    except OSError:
        return ""


def backend_for_model(model: str) -> str | None:
    """`pi5` for a Raspberry Pi 5 family board, `ws281x` for Pi 3/4/Zero 2, else None."""
    if not model.startswith("Raspberry Pi"):
        return None
    if any(name in model for name in ("Raspberry Pi 5", "Raspberry Pi 500", "Compute Module 5")):
        return "pi5"
    ws281x_models = ("Raspberry Pi 3", "Raspberry Pi 4", "Raspberry Pi 400", "Zero 2",
                     "Compute Module 3", "Compute Module 4")
    if any(name in model for name in ws281x_models):
        return "ws281x"
    return None


BACKEND_CLASSES = {
    "ws281x": "firmware_bridge.backends.ws281x:Ws281xStrip",
    "pi5": "firmware_bridge.backends.pi5:Pi5Strip",
    "sim": "firmware_bridge.backends.sim:SimStrip",
    "none": "firmware_bridge.backends.none:NoStrip",
}
"""Backend name → `module:Class` of its strip, the way gpiozero names its pin factories. The
module is imported only when its backend is opened; the backends import `LedStrip` from here,
never the other way round."""

_LIBRARIES = {"ws281x": "rpi_ws281x", "pi5": "pi5neo"}
_MACHINES = {"ws281x": "a Raspberry Pi 3/4/Zero 2", "pi5": "a Raspberry Pi 5"}


def choose_backend(config: LedConfig, model: str) -> tuple[str, str]:
    """The backend to open and the reason, for a board whose model string is `model`.

    An explicit backend is taken as asked (a wrong machine is refused when it opens); `auto`
    falls back to `sim` when this is no supported Pi or its library is not installed.
    """
    if config.backend != "auto":
        return config.backend, f"{config.backend} asked for by the configuration"
    wanted = backend_for_model(model)
    if wanted is None:
        what = f"{model!r} is not a Raspberry Pi 3/4/5/Zero 2" if model else "this is no Pi"
        return "sim", f"{what}: showing the LEDs on the simulated strip"
    library = _LIBRARIES[wanted]
    if importlib.util.find_spec(library) is None:
        return "sim", f"{model} needs the {library} module, which is not installed " \
                      f"(pip install {library}): showing the LEDs on the simulated strip"
    return wanted, f"{model}: {wanted}"


def open_strip(
    config: LedConfig | None = None,
    *,
    led_count: int | None = None,
    model_path: Path | None = None,
) -> LedStrip:
    """Open the strip `config` asks for (default: from the environment) with `led_count` LEDs.

    `config.count`, when set, wins over `led_count` (a strip with spare LEDs). An `auto` choice
    whose hardware fails to start falls back to `sim` with a warning; an explicit one raises
    `LedBackendError`. The strip is blanked at exit and on SIGTERM.
    """
    config = LedConfig.from_env() if config is None else config
    if led_count is not None:
        config = config.with_count(led_count)
    model = read_pi_model(MODEL_PATH if model_path is None else model_path)
    backend, reason = choose_backend(config, model)
    try:
        strip = _construct(backend, config, model)
    except LedBackendError as err:
        if config.backend != "auto":
            raise
        backend, reason = "sim", f"{err}: showing the LEDs on the simulated strip"
        strip = _construct(backend, config, model)
    # Sim on a laptop is normal; sim on a Pi that should drive a strip is worth a warning.
    fell_back = backend == "sim" and backend_for_model(model) is not None
    log.log(logging.WARNING if fell_back else logging.INFO, "LED strip: %s", reason)
    strip.reason = reason
    shutdown.register(strip)
    return strip


def _construct(backend: str, config: LedConfig, model: str) -> LedStrip:
    if backend in _MACHINES:
        machine = backend_for_model(model)
        if machine != backend:
            hint = f" (use {machine})" if machine else ""
            raise LedBackendError(f"the {backend} backend needs {_MACHINES[backend]}, this is "
                                  f"{model or 'no Pi'!r}{hint}")
    return backend_class(backend)(config)


def backend_class(backend: str) -> type[LedStrip]:
    """The strip class of `backend`, its module imported now (`ValueError` for an unknown name)."""
    try:
        module_name, _, class_name = BACKEND_CLASSES[backend].partition(":")
    except KeyError:
        names = ", ".join(BACKEND_CLASSES)
        raise ValueError(f"unknown LED backend {backend!r} (backends: {names})") from None
    cls = getattr(importlib.import_module(module_name), class_name)
    if not (isinstance(cls, type) and issubclass(cls, LedStrip)):
        raise TypeError(f"{BACKEND_CLASSES[backend]} is not an LedStrip")
    return cls
