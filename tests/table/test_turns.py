"""The camera-driven turn: stable readings in, verdicts out (no camera, no page)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.table import Table, TableError
from companion.table.session import LONG_UNSETTLED_S
from firmware_bridge.effects import Scene
from hw import BoardProfile
from tests.table.conftest import Clock, moved, setup_request


class RecordingLeds:
    """The LED edge: remembers every scene the table plays."""

    def __init__(self) -> None:
        self.scenes: list[Scene] = []

    def play(self, scene: Scene) -> None:
        self.scenes.append(scene)

    def lit(self, profile: BoardProfile) -> dict[str, tuple[int, int, int]]:
        hole_of = {h.led: h.id for h in profile.holes if h.led is not None}
        return {hole_of[led]: rgb for led, rgb in self.scenes[-1].frame_at(0.0).items()}


@pytest.fixture
def leds() -> RecordingLeds:
    return RecordingLeds()


@pytest.fixture
def camera_table(profile4: BoardProfile, tmp_path: Path, clock: Clock,
                 leds: RecordingLeds) -> Table:
    table = Table(profile4, state_dir=tmp_path, clock=clock, leds=leds)
    table.attach_camera("reading", None)
    return table


def green_to_move(table: Table, green: list[str], blue: list[str] | None = None,
                  rules: Any = "swiss") -> dict[str, Any]:
    """A game where green (player 2, start T32) is to move with these pegs."""
    state = table.setup(setup_request(rules=rules))
    position = moved(state["position"], 2, green)
    if blue is not None:
        position = moved(position, 3, blue)
    state = table.override(position)     # set by the referee: the turn passes to green
    assert state["position"]["turn"] == 2
    table.feed(table.believed_holes())
    return state


def with_holes(table: Table, **changes: str | None) -> dict[str, str | None]:
    holes = table.believed_holes()
    holes.update({hole.replace("_", "."): colour for hole, colour in changes.items()})
    return holes


def test_a_reading_equal_to_a_legal_result_is_accepted_at_once(camera_table: Table) -> None:
    green_to_move(camera_table, ["T36", "K", "K", "K"])
    camera_table.announce("5")
    camera_table.feed(with_holes(camera_table, T36=None, T41="green"))
    state = camera_table.state()
    assert state["moves"] == 2 and state["verdict"]["move"] == "5: green T36→T41"
    assert state["position"]["turn"] == 3 and state["pending"] is None


def test_the_first_marble_of_a_seven_is_in_progress(camera_table: Table,
                                                    clock: Clock) -> None:
    green_to_move(camera_table, ["T36", "T50", "K", "K"])
    camera_table.announce("7")
    camera_table.feed(with_holes(camera_table, T36=None, T39="green"))
    state = camera_table.state()
    assert state["pending"] == "in progress" and state["progress"] == ["T36", "T39"]
    clock.now += 10
    camera_table.tick()
    assert camera_table.state()["pending"] == "in progress"      # never judged by time
    camera_table.feed(with_holes(camera_table, T36=None, T39="green", T50=None, T54="green"))
    state = camera_table.state()
    assert state["moves"] == 2 and state["verdict"]["legal"] is True


def test_a_knocked_out_marble_carried_home_first_is_in_progress(camera_table: Table) -> None:
    green_to_move(camera_table, ["T36", "K", "K", "K"], blue=["T41", "K", "K", "K"])
    camera_table.announce("5")
    camera_table.feed(with_holes(camera_table, T41=None, K3_3="blue"))
    state = camera_table.state()
    assert state["pending"] == "in progress" and "T41" in state["progress"]
    camera_table.feed(with_holes(camera_table, T36=None, T41="green", K3_3="blue"))
    state = camera_table.state()
    assert state["moves"] == 2
    assert state["position"]["players"][3]["pegs"] == ["K", "K", "K", "K"]


def test_half_a_jack_swap_is_in_progress(camera_table: Table) -> None:
    green_to_move(camera_table, ["T36", "K", "K", "K"], blue=["T20", "K", "K", "K"])
    camera_table.announce("J")
    camera_table.feed(with_holes(camera_table, T36=None))
    assert camera_table.state()["pending"] == "in progress"
    camera_table.feed(with_holes(camera_table, T36="blue", T20="green"))
    state = camera_table.state()
    assert state["moves"] == 2 and "↔" in state["verdict"]["move"]


def test_another_reading_is_judged_after_the_settle_time(camera_table: Table, clock: Clock,
                                                         leds: RecordingLeds) -> None:
    green_to_move(camera_table, ["T36", "K", "K", "K"])
    camera_table.announce("5")
    camera_table.feed(with_holes(camera_table, T36=None, T40="green"))
    assert camera_table.state()["pending"] is None
    clock.now += 1.0
    camera_table.tick()
    assert camera_table.state()["pending"] is None
    clock.now += 0.6
    camera_table.tick()
    state = camera_table.state()
    assert state["pending"] == "illegal" and state["verdict"]["card"] == "5"
    assert state["verdict"]["wrong"] == ["T40"] and state["verdict"]["expected"] == ["T41"]
    lit = leds.lit(camera_table.profile)
    assert lit["T41"] == (0, 255, 0) and set(lit) == {"T40", "T41"}
    # back to the position before: the verdict clears, the card stays announced
    camera_table.feed(camera_table.believed_holes())
    state = camera_table.state()
    assert state["pending"] is None and state["verdict"] is None
    assert state["announced"] == {"card": "5", "player": 2}


def test_done_judges_at_once_and_a_legal_result_then_is_accepted(camera_table: Table) -> None:
    green_to_move(camera_table, ["T36", "K", "K", "K"])
    camera_table.announce("5")
    camera_table.feed(with_holes(camera_table, T36=None, T40="green"))
    state = camera_table.done()
    assert state["pending"] == "illegal"
    camera_table.feed(with_holes(camera_table, T36=None, T40=None, T41="green"))
    assert camera_table.state()["moves"] == 2


def test_the_referee_overrides_an_illegal_camera_move(camera_table: Table) -> None:
    green_to_move(camera_table, ["T36", "K", "K", "K"])
    camera_table.announce("5")
    camera_table.feed(with_holes(camera_table, T36=None, T40="green"))
    camera_table.done()
    state = camera_table.override()
    assert state["moves"] == 2 and state["position"]["players"][2]["pegs"][-1] == "T40"
    assert state["disturbed"] == []


def test_a_jack_without_effect_waits_for_done(camera_table: Table) -> None:
    green_to_move(camera_table, ["T36", "K", "K", "K"])
    camera_table.announce("J")
    camera_table.feed(with_holes(camera_table))
    assert camera_table.state()["moves"] == 1
    state = camera_table.done()
    assert state["moves"] == 2 and state["verdict"]["move"] == "J: no effect"


def test_a_bumped_marble_without_a_card_is_reported_and_not_recorded(
        camera_table: Table, leds: RecordingLeds) -> None:
    green_to_move(camera_table, ["T36", "K", "K", "K"])
    camera_table.feed(with_holes(camera_table, T36=None, T37="green"))
    state = camera_table.state()
    assert state["disturbed"] == ["T36", "T37"] and state["moves"] == 1
    lit = leds.lit(camera_table.profile)
    assert lit["T36"] == (0, 255, 0)
    camera_table.feed(camera_table.believed_holes())
    assert camera_table.state()["disturbed"] == []


def test_an_unexplainable_camera_reading_is_an_error_not_a_guess(camera_table: Table,
                                                                 clock: Clock) -> None:
    green_to_move(camera_table, ["T36", "K", "K", "K"])
    camera_table.announce("5")
    camera_table.feed(with_holes(camera_table, T36=None, T40="green", T41="green"))
    clock.now += 2
    camera_table.tick()
    state = camera_table.state()
    assert state["pending"] is None and "5 green marbles" in state["reading_error"]
    assert state["reading_error_code"] == {"code": "too_many", "args": {
        "color": "green", "seen": 5, "expected": 4}}
    with pytest.raises(TableError):
        camera_table.done()


def test_a_camera_lost_mid_turn_leaves_manual_entry(camera_table: Table) -> None:
    state = green_to_move(camera_table, ["T36", "K", "K", "K"])
    camera_table.announce("5")
    camera_table.feed(with_holes(camera_table, T36=None))
    camera_table.camera_lost("no frame for 2 s")
    state = camera_table.state()
    assert state["camera"]["status"] == "lost" and "camera lost" in state["camera"]["warnings"][0]
    assert state["camera"]["warning_codes"] == [{"code": "camera_lost",
                                                 "args": {"why": "no frame for 2 s"}}]
    with pytest.raises(TableError):
        camera_table.done()
    after = moved(camera_table.state()["position"], 2, ["T41", "K", "K", "K"])
    state = camera_table.observe(position=after)
    assert state["moves"] == 2
    camera_table.camera_back()
    camera_table.feed(camera_table.believed_holes())
    state = camera_table.state()
    assert state["camera"]["status"] == "reading" and state["disturbed"] == []


def test_the_leds_show_the_turn_and_the_targets(camera_table: Table,
                                                leds: RecordingLeds) -> None:
    green_to_move(camera_table, ["T36", "T50", "K", "K"])
    assert set(leds.lit(camera_table.profile)) == {"T32"}        # green's start glows
    camera_table.announce("7")
    lit = leds.lit(camera_table.profile)
    assert {"T37", "T43", "T51", "T57"} <= set(lit) and "H2.0" not in lit
    assert camera_table.state()["targets"] == sorted(camera_table.state()["targets"])
    camera_table.announce("A")
    assert "T32" in leds.lit(camera_table.profile)


@pytest.mark.parametrize("rules", ["swiss", "schmidt"])
def test_six_seats_and_both_rule_sets(profile6: BoardProfile, tmp_path: Path,
                                      rules: str) -> None:
    table = Table(profile6, state_dir=tmp_path)
    table.attach_camera("reading", None)
    state = table.setup(setup_request(6, board=6, rules=rules))
    assert state["teams"] == [[0, 3], [1, 4], [2, 5]] and state["counts"] == [6] * 6
    table.announce("A")
    holes = table.believed_holes()
    holes.update({"K1.0": None, "T16": "yellow"})
    table.feed(holes)
    state = table.state()
    assert state["moves"] == 1 and state["position"]["turn"] == 2


def test_a_disputed_move_keeps_snapshots_before_and_after(profile4: BoardProfile,
                                                          tmp_path: Path) -> None:
    frames = iter([b"\xff\xd8before", b"\xff\xd8after"])
    table = Table(profile4, state_dir=tmp_path)
    table.attach_camera("reading", None, jpeg=lambda: next(frames))
    green_to_move(table, ["T36", "K", "K", "K"])
    table.announce("5")
    table.feed(with_holes(table, T36=None, T40="green"))
    state = table.done()
    snapshots = state["verdict"]["snapshots"]
    assert table.snapshot(snapshots["before"]) == b"\xff\xd8before"
    assert table.snapshot(snapshots["after"]) == b"\xff\xd8after"


def test_legal_results_for_manual_entry(camera_table: Table) -> None:
    green_to_move(camera_table, ["T36", "K", "K", "K"])
    assert camera_table.legal_results() == []
    camera_table.announce("5")
    results = camera_table.legal_results()
    assert [r["notation"] for r in results] == ["5: green T36→T41"]
    assert camera_table.observe(position=results[0]["result"])["moves"] == 2


def test_a_takeback_shows_which_marbles_to_put_back(camera_table: Table,
                                                    leds: RecordingLeds) -> None:
    green_to_move(camera_table, ["T36", "K", "K", "K"])
    camera_table.announce("5")
    camera_table.feed(with_holes(camera_table, T36=None, T41="green"))
    assert camera_table.state()["moves"] == 2
    state = camera_table.undo()
    assert state["moves"] == 1 and state["disturbed"] == ["T36", "T41"]
    lit = leds.lit(camera_table.profile)
    assert lit["T36"] == (0, 255, 0)
    camera_table.feed(camera_table.believed_holes())
    assert camera_table.state()["disturbed"] == []       # the board matches again


def test_a_board_unsettled_for_long_says_so_until_it_settles(camera_table: Table,
                                                             clock: Clock) -> None:
    # A lamp switched on mid-game (or a hand left over the board): no stable reading comes,
    # and the page asks whether the light changed.
    green_to_move(camera_table, ["T36", "K", "K", "K"])
    camera_table.unsettled()
    clock.now += LONG_UNSETTLED_S - 1.0
    camera_table.unsettled()        # still disturbed: the time runs from the first
    camera_table.tick()
    assert not camera_table.state()["camera"]["unsettled_long"]
    version = camera_table.state()["version"]
    clock.now += 1.0
    camera_table.tick()
    state = camera_table.state()
    assert state["camera"]["unsettled_long"] and state["version"] > version  # pushed
    camera_table.feed(camera_table.believed_holes())    # the board settles
    assert not camera_table.state()["camera"]["unsettled_long"]
    clock.now += LONG_UNSETTLED_S
    camera_table.tick()
    assert not camera_table.state()["camera"]["unsettled_long"]


def test_a_camera_lost_while_the_board_is_unsettled_does_not_ask_about_the_light(
        camera_table: Table, clock: Clock) -> None:
    green_to_move(camera_table, ["T36", "K", "K", "K"])
    camera_table.unsettled()
    clock.now += LONG_UNSETTLED_S
    camera_table.tick()
    assert camera_table.state()["camera"]["unsettled_long"]
    camera_table.camera_lost("unplugged")
    camera = camera_table.state()["camera"]
    assert camera["status"] == "lost" and not camera["unsettled_long"]
    clock.now += LONG_UNSETTLED_S
    camera_table.tick()
    assert not camera_table.state()["camera"]["unsettled_long"]
    camera_table.camera_back()      # the clock runs again from the next disturbed frame
    clock.now += LONG_UNSETTLED_S
    camera_table.tick()
    assert not camera_table.state()["camera"]["unsettled_long"]


def test_a_hand_over_the_board_restarts_the_settle_time(camera_table: Table,
                                                        clock: Clock) -> None:
    green_to_move(camera_table, ["T36", "K", "K", "K"])
    camera_table.announce("5")
    wrong = with_holes(camera_table, T36=None, T40="green")
    camera_table.feed(wrong)
    clock.now += 1.0
    camera_table.unsettled()        # a hand reaches over the board again
    clock.now += 1.0
    camera_table.tick()
    assert camera_table.state()["pending"] is None     # not judged under the hand
    camera_table.feed(wrong)        # the hand left the board as it was
    clock.now += 1.6
    camera_table.tick()
    assert camera_table.state()["pending"] == "illegal"
