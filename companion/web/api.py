"""The table's JSON API (INTERFACES.md section 5, `dog-table/1`) over `companion.table`.

Reading needs no login. Each state change checks the body key by key and the client's role
here, then hands the action to the table, which checks the game and answers with its state or
a `TableError` (its status becomes the HTTP status).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, jsonify, request
from werkzeug.exceptions import BadRequest, Conflict, NotFound

from companion.web.auth import acting_seat, referee_only
from companion.web.context import current_table
from companion.web.security import json_body

bp = Blueprint("api", __name__, url_prefix="/api")

SETUP_KEYS: dict[str, type | tuple[type, ...]] = {
    "rules": (str, dict), "board": int, "players": list, "first_dealer": int, "teams": list}
SETTINGS_KEYS: dict[str, type | tuple[type, ...]] = {
    "brightness": (int, float), "night": bool, "settle_s": (int, float)}
SNAPSHOT_ID = re.compile(r"[A-Za-z0-9_.-]{1,80}")


def answer(state: dict[str, Any]) -> Response:
    """A state as the answer of a request."""
    return jsonify(state)


def strings(body: dict[str, Any], key: str) -> list[str] | None:
    """`body[key]` as a list of strings, None when absent; 400 otherwise."""
    value = body.get(key)
    if value is None:
        return None
    if not all(isinstance(item, str) for item in value):
        raise BadRequest(f"{key!r} must be a list of card names (strings)")
    return list(value)


def require_turn(seat: int | None, what: str) -> None:
    """A seat may act only while its player is to move (the referee always)."""
    if seat is None:
        return
    position = current_table().state().get("position")
    turn = position.get("turn") if isinstance(position, dict) else None
    if turn != seat:
        raise Conflict(f"{what} is refused: you sit for player {seat}, "
                       f"{'no one' if turn is None else f'player {turn}'} is to move")


@bp.get("/state")
def state() -> Response:
    """The table now (the object every event of `/api/events` carries)."""
    return answer(current_table().state())


@bp.get("/history")
def history() -> Response:
    """Every accepted move of the game: `{"moves": [{"n", "player", "card", "notation",
    "position"}, ...]}`."""
    return jsonify({"moves": current_table().history()})


@bp.get("/history/<int:n>")
def history_position(n: int) -> Response:
    """`{"n": n, "position": POSITION}`: the board right after move n (0: the start)."""
    return jsonify({"n": n, "position": current_table().history_position(n)})


@bp.get("/snapshots/<snapshot_id>")
def snapshot(snapshot_id: str) -> Response:
    """A camera snapshot the table kept (JPEG), as named by a verdict's `snapshots`."""
    if not SNAPSHOT_ID.fullmatch(snapshot_id):
        raise NotFound(f"there is no snapshot {snapshot_id!r}")
    return Response(current_table().snapshot(snapshot_id), mimetype="image/jpeg")


@bp.get("/camera.jpg")
def camera_image() -> Response:
    """The camera's newest frame (JPEG); `?overlay=1` draws the markers and every hole's
    reading over it. 404 without a camera, 409 before its first frame."""
    overlay = request.args.get("overlay", "0")
    if overlay not in ("0", "1"):
        raise BadRequest(f"'overlay' must be 0 or 1, not {overlay!r}")
    return Response(current_table().camera_image(overlay == "1"), mimetype="image/jpeg",
                    headers={"Cache-Control": "no-store"})


@bp.post("/setup")
@referee_only
def setup() -> Response:
    """Referee: start a new game (section 5 body); a running game ends."""
    body = json_body(SETUP_KEYS, required=("players",))
    return answer(current_table().setup(body))


@bp.post("/cards")
def cards() -> Response:
    """`{"card": "7"}`: the player to move announces a card (a seat only for itself);
    `{"card": "JOKER", "as": "7"}` lights only the Joker's moves as a 7."""
    seat = acting_seat("announcing a card")
    body = json_body({"card": str, "as": str}, required=("card",))
    return answer(current_table().announce(body["card"], player=seat,
                                           joker_as=body.get("as")))


@bp.post("/observe")
def observe() -> Response:
    """`{"position": POSITION}` or `{"holes": {...}}`: a final reading, judged at once."""
    seat = acting_seat("entering the board")
    body = json_body({"position": dict, "holes": dict})
    if len(body) != 1:
        raise BadRequest("give exactly one of 'position' and 'holes'")
    require_turn(seat, "entering the board")
    return answer(current_table().observe(position=body.get("position"),
                                          holes=body.get("holes")))


@bp.post("/fold")
def fold() -> Response:
    """`{}` or `{"hand": ["7", "2"]}`: the player to move cannot play."""
    seat = acting_seat("folding")
    body = json_body({"hand": list})
    return answer(current_table().fold(strings(body, "hand"), player=seat))


@bp.post("/done")
def done() -> Response:
    """`{}`: the player to move has finished the move; the table judges the camera now."""
    seat = acting_seat("finishing a move")
    json_body({})
    require_turn(seat, "finishing a move")
    return answer(current_table().done())


@bp.post("/undo")
@referee_only
def undo() -> Response:
    """Referee: `{}` takes back the last move, `{"to": k}` goes back to right after move k."""
    body = json_body({"to": int})
    if body.get("to", 0) < 0:
        raise BadRequest(f"'to' must be a move number 0 or more, not {body['to']}")
    return answer(current_table().undo(body.get("to")))


@bp.post("/override")
@referee_only
def override() -> Response:
    """Referee: `{}` accepts the disputed move as played, `{"position": P}` sets the board."""
    body = json_body({"position": dict})
    return answer(current_table().override(body.get("position")))


@bp.post("/exchange")
def exchange() -> Response:
    """`{}`: the partners have exchanged their cards; the reminder goes (the referee, or the
    seat of the player to move)."""
    seat = acting_seat("ending the card exchange")
    json_body({})
    require_turn(seat, "ending the card exchange")
    return answer(current_table().end_exchange())


@bp.post("/settings")
@referee_only
def settings() -> Response:
    """Referee: `{"brightness": 0…1, "night": bool, "settle_s": seconds}` (any of them);
    kept by the table across restarts."""
    body = json_body(SETTINGS_KEYS)
    return answer(current_table().change_settings(body))


@bp.post("/reference")
@referee_only
def reference() -> Response:
    """Referee, at setup: the camera's current frame becomes the reader's reference."""
    json_body({})
    return answer(current_table().take_reference())


@bp.post("/relearn")
@referee_only
def relearn() -> Response:
    """Referee, mid-game after the light changed at once: the reader learns it anew from the
    camera's current frame, which shows the board as the table holds it."""
    json_body({})
    return answer(current_table().relearn_light())
