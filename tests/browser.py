"""A live server and Debian's Chromium driven by Playwright, for the page tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from flask import Flask

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


@contextmanager
def live_server(app: Flask) -> Iterator[str]:
    """Serve the app with waitress on a free loopback port; yields its base URL."""
    import waitress
    from waitress import wasyncore

    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=8)
    stop = threading.Event()

    def serve() -> None:
        # The loop runs in short steps and closes its own sockets once told to stop: nothing
        # from this thread touches them (nor the loop's wake-up pipe) while select() waits.
        while not stop.is_set():
            wasyncore.loop(timeout=0.05, map=server._map, count=1)
        wasyncore.close_all(server._map)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        app.extensions["dog_table"].close()     # ends the pages' event streams
        server.task_dispatcher.shutdown(timeout=5)
        stop.set()
        thread.join(timeout=5)


@contextmanager
def chromium(extra_args: Sequence[str] = ()) -> Iterator[Any]:
    """Headless Chromium (Debian's package, never a downloaded build); open contexts on it."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=[*CHROMIUM_ARGS, *extra_args])
        try:
            yield browser
        finally:
            browser.close()
