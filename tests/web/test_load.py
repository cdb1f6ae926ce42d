"""Forty pages open at once on the real server (waitress on 127.0.0.1) while the API answers.

Bounded: 40 streams (plus the cap's 8 more and one refused), a few seconds; no timing
assertions. `bench/sse_load.py` measures the figures.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.web.server import API_THREADS, create_server, server_options
from tests.web.apiclient import PIN, SETUP, make_app, make_table

PAGES = 40
TIMEOUT_S = 20.0


class Stream:
    """One page's EventSource: a raw HTTP/1.0 connection reading SSE messages."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT_S)
        self.sock.sendall(b"GET /api/events HTTP/1.0\r\nHost: 127.0.0.1\r\n"
                          b"Accept: text/event-stream\r\n\r\n")
        self.buffer = b""
        head = self._until(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1])

    def _until(self, end: bytes) -> bytes:
        while end not in self.buffer:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("the server closed the stream")
            self.buffer += data
        part, self.buffer = self.buffer.split(end, 1)
        return part

    def messages(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """Each state message: its id and its data (retry and heartbeats skipped)."""
        while True:
            block = self._until(b"\n\n").decode()
            if block.startswith("id: "):
                head, data = block.split("\n", 1)
                yield int(head[4:]), json.loads(data.removeprefix("data: "))

    def close(self) -> None:
        self.sock.close()


class Api:
    """The referee's browser over plain HTTP: its cookie and CSRF token."""

    def __init__(self, port: int):
        self.port = port
        self.cookie = ""
        self.csrf = ""

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT_S)
        headers = {"Content-Type": "application/json", "X-CSRF-Token": self.csrf}
        if self.cookie:
            headers["Cookie"] = self.cookie
        connection.request(method, path, None if body is None else json.dumps(body), headers)
        response = connection.getresponse()
        answer = json.loads(response.read() or b"null")
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        connection.close()
        return response.status, answer


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, Any]]:
    table = make_table(tmp_path)
    app = make_app(table, SSE_HEARTBEAT_S=2.0)
    server = create_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield server.effective_port, app
    table.close()
    server.close()
    thread.join(timeout=TIMEOUT_S)


def test_the_server_has_threads_for_every_stream_and_the_api(tmp_path: Path) -> None:
    app = make_app(make_table(tmp_path))
    options = server_options(app)
    assert options["threads"] == app.config["SSE_MAX_STREAMS"] + API_THREADS
    assert options["channel_request_lookahead"] >= 1


@pytest.mark.slow
def test_forty_pages_while_the_api_answers(served: tuple[int, Any]) -> None:
    port, app = served
    limit = app.config["SSE_MAX_STREAMS"]
    pages = [Stream(port) for _ in range(PAGES)]
    try:
        feeds = [page.messages() for page in pages]
        first = [next(feed)[0] for feed in feeds]
        assert all(page.status == 200 for page in pages) and len(set(first)) == 1

        api = Api(port)
        for _ in range(20):
            status, state = api.call("GET", "/api/state")
            assert status == 200 and state["version"] == first[0]
        status, session = api.call("GET", "/api/session")
        api.csrf = session["csrf"]
        status, login = api.call("POST", "/api/login", {"pin": PIN})
        assert status == 200
        api.csrf = login["csrf"]
        status, state = api.call("POST", "/api/setup", SETUP)
        assert status == 200
        assert all(next(feed) == (state["version"], state) for feed in feeds)

        pages += [Stream(port) for _ in range(limit - PAGES)]
        refused = Stream(port)
        assert refused.status == 503
        refused.close()
        assert api.call("GET", "/healthz")[1]["streams"] == limit
        assert api.call("GET", "/api/state")[0] == 200
    finally:
        for page in pages:
            page.close()
    deadline = time.monotonic() + TIMEOUT_S        # the threads come back
    while api.call("GET", "/healthz")[1]["streams"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert api.call("GET", "/healthz")[1]["streams"] == 0


def test_the_real_server_answers_oversized_bodies_with_json(served: tuple[int, Any]) -> None:
    port, _app = served
    api = Api(port)
    api.csrf = api.call("GET", "/api/session")[1]["csrf"]
    status, answer = api.call("POST", "/api/observe", {"holes": {"T1": "x" * 100_000}})
    assert status == 413 and "kB" in answer["error"]
    # waitress answers once it has the headers; sending the body too races its closing
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT_S) as sock:
        sock.sendall(b"POST /api/observe HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % (17 * 65536))
        response = http.client.HTTPResponse(sock)
        response.begin()
        assert response.status == 413                   # waitress cuts it before the app
