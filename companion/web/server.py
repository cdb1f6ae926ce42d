"""The page's HTTP server: waitress with one thread for every event stream the app allows
(`SSE_MAX_STREAMS`) plus `API_THREADS` that stay free for the API and the page.

Waitress runs each request in a worker thread, and an event stream keeps its thread for as
long as the page is open. The app refuses streams beyond its cap with 503, so the API always
has threads; waitress's request lookahead lets a stream notice within a second that its page
went away and give its thread back. Waitress buffers a request body before the app sees it,
so it refuses bodies beyond 16 times the app's `MAX_CONTENT_LENGTH` itself (the app answers
the others beyond its limit with a JSON 413).
"""

from __future__ import annotations

import signal
from types import FrameType
from typing import Any, cast

from flask import Flask

from companion.web.events import StreamGate

API_THREADS = 16
CONNECTIONS_PER_STREAM = 6      # a browser opens at most six connections to one server
BODY_LIMIT_FACTOR = 16          # waitress cuts bodies far beyond the app's JSON 413 answer
HEADER_LIMIT_BYTES = 32 * 1024


def server_options(app: Flask) -> dict[str, Any]:
    """Waitress's options for this app."""
    streams = int(app.config["SSE_MAX_STREAMS"])
    heartbeat_s = float(app.config["SSE_HEARTBEAT_S"])
    return {"threads": streams + API_THREADS,
            "connection_limit": max(100, CONNECTIONS_PER_STREAM * streams),
            "channel_request_lookahead": 1,
            "channel_timeout": max(120, int(4 * heartbeat_s)),
            "max_request_body_size": BODY_LIMIT_FACTOR * int(app.config["MAX_CONTENT_LENGTH"]),
            "max_request_header_size": HEADER_LIMIT_BYTES,
            "ident": "dog-companion"}


def create_server(app: Flask, host: str, port: int) -> Any:
    """A waitress server for the app, listening now (OSError when it cannot);
    `server.run()` serves until `server.close()`."""
    import waitress

    return waitress.create_server(app, host=host, port=port, **server_options(app))


def close_server(server: Any) -> None:
    """Close a server whose app's event streams are ending (the table closed): first wait for
    the worker threads that serve them, so that none of them wakes a server already closed."""
    server.task_dispatcher.shutdown()
    server.close()


def stop_on_signals(app: Flask) -> None:
    """Stop serving on SIGTERM (systemd) and Ctrl-C alike: end the pages' event streams at
    once, then interrupt the server, which waits for the threads still working (up to 5 s).
    Once stopping, a second SIGTERM is ignored (the stop runs to its end: the table closed,
    the server's threads finished); a second Ctrl-C interrupts whatever runs, as Python's
    own Ctrl-C does."""

    def interrupt(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        cast(StreamGate, app.extensions["dog_streams"]).end_all()
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGINT, interrupt)
