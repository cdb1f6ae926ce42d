"""What every request must be and every answer carries: CSRF tokens on state changes, security
headers, a size limit, JSON bodies checked key by key, and errors as `{"error": sentence}`."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from flask import Flask, Response, current_app, jsonify, request
from flask_wtf.csrf import CSRFError, CSRFProtect  # type: ignore[import-untyped]
from werkzeug.exceptions import BadRequest, HTTPException, UnsupportedMediaType

from companion.table import TableError

csrf = CSRFProtect()
log = logging.getLogger("dog-companion.web")

CSRF_HEADER = "X-CSRF-Token"
MAX_BODY_BYTES = 64 * 1024

# Scripts and styles only from files of this server: no inline script, no framing.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; "
                           "img-src 'self' data:; connect-src 'self'; object-src 'none'; "
                           "base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}

# The answers of the HTTP statuses this app gives, as sentences for people.
STATUS_SENTENCES = {
    400: "the request is malformed",
    403: "this is not allowed",
    404: "there is no such page or resource",
    405: "this method is not allowed here",
    415: "the request body must be JSON (Content-Type: application/json)",
    429: "too many requests",
    500: "the server failed; nothing was changed",
    503: "the server is busy; try again shortly",
}


View = TypeVar("View", bound=Callable[..., Any])


def csrf_exempt(view: View) -> View:
    """Let a view change state without the CSRF header (login and joining a seat: they hand
    out the token; their bodies must still be JSON, which no other site can send here)."""
    csrf.exempt(view)
    return view


def init_app(app: Flask) -> None:
    """Install CSRF protection, the security headers and the JSON error answers."""
    if app.config["MAX_CONTENT_LENGTH"] is None:
        app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.config.setdefault("WTF_CSRF_HEADERS", [CSRF_HEADER])
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)      # valid as long as the session
    csrf.init_app(app)
    app.after_request(add_security_headers)
    app.register_error_handler(TableError, table_error)
    app.register_error_handler(CSRFError, csrf_error)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(Exception, unexpected_error)


def add_security_headers(response: Response) -> Response:
    """The security headers on every answer; API answers are never cached."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if request.path.startswith("/api/"):
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def error(status: int, sentence: str, headers: Mapping[str, str] | None = None) -> Response:
    """A refused request: `{"error": sentence}` with an HTTP status."""
    response = jsonify({"error": sentence})
    response.status_code = status
    if headers:
        response.headers.update(headers)
    return response


def table_error(err: TableError) -> Response:
    """The table refused an action: its sentence and its status."""
    return error(err.status, str(err))


def csrf_error(err: CSRFError) -> Response:
    """A state change without a valid `X-CSRF-Token` header."""
    reason = str(err.description).rstrip(".").lower()
    return error(403, f"{reason}: send the header {CSRF_HEADER} with the token from "
                      "/api/session, /api/login or joining a seat")


KEPT_HEADERS = ("Allow", "Retry-After")


def http_error(err: HTTPException) -> Response:
    """Every HTTP error as JSON with a sentence naming the problem."""
    status = err.code or 500
    described = err.description if type(err).description != err.description else None
    if status == 413:
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        described = f"the request body is larger than {limit / 1024:g} kB"
    kept = {name: value for name, value in err.get_headers() if name in KEPT_HEADERS}
    return error(status, described or STATUS_SENTENCES.get(status, err.name.lower()), kept)


def unexpected_error(err: Exception) -> Response:
    """A bug: logged with its traceback, answered with a sentence and no traceback."""
    log.exception("unexpected error on %s %s", request.method, request.path)
    return error(500, STATUS_SENTENCES[500])


def json_body(allowed: Mapping[str, type | tuple[type, ...]],
              required: tuple[str, ...] = ()) -> dict[str, Any]:
    """The request's JSON object, with only `allowed` keys of the given types (an empty body
    counts as `{}`); anything else is refused with 400 (415 for a body that is not JSON)."""
    body: object = {}
    if not request.is_json:
        # A form body may already be parsed (the CSRF check looks into forms).
        if request.content_length or request.form or request.files \
                or request.get_data(cache=True).strip():
            raise UnsupportedMediaType(STATUS_SENTENCES[415])
    elif request.get_data(cache=True).strip():
        try:
            body = request.get_json(force=True)
        except BadRequest:
            raise BadRequest("the request body is not valid JSON") from None
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    for key, value in body.items():
        if key not in allowed:
            known = ", ".join(repr(name) for name in allowed) or "none"
            raise BadRequest(f"unknown key {key!r} (allowed: {known})")
        expected = allowed[key]
        if isinstance(value, bool) and bool not in _types(expected):
            raise BadRequest(f"{key!r} must be {_type_names(expected)}, not {value!r}")
        if not isinstance(value, expected):
            raise BadRequest(f"{key!r} must be {_type_names(expected)}, not {_show(value)}")
    for key in required:
        if key not in body:
            raise BadRequest(f"the key {key!r} is missing")
    return body


def _types(expected: type | tuple[type, ...]) -> tuple[type, ...]:
    return expected if isinstance(expected, tuple) else (expected,)


TYPE_NAMES = {str: "a string", int: "an integer", list: "a list", dict: "an object",
              bool: "true or false", type(None): "null"}


def _type_names(expected: type | tuple[type, ...]) -> str:
    return " or ".join(TYPE_NAMES.get(kind, kind.__name__) for kind in _types(expected))


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
