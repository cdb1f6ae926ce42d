"""Helpers for the table's tests: boards, setups and positions."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from companion.table import Table
from hw import BoardProfile, load_profile

COLORS = ("red", "yellow", "green", "blue", "white", "black")


def players(count: int, seats: list[int] | None = None) -> list[dict[str, Any]]:
    """Setup players: names, colours, seats."""
    seats = seats or list(range(count))
    return [{"name": f"P{i}", "color": COLORS[i], "at": seats[i]} for i in range(count)]


def setup_request(count: int = 4, board: int = 4, rules: Any = "swiss",
                  seats: list[int] | None = None, first_dealer: int = 0) -> dict[str, Any]:
    """A `POST /api/setup` body."""
    return {"rules": rules, "board": board, "players": players(count, seats),
            "first_dealer": first_dealer}


def moved(position: dict[str, Any], player: int, pegs: list[str]) -> dict[str, Any]:
    """The position with one player's pegs replaced."""
    result = copy.deepcopy(position)
    result["players"][player]["pegs"] = pegs
    return result


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def profile4() -> BoardProfile:
    return load_profile("brandi-4")


@pytest.fixture
def profile6() -> BoardProfile:
    return load_profile("brandi-6")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def table(profile4: BoardProfile, tmp_path: Path, clock: Clock) -> Table:
    return Table(profile4, state_dir=tmp_path, clock=clock)
