"""`POST /api/cards {"card": "JOKER", "as": "5"}` over HTTP: the narrowed targets and results,
the unchanged verdict, and bad bodies refused without touching the journal."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.table import Table
from tests.web.apiclient import SETUP, Client, journal


def green_on_t40(position: dict[str, Any]) -> dict[str, Any]:
    result = copy.deepcopy(position)
    result["players"][2]["pegs"] = ["K", "K", "K", "T40"]
    return result


@pytest.fixture
def game(ref: Client) -> dict[str, Any]:
    """A game where Cleo (green, player 2) is to move with one marble on T40."""
    state = ref.post("/api/setup", SETUP).get_json()
    state = ref.post("/api/override", {"position": green_on_t40(state["position"])}).get_json()
    assert state["position"]["turn"] == 2
    return state  # type: ignore[no-any-return]


def test_a_joker_as_five_lights_and_lists_only_the_five(ref: Client,
                                                         game: dict[str, Any]) -> None:
    state = ref.post("/api/cards", {"card": "JOKER", "as": "5"}).get_json()
    assert state["announced"] == {"card": "JOKER", "player": 2, "as": "5"}
    assert state["targets"] == ["T45"]
    moves = ref.get("/page/moves.json").get_json()["moves"]
    assert [move["notation"] for move in moves] == ["JOKER as 5: green T40→T45"]


def test_a_joker_without_as_has_no_as_key(ref: Client, game: dict[str, Any]) -> None:
    state = ref.post("/api/cards", {"card": "JOKER"}).get_json()
    assert state["announced"] == {"card": "JOKER", "player": 2}
    assert len(ref.get("/page/moves.json").get_json()["moves"]) > 2


def test_a_joker_as_seven_played_as_a_five_is_accepted(ref: Client,
                                                       game: dict[str, Any]) -> None:
    ref.post("/api/cards", {"card": "JOKER", "as": "7"})
    after = copy.deepcopy(game["position"])
    after["players"][2]["pegs"] = ["K", "K", "K", "T45"]
    state = ref.post("/api/observe", {"position": after}).get_json()
    assert state["verdict"]["legal"] is True
    assert state["verdict"]["move"] == "JOKER as 5: green T40→T45"


@pytest.mark.parametrize("body", [
    {"card": "JOKER", "as": "JOKER"},
    {"card": "JOKER", "as": "eleven"},
    {"card": "JOKER", "as": 7},
    {"card": "5", "as": "7"},
])
def test_a_bad_as_is_refused_naming_it(ref: Client, game: dict[str, Any], tmp_path: Path,
                                       table: Table, body: dict[str, Any]) -> None:
    before, version = journal(tmp_path), table.state()["version"]
    response = ref.post("/api/cards", body)
    assert response.status_code == 400, response.get_json()
    error = response.get_json()["error"]
    assert error.startswith("as: ") or error.startswith("'as' must be"), error
    assert journal(tmp_path) == before
    assert table.state()["version"] == version


@pytest.mark.parametrize(("language", "title", "any_card"), [
    ("de", "Joker als …", "beliebig"), ("en", "Joker as …", "any")])
def test_the_card_pad_has_a_joker_as_row(app: Flask, language: str, title: str,
                                         any_card: str) -> None:
    page = Client(app).get("/", headers={"Accept-Language": language}).get_data(as_text=True)
    row = page[page.index('id="joker-as"'):]
    row = row[:row.index("</div>\n      </div>")]
    assert title in row and any_card in row
    assert row.count("data-as=") == 14 and 'data-as="JOKER"' not in row
