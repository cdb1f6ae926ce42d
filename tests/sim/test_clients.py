"""Bots at the table over HTTP (``dog-table/1``, seat logins) and in process, and the demo's
endpoints."""

from __future__ import annotations

import time
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.commands.demo import add_demo
from companion.rules import SWISS, Game
from companion.sim.bots import HeuristicBot
from companion.sim.client import ClientError, HttpTable, LocalTable, Transport
from companion.sim.conductor import Conductor
from companion.sim.live import DemoOptions, LiveTable
from companion.sim.pipeline import FramePipeline
from companion.sim.virtual import VirtualTable
from companion.table import RefereePin, Table
from companion.web import create_app
from hw import load_profile
from vision.render import RenderConditions

PIN = "2468"
FRAMES = RenderConditions(width=640, height=480, noise_sigma=1.5, jpeg_quality=90)


def flask_transport(app: Flask) -> Transport:
    """Requests into the app's test client, one browser per cookie jar."""
    browsers: dict[int, FlaskClient] = {}

    def send(method: str, path: str, body: dict[str, Any] | None, headers: dict[str, str],
             cookies: CookieJar) -> tuple[int, Any]:
        browser = browsers.setdefault(id(cookies), app.test_client())
        response = browser.open(path, method=method, json=body, headers=headers)
        return response.status_code, response.get_json(silent=True)

    return send


def make_app(table: Table) -> Flask:
    return create_app(table, {"TESTING": True}, pin=RefereePin.from_pin(PIN))


def test_bots_play_over_http_with_seat_logins(tmp_path: Path) -> None:
    profile = load_profile("brandi-4")
    virtual = VirtualTable(profile, conditions=FRAMES, fps=5, speed=4, seed=5)
    table = Table(profile, state_dir=tmp_path, clock=lambda: virtual.now)
    pipeline = FramePipeline(table, virtual)
    client = HttpTable(flask_transport(make_app(table)), PIN)
    bots = [HeuristicBot(i) for i in range(4)]
    conductor = Conductor(client, virtual, bots, SWISS, seed=5, cheat=0.5, pump=pipeline.step)
    conductor.start()
    conductor.fast_forward(lambda game: len(game.events) > 60)
    for _ in range(6):
        turn = conductor.turn()
        assert not turn.false_illegal
        assert turn.caught in (None, True)
    assert {t.player for t in conductor.turns} <= set(client.seats)  # each bot at its seat
    assert all(t.kind != "play" or t.judged is not None for t in conductor.turns)


def test_http_refusals_keep_the_tables_sentence_and_status(tmp_path: Path) -> None:
    table = Table(load_profile("brandi-4"), state_dir=tmp_path)
    client = HttpTable(flask_transport(make_app(table)), PIN)
    players = [{"name": n, "color": c, "at": i}
               for i, (n, c) in enumerate(zip("ABCD", ("red", "yellow", "green", "blue"),
                                              strict=True))]
    state = client.setup({"rules": "swiss", "board": 4, "players": players, "first_dealer": 0})
    turn = state["position"]["turn"]
    with pytest.raises(ClientError) as refused:
        client.announce("7", turn)  # every marble in its kennel: a 7 cannot be played
    assert refused.value.status == 409 and "cannot be played" in str(refused.value)
    with pytest.raises(ClientError) as other:
        client.announce("A", (turn + 1) % 4)
    assert other.value.status == 409
    with pytest.raises(ClientError) as wrong_pin:
        HttpTable(flask_transport(make_app(table)), "0000")
    assert wrong_pin.value.status == 403


def test_local_client_names_the_refusal() -> None:
    table = Table(load_profile("brandi-4"))
    with pytest.raises(ClientError) as refused:
        LocalTable(table).announce("7", 0)
    assert refused.value.status == 409


def wait_for(condition: Any, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


@pytest.mark.slow
def test_live_demo_with_a_person_taking_a_seat(tmp_path: Path) -> None:
    """The live path: the table's own camera loop reads the virtual board in its threads."""
    table = Table(load_profile("brandi-4"), state_dir=tmp_path)
    app = make_app(table)
    with LiveTable(table, conditions=FRAMES, fps=8) as live:
        add_demo(app, live)
        referee = app.test_client()
        csrf = referee.get("/api/session").get_json()["csrf"]
        csrf = referee.post("/api/login", json={"pin": PIN}).get_json()["csrf"]
        started = referee.post("/api/demo/start", json={"speed": 8, "cheat": 0, "seed": 3},
                               headers={"X-CSRF-Token": csrf})
        assert started.status_code == 200 and started.get_json()["running"]
        wait_for(lambda: table.state()["moves"] >= 2)
        assert table.state()["camera"]["status"] == "simulated"
        conductor = live.conductor
        assert conductor is not None
        game: Game = conductor.game
        # The referee hands the player after the one to move to a person.
        person = (table.state()["position"]["turn"] + 1) % 4
        taken = referee.post(f"/api/demo/seats/{person}/take", json={},
                             headers={"X-CSRF-Token": csrf})
        assert taken.get_json()["people"] == [person]
        # Only that seat sees its hand.
        assert referee.get(f"/api/demo/seats/{person}").status_code == 403
        token = referee.get("/api/seats").get_json()["seats"][person]["token"]
        seat = app.test_client()
        seat.get("/api/session")
        joined = seat.post(f"/api/seats/{person}/join?token={token}", json={}).get_json()
        seat_csrf = joined["csrf"]
        wait_for(lambda: game.turn == person and person in conductor.humans
                 and table.state()["position"]["turn"] == person)
        view = seat.get(f"/api/demo/seats/{person}").get_json()
        assert view["to_move"] and view["hand"]
        moves = before = table.state()["moves"]
        playable = {card: found for card, found in view["moves"].items() if found}
        if playable:
            card, found = next(iter(playable.items()))
            announced = seat.post("/api/cards", json={"card": card},
                                  headers={"X-CSRF-Token": seat_csrf})
            assert announced.status_code == 200
            played = seat.post(f"/api/demo/seats/{person}/play",
                               json={"card": card, "move": found[0]},
                               headers={"X-CSRF-Token": seat_csrf})
            assert played.status_code == 200
            wait_for(lambda: table.state()["moves"] > moves)
        else:
            seat.post("/api/fold", json={"hand": view["hand"]},
                      headers={"X-CSRF-Token": seat_csrf})
        wait_for(lambda: game.turn != person)
        released = seat.post(f"/api/demo/seats/{person}/release", json={},
                             headers={"X-CSRF-Token": seat_csrf})
        assert released.get_json()["people"] == []
        wait_for(lambda: table.state()["moves"] > before + 2)
        assert live.status()["error"] is None


def test_demo_options_are_checked() -> None:
    with pytest.raises(ValueError, match="cheat"):
        DemoOptions(cheat=2).checked()
    with pytest.raises(ValueError, match="'clever'"):
        DemoOptions(bots="clever").checked()


@pytest.mark.slow
def test_without_bots_the_virtual_board_follows_the_table(tmp_path: Path) -> None:
    """`run` on a machine without a camera: a move entered by hand appears on the board."""
    from companion.rules import Card, Position, legal_moves
    from companion.sim.holes import HoleMap

    table = Table(load_profile("brandi-4"), state_dir=tmp_path)
    with LiveTable(table, conditions=FRAMES, fps=8) as live:
        wait_for(lambda: table.state()["camera"]["reference"])
        players = [{"name": n, "color": c, "at": i}
                   for i, (n, c) in enumerate(zip("ABCD", ("red", "yellow", "green", "blue"),
                                                  strict=True))]
        state = table.setup({"rules": "swiss", "board": 4, "players": players,
                             "first_dealer": 3})
        before = Position.from_json(state["position"])
        move = legal_moves(before, Card.ACE)[0]
        table.announce("A")
        table.observe(position=move.result.to_json())
        hole_map = HoleMap.of(table.profile, before)
        wait_for(lambda: not live.virtual.busy
                 and live.virtual.holes == hole_map.holes(move.result, live.virtual.holes))
        assert table.state()["moves"] == 1
