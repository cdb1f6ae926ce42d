"""`/healthz`: answered while the server's threads work; the systemd watchdog asks it."""

from __future__ import annotations

from typing import cast

from flask import Blueprint, Response, current_app, jsonify

from companion.web.events import StreamGate

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> Response:
    """A tiny JSON answer with the open event streams; no answer within the watchdog's time
    means the page is stuck."""
    gate = cast(StreamGate, current_app.extensions["dog_streams"])
    return jsonify({"ok": True, "streams": gate.open, "max_streams": gate.limit})
