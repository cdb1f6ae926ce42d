"""Fixtures shared by every test folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hw import BoardProfile, load_profile

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
"""The specification folder beside the checkout (CI has it, a user's clone does not): tests
that compare with it skip with a reason when it is absent."""

# As in the companion (companion/cli.py): one BLAS thread; xdist already fills the cores.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_name, "1")


@pytest.fixture
def repo() -> Path:
    """The checkout's root folder."""
    return REPO


@pytest.fixture(scope="session")
def brandi4() -> BoardProfile:
    """The 4-seat reference board."""
    return load_profile("brandi-4")


@pytest.fixture(scope="session")
def brandi6() -> BoardProfile:
    """The 6-seat reference board."""
    return load_profile("brandi-6")
