"""The JSON API of INTERFACES.md section 5 over a real table (Flask test client)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.table import Table
from tests.web.apiclient import (
    SETUP,
    Client,
    journal,
    onto_start_without_star,
    out_of_kennel,
)

SECTION_5_KEYS = {"format", "phase", "position", "round", "dealer", "counts", "folded", "moves",
                  "announced", "pending", "verdict", "winners", "version"}


@pytest.fixture
def game(ref: Client) -> dict[str, Any]:
    """A 4-player game set up by the referee: its first state."""
    response = ref.post("/api/setup", SETUP)
    assert response.status_code == 200, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


def test_state_has_every_key_of_section_5(app: Flask) -> None:
    state = Client(app).get("/api/state").get_json()
    assert set(state) >= SECTION_5_KEYS
    assert state["format"] == "dog-table/1" and state["phase"] == "setup"
    assert state["position"] is None


def test_setup_deals_the_first_round(game: dict[str, Any]) -> None:
    assert game["phase"] == "play" and game["round"] == 1
    assert game["counts"] == [6, 6, 6, 6]
    assert [p["name"] for p in game["players"]] == ["Anna", "Ben", "Cleo", "Dario"]
    assert game["position"]["turn"] == 1           # left of the first dealer


def test_a_legal_move_entered_by_hand(ref: Client, game: dict[str, Any]) -> None:
    announced = ref.post("/api/cards", {"card": "A"}).get_json()
    assert announced["announced"] == {"card": "A", "player": 1}
    assert announced["targets"] == ["T16"]
    after = ref.post("/api/observe", {"position": out_of_kennel(announced)}).get_json()
    assert after["verdict"]["legal"] is True and after["moves"] == 1
    assert after["position"]["turn"] == 2
    history = ref.get("/api/history").get_json()["moves"]
    assert [(m["n"], m["player"], m["card"]) for m in history] == [(1, 1, "A")]
    start = ref.get("/api/history/0").get_json()
    assert start["n"] == 0 and start["position"]["players"] == game["position"]["players"]


def test_an_illegal_move_then_put_right(ref: Client, game: dict[str, Any]) -> None:
    announced = ref.post("/api/cards", {"card": "A"}).get_json()
    wrong = ref.post("/api/observe", {"position": onto_start_without_star(announced)})
    verdict = wrong.get_json()["verdict"]
    assert wrong.status_code == 200 and wrong.get_json()["pending"] == "illegal"
    assert verdict["legal"] is False and verdict["code"] and verdict["reason"]
    right = ref.post("/api/observe", {"position": out_of_kennel(announced)}).get_json()
    assert right["pending"] is None and right["moves"] == 1


def test_the_referee_overrides_an_illegal_verdict(ref: Client, game: dict[str, Any]) -> None:
    announced = ref.post("/api/cards", {"card": "A"}).get_json()
    ref.post("/api/observe", {"position": onto_start_without_star(announced)})
    accepted = ref.post("/api/override", {}).get_json()
    assert accepted["pending"] is None and accepted["moves"] == 1
    assert accepted["position"]["turn"] == 2


def test_undo_takes_back_the_last_move(ref: Client, game: dict[str, Any]) -> None:
    announced = ref.post("/api/cards", {"card": "A"}).get_json()
    ref.post("/api/observe", {"position": out_of_kennel(announced)})
    back = ref.post("/api/undo", {}).get_json()
    assert back["moves"] == 0 and back["position"]["turn"] == 1
    again = ref.post("/api/cards", {"card": "A"}).get_json()
    ref.post("/api/observe", {"position": out_of_kennel(again)})
    assert ref.post("/api/undo", {"to": 0}).get_json()["moves"] == 0


def test_fold_puts_the_cards_out(ref: Client, game: dict[str, Any]) -> None:
    folded = ref.post("/api/fold", {}).get_json()
    assert folded["folded"] == [1] and folded["counts"][1] == 0


def test_fold_with_a_playable_card_is_refused_naming_it(ref: Client, game: dict[str, Any],
                                                        tmp_path: Path) -> None:
    before = journal(tmp_path)
    response = ref.post("/api/fold", {"hand": ["A", "2", "3", "4", "5", "6"]})
    assert response.status_code == 409 and "A" in response.get_json()["error"]
    assert journal(tmp_path) == before


def test_done_without_a_camera_is_a_conflict(ref: Client, game: dict[str, Any]) -> None:
    ref.post("/api/cards", {"card": "A"})
    response = ref.post("/api/done", {})
    assert response.status_code == 409 and "camera" in response.get_json()["error"]


def test_reference_without_a_camera_is_a_conflict(ref: Client) -> None:
    response = ref.post("/api/reference", {})
    assert response.status_code == 409 and "camera" in response.get_json()["error"]


def test_relearning_the_light_without_a_camera_is_a_conflict(ref: Client) -> None:
    response = ref.post("/api/relearn", {})
    assert response.status_code == 409 and "camera" in response.get_json()["error"]
    assert ref.post("/api/relearn", {"now": True}).status_code == 400


def test_a_kept_snapshot_is_served_as_jpeg(ref: Client, tmp_path: Path) -> None:
    from companion.table.snapshots import SnapshotStore

    jpeg = b"\xff\xd8\xff\xe0 a tiny stand-in for a JPEG \xff\xd9"
    SnapshotStore(tmp_path).save("1-3-before", jpeg)
    response = Client(ref.app).get("/api/snapshots/1-3-before")
    assert response.status_code == 200 and response.mimetype == "image/jpeg"
    assert response.data == jpeg


def test_unknown_snapshot_and_move_are_404(ref: Client, game: dict[str, Any]) -> None:
    assert ref.get("/api/snapshots/nothing-here").status_code == 404
    assert ref.get("/api/snapshots/..%2Fjournal.sqlite").status_code == 404
    assert ref.get("/api/history/5").status_code == 404
    assert "error" in ref.get("/api/history/5").get_json()


def test_every_answer_is_json_with_an_error_sentence(ref: Client) -> None:
    for response in (ref.get("/api/nothing"), ref.http.delete("/api/state"),
                     ref.http.put("/api/cards", json={"card": "A"},
                                  headers={"X-CSRF-Token": ref.csrf})):
        assert 400 <= response.status_code < 500
        assert isinstance(response.get_json()["error"], str)


BAD_BODIES = [
    ("/api/cards", "{not json", "not valid JSON", 400),
    ("/api/cards", "[1, 2]", "JSON object", 400),
    ("/api/cards", {"card": "A", "player": 2}, "unknown key 'player'", 400),
    ("/api/cards", {"card": 7}, "'card' must be a string", 400),
    ("/api/cards", {"card": True}, "'card' must be a string", 400),
    ("/api/cards", {}, "'card' is missing", 400),
    ("/api/cards", {"card": "Z"}, "Z", 400),
    ("/api/cards", {"card": "7"}, "7", 409),                 # not playable from the kennels
    ("/api/observe", {}, "exactly one", 400),
    ("/api/observe", {"position": {}, "holes": {}}, "exactly one", 400),
    ("/api/observe", {"position": "T1"}, "'position' must be an object", 400),
    ("/api/observe", {"holes": {"T99": "red"}}, "T99", 400),
    ("/api/observe", {"position": {"format": "dog-position/1"}}, "position", 400),
    ("/api/fold", {"hand": "A"}, "'hand' must be a list", 400),
    ("/api/fold", {"hand": [7]}, "card names", 400),
    ("/api/fold", {"hand": ["Q", "Z"]}, "Z", 400),
    ("/api/undo", {"to": "1"}, "'to' must be an integer", 400),
    ("/api/undo", {"to": -1}, "0 or more", 400),
    ("/api/undo", {}, "no move", 409),
    ("/api/override", {}, "no illegal verdict", 409),
    ("/api/override", {"position": []}, "'position' must be an object", 400),
    ("/api/setup", {"players": "Anna"}, "'players' must be a list", 400),
    ("/api/setup", {**SETUP, "board": 6}, "board 6", 400),
    ("/api/setup", {**SETUP, "seats": 4}, "unknown key 'seats'", 400),
    ("/api/setup", {**SETUP, "first_dealer": 9}, "first_dealer", 400),
    ("/api/setup", {**SETUP, "rules": "chess"}, "chess", 400),
    ("/api/done", {"now": True}, "unknown key 'now'", 400),
]


@pytest.mark.parametrize(("path", "body", "named", "status"), BAD_BODIES)
def test_bad_input_is_refused_and_changes_nothing(
        ref: Client, game: dict[str, Any], tmp_path: Path, table: Table,
        path: str, body: Any, named: str, status: int) -> None:
    before, version = journal(tmp_path), table.state()["version"]
    if isinstance(body, str):
        response = ref.post(path, data=body, content_type="application/json")
    else:
        response = ref.post(path, body)
    assert response.status_code == status, response.get_json()
    assert named in response.get_json()["error"]
    assert journal(tmp_path) == before
    assert table.state()["version"] == version


def test_a_body_that_is_not_json_is_415(ref: Client, game: dict[str, Any],
                                        tmp_path: Path) -> None:
    before = journal(tmp_path)
    response = ref.post("/api/cards", data="card=A",
                        content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415 and "JSON" in response.get_json()["error"]
    assert journal(tmp_path) == before


def test_a_body_over_the_size_limit_is_413(ref: Client, game: dict[str, Any],
                                           tmp_path: Path) -> None:
    before = journal(tmp_path)
    huge = {"holes": {f"X{i}": "red" for i in range(8000)}}
    response = ref.post("/api/observe", huge)
    assert response.status_code == 413 and "kB" in response.get_json()["error"]
    assert journal(tmp_path) == before


def test_answers_carry_the_security_headers(app: Flask) -> None:
    response = Client(app).get("/api/state")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["Cache-Control"] == "no-store"
    assert Client(app).get("/healthz").headers["X-Frame-Options"] == "DENY"


def test_healthz_counts_the_streams(app: Flask) -> None:
    assert Client(app).get("/healthz").get_json() == {"ok": True, "streams": 0,
                                                      "max_streams": 48}
