"""What the API tests share: a real table in a temporary state folder, the app over it, a
client that carries its CSRF token, and the journal's rows to prove nothing changed."""

from __future__ import annotations

import copy
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion.table import RefereePin, Table
from companion.web import create_app
from hw import load_profile

PIN = "2468"
PLAYERS = [{"name": "Anna", "color": "red", "at": 0},
           {"name": "Ben", "color": "yellow", "at": 1},
           {"name": "Cleo", "color": "green", "at": 2},
           {"name": "Dario", "color": "blue", "at": 3}]
SETUP: dict[str, Any] = {"rules": "swiss", "board": 4, "players": PLAYERS, "first_dealer": 0}


def make_table(state_dir: Path) -> Table:
    """A simulated brandi-4 table keeping its journal in `state_dir`."""
    return Table(load_profile("brandi-4"), simulated=True,
                 hardware={"camera": "none", "leds": "sim"}, state_dir=state_dir)


def make_app(table: Table, **config: Any) -> Flask:
    """The app over `table` with the referee PIN `PIN`."""
    settings = {"TESTING": True, "SSE_HEARTBEAT_S": 0.05, **config}
    return create_app(table, settings, pin=RefereePin.from_pin(PIN))


class Client:
    """A browser: its cookies, its CSRF token, and JSON requests."""

    def __init__(self, app: Flask):
        self.app = app
        self.http: FlaskClient = app.test_client()
        self.csrf = self.http.get("/api/session").get_json()["csrf"]

    def get(self, path: str, **kwargs: Any) -> TestResponse:
        return self.http.get(path, **kwargs)

    def post(self, path: str, body: Any = None, *, csrf: str | None = None,
             **kwargs: Any) -> TestResponse:
        """POST `body` as JSON with the client's CSRF token (or `csrf` instead)."""
        headers = {"X-CSRF-Token": self.csrf if csrf is None else csrf,
                   **kwargs.pop("headers", {})}
        if body is not None:
            kwargs["json"] = body
        return self.http.post(path, headers=headers, **kwargs)

    def login(self, pin: str = PIN) -> TestResponse:
        response = self.http.post("/api/login", json={"pin": pin})
        if response.status_code == 200:
            self.csrf = response.get_json()["csrf"]
        return response

    def join(self, url: str) -> TestResponse:
        """Follow a seat's QR link."""
        return self.http.get(urlsplit(url).path)


def referee(app: Flask) -> Client:
    """A client logged in with the PIN."""
    client = Client(app)
    assert client.login().status_code == 200
    return client


def journal(state_dir: Path) -> list[tuple[Any, ...]]:
    """Every row of every table of the journal."""
    with sqlite3.connect(f"file:{state_dir / 'journal.sqlite'}?mode=ro", uri=True) as db:
        tables = [name for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return [(name, *row) for name in tables
                for row in db.execute(f"SELECT * FROM {name} ORDER BY rowid")]


def out_of_kennel(state: dict[str, Any]) -> dict[str, Any]:
    """The position after the player to move brought a marble out onto their start."""
    position = copy.deepcopy(state["position"])
    mover = position["turn"]
    at = position["players"][mover].get("at", mover)
    pegs = position["players"][mover]["pegs"]
    pegs[pegs.index("K")] = f"T{16 * at}*"
    return position


def onto_start_without_star(state: dict[str, Any]) -> dict[str, Any]:
    """An illegal result for an Ace at the start: a marble two fields past the start."""
    position = copy.deepcopy(state["position"])
    mover = position["turn"]
    at = position["players"][mover].get("at", mover)
    pegs = position["players"][mover]["pegs"]
    pegs[pegs.index("K")] = f"T{16 * at + 2}"
    return position
