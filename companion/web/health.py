"""`/healthz`: answered while the server's threads work; the systemd watchdog asks it."""

from __future__ import annotations

from flask import Blueprint, jsonify

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():  # type: ignore[no-untyped-def]
    """A tiny JSON answer; no answer within the watchdog's time means the page is stuck."""
    return jsonify({"ok": True})
