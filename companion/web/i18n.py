"""The page's languages: German and English with Flask-Babel.

The language of a request: `?lang=` (that request only), then the `dog_lang` cookie set by the
page's switch (`POST /api/language`), then the browser's Accept-Language, then the configured
`DEFAULT_LANGUAGE` ("de" on the Pi). Catalogues live in `companion/web/translations`.
"""

from __future__ import annotations

from flask import Blueprint, Flask, Request, Response, current_app, jsonify, request
from flask_babel import Babel  # type: ignore[import-untyped]

from companion.web.security import error, json_body

LANGUAGES = ("de", "en")
COOKIE = "dog_lang"
COOKIE_MAX_AGE_S = 365 * 24 * 3600

bp = Blueprint("i18n", __name__)


def choose_language(request: Request, default: str) -> str:
    """`?lang=`, then the switch's cookie, then Accept-Language, then `default`."""
    for asked in (request.args.get("lang", ""), request.cookies.get(COOKIE, "")):
        if asked in LANGUAGES:
            return asked
    return request.accept_languages.best_match(LANGUAGES) or default


def current_language() -> str:
    """The language of this request."""
    return choose_language(request, current_app.config["DEFAULT_LANGUAGE"])


def init_app(app: Flask) -> None:
    """Flask-Babel with this module's choice of language."""
    if app.config["DEFAULT_LANGUAGE"] not in LANGUAGES:
        raise ValueError(f"DEFAULT_LANGUAGE must be one of {', '.join(LANGUAGES)}, "
                         f"not {app.config['DEFAULT_LANGUAGE']!r}")
    app.config.setdefault("BABEL_DEFAULT_LOCALE", app.config["DEFAULT_LANGUAGE"])
    Babel(app, locale_selector=current_language)


@bp.get("/api/language")
def language() -> Response:
    """`{"language": "de", "languages": ["de", "en"]}`: this request's language."""
    return jsonify({"language": current_language(), "languages": list(LANGUAGES)})


@bp.post("/api/language")
def switch_language() -> Response:
    """`{"language": "en"}`: the page's switch; remembered in the `dog_lang` cookie."""
    body = json_body({"language": str}, required=("language",))
    chosen = body["language"]
    if chosen not in LANGUAGES:
        return error(400, f"unknown language {chosen!r} (known: {', '.join(LANGUAGES)})")
    response = jsonify({"language": chosen, "languages": list(LANGUAGES)})
    response.set_cookie(COOKIE, chosen, max_age=COOKIE_MAX_AGE_S, httponly=True,
                        samesite="Strict", secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response

