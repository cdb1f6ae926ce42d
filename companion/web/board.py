"""The board page and its JSON: the profile's holes and the table's current state."""

from __future__ import annotations

from dataclasses import asdict

from flask import Blueprint, current_app, jsonify, render_template, request

from companion.table import Table
from companion.web.i18n import choose_language, texts

bp = Blueprint("board", __name__)


def table() -> Table:
    """The table this app serves."""
    return current_app.extensions["dog_table"]  # type: ignore[no-any-return]


@bp.get("/")
def page() -> str:
    """The referee page, in German or English."""
    language = choose_language(request, current_app.config["DEFAULT_LANGUAGE"])
    other = "en" if language == "de" else "de"
    return render_template("board.html", t=texts(language), lang=language, other=other,
                           snapshot=table().snapshot())


@bp.get("/api/board")
def board_profile():  # type: ignore[no-untyped-def]
    """The board profile: hole and marker positions in millimetres."""
    profile = table().profile
    return jsonify({"name": profile.name, "seats": profile.seats,
                    "board_mm": profile.board_mm, "default_colors": profile.default_colors,
                    "hole_diameter_mm": profile.hole_diameter_mm,
                    "holes": [asdict(h) for h in profile.holes],
                    "markers": [asdict(m) for m in profile.markers]})


@bp.get("/api/state")
def state():  # type: ignore[no-untyped-def]
    """The table's current state (the same data the event stream sends)."""
    return jsonify(table().snapshot())
