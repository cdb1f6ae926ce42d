"""Fixtures shared by every test folder."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@pytest.fixture
def repo() -> Path:
    """The checkout's root folder."""
    return REPO
