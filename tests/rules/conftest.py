"""Helpers for the rules tests: compact position builders and a seeded random position maker."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from companion.rules import Position

COLORS4 = ("red", "yellow", "green", "blue")
COLORS6 = ("red", "yellow", "green", "blue", "white", "black")


def make(
    pegs: Sequence[Sequence[str]] | Sequence[str],
    turn: int = 0,
    rules: Any = "swiss",
    board: int | None = None,
    seats: Sequence[int] | None = None,
    teams: Any = None,
) -> Position:
    """A position from peg lists; a list of strings like ``"T3 T20 K K"`` is split."""
    lists = [p.split() if isinstance(p, str) else list(p) for p in pegs]
    n = len(lists)
    if board is None:
        board = 6 if n > 4 else 4
    colors = COLORS6 if board == 6 else COLORS4
    players: list[dict[str, Any]] = []
    for i, peg_list in enumerate(lists):
        entry: dict[str, Any] = {"color": colors[i], "pegs": peg_list}
        if seats is not None:
            entry["at"] = seats[i]
        players.append(entry)
    obj: dict[str, Any] = {
        "format": "dog-position/1",
        "rules": rules,
        "board": board,
        "players": players,
        "turn": turn,
    }
    if teams is not None:
        obj["teams"] = teams
    return Position.from_json(obj)


def random_position(
    rng: random.Random,
    rules: Any = "swiss",
    players: int = 4,
    board: int = 4,
    on_track: float = 0.5,
    in_home: float = 0.15,
    fresh: float = 0.3,
) -> Position:
    """A valid random position: pegs on the track, in homes, fresh on starts, in kennels."""
    track_len = 16 * board
    seats = list(range(board)) if players == board else sorted(rng.sample(range(board), players))
    pegs_each = 4 if players in (4, 6) else 5
    taken: set[int] = set()
    lists: list[list[str]] = []
    for i in range(players):
        start = 16 * seats[i]
        pegs: list[str] = []
        homes = [k for k in range(4) if rng.random() < in_home]
        pegs += [f"H{k}" for k in homes][: pegs_each - 1]
        if start not in taken and rng.random() < fresh:
            taken.add(start)
            pegs.append(f"T{start}*")
        while len(pegs) < pegs_each:
            if rng.random() < on_track:
                field = rng.randrange(track_len)
                if field in taken:
                    continue
                taken.add(field)
                pegs.append(f"T{field}")
            else:
                pegs.append("K")
        lists.append(pegs)
    return make(lists, turn=rng.randrange(players), rules=rules, board=board, seats=seats)


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20240611)
