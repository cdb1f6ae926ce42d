"""The table's configuration: a TOML file, then environment variables, then options.

    board = "brandi-4"          # DOG_BOARD
    host = "0.0.0.0"            # DOG_HOST
    port = 8080                 # DOG_PORT
    language = "de"             # DOG_LANGUAGE
    state_dir = "/var/lib/dog-companion"   # DOG_STATE_DIR
    settle_s = 1.5              # DOG_SETTLE_S
    snapshot_limit_mb = 50      # DOG_SNAPSHOT_LIMIT_MB

    [camera]
    source = "picamera2"        # DOG_CAMERA: picamera2, usb:N, a URL, a file or folder, sim
    width = 1280                # without width and height: 1280 x 960, 1640 x 1232 for
    height = 960                # boards larger than 700 mm (vision.sources.frame_size_for)
    fps = 10.0

    [leds]                      # DOG_LEDS, DOG_LED_PIN, ... (firmware_bridge.config)
    backend = "auto"
    pin = 18

    [buttons]                   # DOG_BUTTONS="confirm=17,undo=27,cannot_play=22,next=23"
    confirm = 17
    bounce_s = 0.05

An unknown key or a value of the wrong kind is a :class:`ConfigError` naming it.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

DEFAULT_PORT = 8080
DEFAULT_SETTLE_S = 1.5

_TOP: dict[str, tuple[type | tuple[type, ...], str]] = {
    "board": (str, "DOG_BOARD"),
    "host": (str, "DOG_HOST"),
    "port": (int, "DOG_PORT"),
    "language": (str, "DOG_LANGUAGE"),
    "state_dir": (str, "DOG_STATE_DIR"),
    "settle_s": ((int, float), "DOG_SETTLE_S"),
    "snapshot_limit_mb": ((int, float), "DOG_SNAPSHOT_LIMIT_MB"),
}
_CAMERA: dict[str, type | tuple[type, ...]] = {
    "source": str, "width": int, "height": int, "fps": (int, float)}
_LED_KEYS: dict[str, type | tuple[type, ...]] = {
    "backend": str, "count": int, "pin": int, "order": str, "brightness": (int, float),
    "night_brightness": (int, float), "budget_ma": (int, float), "gamma": (int, float),
    "dma": int, "spi_device": str}
_BUTTON_NAMES = ("confirm", "undo", "cannot_play", "next")
LANGUAGES = ("de", "en")


class ConfigError(ValueError):
    """A configuration that cannot be used; the message names the key and value."""


@dataclass(frozen=True)
class Config:
    """Everything ``dog-companion run`` is configured with."""

    board: str = "brandi-4"
    host: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    language: str = "de"
    state_dir: Path = field(default_factory=lambda: default_state_dir({}))
    settle_s: float = DEFAULT_SETTLE_S
    snapshot_limit_mb: float = 50.0
    camera: str | None = None
    """The camera spec (None: ``vision.sources.default_spec``)."""
    camera_size: tuple[int, int] | None = None
    """Frame width and height (None: by the board, ``vision.sources.frame_size_for``)."""
    camera_fps: float = 10.0
    leds: dict[str, Any] = field(default_factory=dict)
    """`firmware_bridge.config.LedConfig` fields."""
    buttons: str = ""
    """As ``DOG_BUTTONS``: ``"confirm=17,undo=27"``."""
    button_bounce_s: float | None = None


def default_state_dir(environ: Mapping[str, str]) -> Path:
    """``DOG_STATE_DIR``, else systemd's ``STATE_DIRECTORY`` (its first entry), else
    ``~/.local/state/dog-companion``."""
    if environ.get("DOG_STATE_DIR"):
        return Path(environ["DOG_STATE_DIR"]).expanduser()
    if environ.get("STATE_DIRECTORY"):
        return Path(environ["STATE_DIRECTORY"].split(":")[0])
    return Path.home() / ".local" / "state" / "dog-companion"


def read_file(path: str | Path) -> dict[str, Any]:
    """The TOML file's contents, checked key by key."""
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError(f"config file {str(path)!r} does not exist") from None
    except OSError as error:
        raise ConfigError(f"config file {str(path)!r}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"config file {str(path)!r} is not valid TOML: {error}") from None
    sections = {"camera": _CAMERA, "leds": _LED_KEYS}
    for key, value in data.items():
        if key in sections or key == "buttons":
            if not isinstance(value, dict):
                raise ConfigError(f"config: [{key}] must be a table")
            allowed = (dict.fromkeys((*_BUTTON_NAMES, "bounce_s"), (int, float))
                       if key == "buttons" else sections[key])
            for sub, sub_value in value.items():
                if sub not in allowed:
                    raise ConfigError(f"config: unknown key {key}.{sub} "
                                      f"(known: {', '.join(allowed)})")
                _check_type(f"{key}.{sub}", sub_value, allowed[sub])
        elif key in _TOP:
            _check_type(key, value, _TOP[key][0])
        else:
            known = ", ".join([*_TOP, "camera", "leds", "buttons"])
            raise ConfigError(f"config: unknown key {key!r} (known: {known})")
    return data


def _check_type(key: str, value: object, kind: type | tuple[type, ...]) -> None:
    if isinstance(value, bool) or not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ConfigError(f"config: {key} = {value!r} must be a {names}")


def load(path: str | Path | None, environ: Mapping[str, str] | None = None,
         options: Mapping[str, Any] | None = None) -> Config:
    """The configuration: ``path`` (TOML, optional), overridden by the environment, overridden
    by ``options`` (the command line's values that are not None)."""
    env = os.environ if environ is None else environ
    data = read_file(path) if path is not None else {}
    values: dict[str, Any] = {}
    for key, (kind, variable) in _TOP.items():
        if key in data:
            values[key] = data[key]
        raw = env.get(variable, "").strip()
        if raw:
            values[key] = _from_env(variable, raw, kind)
    if "state_dir" in values:
        values["state_dir"] = Path(values["state_dir"]).expanduser()
    else:
        values["state_dir"] = default_state_dir(env)
    camera = data.get("camera", {})
    if "source" in camera:
        values["camera"] = camera["source"]
    if env.get("DOG_CAMERA", "").strip():
        values["camera"] = env["DOG_CAMERA"].strip()
    if "width" in camera or "height" in camera:
        values["camera_size"] = (int(camera.get("width", 1280)), int(camera.get("height", 960)))
    if "fps" in camera:
        values["camera_fps"] = float(camera["fps"])
    values["leds"] = _led_values(data.get("leds", {}), env)
    buttons = dict(data.get("buttons", {}))
    bounce = buttons.pop("bounce_s", None)
    values["buttons"] = ",".join(f"{name}={int(gpio)}" for name, gpio in buttons.items())
    if "DOG_BUTTONS" in env:
        values["buttons"] = env["DOG_BUTTONS"]
    if bounce is not None:
        values["button_bounce_s"] = float(bounce)
    if env.get("DOG_BUTTON_BOUNCE", "").strip():
        values["button_bounce_s"] = _from_env("DOG_BUTTON_BOUNCE", env["DOG_BUTTON_BOUNCE"],
                                              (int, float))
    for key, value in (options or {}).items():
        if value is not None:
            values[key] = Path(value).expanduser() if key == "state_dir" else value
    config = Config(**{k: v for k, v in values.items() if k in {f.name for f in fields(Config)}})
    _validate(config)
    return config


def _from_env(variable: str, raw: str, kind: type | tuple[type, ...]) -> Any:
    if kind is str:
        return raw
    try:
        return int(raw) if kind is int else float(raw)
    except ValueError:
        raise ConfigError(f"{variable}={raw!r} is not a number") from None


def _led_values(section: Mapping[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
    """LED settings of the file, with every one the environment sets taking its place."""
    from firmware_bridge.config import LedConfig

    try:
        from_env = LedConfig.from_env(env)
    except (TypeError, ValueError) as error:
        raise ConfigError(str(error)) from None
    default = LedConfig()
    values: dict[str, Any] = {
        key: float(v) if isinstance(v, int) and _LED_KEYS[key] == (int, float) else v
        for key, v in section.items()}
    for name in _LED_KEYS:
        if getattr(from_env, name) != getattr(default, name):
            values[name] = getattr(from_env, name)
    try:
        LedConfig(**values)
    except (TypeError, ValueError) as error:
        raise ConfigError(f"config: leds: {error}") from None
    return values


def _validate(config: Config) -> None:
    if not 0 <= config.port <= 65535:
        raise ConfigError(f"port {config.port!r} is not a TCP port (0…65535)")
    if config.language not in LANGUAGES:
        raise ConfigError(f"language {config.language!r} is not one of {', '.join(LANGUAGES)}")
    if not 0 <= config.settle_s <= 60:
        raise ConfigError(f"settle_s {config.settle_s!r} must be between 0 and 60 seconds")
    if config.snapshot_limit_mb <= 0:
        raise ConfigError(f"snapshot_limit_mb {config.snapshot_limit_mb!r} must be positive")
    from firmware_bridge.buttons import ButtonConfig

    try:
        ButtonConfig.parse(config.buttons)
    except ValueError as error:
        raise ConfigError(f"buttons: {error}") from None
