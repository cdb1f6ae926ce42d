"""Live updates over server-sent events: `GET /api/events`.

Each message carries the table's state as `data:` and its `version` as `id:`. A client that
connects, or reconnects with `Last-Event-ID`, gets the current state at once (every message
is the whole state, so nothing older is worth sending). An idle stream gets a comment line
every `SSE_HEARTBEAT_S` seconds. Each open stream holds one server thread, so at most
`SSE_MAX_STREAMS` are open at once (more are refused with 503) and the rest of the server's
threads stay free for the API; a stream whose client went away ends within a second when the
server can tell (waitress with `channel_request_lookahead`), else at the next heartbeat. When
the server stops, every stream ends at once (`StreamGate.end_all`).
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, cast

from flask import Blueprint, Response, current_app, request

from companion.web.context import current_table
from companion.web.security import error

bp = Blueprint("events", __name__)

RETRY_MS = 2000          # how soon a browser reconnects after the stream drops
POLL_S = 1.0             # how often a waiting stream asks whether its client went away

State = dict[str, Any]


class StreamGate:
    """Counts the open event streams, refuses more than `limit`, and ends them all when the
    server stops."""

    def __init__(self, limit: int):
        self.limit = limit
        self._open = 0
        self._listeners: set[queue.Queue[State | None]] = set()
        self._ended = False
        self._lock = threading.Lock()

    @property
    def ended(self) -> bool:
        """Whether the streams have ended (`end_all`): the server is stopping."""
        with self._lock:
            return self._ended

    @property
    def open(self) -> int:
        """Streams open now."""
        with self._lock:
            return self._open

    def enter(self) -> bool:
        """Take a place for a stream; False when all are taken or the streams have ended."""
        with self._lock:
            if self._open >= self.limit or self._ended:
                return False
            self._open += 1
            return True

    def hold(self, listener: queue.Queue[State | None]) -> None:
        """The queue a stream that entered reads its states from (`end_all` ends it)."""
        with self._lock:
            self._listeners.add(listener)

    def leave(self, listener: queue.Queue[State | None]) -> None:
        """Give a place back."""
        with self._lock:
            self._open -= 1
            self._listeners.discard(listener)

    def end_all(self) -> None:
        """End every open stream now and refuse new ones: the server is stopping, and it
        would wait for the threads that streams hold."""
        with self._lock:
            self._ended = True
            for listener in self._listeners:
                while True:
                    try:
                        listener.put_nowait(None)
                        break
                    except queue.Full:  # a stalled page: nothing it waits for matters now
                        with contextlib.suppress(queue.Empty):
                            listener.get_nowait()


class Messages:
    """SSE messages of states, each version encoded once for all the streams that send it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: tuple[int, str] = (-1, "")
        self.encoded = 0
        """States encoded so far (one per version, however many streams send it)."""

    def of(self, state: State) -> str:
        """One SSE message: the state's version as id, the state as one line of JSON.

        The streams woken by one state all ask at once: the first encodes it while the others
        wait for its text, so a state is encoded once, not once per stream."""
        version = int(state["version"])
        with self._lock:
            if self._last[0] != version:
                self.encoded += 1
                self._last = (version, f"id: {version}\ndata: "
                                       f"{json.dumps(state, separators=(',', ':'))}\n\n")
            return self._last[1]


def stream(listener: queue.Queue[State | None], heartbeat_s: float,
           gone: Callable[[], bool], messages: Messages) -> Iterator[str]:
    """The messages of one stream until the table closes or the client goes away."""
    yield f"retry: {RETRY_MS}\n\n"
    quiet_since = time.monotonic()
    while not gone():
        waited = time.monotonic() - quiet_since
        try:
            state = listener.get(timeout=max(0.0, min(POLL_S, heartbeat_s - waited)))
        except queue.Empty:
            if time.monotonic() - quiet_since >= heartbeat_s:
                yield ": heartbeat\n\n"
                quiet_since = time.monotonic()
            continue
        if state is None:
            return
        yield messages.of(state)
        quiet_since = time.monotonic()


def _never() -> bool:
    return False


@bp.get("/api/events")
def events() -> Response:
    """The event stream: `new EventSource("/api/events")`, one `message` per state."""
    gate = cast(StreamGate, current_app.extensions["dog_streams"])
    if not gate.enter():
        if gate.ended:
            return error(503, "the table is stopping", {"Retry-After": "10"})
        return error(503, f"{gate.limit} live pages are open, the most this table serves; "
                          "try again shortly", {"Retry-After": "10"})
    table = current_table()
    listener = table.subscribe()
    gate.hold(listener)
    closed = threading.Event()

    def close() -> None:
        if not closed.is_set():
            closed.set()
            table.unsubscribe(listener)
            gate.leave(listener)

    gone = request.environ.get("waitress.client_disconnected", _never)
    heartbeat_s = float(current_app.config["SSE_HEARTBEAT_S"])
    messages = cast(Messages, current_app.extensions["dog_messages"])
    response = Response(stream(listener, heartbeat_s, gone, messages),
                        mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    response.call_on_close(close)
    return response
