"""Fixtures for the firmware bridge: board profiles and a clean LED environment."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def no_led_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests start without DOG_LED*/DOG_BUTTON* variables from the developer's shell."""
    for name in list(os.environ):
        if name.startswith(("DOG_LED", "DOG_BUTTON")):
            monkeypatch.delenv(name)
