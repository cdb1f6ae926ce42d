"""BoardMap with five marbles a player and four holes a kennel (Schmidt rules, brandi-6).

A full kennel's fifth marble lies beside it, in no hole: the map counts a player's kennel
marbles as its marbles minus those seen on the track and at home, so four kennel holes full
are five kennel marbles. Both the camera's readings and readings entered by hand
(``POST /api/observe {"holes": ...}``) go through it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.rules import Position
from companion.table import BoardMap, ReadingError, Table
from hw import BoardProfile, load_profile
from tests.table.conftest import moved, setup_request
from tests.web.apiclient import make_app, referee


def five_players(pegs: dict[int, list[str]], turn: int = 0) -> Position:
    """A Schmidt game of 5 on brandi-6 (seat 5 empty); the players not in ``pegs`` as at the
    start (four marbles in the kennel, one fresh on the start field)."""
    profile = load_profile("brandi-6")
    players = [{"color": profile.default_colors[seat], "at": seat,
                "pegs": pegs.get(seat, ["K"] * 4 + [f"T{16 * seat}*"])} for seat in range(5)]
    return Position.from_json({"rules": "schmidt", "board": 6, "players": players,
                               "turn": turn})


@pytest.fixture
def board(profile6: BoardProfile) -> BoardMap:
    return BoardMap(profile6, five_players({}))


def kennel(holes: dict[str, str | None], seat: int) -> list[str | None]:
    return [holes[f"K{seat}.{j}"] for j in range(4)]


def test_five_kennel_marbles_fill_the_four_holes(board: BoardMap) -> None:
    full = five_players({2: ["K"] * 5})
    holes = board.holes(full)
    assert kennel(holes, 2) == ["green"] * 4
    assert sum(colour == "green" for colour in holes.values()) == 4
    assert board.view(full)["K2"] == "green,green,green,green"


def test_four_kennel_holes_full_and_nothing_outside_are_five_kennel_marbles(
        board: BoardMap) -> None:
    before = five_players({2: ["T40", "K", "K", "K", "K"]})
    holes = board.holes(before)
    holes["T40"] = None
    after = board.position(holes, before)
    assert after.players[2].pegs == ("K",) * 5


@pytest.mark.parametrize("pegs", [
    {2: ["K"] * 5},
    {0: ["K"] * 5, 2: ["K"] * 5, 4: ["K"] * 5},
    {2: ["T40", "K", "K", "K", "K"], 3: ["K"] * 5},
    {2: ["T32*", "K", "K", "K", "K"], 1: ["H0", "H1", "K", "K", "K"]},
    {2: ["H3", "K", "K", "K", "K"]},
])
def test_positions_with_five_kennel_marbles_round_trip(board: BoardMap,
                                                       pegs: dict[int, list[str]]) -> None:
    position = five_players(pegs)
    holes = board.holes(position)
    again = board.position(holes, position)
    assert again == position
    assert board.view(again) == board.view_of(holes)


def test_taking_out_the_marble_beside_a_full_kennel_marks_it_fresh(board: BoardMap) -> None:
    before = five_players({2: ["K"] * 5})
    holes = board.holes(before)
    holes["T32"] = "green"
    after = board.position(holes, before)
    assert sorted(after.players[2].pegs) == ["K", "K", "K", "K", "T32*"]


def test_a_marble_taken_from_a_hole_of_a_full_kennel_leaves_the_fifth_beside_it(
        board: BoardMap) -> None:
    before = five_players({2: ["K"] * 5})
    holes = board.holes(before)
    holes.update({"K2.0": None, "T32": "green"})  # out of a hole, not from beside the kennel
    after = board.position(holes, before)
    assert sorted(after.players[2].pegs) == ["K", "K", "K", "K", "T32*"]


def test_a_marble_missing_from_a_kennel_that_is_not_full_is_too_few(board: BoardMap) -> None:
    before = five_players({2: ["K"] * 5})
    holes = board.holes(before)
    holes["K2.0"] = None
    with pytest.raises(ReadingError, match="3 green marbles seen, 5 expected") as error:
        board.position(holes, before)
    assert error.value.code == "too_few"


def test_a_sixth_marble_is_too_many(board: BoardMap) -> None:
    before = five_players({2: ["K"] * 5})
    holes = board.holes(before)
    holes.update({"T33": "green", "T34": "green"})
    with pytest.raises(ReadingError, match="6 green marbles on the board; green plays 5"):
        board.position(holes, before)


def knock_out_position(table: Table) -> dict[str, Any]:
    """Green (to move) at T36, blue's one marble out at T40 with its kennel's holes full."""
    start = table.state()["position"]
    target = moved(moved(start, 2, ["T36", "K", "K", "K", "K"]), 3, ["T40", "K", "K", "K", "K"])
    state = table.override(target)
    assert state["position"]["turn"] == 2
    return state


def test_a_knock_out_into_a_full_kennel_entered_by_hand(profile6: BoardProfile,
                                                       tmp_path: Path) -> None:
    table = Table(profile6, state_dir=tmp_path, simulated=True,
                  hardware={"camera": "none", "leds": "sim"})
    table.setup(setup_request(5, board=6, rules="schmidt"))
    knock_out_position(table)
    ref = referee(make_app(table))
    assert ref.post("/api/cards", {"card": "4"}).status_code == 200
    holes = table.state()["holes"]
    holes.update({"T36": None, "T40": "green"})
    answer = ref.post("/api/observe", {"holes": holes})
    assert answer.status_code == 200, answer.get_json()
    state = answer.get_json()
    assert state["verdict"]["legal"] is True
    assert state["verdict"]["move"] == "4: green T36→T40 ×blue@T40"
    assert state["position"]["players"][3]["pegs"] == ["K"] * 5
    assert kennel(state["holes"], 3) == ["blue"] * 4
    assert state["position"]["turn"] == 3
    assert ref.post("/api/cards", {"card": "A"}).status_code == 200
    holes = state["holes"]
    holes["T48"] = "blue"
    state = ref.post("/api/observe", {"holes": holes}).get_json()
    assert state["verdict"]["legal"] is True and state["verdict"]["move"] == "A: blue K→T48*"
    assert sorted(state["position"]["players"][3]["pegs"]) == ["K", "K", "K", "K", "T48*"]
