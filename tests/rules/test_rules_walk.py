"""The board's one walker (companion.rules.walk): its geometry on both boards and rule sets, and
the generator's walks (Work.forward, Work.backward) agreeing with the diagnosis's routes."""

from __future__ import annotations

import random

import pytest

from companion.rules.board import FRESH, HOME_FIELDS, KENNEL
from companion.rules.position import Position
from companion.rules.walk import Lane, Route, lanes, track_ahead
from companion.rules.work import BACKWARD_STEPS, Work
from tests.rules.conftest import make, random_position

BOARDS = [(4, "swiss"), (4, "schmidt"), (6, "swiss"), (6, "schmidt")]
SHAPES = [("swiss", 4, 4), ("schmidt", 4, 4), ("swiss", 6, 6), ("schmidt", 3, 6),
          ("schmidt", 2, 4), ("schmidt", 5, 6)]


def lone(board: int, rules: str, seat: int, peg: str) -> Position:
    """A position with one peg of the player on ``seat`` on ``peg``, all others in kennels."""
    rows = [["K"] * 4 for _ in range(board)]
    rows[seat][0] = peg
    return make(rows, turn=seat, rules=rules, board=board)


def locations(track_len: int) -> list[int]:
    return [KENNEL, FRESH, *range(track_len + HOME_FIELDS)]


@pytest.mark.parametrize(("board", "rules"), BOARDS)
def test_laps_wrap_around_the_track_in_both_directions(board: int, rules: str) -> None:
    track_len = 16 * board
    assert len(track_ahead(track_len)) == track_len
    for lane in lanes(lone(board, rules, 0, "K").layout):
        for field in range(track_len):
            ahead, behind = lane.ahead(field), lane.behind(field)
            assert ahead[0] == (field + 1) % track_len and behind[0] == (field - 1) % track_len
            assert ahead[-1] == behind[-1] == field
            assert sorted(ahead) == sorted(behind) == list(range(track_len))
            assert ahead[:-1] == tuple(reversed(behind[:-1]))
        assert lane.ahead(FRESH) == lane.ahead(lane.start)
        assert lane.behind(FRESH) == lane.behind(lane.start)


@pytest.mark.parametrize(("board", "rules"), BOARDS)
def test_each_player_turns_into_home_at_own_start_per_the_rule_set(board: int,
                                                                   rules: str) -> None:
    layout = lone(board, rules, 0, "K").layout
    track_len = layout.track_len
    assert [lane.start for lane in lanes(layout)] == [16 * seat for seat in range(board)]
    for lane in lanes(layout):
        start = lane.start
        assert lane.home == tuple(range(track_len, track_len + HOME_FIELDS))
        assert lane.to_start(start) == lane.to_start(FRESH) == 0
        assert lane.to_start((start - 1) % track_len) == 1
        assert lane.to_start((start + 1) % track_len) == track_len - 1
        assert lane.entry(FRESH) == track_len
        assert lane.entry(start) == (track_len if rules == "schmidt" else 0)
        assert lane.entry((start - 5) % track_len) == 5
        assert lane.home_ahead(track_len) == lane.home[1:]
        assert lane.home_ahead(track_len + HOME_FIELDS - 1) == ()


def test_routes_name_every_field_passed() -> None:
    lane = lanes(lone(4, "swiss", 1, "K").layout)[1]  # start T16, home codes 64 … 67
    into_home = lane.route(10, 66)
    assert into_home == Route(9, (11, 12, 13, 14, 15, 16), (0, 1), 66, True, False, False)
    assert lane.route(16, 64) == Route(1, (), (), 64, True, True, False)
    assert lane.route(FRESH, 65) == Route(2, (), (0,), 65, True, True, False)
    assert lane.route(62, 3) == Route(5, (63, 0, 1, 2), (), 3, False, False, False)
    assert lane.route(2, 62, backward=True) == Route(4, (1, 0, 63), (), 62, False, False, True)
    assert lane.route(64, 67) == Route(3, (), (1, 2), 67, False, False, False)
    assert lane.route(FRESH, 17) == Route(1, (), (), 17, False, False, False)
    for origin, target, backward in [(65, 64, False), (64, 64, False), (5, 5, False),
                                     (5, 5, True), (5, 64, True), (64, 3, True),
                                     (KENNEL, 16, False), (3, KENNEL, False), (3, FRESH, False)]:
        assert lane.route(origin, target, backward) is None


@pytest.mark.parametrize(("board", "rules"), BOARDS)
def test_a_route_is_as_long_as_the_steps_and_lists_every_field(board: int, rules: str) -> None:
    layout = lone(board, rules, 0, "K").layout
    for lane in lanes(layout):
        for origin in locations(layout.track_len):
            for target in locations(layout.track_len):
                route = lane.route(origin, target)
                assert (route.steps if route else None) == lane.steps(origin, target)
                for found in (route, lane.route(origin, target, backward=True)):
                    if found is not None:
                        assert found.landing == target
                        assert len(found.passed) + len(found.home_passed) + 1 == found.steps


def ends_on_an_empty_board(lane: Lane, origin: int, most: int) -> set[tuple[int, int]]:
    """Every ``(steps, target)`` the diagnosis's routes allow within ``most`` steps, the home
    entries the rule set forbids left out."""
    track_len = lane.track_len
    out = set()
    for target in range(track_len + HOME_FIELDS):
        route = lane.route(origin, target)
        if route is None or route.steps > most:
            continue
        if route.from_start and (origin == FRESH or lane.from_behind):
            continue
        out.add((route.steps, target))
    return out


@pytest.mark.parametrize(("board", "rules"), BOARDS)
def test_the_generator_reaches_exactly_the_routes_on_an_empty_board(board: int,
                                                                    rules: str) -> None:
    track_len = 16 * board
    for seat in (0, board - 1):
        for code in (FRESH, *range(track_len), *range(track_len, track_len + HOME_FIELDS)):
            name = lone(board, rules, 0, "K").layout.name(seat, code)
            work = Work(lone(board, rules, seat, name))
            peg = work.locs.index(code)
            lane = work.lanes[seat]
            for most in (4, 7, 13):
                for seven in (False, True):
                    ends = work.forward(peg, most, seven)
                    assert all(victims == () for _, _, victims in ends)
                    assert {(steps, target) for steps, target, _ in ends} == (
                        ends_on_an_empty_board(lane, code, most))
            back = work.backward(peg)
            if code < track_len:
                assert back is not None
                route = lane.route(code, back[0], backward=True)
                assert route is not None and route.steps == BACKWARD_STEPS
            else:
                assert back is None


@pytest.mark.parametrize("shape", SHAPES)
def test_generator_and_diagnosis_agree_on_distance_fields_and_victims(
        shape: tuple[str, int, int]) -> None:
    rules, players, board = shape
    rng = random.Random(f"walk {shape}")
    for _ in range(40):
        position = random_position(rng, rules=rules, players=players, board=board, on_track=0.7)
        work = Work(position)
        for peg, code in enumerate(work.locs):
            lane = work.lanes[work.owner[peg]]
            for seven in (False, True):
                for steps, target, victims in work.forward(peg, 13, seven):
                    route = lane.route(code, target)
                    assert route is not None and route.steps == steps
                    passed = [work.occ[field] for field in route.passed
                              if work.occ[field] not in (-1, peg)]
                    assert not any(work.protected(other) for other in passed)
                    landed = work.occ[target] if target < work.track_len else -1
                    if seven:
                        assert list(victims) == passed + ([landed] if landed >= 0 else [])
                    else:
                        assert victims == ((landed,) if landed >= 0 else ())
            back = work.backward(peg)
            if back is not None:
                route = lane.route(code, back[0], backward=True)
                assert route is not None and route.steps == BACKWARD_STEPS
                assert not any(work.occ[field] >= 0 and work.protected(work.occ[field])
                               for field in (*route.passed, back[0]))
