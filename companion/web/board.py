"""The page people see: board, card pad, verdict, setup, history, camera and settings views.

Every view is the same page (`page.html`) with another view showing first; its script switches
views without a reload and keeps them current from `/api/events`. The page talks to the table
through the JSON API (`companion.web.api`); the few things only the page needs are served here
under `/page/`: the legal results for entering a move by hand, the verdict's sentence in the
reader's language, and the seats' QR codes; `/api/board` gives the board profile to other
screens and scripts.
"""

from __future__ import annotations

import io
import json
from contextlib import suppress
from dataclasses import asdict
from typing import Any

import segno
from flask import Blueprint, Response, current_app, jsonify, render_template
from flask_babel import get_locale  # type: ignore[import-untyped]
from werkzeug.exceptions import Conflict, NotFound

from companion import __version__
from companion.web import page_texts
from companion.web.auth import referee_only, seat_entry, seats, session_answer
from companion.web.context import current_table

bp = Blueprint("board", __name__)

VIEWS = ("board", "setup", "history", "calibration", "settings")
MOST_RESULTS = 400
"""The most legal results listed for entering a move by hand (a 7 can have thousands)."""


def language() -> str:
    """The reader's language: "de" or "en"."""
    return str(get_locale() or current_app.config["DEFAULT_LANGUAGE"])[:2]


def profile_json() -> dict[str, Any]:
    """The board profile as the page draws it: holes and markers in millimetres."""
    profile = current_table().profile
    return {"name": profile.name, "seats": profile.seats, "board_mm": profile.board_mm,
            "default_colors": profile.default_colors,
            "hole_diameter_mm": profile.hole_diameter_mm,
            "marble_diameter_mm": profile.marble_diameter_mm,
            "holes": [{"id": h.id, "kind": h.kind, "x": h.x, "y": h.y, "seat": h.seat}
                      for h in profile.holes],
            "markers": [asdict(m) for m in profile.markers]}


def render_view(view: str) -> str:
    """The page with `view` showing first."""
    lang = language()
    table = current_table()
    return render_template("page.html", view=view, lang=lang, other="en" if lang == "de" else "de",
                           texts=page_texts.page_texts(), profile=profile_json(),
                           session=session_answer(), state=table.state(),
                           version=__version__, colors=page_texts.COLORS,
                           cards=page_texts.CARDS, settle_s=table.settle_s,
                           state_dir=table.state_dir)


@bp.get("/")
def board_view() -> str:
    """The board with the card pad and the verdict: the referee screen and a player's seat."""
    return render_view("board")


@bp.get("/<any(setup, history, calibration, settings):view>")
def other_view(view: str) -> str:
    """Setup, history, camera or settings: the same page with another view first."""
    return render_view(view)


@bp.get("/api/board")
def board_profile() -> Response:
    """The board profile: every hole (with its LED) and marker, positions in millimetres."""
    profile = current_table().profile
    return jsonify({"name": profile.name, "seats": profile.seats,
                    "board_mm": profile.board_mm, "default_colors": profile.default_colors,
                    "hole_diameter_mm": profile.hole_diameter_mm,
                    "holes": [asdict(h) for h in profile.holes],
                    "markers": [asdict(m) for m in profile.markers]})


@bp.get("/page/moves.json")
def legal_results() -> Response:
    """The legal results of the announced card, for entering a move by hand:
    `{"card": "7", "moves": [{"notation": ..., "result": POSITION}, ...], "more": bool}`, each
    result once (a Joker can reach one result as several cards)."""
    table = current_table()
    announced = table.state().get("announced")
    if not announced:
        raise Conflict("no card is announced: announce one first")
    moves, seen = [], set()
    for move in table.legal_results():
        key = json.dumps(move["result"], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        moves.append(move)
    return jsonify({"card": announced["card"], "moves": moves[:MOST_RESULTS],
                    "more": len(moves) > MOST_RESULTS})


@bp.get("/page/verdict.json")
def verdict_words() -> Response:
    """The verdict's reason in the reader's language: `{"reason": str | null, "rule": str |
    null}` (the English `reason` of the state where the verdict has no code)."""
    from companion.rules.reasons import reason_text

    verdict = current_table().state().get("verdict")
    if not verdict:
        raise NotFound("there is no verdict now")
    code = verdict.get("code")
    reason = verdict.get("reason")
    if code:
        # A code this version cannot render keeps the English sentence.
        with suppress(KeyError, ValueError):
            reason = reason_text(code, verdict.get("args") or {}, language())
    return jsonify({"reason": reason, "rule": verdict.get("rule")})


@bp.get("/page/qr/<int:seat>.svg")
@referee_only
def seat_qr(seat: int) -> Response:
    """The QR code of a seat's join link (referee only: it holds the seat's secret)."""
    token = seats().token(seat)
    players = current_table().state().get("players") or []
    if token is None or seat >= len(players):
        raise NotFound(f"there is no seat {seat}")
    link = seat_entry(seat, players[seat], token)["url"]
    svg = io.BytesIO()
    segno.make(link, error="m").save(svg, kind="svg", scale=4, border=2, dark="#1d1d1b",
                                     light="#ffffff", title=link)
    return Response(svg.getvalue(), mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-store"})
