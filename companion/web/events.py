"""Live updates for the page over server-sent events (SSE)."""

from __future__ import annotations

import json
import queue
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app

from companion.web.board import table

bp = Blueprint("events", __name__)


def sse_stream(listener: queue.Queue[dict[str, Any] | None], heartbeat_s: float,
               on_close: Any) -> Iterator[str]:
    """Each state as an SSE `state` event until the table closes (None); a comment line now
    and then keeps proxies open and notices pages that went away."""
    try:
        while True:
            try:
                snapshot = listener.get(timeout=heartbeat_s)
            except queue.Empty:
                yield ": heartbeat\n\n"
                continue
            if snapshot is None:
                return
            yield f"event: state\nid: {snapshot['version']}\ndata: {json.dumps(snapshot)}\n\n"
    finally:
        on_close(listener)


@bp.get("/events")
def events() -> Response:
    """The event stream a page subscribes to with `new EventSource('/events')`."""
    current = table()
    listener = current.subscribe()
    stream = sse_stream(listener, current_app.config["SSE_HEARTBEAT_S"], current.unsubscribe)
    return Response(stream, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
