"""The camera image, the settings and the end of the partner exchange over HTTP."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from flask import Flask

from companion.table import Table
from tests.web.apiclient import SETUP, Client, journal, referee
from tests.web.test_auth import seated


def jpeg(value: int) -> bytes:
    ok, data = cv2.imencode(".jpg", np.full((48, 64, 3), value, np.uint8))
    assert ok
    return bytes(data.tobytes())


def test_no_camera_image_without_a_camera(app: Flask) -> None:
    response = Client(app).get("/api/camera.jpg?overlay=1")
    assert response.status_code == 404
    assert "no camera" in response.get_json()["error"]


def test_the_camera_image_needs_no_login(app: Flask, table: Table) -> None:
    asked: list[bool] = []

    def image(overlay: bool) -> bytes | None:
        asked.append(overlay)
        return jpeg(200 if overlay else 100)

    table.attach_camera("reading", None, image=image)
    watcher = Client(app)
    drawn = watcher.get("/api/camera.jpg?overlay=1")
    assert drawn.status_code == 200 and drawn.mimetype == "image/jpeg"
    assert drawn.headers["Cache-Control"] == "no-store"
    assert drawn.data == jpeg(200)
    assert watcher.get("/api/camera.jpg").data == jpeg(100)
    assert asked == [True, False]
    refused = watcher.get("/api/camera.jpg?overlay=yes")
    assert refused.status_code == 400 and "'overlay'" in refused.get_json()["error"]


def test_no_camera_image_before_the_first_frame(app: Flask, table: Table) -> None:
    table.attach_camera("reading", None, image=lambda overlay: None)
    response = Client(app).get("/api/camera.jpg")
    assert response.status_code == 409
    assert "not delivered a frame" in response.get_json()["error"]


def test_the_referee_changes_the_settings(app: Flask, table: Table, tmp_path: Path) -> None:
    ref = referee(app)
    response = ref.post("/api/settings", {"brightness": 0.5, "night": True, "settle_s": 2})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["settings"] == {"brightness": 0.5, "night": True,
                                               "settle_s": 2.0}
    assert Client(app).get("/api/state").get_json()["settings"]["night"] is True
    assert (tmp_path / "settings.json").exists() and table.settle_s == 2.0


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"brightness": 2}, 400, "'brightness' must be between 0 and 1"),
    ({"brightness": "dim"}, 400, "'brightness' must be"),
    ({"night": "yes"}, 400, "'night' must be true or false"),
    ({"settle_s": 60}, 400, "'settle_s' must be between 0.2 and 10 seconds"),
    ({"colour": 1}, 400, "unknown key 'colour'"),
    ({}, 400, "give at least one of brightness, night, settle_s"),
])
def test_bad_settings_are_refused_naming_the_key(app: Flask, tmp_path: Path,
                                                 body: dict[str, object], status: int,
                                                 words: str) -> None:
    ref = referee(app)
    before = Client(app).get("/api/state").get_json()
    response = ref.post("/api/settings", body)
    assert response.status_code == status and words in response.get_json()["error"]
    assert Client(app).get("/api/state").get_json() == before
    assert not (tmp_path / "settings.json").exists()


def test_only_the_referee_changes_settings(app: Flask, tmp_path: Path) -> None:
    watcher = Client(app)
    assert watcher.post("/api/settings", {"night": True}).status_code == 403
    ref = referee(app)
    assert ref.post("/api/settings", {"night": True}, csrf="wrong").status_code == 403
    assert not (tmp_path / "settings.json").exists()


def test_the_exchange_ends_by_the_seat_to_move_or_the_referee(app: Flask,
                                                              tmp_path: Path) -> None:
    ref = referee(app)
    state = ref.post("/api/setup", SETUP).get_json()
    assert state["exchange"] is True and state["position"]["turn"] == 1
    rows = journal(tmp_path)
    assert Client(app).post("/api/exchange", {}).status_code == 403
    waiting = seated(app, ref, 2)
    refused = waiting.post("/api/exchange", {})
    assert refused.status_code == 409 and "player 1" in refused.get_json()["error"]
    assert ref.post("/api/exchange", {"now": True}).status_code == 400
    assert journal(tmp_path) == rows
    mover = seated(app, ref, 1)
    response = mover.post("/api/exchange", {})
    assert response.status_code == 200 and response.get_json()["exchange"] is False
    again = ref.post("/api/exchange", {})
    assert again.status_code == 409 and "no partner exchange" in again.get_json()["error"]


def test_no_exchange_without_partners(app: Flask) -> None:
    ref = referee(app)
    three = {**SETUP, "rules": "schmidt", "players": SETUP["players"][:3]}
    state = ref.post("/api/setup", three).get_json()
    assert state["exchange"] is False
    response = ref.post("/api/exchange", {})
    assert response.status_code == 409 and "only a team game" in response.get_json()["error"]
