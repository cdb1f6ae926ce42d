"""`GET /api/events`: SSE ids, resume with Last-Event-ID, heartbeats, the stream cap."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask import Flask
from werkzeug.test import TestResponse

from companion.table import Table
from tests.web.apiclient import SETUP, Client, make_app, referee


def open_stream(app: Flask, **headers: str) -> tuple[TestResponse, Iterator[bytes]]:
    response = app.test_client().get("/api/events", headers=headers, buffered=False)
    return response, iter(response.response)


def next_message(chunks: Iterator[bytes]) -> tuple[int, dict[str, Any]]:
    """The next state message (heartbeats skipped): its id and its data."""
    while True:
        chunk = next(chunks).decode()
        if chunk.startswith("id: "):
            head, data = chunk.split("\n", 1)
            assert data.startswith("data: ") and chunk.endswith("\n\n")
            return int(head[4:]), json.loads(data[6:])


def test_the_stream_starts_with_the_current_state(app: Flask, table: Table) -> None:
    response, chunks = open_stream(app)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    assert next(chunks) == b"retry: 2000\n\n"
    event_id, state = next_message(chunks)
    assert state == table.state() and event_id == state["version"]
    response.close()


def test_every_change_is_a_message_with_the_next_id(app: Flask) -> None:
    response, chunks = open_stream(app)
    first, _ = next_message(chunks)
    ref = referee(app)
    ref.post("/api/setup", SETUP)
    event_id, state = next_message(chunks)
    assert event_id == first + 1 == state["version"] and state["phase"] == "play"
    ref.post("/api/cards", {"card": "A"})
    event_id, state = next_message(chunks)
    assert event_id == first + 2 and state["announced"]["card"] == "A"
    assert state == Client(app).get("/api/state").get_json()
    response.close()


def test_a_reconnect_with_last_event_id_gets_the_current_state(app: Flask) -> None:
    response, chunks = open_stream(app)
    seen, _ = next_message(chunks)
    response.close()                                # the phone slept ...
    ref = referee(app)
    ref.post("/api/setup", SETUP)
    ref.post("/api/cards", {"card": "A"})           # ... and missed two changes
    again, chunks = open_stream(app, **{"Last-Event-ID": str(seen)})
    event_id, state = next_message(chunks)
    assert event_id == seen + 2 and state["announced"]["card"] == "A"
    again.close()


def test_an_idle_stream_gets_heartbeats(app: Flask) -> None:
    response, chunks = open_stream(app)
    next_message(chunks)
    assert next(chunks) == b": heartbeat\n\n"
    assert next(chunks) == b": heartbeat\n\n"
    response.close()


def test_the_stream_ends_when_the_table_closes(app: Flask, table: Table) -> None:
    response, chunks = open_stream(app)
    next_message(chunks)
    table.close()
    assert list(chunks) == []
    response.close()
    assert app.extensions["dog_streams"].open == 0


def test_every_stream_ends_at_once_when_the_server_stops(app: Flask, table: Table) -> None:
    """`StreamGate.end_all` (on SIGTERM or Ctrl-C): an idle stream and a stalled one whose
    queue is full end after the states they have, new streams are refused, the table goes on."""
    idle, idle_chunks = open_stream(app)
    stalled, stalled_chunks = open_stream(app)
    next_message(idle_chunks)
    next_message(stalled_chunks)
    ref = referee(app)
    ref.post("/api/setup", SETUP)
    next_message(idle_chunks)
    for card in ("A", "K") * 10:  # more states than a stalled page's queue holds
        ref.post("/api/cards", {"card": card})
        next_message(idle_chunks)
    app.extensions["dog_streams"].end_all()
    assert list(idle_chunks) == []
    rest = [chunk.decode() for chunk in stalled_chunks]
    assert rest and all(chunk.startswith("id: ") for chunk in rest)
    idle.close()
    stalled.close()
    assert app.extensions["dog_streams"].open == 0
    refused, _ = open_stream(app)
    assert refused.status_code == 503 and refused.get_json()["error"] == "the table is stopping"
    assert Client(app).get("/api/state").status_code == 200


def test_the_stream_ends_when_its_client_went_away(app: Flask) -> None:
    response = app.test_client().get(
        "/api/events", buffered=False,
        environ_overrides={"waitress.client_disconnected": lambda: True})
    assert list(response.response) == [b"retry: 2000\n\n"]
    response.close()
    assert app.extensions["dog_streams"].open == 0


def test_streams_beyond_the_cap_are_refused(table: Table) -> None:
    app = make_app(table, SSE_MAX_STREAMS=2)
    first, _ = open_stream(app)
    second, _ = open_stream(app)
    assert Client(app).get("/healthz").get_json()["streams"] == 2
    refused, _ = open_stream(app)
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "10"
    assert "2 live pages" in refused.get_json()["error"]
    first.close()
    assert Client(app).get("/healthz").get_json()["streams"] == 1
    third, chunks = open_stream(app)
    assert third.status_code == 200
    next_message(chunks)
    second.close()
    third.close()
    assert Client(app).get("/healthz").get_json()["streams"] == 0
    assert Client(app).get("/api/state").status_code == 200


def test_closing_twice_gives_one_place_back(app: Flask) -> None:
    response, chunks = open_stream(app)
    next_message(chunks)
    response.close()
    response.close()
    assert app.extensions["dog_streams"].open == 0


def test_a_state_is_encoded_once_for_every_stream_that_sends_it() -> None:
    import threading

    from companion.web.events import Messages

    messages = Messages()
    state = {"version": 7, "holes": {f"T{i}": None for i in range(64)}}
    texts: list[str] = []
    start = threading.Barrier(20)

    def send() -> None:
        start.wait()
        texts.append(messages.of(state))

    threads = [threading.Thread(target=send) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert messages.encoded == 1 and len(set(texts)) == 1 and len(texts) == 20
    assert texts[0].startswith("id: 7\ndata: {") and texts[0].endswith("}\n\n")
    messages.of({**state, "version": 8})
    assert messages.encoded == 2
