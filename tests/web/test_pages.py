"""The page's views and its own JSON under /page/ (Flask test client, no browser)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from flask import Flask

from tests.web.apiclient import (
    SETUP,
    Client,
    make_app,
    make_table,
    onto_start_without_star,
    out_of_kennel,
    referee,
)

WEB = Path(__file__).resolve().parents[2] / "companion" / "web"
CATALOGUE = WEB / "translations" / "de" / "LC_MESSAGES"
VIEWS = ("/", "/setup", "/history", "/calibration", "/settings")
PAGE_WEIGHT_LIMIT = 100 * 1024


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return make_app(make_table(tmp_path))


@pytest.fixture
def game(app: Flask) -> Client:
    """The referee's client after setting up a four-player game."""
    ref = referee(app)
    assert ref.post("/api/setup", SETUP).status_code == 200
    return ref


def embedded(page: str, element_id: str) -> Any:
    """The JSON a `<script type="application/json">` element of the page carries."""
    found = re.search(rf'<script type="application/json" id="{element_id}">(.*?)</script>',
                      page, re.S)
    assert found, element_id
    return json.loads(found.group(1))


@pytest.mark.parametrize("path", VIEWS)
def test_every_view_is_german_by_default(app: Flask, path: str) -> None:
    page = app.test_client().get(path).get_data(as_text=True)
    assert '<html lang="de">' in page
    assert "Einrichten" in page and "Verlauf" in page
    assert embedded(page, "page-texts")["legal"] == "Erlaubt"


def test_the_browser_language_and_the_switch_decide(app: Flask) -> None:
    client = app.test_client()
    english = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"})
    assert '<html lang="en">' in english.get_data(as_text=True)
    assert embedded(english.get_data(as_text=True), "page-texts")["legal"] == "Legal"
    switch = Client(app)
    assert switch.post("/api/language", {"language": "en"}).status_code == 200
    page = switch.get("/setup", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<html lang="en">' in page and "Start the game" in page


def test_the_view_shows_first_and_unknown_views_are_404(app: Flask) -> None:
    client = app.test_client()
    assert 'data-view="history"' in client.get("/history").get_data(as_text=True)
    assert client.get("/nowhere").status_code == 404


def test_no_inline_script(app: Flask) -> None:
    page = app.test_client().get("/").get_data(as_text=True)
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    assert scripts
    for attributes, body in scripts:
        assert 'src="' in attributes or 'type="application/json"' in attributes
        if 'src="' in attributes:
            assert not body.strip()
    assert not re.search(r"<[^>]+\son[a-z]+=", page)
    assert ' style="' not in page


def test_the_page_carries_the_board_profile_and_the_session(app: Flask) -> None:
    page = app.test_client().get("/").get_data(as_text=True)
    profile = embedded(page, "page-profile")
    assert profile["name"] == "brandi-4" and len(profile["holes"]) == 96
    assert {"id", "kind", "x", "y", "seat"} <= set(profile["holes"][0])
    assert embedded(page, "page-session")["role"] == "watcher"
    ref = referee(app)
    session = embedded(ref.get("/").get_data(as_text=True), "page-session")
    assert session["role"] == "referee" and session["csrf"]


def test_the_card_pad_has_the_fourteen_cards(app: Flask) -> None:
    page = app.test_client().get("/").get_data(as_text=True)
    cards = re.findall(r'data-card="([^"]+)"', page)
    assert cards == ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "JOKER"]


def test_the_setup_offers_the_rule_options_and_every_seat(app: Flask) -> None:
    page = app.test_client().get("/setup").get_data(as_text=True)
    for option in ("start_protection", "home_entry", "deal_sequence", "direction", "team_game"):
        assert f'name="{option}"' in page
    assert page.count("<tr data-seat=") == 4
    assert 'value="4"\n        checked' in page or re.search(r'value="4"\s+checked', page)


@pytest.mark.parametrize("board", ["brandi-4", "brandi-6"])
def test_page_weight_is_within_the_budget(tmp_path: Path, board: str) -> None:
    from companion.table import Table
    from hw import load_profile

    table = Table(load_profile(board), simulated=True, state_dir=tmp_path)
    client = make_app(table).test_client()
    page = client.get("/")
    total = len(page.data)
    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', page.get_data(as_text=True)):
        total += len(client.get(asset).data)
    assert total <= PAGE_WEIGHT_LIMIT, f"{total} bytes"


def test_legal_results_need_an_announced_card(game: Client) -> None:
    answer = game.get("/page/moves.json")
    assert answer.status_code == 409 and "announce" in answer.get_json()["error"]
    state = game.post("/api/cards", {"card": "A"}).get_json()
    results = game.get("/page/moves.json").get_json()
    assert results["card"] == "A" and not results["more"]
    def pegs(position: dict[str, Any]) -> list[list[str]]:
        return [sorted(player["pegs"]) for player in position["players"]]

    assert [pegs(move["result"]) for move in results["moves"]] == [pegs(out_of_kennel(state))]
    assert results["moves"][0]["notation"].startswith("A: ")


def test_legal_results_are_distinct(game: Client) -> None:
    game.post("/api/cards", {"card": "JOKER"})
    moves = game.get("/page/moves.json").get_json()["moves"]
    results = [json.dumps(move["result"], sort_keys=True) for move in moves]
    assert moves and len(results) == len(set(results))


def test_the_verdict_in_the_readers_language(app: Flask, game: Client) -> None:
    assert game.get("/page/verdict.json").status_code == 404
    state = game.post("/api/cards", {"card": "A"}).get_json()
    judged = game.post("/api/observe", {"position": onto_start_without_star(state)}).get_json()
    assert judged["pending"] == "illegal" and judged["verdict"]["code"]
    german = game.get("/page/verdict.json").get_json()
    english = game.get("/page/verdict.json?lang=en").get_json()
    assert english["reason"] == judged["verdict"]["reason"]
    assert german["reason"] != english["reason"] and "Zwinger" in german["reason"]
    assert german["rule"] == judged["verdict"]["rule"]


def test_the_seat_qr_codes_are_the_referees(app: Flask, game: Client) -> None:
    assert Client(app).get("/page/qr/0.svg").status_code == 403
    answer = game.get("/page/qr/0.svg")
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    svg = answer.get_data(as_text=True)
    link = game.get("/api/seats").get_json()["seats"][0]["url"]
    assert 'xmlns="http://www.w3.org/2000/svg"' in svg and f"<title>{link}</title>" in svg
    assert game.get("/page/qr/4.svg").status_code == 404


def test_the_qr_link_makes_a_seat(app: Flask, game: Client) -> None:
    link = game.get("/api/seats").get_json()["seats"][2]["url"]
    phone = Client(app)
    phone.join(link)
    session = embedded(phone.get("/").get_data(as_text=True), "page-session")
    assert session["role"] == "seat" and session["seat"] == 2


def test_the_german_catalogue_is_complete_and_compiled() -> None:
    with (CATALOGUE / "messages.po").open("rb") as source:
        po = read_po(source)
    with (CATALOGUE / "messages.mo").open("rb") as source:
        mo = read_mo(source)
    with (WEB / "translations" / "messages.pot").open("rb") as source:
        pot = read_po(source)
    wanted = {(m.context, m.id) for m in pot if m.id}
    translated = {(m.context, m.id): m.string for m in po if m.id}
    assert wanted <= set(translated), sorted(wanted - set(translated))[:3]
    assert all(translated[key] for key in wanted), [k for k in wanted if not translated[k]][:3]
    compiled = {(m.context, m.id): m.string for m in mo if m.id}
    assert compiled == {key: translated[key] for key in compiled} and \
        set(compiled) == set(translated), "messages.mo is older than messages.po: compile it"


def test_every_text_of_the_page_is_in_the_template_catalogue() -> None:
    with (WEB / "translations" / "messages.pot").open("rb") as source:
        known = {m.id for m in read_po(source) if m.id}
    template = (WEB / "templates" / "page.html").read_text()
    used = set(re.findall(r'_\("((?:[^"\\]|\\.)*)"', template))
    used |= set(re.findall(r"_\('((?:[^'\\]|\\.)*)'", template))
    assert used and used <= known, sorted(used - known)


def test_every_rule_a_verdict_names_has_a_title(app: Flask) -> None:
    from companion.rules.reasons import CATALOGUE
    from companion.web.page_texts import rule_names

    anchors = {entry.rule for entry in CATALOGUE.values() if entry.rule}
    with app.test_request_context("/", headers={"Accept-Language": "de"}):
        titles = rule_names()
    assert anchors <= set(titles), sorted(anchors - set(titles))
    assert titles["seven"] == "Die Sieben"


def test_the_board_profile_api(app: Flask) -> None:
    board = app.test_client().get("/api/board").get_json()
    assert board["name"] == "brandi-4" and len(board["holes"]) == 96
    assert {"id", "kind", "x", "y", "seat", "led"} <= set(board["holes"][0])
    assert len(board["markers"]) == 4


READING_ERROR_ARGS = {"unreadable": {"hole"}, "unknown_colour": {"hole", "color"},
                      "seat_not_playing": {"hole", "color", "seat"},
                      "wrong_owner": {"hole", "color", "owner"},
                      "too_many": {"color", "seen", "expected"},
                      "too_few": {"color", "seen", "expected"}}
"""The table's reading error codes and their arguments (docs/table.md)."""


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_reading_error_code_has_a_sentence(app: Flask, language: str) -> None:
    from companion.web.page_texts import reading_errors

    with app.test_request_context("/", headers={"Accept-Language": language}):
        sentences = reading_errors()
    for code, args in READING_ERROR_ARGS.items():
        assert set(re.findall(r"%\((\w+)\)s", sentences[code])) <= args, code


def test_every_text_the_script_uses_is_given(app: Flask) -> None:
    from companion.web.page_texts import page_texts

    script = (WEB / "static" / "page.js").read_text()
    used = set(re.findall(r"\btexts\.(\w+)", script))
    with app.test_request_context("/"):
        given = page_texts()
    assert used and used <= set(given), sorted(used - set(given))
    for key in re.findall(r"texts\[`(\w+)_\$\{", script):     # texts[`camera_${status}`]
        assert {f"{key}_{status}" for status in ("reading", "lost", "manual", "simulated")} \
            <= set(given)


CAMERA_WARNING_ARGS = {"camera_lost": {"why"}, "board_not_found": {"why"},
                       "kennel_overexposed": {"color"}, "board_overexposed": {"share"},
                       "reference_blurred": {"blur"}}
"""The camera's warning codes the page translates and their arguments (docs/table.md);
``reader_warning`` (a sentence the table does not know) shows its English text."""


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_camera_warning_code_has_a_sentence(app: Flask, language: str) -> None:
    from companion.table.warning_codes import CODES
    from companion.web.page_texts import camera_warnings

    with app.test_request_context("/", headers={"Accept-Language": language}):
        sentences = camera_warnings()
    assert set(CODES) <= set(sentences)
    assert set(sentences) == set(CAMERA_WARNING_ARGS)
    for code, args in CAMERA_WARNING_ARGS.items():
        assert set(re.findall(r"%\((\w+)\)s", sentences[code])) == args, code
    if language == "de":
        assert sentences["board_not_found"].startswith("Das Brett ist im Bild nicht")


def test_the_camera_view_has_the_live_image(app: Flask) -> None:
    page = app.test_client().get("/calibration").get_data(as_text=True)
    assert 'id="camera-image"' in page and 'id="camera-overlay"' in page
    assert "Marker und Lesung darüber zeichnen" in page


def test_the_settings_view_has_its_controls(app: Flask) -> None:
    page = app.test_client().get("/settings").get_data(as_text=True)
    for control in ("setting-brightness", "setting-night", "setting-settle", "settings-save"):
        assert f'id="{control}"' in page, control
    assert "LED-Helligkeit" in page and "Nachtmodus" in page and "Ruhezeit" in page


def test_the_exchange_banner_has_its_button(game: Client) -> None:
    page = game.get("/").get_data(as_text=True)
    assert "Karten getauscht" in page
