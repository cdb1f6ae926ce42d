"""The table's settings the referee changes on the page: LED brightness, night mode, settle time.

They are kept in ``settings.json`` in the state directory (written whole, then renamed into
place), so a restart keeps them; a value saved there wins over the configuration's, which is
only the default until the referee changes it.
"""

from __future__ import annotations

import json
import logging
import math
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from companion.table.errors import TableError

log = logging.getLogger(__name__)

FILE_NAME = "settings.json"
SETTLE_RANGE_S = (0.2, 10.0)
KEYS = ("brightness", "night", "settle_s")


@dataclass(frozen=True)
class Settings:
    """``brightness``: the strip's day brightness 0…1; ``night``: night mode (the strip's
    night brightness instead); ``settle_s``: how long a reading must stay unchanged before it
    is judged."""

    brightness: float = 1.0
    night: bool = False
    settle_s: float = 1.5

    def to_json(self) -> dict[str, Any]:
        """The state's ``settings`` object."""
        return asdict(self)

    def changed(self, changes: Mapping[str, Any]) -> Settings:
        """These settings with ``changes`` applied, each checked; `TableError` (400) naming
        the key for an unknown key or a bad value."""
        if not isinstance(changes, Mapping) or not changes:
            raise TableError(f"settings: give at least one of {', '.join(KEYS)}", 400)
        values: dict[str, Any] = {}
        for key, value in changes.items():
            if key not in KEYS:
                raise TableError(f"settings: unknown key {key!r} (allowed: "
                                 f"{', '.join(KEYS)})", 400)
            values[key] = _checked(key, value)
        return replace(self, **values)


def _number(key: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not math.isfinite(value):
        raise TableError(f"settings: {key!r} must be a number, not {value!r}", 400)
    return float(value)


def _checked(key: str, value: object) -> object:
    if key == "night":
        if not isinstance(value, bool):
            raise TableError(f"settings: 'night' must be true or false, not {value!r}", 400)
        return value
    number = _number(key, value)
    if key == "brightness" and not 0.0 <= number <= 1.0:
        raise TableError(f"settings: 'brightness' must be between 0 and 1, not {value!r}", 400)
    low, high = SETTLE_RANGE_S
    if key == "settle_s" and not low <= number <= high:
        raise TableError(f"settings: 'settle_s' must be between {low:g} and {high:g} seconds, "
                         f"not {value!r}", 400)
    return number


def load_settings(state_dir: Path | None, default: Settings) -> Settings:
    """The saved settings over ``default``; a missing file gives ``default``, a damaged one
    too (with a warning in the log)."""
    if state_dir is None:
        return default
    path = state_dir / FILE_NAME
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return default
    except (OSError, ValueError) as error:
        log.warning("settings: %s cannot be read (%s); using the defaults", path, error)
        return default
    try:
        known = {key: value for key, value in saved.items() if key in KEYS}
        return default.changed(known) if known else default
    except (TableError, AttributeError) as error:
        log.warning("settings: %s is not used (%s)", path, error)
        return default


def save_settings(state_dir: Path | None, settings: Settings) -> None:
    """Keep ``settings`` in the state directory (nothing without one)."""
    if state_dir is None:
        return
    path = state_dir / FILE_NAME
    partial = path.with_suffix(".json.part")
    try:
        partial.write_text(json.dumps(settings.to_json(), indent=1) + "\n", encoding="utf-8")
        os.replace(partial, path)
    except OSError as error:
        raise TableError(f"settings: cannot be saved in {state_dir} ({error.strerror})",
                         409) from None
