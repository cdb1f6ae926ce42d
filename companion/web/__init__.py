"""The referee page: a Flask app factory with one blueprint per concern."""

from __future__ import annotations

from typing import Any

from flask import Flask

from companion.table import Table


def create_app(table: Table, config: dict[str, Any] | None = None) -> Flask:
    """Build the web app for one table; `config` overrides the defaults (tests, CLI)."""
    app = Flask(__name__)
    app.config.from_mapping(DEFAULT_LANGUAGE="de", SSE_HEARTBEAT_S=15.0)
    if config:
        app.config.update(config)
    app.extensions["dog_table"] = table

    from companion.web import board, events, health

    app.register_blueprint(board.bp)
    app.register_blueprint(events.bp)
    app.register_blueprint(health.bp)
    return app
