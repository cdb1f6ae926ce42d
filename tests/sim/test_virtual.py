"""The virtual table: its truth, its hand animation, its frames as the camera reader sees them."""

from __future__ import annotations

from functools import cache

import pytest

from companion.rules import Card, Position, legal_moves
from companion.sim.holes import HoleMap, beside, on_holes
from companion.sim.virtual import Motion, VirtualTable, hand_seed, motions_of_move
from hw import BoardProfile, load_profile
from vision.reader import BoardReader
from vision.reader.board_reader import frame_motion
from vision.render import RenderConditions, render, start_occupancy
from vision.stabilize import Observation, Stabilizer

SMALL = RenderConditions(width=480, height=360, noise_sigma=1.0)


@cache
def board() -> BoardProfile:
    return load_profile("brandi-4")


def position(pegs: list[list[str]]) -> Position:
    players = [{"color": c, "pegs": p}
               for c, p in zip(board().default_colors, pegs, strict=True)]
    return Position.from_json({"rules": "swiss", "board": 4, "players": players, "turn": 0})


def test_a_hand_seed_puts_the_hand_over_its_hole() -> None:
    for hole in ("T5", "H2.3", "K1.0"):
        shot = render(board(), start_occupancy(board()), RenderConditions(
            width=480, height=360, hands=1), seed=hand_seed(board(), hole))
        assert hole in shot.occluded


def test_hole_map_of_a_position() -> None:
    before = position([["T0*", "H1", "K", "K"], ["T20", "K", "K", "K"], ["K"] * 4, ["K"] * 4])
    holes = HoleMap.of(board(), before).holes(before)
    assert holes["T0"] == "red" and holes["H0.1"] == "red" and holes["T20"] == "yellow"
    assert [holes[f"K0.{j}"] for j in range(4)] == ["red", "red", None, None]
    assert sum(colour == "green" for colour in holes.values()) == 4


def test_hole_map_refuses_colours_the_board_does_not_have() -> None:
    with pytest.raises(ValueError, match="'green' at seat 1"):
        HoleMap(board(), ("red", "green"), (0, 1))


def test_a_seven_is_played_part_by_part_with_knocked_marbles_sent_home() -> None:
    before = position([["T3", "T20", "K", "K"], ["T21", "K", "K", "K"], ["K"] * 4, ["K"] * 4])
    hole_map = HoleMap.of(board(), before)
    move = next(m for m in legal_moves(before, Card.SEVEN)
                if m.notation == "7: red T3→T8, red T20→T22 ×yellow@T21")
    groups = motions_of_move(hole_map, move, hole_map.holes(before))
    assert groups == [[Motion("red", "T3", "T8")],
                      [Motion("red", "T20", "T22"), Motion("yellow", "T21", "K1.3")]]


def test_the_truth_changes_only_while_a_hand_is_over_the_board() -> None:
    before = position([["T3", "K", "K", "K"], ["T8", "K", "K", "K"], ["K"] * 4, ["K"] * 4])
    hole_map = HoleMap.of(board(), before)
    table = VirtualTable(board(), hole_map.holes(before), conditions=SMALL, fps=5)
    move = legal_moves(before, Card.FIVE)[0]
    table.play(hole_map, move)
    assert table.planned == hole_map.holes(move.result, table.holes)
    previous = table.holes
    hands = 0
    while table.busy:
        table.read()
        assert table.last is not None
        if table.last.hand is None:
            assert table.last.holes in (previous, table.planned)
        else:
            hands += 1
    assert hands >= 6
    assert table.holes == table.planned
    assert table.holes["T8"] == "red" and table.holes["K1.1"] == "yellow"


def test_the_reader_settles_on_the_truth_and_never_under_a_hand() -> None:
    before = position([["T3", "K", "K", "K"], ["T8", "K", "K", "K"], ["K"] * 4, ["K"] * 4])
    hole_map = HoleMap.of(board(), before)
    table = VirtualTable(board(), hole_map.holes(position([["K"] * 4] * 4)), conditions=SMALL,
                         fps=5, speed=3)
    reader = BoardReader(board(), table.read().image)
    table.place(hole_map.holes(before))
    table.play(hole_map, legal_moves(before, Card.FIVE)[0])
    stabilizer = Stabilizer(0.3)
    previous = None
    settled = []
    for _ in range(40):
        frame = table.read()
        reading = reader.read(frame.image)
        moving = previous is not None and frame_motion(previous, reading)
        previous = reading
        out = stabilizer.update(Observation(frame.timestamp, reading.holes, reading.occluded,
                                            moving))
        assert table.last is not None
        if out is not None:
            assert table.last.hand is None
            settled.append(out)
        if not table.busy and settled and settled[-1] == on_holes(board(), table.holes):
            break
    assert settled[-1] == on_holes(board(), table.holes)


def test_static_scenes_are_rendered_once_and_the_light_drifts() -> None:
    table = VirtualTable(board(), conditions=SMALL, fps=5, drift=0.2, drift_step_s=1.0)
    table.read()
    table.read()
    assert table.last is not None and table.last.cached
    assert table.light(0.0) != table.light(30.0)


def test_bad_settings_are_named() -> None:
    with pytest.raises(ValueError, match="fps"):
        VirtualTable(board(), fps=0)
    with pytest.raises(ValueError, match="no hole 'X9'"):
        VirtualTable(board()).place({"X9": "red"})


def five_players(pegs: dict[int, list[str]]) -> Position:
    """A Schmidt game of 5 on brandi-6 (seat 5 empty): each player's marbles at the start
    (four in the kennel, one fresh on its start field) unless ``pegs`` says otherwise."""
    profile = load_profile("brandi-6")
    players = [{"color": profile.default_colors[seat], "at": seat,
                "pegs": pegs.get(seat, ["K"] * 4 + [f"T{16 * seat}*"])} for seat in range(5)]
    return Position.from_json({"rules": "schmidt", "board": 6, "players": players, "turn": 0})


def test_the_fifth_marble_of_a_full_kennel_lies_beside_it_off_the_holes() -> None:
    profile = load_profile("brandi-6")
    full = five_players({2: ["K"] * 5})
    holes = HoleMap.of(profile, full).holes(full)
    assert [holes[f"K2.{j}"] for j in range(4)] == ["green"] * 4
    assert holes[beside(2)] == "green" and holes[beside(0)] is None
    assert sum(colour == "green" for colour in holes.values()) == 5
    assert beside(2) not in on_holes(profile, holes)
    assert sum(colour == "green" for colour in on_holes(profile, holes).values()) == 4


def test_a_marble_knocked_out_into_a_full_kennel_is_put_beside_it() -> None:
    profile = load_profile("brandi-6")
    before = five_players({0: ["T44", "K", "K", "K", "K"], 2: ["T40", "K", "K", "K", "K"]})
    hole_map = HoleMap.of(profile, before)
    move = next(m for m in legal_moves(before, Card.FOUR)
                if m.notation == "4 back: red T44→T40 ×green@T40")
    assert motions_of_move(hole_map, move, hole_map.holes(before)) == [
        [Motion("red", "T44", "T40"), Motion("green", "T40", beside(2))]]
    table = VirtualTable(profile, hole_map.holes(before), conditions=SMALL, fps=5, speed=4)
    table.play(hole_map, move)
    assert table.planned == hole_map.holes(move.result)
    hands = set()
    while table.busy:
        table.read()
        assert table.last is not None
        hands.add(table.last.hand)
    assert "K2.3" in hands and beside(2) not in hands  # the hand reaches for the kennel's end
    assert table.holes[beside(2)] == "green" and table.holes["T40"] == "red"


def test_the_marble_beside_a_full_kennel_is_the_first_taken_out() -> None:
    profile = load_profile("brandi-6")
    before = five_players({2: ["K"] * 5})
    before = Position.from_json({**before.to_json(), "turn": 2})
    hole_map = HoleMap.of(profile, before)
    move = next(m for m in legal_moves(before, Card.ACE) if m.notation == "A: green K→T32*")
    groups = motions_of_move(hole_map, move, hole_map.holes(before))
    assert groups == [[Motion("green", beside(2), "T32")]]
    after = hole_map.holes(move.result, hole_map.holes(before))
    assert after[beside(2)] is None and [after[f"K2.{j}"] for j in range(4)] == ["green"] * 4
