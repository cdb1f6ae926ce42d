"""Roles, seats, the PIN, CSRF and cookies: who may change the table (Flask test client)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.table import Table
from companion.web.auth import PinThrottle
from tests.web.apiclient import (
    PIN,
    PLAYERS,
    SETUP,
    Client,
    journal,
    make_app,
    make_table,
    out_of_kennel,
    referee,
)


@pytest.fixture
def ref(app: Flask) -> Client:
    client = referee(app)
    assert client.post("/api/setup", SETUP).status_code == 200
    return client


def seat_urls(ref: Client) -> list[str]:
    return [seat["url"] for seat in ref.get("/api/seats").get_json()["seats"]]


def seated(app: Flask, ref: Client, seat: int) -> Client:
    """A phone that scanned seat `seat`'s QR code."""
    phone = Client(app)
    response = phone.join(seat_urls(ref)[seat])
    assert response.status_code == 303 and response.headers["Location"] == "/"
    session = phone.get("/api/session").get_json()
    assert session["role"] == "seat" and session["seat"] == seat
    phone.csrf = session["csrf"]
    return phone


ACTIONS: list[tuple[str, dict[str, Any]]] = [
    ("/api/cards", {"card": "A"}), ("/api/fold", {}), ("/api/done", {}),
    ("/api/observe", {"holes": {}})]
REFEREE_ACTIONS: list[tuple[str, dict[str, Any]]] = [
    ("/api/setup", SETUP), ("/api/undo", {}), ("/api/override", {}), ("/api/reference", {}),
    ("/api/relearn", {}), ("/api/seats/0/revoke", {})]


def unchanged(table: Table, tmp_path: Path) -> tuple[Any, ...]:
    return (journal(tmp_path), table.state()["version"])


# -- the PIN ------------------------------------------------------------------------------

def test_login_with_the_pin_makes_a_referee(app: Flask) -> None:
    client = Client(app)
    response = client.http.post("/api/login", json={"pin": PIN})
    answer = response.get_json()
    assert answer["role"] == "referee" and answer["seat"] is None and answer["csrf"]
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("dog_session=")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.get("/api/session").get_json()["role"] == "referee"


def test_a_wrong_pin_is_403(app: Flask) -> None:
    response = Client(app).login("0000")
    assert response.status_code == 403 and "PIN is wrong" in response.get_json()["error"]


@pytest.mark.parametrize(("body", "named"), [({}, "'pin' is missing"),
                                             ({"pin": 2468}, "'pin' must be a string"),
                                             ({"pin": PIN, "role": "referee"}, "'role'")])
def test_a_malformed_login_is_400(app: Flask, body: dict[str, Any], named: str) -> None:
    response = Client(app).http.post("/api/login", json=body)
    assert response.status_code == 400 and named in response.get_json()["error"]
    assert Client(app).get("/api/session").get_json()["role"] == "watcher"


def test_without_a_pin_nobody_is_referee(table: Table) -> None:
    from companion.web import create_app

    app = create_app(table, {"TESTING": True})
    response = Client(app).login(PIN)
    assert response.status_code == 403 and "no referee PIN" in response.get_json()["error"]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_failed_pins_are_throttled_per_client(app: Flask) -> None:
    clock = Clock()
    throttle: PinThrottle = app.extensions["dog_pin_throttle"]
    throttle.clock = clock
    client = Client(app)
    for _ in range(5):
        assert client.login("1111").status_code == 403
        clock.now += 1
    refused = client.login(PIN)                     # even the right PIN waits
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "55"
    assert "try again in 55 s" in refused.get_json()["error"]
    other = app.test_client()
    assert other.post("/api/login", json={"pin": PIN},
                      environ_base={"REMOTE_ADDR": "10.0.0.7"}).status_code == 200
    clock.now += 55
    assert client.login(PIN).status_code == 200
    assert client.login("1111").status_code == 403   # the right PIN cleared the count


def test_throttle_window_slides() -> None:
    clock = Clock()
    throttle = PinThrottle(attempts=2, window_s=60, clock=clock)
    throttle.failed("a")
    clock.now += 30
    throttle.failed("a")
    assert throttle.wait_s("a") == 30
    clock.now += 30
    assert throttle.wait_s("a") == 0
    assert throttle.failed("a") == 0
    assert throttle.wait_s("a") == 30


def test_logout_makes_a_watcher(app: Flask, ref: Client) -> None:
    answer = ref.post("/api/logout", {}).get_json()
    assert answer["role"] == "watcher"
    ref.csrf = answer["csrf"]
    assert ref.post("/api/undo", {}).status_code == 403


# -- watchers -----------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "body"), ACTIONS + REFEREE_ACTIONS)
def test_a_watcher_changes_nothing(app: Flask, ref: Client, table: Table, tmp_path: Path,
                                   path: str, body: dict[str, Any]) -> None:
    before = unchanged(table, tmp_path)
    response = Client(app).post(path, body)
    assert response.status_code == 403
    assert "referee" in response.get_json()["error"]
    assert unchanged(table, tmp_path) == before


def test_a_watcher_cannot_list_the_seat_tokens(app: Flask, ref: Client) -> None:
    response = Client(app).get("/api/seats")
    assert response.status_code == 403 and "token" not in response.get_data(as_text=True)


def test_a_watcher_reads_everything(app: Flask, ref: Client) -> None:
    watcher = Client(app)
    for path in ("/api/state", "/api/history", "/api/history/0", "/api/session",
                 "/api/language", "/healthz"):
        assert watcher.get(path).status_code == 200, path


# -- CSRF ---------------------------------------------------------------------------------

@pytest.mark.parametrize("token", ["", "not-a-token"])
def test_a_state_change_needs_the_csrf_header(app: Flask, ref: Client, table: Table,
                                              tmp_path: Path, token: str) -> None:
    before = unchanged(table, tmp_path)
    for path, body in ACTIONS + REFEREE_ACTIONS:
        response = ref.post(path, body, csrf=token)
        assert response.status_code == 403, path
        assert "X-CSRF-Token" in response.get_json()["error"]
    assert unchanged(table, tmp_path) == before


def test_another_sessions_csrf_token_is_refused(app: Flask, ref: Client) -> None:
    stranger = Client(app)
    assert ref.post("/api/undo", {}, csrf=stranger.csrf).status_code == 403


# -- seats --------------------------------------------------------------------------------

def test_the_referee_lists_one_seat_per_player(app: Flask, ref: Client) -> None:
    seats = ref.get("/api/seats").get_json()["seats"]
    assert [(s["seat"], s["name"], s["color"], s["at"]) for s in seats] == [
        (i, p["name"], p["color"], p["at"]) for i, p in enumerate(PLAYERS)]
    assert len({s["token"] for s in seats}) == 4
    assert all(s["url"] == f"http://localhost/join/{s['token']}" for s in seats)


def test_seat_links_use_the_public_url(table: Table) -> None:
    app = make_app(table, PUBLIC_URL="http://192.168.1.20:8080/")
    client = referee(app)
    client.post("/api/setup", SETUP)
    assert seat_urls(client)[0].startswith("http://192.168.1.20:8080/join/")


def test_a_seat_acts_for_its_player_on_its_turn(app: Flask, ref: Client) -> None:
    phone = seated(app, ref, 1)                     # Ben is to move
    announced = phone.post("/api/cards", {"card": "A"})
    assert announced.status_code == 200
    assert announced.get_json()["announced"] == {"card": "A", "player": 1}
    moved = phone.post("/api/observe", {"position": out_of_kennel(announced.get_json())})
    assert moved.status_code == 200 and moved.get_json()["moves"] == 1


@pytest.mark.parametrize(("path", "body"), ACTIONS)
def test_a_seat_out_of_turn_changes_nothing(app: Flask, ref: Client, table: Table,
                                            tmp_path: Path, path: str,
                                            body: dict[str, Any]) -> None:
    phone = seated(app, ref, 2)                     # Cleo; Ben is to move
    before = unchanged(table, tmp_path)
    response = phone.post(path, body)
    assert response.status_code == 409, response.get_json()
    assert "not to move" in response.get_json()["error"] \
        or "is to move" in response.get_json()["error"]
    assert unchanged(table, tmp_path) == before


@pytest.mark.parametrize(("path", "body"), REFEREE_ACTIONS)
def test_a_seat_cannot_do_the_referees_part(app: Flask, ref: Client, table: Table,
                                            tmp_path: Path, path: str,
                                            body: dict[str, Any]) -> None:
    phone = seated(app, ref, 1)
    before = unchanged(table, tmp_path)
    response = phone.post(path, body)
    assert response.status_code == 403 and "referee" in response.get_json()["error"]
    assert unchanged(table, tmp_path) == before


def test_joining_by_post_with_the_token(app: Flask, ref: Client) -> None:
    token = ref.get("/api/seats").get_json()["seats"][3]["token"]
    phone = Client(app)
    answer = phone.http.post(f"/api/seats/3/join?token={token}")
    assert answer.status_code == 200
    assert answer.get_json()["role"] == "seat" and answer.get_json()["seat"] == 3
    assert "SameSite=Strict" in answer.headers["Set-Cookie"]


@pytest.mark.parametrize(("query", "status", "named"), [
    ("", 400, "'token' is missing"), ("?token=guess", 403, "not the token of seat 2")])
def test_joining_needs_the_seats_token(app: Flask, ref: Client, query: str, status: int,
                                       named: str) -> None:
    phone = Client(app)
    response = phone.http.post(f"/api/seats/2/join{query}")
    assert response.status_code == status and named in response.get_json()["error"]
    assert phone.get("/api/session").get_json()["role"] == "watcher"


def test_the_wrong_seats_token_is_refused(app: Flask, ref: Client) -> None:
    token_of_1 = ref.get("/api/seats").get_json()["seats"][1]["token"]
    response = Client(app).http.post(f"/api/seats/2/join?token={token_of_1}")
    assert response.status_code == 403


def test_an_unknown_seat_is_404(app: Flask, ref: Client) -> None:
    assert Client(app).http.post("/api/seats/7/join?token=x").status_code == 404
    assert ref.post("/api/seats/7/revoke", {}).status_code == 404
    assert Client(app).get("/join/nothing").status_code == 404


def test_revoking_a_seat_sends_its_phone_back_to_watching(app: Flask, ref: Client,
                                                          table: Table,
                                                          tmp_path: Path) -> None:
    old_url = seat_urls(ref)[1]
    phone = seated(app, ref, 1)
    renewed = ref.post("/api/seats/1/revoke", {}).get_json()
    assert renewed["seat"] == 1 and renewed["url"] != old_url
    before = unchanged(table, tmp_path)
    assert phone.post("/api/cards", {"card": "A"}).status_code == 403
    assert phone.get("/api/session").get_json()["role"] == "watcher"
    assert Client(app).join(old_url).status_code == 404
    assert unchanged(table, tmp_path) == before
    assert Client(app).join(renewed["url"]).status_code == 303


def test_a_new_game_keeps_the_tokens_of_unchanged_seats(app: Flask, ref: Client) -> None:
    before = seat_urls(ref)
    players = [*PLAYERS[:3], {"name": "Eva", "color": "blue", "at": 3}]
    assert ref.post("/api/setup", {**SETUP, "players": players}).status_code == 200
    after = seat_urls(ref)
    assert after[:3] == before[:3] and after[3] != before[3]


def test_seats_and_logins_survive_a_restart(tmp_path: Path) -> None:
    first = make_table(tmp_path)
    app = make_app(first)
    ref = referee(app)
    ref.post("/api/setup", SETUP)
    urls = seat_urls(ref)
    phone = seated(app, ref, 1)
    first.close()
    again = make_app(make_table(tmp_path))
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"]
    phone.app = again
    cookie = phone.http.get_cookie("dog_session")
    assert cookie is not None
    restarted = again.test_client()
    restarted.set_cookie("dog_session", cookie.value)
    assert restarted.get("/api/session").get_json()["seat"] == 1
    assert seat_urls(referee(again)) == urls
    assert (tmp_path / "web-seats.json").stat().st_mode & 0o077 == 0
    assert (tmp_path / "web-secret").stat().st_mode & 0o077 == 0


# -- language -----------------------------------------------------------------------------

def test_the_language_switch_sets_a_cookie(app: Flask) -> None:
    client = Client(app)
    assert client.get("/api/language").get_json()["language"] == "de"
    answer = client.post("/api/language", {"language": "en"})
    assert answer.get_json()["language"] == "en"
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith("dog_lang=en") and "SameSite=Strict" in cookie
    assert client.get("/api/language").get_json()["language"] == "en"
    assert client.get("/api/language?lang=de").get_json()["language"] == "de"


def test_the_browser_language_wins_over_the_default(app: Flask) -> None:
    client = Client(app)
    english = client.get("/api/language", headers={"Accept-Language": "en-GB,en;q=0.9"})
    assert english.get_json()["language"] == "en"
    with app.test_request_context("/", headers={"Accept-Language": "en-US"}):
        from flask_babel import get_locale

        assert str(get_locale()) == "en"


def test_an_unknown_language_is_refused(app: Flask) -> None:
    client = Client(app)
    response = client.post("/api/language", {"language": "fr"})
    assert response.status_code == 400 and "'fr'" in response.get_json()["error"]
    assert client.post("/api/language", {"language": "en"}, csrf="x").status_code == 403
