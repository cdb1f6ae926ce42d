"""The referee page: a Flask app factory with one blueprint per concern.

`create_app(table, config, pin=pin)` serves one table: the JSON API of INTERFACES.md section 5
(`api`), logins and seats (`auth`), the live event stream (`events`), the health check
(`health`), the language switch (`i18n`) and the page itself.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask

if TYPE_CHECKING:
    from companion.table import RefereePin, Table

DEFAULTS: dict[str, Any] = {
    "DEFAULT_LANGUAGE": "de",       # the page's language when neither switch nor browser decide
    "SSE_HEARTBEAT_S": 15.0,        # a comment line on an idle event stream this often
    "SSE_MAX_STREAMS": 48,          # event streams open at once; more are refused with 503
    "PIN_ATTEMPTS": 5,              # failed PIN tries per client ...
    "PIN_WINDOW_S": 60.0,           # ... within this many seconds, then 429
    "REFEREE_SESSION_S": 12 * 3600,  # a referee login lasts this long
    "STATE_DIR": None,              # cookie key and seat tokens (default: the table's folder)
    "PUBLIC_URL": None,             # base of the seat links in QR codes (default: as asked)
    "SESSION_COOKIE_NAME": "dog_session",
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Strict",
    "PERMANENT_SESSION_LIFETIME": timedelta(days=2),
}


def create_app(table: Table, config: dict[str, Any] | None = None, *,
               pin: RefereePin | None = None) -> Flask:
    """Build the web app for one table; `config` overrides DEFAULTS (tests, CLI). Without a
    `pin` nobody can log in as the referee."""
    from companion.web import api, auth, board, events, health, i18n, security

    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS)
    if config:
        app.config.from_mapping(config)
    if app.config["STATE_DIR"] is None:
        app.config["STATE_DIR"] = table.state_dir
    state_dir = Path(app.config["STATE_DIR"]) if app.config["STATE_DIR"] else None
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = auth.load_or_create_secret(state_dir)
    app.extensions["dog_table"] = table
    app.extensions["dog_pin"] = pin
    app.extensions["dog_pin_throttle"] = auth.PinThrottle(app.config["PIN_ATTEMPTS"],
                                                          app.config["PIN_WINDOW_S"])
    app.extensions["dog_seats"] = auth.SeatTokens(
        state_dir / auth.SEATS_FILE if state_dir else None)
    app.extensions["dog_streams"] = events.StreamGate(app.config["SSE_MAX_STREAMS"])
    app.extensions["dog_messages"] = events.Messages()

    security.init_app(app)
    i18n.init_app(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(events.bp)
    app.register_blueprint(health.bp)
    app.register_blueprint(i18n.bp)
    app.register_blueprint(board.bp)
    return app
