"""The table's Python API: setup, cards, manual observation, folds, undo, state, journal."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.store import FILE_NAME, Journal
from companion.table import Table, TableError
from hw import BoardProfile
from tests.table.conftest import moved, setup_request

STATE_KEYS = {"format", "phase", "position", "round", "dealer", "counts", "folded", "moves",
              "announced", "pending", "verdict", "winners", "version", "board", "seats",
              "simulated", "hardware", "players", "rules", "teams", "holes", "leds", "targets",
              "camera", "disturbed", "exchange", "hand_size", "progress"}


def test_state_before_setup_has_every_key(table: Table) -> None:
    state = table.state()
    assert set(state) >= STATE_KEYS
    assert state["format"] == "dog-table/1" and state["phase"] == "setup"
    assert state["position"] is None and state["players"] == [] and state["moves"] == 0
    assert len(state["holes"]) == len(table.profile.holes)


def test_setup_deals_round_one(table: Table) -> None:
    state = table.setup(setup_request())
    assert state["phase"] == "play" and state["round"] == 1 and state["dealer"] == 0
    assert state["counts"] == [6, 6, 6, 6] and state["hand_size"] == 6
    assert state["position"]["turn"] == 1 and state["exchange"] is True
    assert state["teams"] == [[0, 2], [1, 3]]
    assert [p["name"] for p in state["players"]] == ["P0", "P1", "P2", "P3"]


@pytest.mark.parametrize(("request_body", "fragment"), [
    ({"players": "x"}, "players"),
    ({"rules": "chess"}, "chess"),
    ({"board": 6}, "board 6"),
    ({"first_dealer": 9}, "first_dealer"),
    ({"colour": "red"}, "'colour'"),
])
def test_bad_setup_is_refused_with_400_naming_it(table: Table, request_body: dict[str, object],
                                                 fragment: str) -> None:
    body = {**setup_request(), **request_body}
    with pytest.raises(TableError) as error:
        table.setup(body)
    assert error.value.status == 400 and fragment in error.value.message
    assert table.state()["phase"] == "setup"


def test_announce_checks_turn_and_card(table: Table) -> None:
    table.setup(setup_request())
    version = table.state()["version"]
    with pytest.raises(TableError) as error:
        table.announce("5")
    assert error.value.status == 409 and "cannot be played" in error.value.message
    with pytest.raises(TableError) as error:
        table.announce("A", player=2)
    assert error.value.status == 409 and "not to move" in error.value.message
    with pytest.raises(TableError) as error:
        table.announce("eleven")
    assert error.value.status == 400
    assert table.state()["version"] == version
    state = table.announce("A", player=1)
    assert state["announced"] == {"card": "A", "player": 1}
    assert state["targets"] == ["T16"] and state["exchange"] is False
    assert table.announce("K")["announced"]["card"] == "K"     # replaces the card


def test_legal_observation_ends_the_turn(table: Table) -> None:
    state = table.setup(setup_request())
    table.announce("A")
    after = moved(state["position"], 1, ["K", "K", "K", "T16*"])
    state = table.observe(position=after)
    assert state["moves"] == 1 and state["position"]["turn"] == 2
    assert state["verdict"]["legal"] is True and state["verdict"]["move"] == "A: yellow K→T16*"
    assert state["counts"] == [6, 5, 6, 6] and state["announced"] is None
    assert table.history()[0]["notation"] == "A: yellow K→T16*"
    assert table.history_position(1)["players"][1]["pegs"] == ["K", "K", "K", "T16*"]
    assert table.history_position(0)["players"][1]["pegs"] == ["K"] * 4


def test_observation_by_holes_knows_fresh_marbles(table: Table) -> None:
    table.setup(setup_request())
    table.announce("A")
    holes = table.state()["holes"]
    holes.update({"K1.0": None, "T16": "yellow"})
    state = table.observe(holes=holes)
    assert state["position"]["players"][1]["pegs"] == ["K", "K", "K", "T16*"]


def test_illegal_observation_waits_for_the_position_before(table: Table) -> None:
    state = table.setup(setup_request())
    before = state["position"]
    table.announce("A")
    state = table.observe(position=moved(before, 1, ["K", "K", "K", "T20"]))
    assert state["pending"] == "illegal" and state["verdict"]["legal"] is False
    assert state["verdict"]["reason"] and state["verdict"]["nearest"]
    assert state["verdict"]["code"] and set(state["verdict"]["reasons"]) == {"de", "en"}
    assert state["verdict"]["wrong"] == ["T20"] and state["verdict"]["expected"] == ["T16"]
    assert state["moves"] == 0 and state["announced"]["card"] == "A"
    with pytest.raises(TableError):
        table.announce("K")
    state = table.observe(position=before)
    assert state["pending"] is None and state["verdict"] is None
    assert state["announced"]["card"] == "A"


def test_illegal_then_legal_result_is_accepted(table: Table) -> None:
    state = table.setup(setup_request())
    before = state["position"]
    table.announce("A")
    table.observe(position=moved(before, 1, ["K", "K", "T16", "T17"]))
    state = table.observe(position=moved(before, 1, ["K", "K", "K", "T16*"]))
    assert state["pending"] is None and state["moves"] == 1


def test_override_accepts_the_observed_position(table: Table) -> None:
    state = table.setup(setup_request())
    table.announce("A")
    table.observe(position=moved(state["position"], 1, ["K", "K", "K", "T20"]))
    state = table.override()
    assert state["moves"] == 1 and state["pending"] is None
    assert state["position"]["players"][1]["pegs"] == ["K", "K", "K", "T20"]
    assert state["position"]["turn"] == 2 and state["counts"][1] == 5


def test_override_sets_a_position(table: Table) -> None:
    state = table.setup(setup_request())
    target = moved(state["position"], 3, ["K", "K", "K", "T48*"])
    state = table.override(target)
    assert state["moves"] == 1 and state["position"]["turn"] == 2
    with pytest.raises(TableError) as error:
        table.override()
    assert error.value.status == 409


def test_manual_reading_that_no_position_explains_is_400(table: Table) -> None:
    table.setup(setup_request())
    table.announce("A")
    holes = table.state()["holes"]
    holes.update({"T5": "purple"})
    with pytest.raises(TableError) as error:
        table.observe(holes=holes)
    assert error.value.status == 400 and "purple" in error.value.message
    holes = table.state()["holes"]
    holes["K0.0"] = None
    with pytest.raises(TableError) as error:
        table.observe(holes=holes)
    assert "3 red marbles seen, 4 expected" in error.value.message
    holes = table.state()["holes"]
    del holes["T3"]
    with pytest.raises(TableError) as error:
        table.observe(holes=holes)
    assert "'T3' is missing" in error.value.message


def test_fold_in_a_team_game_sits_out_the_round(table: Table) -> None:
    table.setup(setup_request())
    with pytest.raises(TableError) as error:
        table.fold(["A", "5", "5", "5", "5", "5"])
    assert error.value.status == 409 and "can play A" in error.value.message
    state = table.fold(["5", "5", "5", "5", "6", "8"])
    assert state["folded"] == [1] and state["counts"] == [6, 0, 6, 6]
    assert state["position"]["turn"] == 2


def test_fold_with_three_players_discards_and_draws(profile4: BoardProfile,
                                                    tmp_path: Path) -> None:
    table = Table(profile4, state_dir=tmp_path)
    table.setup(setup_request(3, rules="schmidt", seats=[0, 1, 2]))
    state = table.fold()
    assert state["redrawn"] is True and state["position"]["turn"] == 1
    assert state["counts"] == [6, 6, 6]
    state = table.fold()
    assert state["position"]["turn"] == 2 and state["counts"] == [6, 5, 6]


def test_undo_takes_back_moves_and_folds_after_them(table: Table) -> None:
    state = table.setup(setup_request())
    table.announce("A")
    state = table.observe(position=moved(state["position"], 1, ["K", "K", "K", "T16*"]))
    table.fold()
    table.announce("K")
    state = table.observe(position=moved(state["position"], 3, ["K", "K", "K", "T48*"]))
    assert state["moves"] == 2 and state["folded"] == [2]
    state = table.undo()
    # right after move 1: the fold that followed it is taken back too
    assert state["moves"] == 1 and state["folded"] == [] and state["position"]["turn"] == 2
    state = table.undo(to=0)
    assert state["moves"] == 0 and state["folded"] == [] and state["exchange"] is True
    assert state["counts"] == [6, 6, 6, 6]
    with pytest.raises(TableError):
        table.undo()


def test_undo_right_after_the_last_move_takes_back_the_folds_after_it(table: Table) -> None:
    state = table.setup(setup_request())
    table.announce("A")
    state = table.observe(position=moved(state["position"], 1, ["K", "K", "K", "T16*"]))
    with pytest.raises(TableError) as error:
        table.undo(to=1)         # nothing came after move 1
    assert error.value.status == 409
    table.fold()
    assert table.state()["folded"] == [2]
    state = table.undo(to=1)
    assert state["moves"] == 1 and state["folded"] == [] and state["position"]["turn"] == 2


def test_subscribers_get_every_change_and_none_at_close(table: Table) -> None:
    listener = table.subscribe()
    first = listener.get_nowait()
    table.setup(setup_request())
    newest = None
    while not listener.empty():
        newest = listener.get_nowait()
    assert newest is not None and newest["version"] > first["version"]
    assert newest["phase"] == "play"
    table.close()
    assert listener.get_nowait() is None


def test_a_restart_rebuilds_the_game_from_the_journal(profile4: BoardProfile,
                                                      tmp_path: Path) -> None:
    table = Table(profile4, state_dir=tmp_path)
    state = table.setup(setup_request())
    table.announce("A")
    table.observe(position=moved(state["position"], 1, ["K", "K", "K", "T16*"]))
    table.fold()
    table.announce("K")
    expected = table.state()
    table.close()
    again = Table(profile4, state_dir=tmp_path)
    state = again.state()
    for key in ("phase", "position", "round", "counts", "folded", "moves", "announced",
                "pending", "players"):
        assert state[key] == expected[key], key
    assert again.history() == table.history()


def test_a_damaged_last_event_is_dropped(profile4: BoardProfile, tmp_path: Path,
                                         caplog: pytest.LogCaptureFixture) -> None:
    table = Table(profile4, state_dir=tmp_path)
    table.setup(setup_request())
    table.announce("A")
    table.close()
    with sqlite3.connect(tmp_path / FILE_NAME) as db:
        db.execute("UPDATE events SET data = substr(data, 1, 5) WHERE seq = "
                   "(SELECT MAX(seq) FROM events)")
    again = Table(profile4, state_dir=tmp_path)
    assert again.state()["announced"] is None and again.state()["phase"] == "play"
    assert "not written whole" in caplog.text
    journal = Journal.in_dir(tmp_path)
    assert len(journal.dropped()) == 1


def test_a_refused_action_writes_nothing(table: Table, tmp_path: Path) -> None:
    table.setup(setup_request())
    journal = Journal.in_dir(tmp_path)
    count = len(journal.events(1))
    for action in (lambda: table.announce("5"), lambda: table.fold(["A"] * 6),
                   lambda: table.undo(), lambda: table.override(), lambda: table.done()):
        with pytest.raises(TableError):
            action()
    assert len(journal.events(1)) == count


def test_snapshot_without_id_is_the_state_and_unknown_id_is_404(table: Table) -> None:
    assert table.snapshot()["format"] == "dog-table/1"
    with pytest.raises(TableError) as error:
        table.snapshot("7-before")
    assert error.value.status == 404


def test_an_animation_reaches_the_pages_at_most_every_interval(table: Table) -> None:
    listener = table.subscribe()
    listener.get_nowait()
    count = table.profile.led_count
    for level in range(1, 6):
        table.mirror_leds([(0, level, 0)] + [(0, 0, 0)] * (count - 1))
    assert table.state()["leds"] == {"T0": "#000500"}
    seen = []
    while not seen or seen[-1]["leds"] != {"T0": "#000500"}:
        seen.append(listener.get(timeout=5))
    assert len(seen) < 5


def test_snapshots_beyond_the_limit_drop_the_oldest(tmp_path: Path) -> None:
    from companion.table.snapshots import SnapshotStore, read_snapshot

    store = SnapshotStore(tmp_path, limit_bytes=2500)
    for number in range(1, 5):
        store.save(f"1-{number}-after", bytes(1000))
    kept = sorted(p.name for p in (tmp_path / "snapshots").iterdir())
    assert kept == ["1-3-after.jpg", "1-4-after.jpg"]
    assert read_snapshot(tmp_path, "1-4-after") == bytes(1000)
    with pytest.raises(TableError):
        read_snapshot(tmp_path, "../journal")


def test_every_deal_is_a_journal_row(table: Table, tmp_path: Path) -> None:
    table.setup(setup_request())
    for _ in range(4):
        table.fold()
    assert table.state()["round"] == 2
    kinds = [event.kind for event in Journal.in_dir(tmp_path).events(1)]
    assert kinds == ["setup", "deal", "fold", "fold", "fold", "fold", "deal"]
    deal = Journal.in_dir(tmp_path).events(1)[-1].data
    assert deal == {"round": 2, "dealer": 1, "cards": 5}


def test_a_damaged_event_before_others_is_an_error(profile4: BoardProfile,
                                                   tmp_path: Path) -> None:
    from companion.store import StoreError

    table = Table(profile4, state_dir=tmp_path)
    table.setup(setup_request())
    table.announce("A")
    table.close()
    with sqlite3.connect(tmp_path / FILE_NAME) as db:
        db.execute("UPDATE events SET data = '{}' WHERE seq = 1")
    with pytest.raises(StoreError, match="event 1 is damaged"):
        Table(profile4, state_dir=tmp_path)
