"""Benchmark: the page's server with many live pages (SSE streams) open at once.

Serves a simulated brandi-4 table (journal in a temporary folder) with
`companion.web.server.create_server` on 127.0.0.1 and, in the same process, measures:

- `/api/state` answer times (p50/p95) with no stream open and with `--pages` streams open;
- the fan-out: from sending `POST /api/cards` to every open stream holding that state
  (p50/p95 over pages × announcements);
- how long until every stream's server thread is free after all pages closed;
- for comparison, the former setup (waitress with 16 threads and no cap on streams): whether
  `/api/state` still answers within 3 s with 20 pages open.

No randomness (the game and the requests are fixed). Prints one JSON object.

    .venv/bin/python bench/sse_load.py [--pages 40] [--requests 200] [--changes 20]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from flask import Flask

# The checkout first: bench/vision.py must not hide the vision package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.table import RefereePin, Table
from companion.web import create_app
from companion.web.server import create_server, server_options
from hw import load_profile

PIN = "2468"
SETUP = {"rules": "swiss", "board": 4, "first_dealer": 0,
         "players": [{"name": n, "color": c, "at": i} for i, (n, c) in
                     enumerate([("Anna", "red"), ("Ben", "yellow"), ("Cleo", "green"),
                                ("Dario", "blue")])]}


class Page:
    """One open page: an SSE stream read in its own thread, arrival time per state version."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.sendall(b"GET /api/events HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        self.arrived: dict[int, float] = {}
        self.first = threading.Event()
        self.status = 0
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        buffer = b""
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    return
                buffer += data
                if not self.status and b"\r\n\r\n" in buffer:
                    head, buffer = buffer.split(b"\r\n\r\n", 1)
                    self.status = int(head.split(b" ", 2)[1])
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    if block.startswith(b"id: "):
                        self.arrived[int(block.split(b"\n", 1)[0][4:])] = time.perf_counter()
                        self.first.set()
        except OSError:
            return
        finally:
            self.first.set()

    def close(self) -> None:
        """Close as a browser tab does (shut down first: the reading thread still waits)."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


class Browser:
    """The referee's browser: a cookie and a CSRF token."""

    def __init__(self, port: int):
        self.port, self.cookie, self.csrf = port, "", ""

    def call(self, method: str, path: str, body: Any = None,
             timeout: float = 30) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Content-Type": "application/json", "X-CSRF-Token": self.csrf,
                   "Cookie": self.cookie}
        connection.request(method, path, None if body is None else json.dumps(body), headers)
        response = connection.getresponse()
        answer = json.loads(response.read() or b"null")
        if response.getheader("Set-Cookie"):
            self.cookie = response.getheader("Set-Cookie", "").split(";", 1)[0]
        connection.close()
        return response.status, answer


def percentiles(seconds: list[float]) -> dict[str, float]:
    """p50 and p95 in milliseconds."""
    cuts = statistics.quantiles(seconds, n=20, method="inclusive")
    return {"p50_ms": round(statistics.median(seconds) * 1000, 2),
            "p95_ms": round(cuts[18] * 1000, 2), "n": len(seconds)}


def state_times(browser: Browser, requests: int) -> dict[str, float]:
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        status, _ = browser.call("GET", "/api/state")
        assert status == 200
        times.append(time.perf_counter() - start)
    return percentiles(times)


def serve(app: Flask, **options: Any) -> tuple[Any, threading.Thread]:
    if options:
        import waitress

        server = waitress.create_server(app, host="127.0.0.1", port=0, **options)
    else:
        server = create_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    return server, thread


def new_app(folder: Path) -> tuple[Table, Flask]:
    table = Table(load_profile("brandi-4"), simulated=True,
                  hardware={"camera": "none", "leds": "sim"}, state_dir=folder)
    return table, create_app(table, {"SSE_HEARTBEAT_S": 15.0}, pin=RefereePin.from_pin(PIN))


def measure(pages: int, requests: int, changes: int, folder: Path) -> dict[str, Any]:
    table, app = new_app(folder)
    server, thread = serve(app)
    port = server.effective_port
    browser = Browser(port)
    result: dict[str, Any] = {"server": {k: v for k, v in server_options(app).items()
                                         if k != "ident"}}
    result["state_no_pages"] = state_times(browser, requests)
    browser.csrf = browser.call("GET", "/api/session")[1]["csrf"]
    browser.csrf = browser.call("POST", "/api/login", {"pin": PIN})[1]["csrf"]
    browser.call("POST", "/api/setup", SETUP)
    open_pages = [Page(port) for _ in range(pages)]
    for page in open_pages:
        page.first.wait(30)
    assert all(page.status == 200 for page in open_pages)
    result["state_with_pages"] = state_times(browser, requests)
    fan_out = []
    for n in range(changes):
        start = time.perf_counter()
        status, state = browser.call("POST", "/api/cards", {"card": "A" if n % 2 else "K"})
        assert status == 200, state
        deadline = time.monotonic() + 10
        while not all(state["version"] in page.arrived for page in open_pages) \
                and time.monotonic() < deadline:
            time.sleep(0.001)
        fan_out += [page.arrived[state["version"]] - start for page in open_pages]
    result["fan_out"] = percentiles(fan_out)
    closed = time.perf_counter()
    for page in open_pages:
        page.close()
    while browser.call("GET", "/healthz")[1]["streams"]:
        time.sleep(0.05)
    result["threads_free_after_close_s"] = round(time.perf_counter() - closed, 2)
    table.close()
    server.close()
    thread.join(10)
    return result


def former_setup(folder: Path, pages: int = 20) -> dict[str, Any]:
    """Waitress with 16 threads and no stream cap: does the API answer with `pages` open?"""
    table, app = new_app(folder)
    app.config["SSE_MAX_STREAMS"] = 1000
    server, thread = serve(app, threads=16)
    open_pages = [Page(server.effective_port) for _ in range(pages)]
    time.sleep(1.0)
    try:
        status, _ = Browser(server.effective_port).call("GET", "/api/state", timeout=3)
        answered: Any = status == 200
    except (TimeoutError, OSError):
        answered = False
    served = sum(page.status == 200 for page in open_pages)
    for page in open_pages:
        page.close()
    table.close()
    time.sleep(2.0)             # the streams see their pages gone and end
    server.close()
    thread.join(10)
    return {"threads": 16, "pages_opened": pages, "streams_served": served,
            "api_answered_within_3s": answered}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--changes", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        result = {"pages": args.pages, **measure(args.pages, args.requests, args.changes,
                                                 Path(folder, "now"))}
        result["former_setup"] = former_setup(Path(folder, "former"))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
