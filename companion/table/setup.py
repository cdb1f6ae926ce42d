"""A game's setup as the page sends it (``POST /api/setup``), checked and turned into the
rules' :class:`~companion.rules.Setup`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules import Position, PositionError, RuleSet, Setup
from companion.table.errors import TableError
from hw import BoardProfile

SETUP_KEYS = ("rules", "board", "players", "first_dealer", "teams")
PLAYER_KEYS = ("name", "color", "at")
NAME_LENGTH = 40


def _bad(message: str) -> TableError:
    return TableError(message, 400)


def parse_setup(request: object, profile: BoardProfile) -> tuple[dict[str, Any], Setup]:
    """The setup request with defaults filled in, and the rules' setup of the game.

    ``TableError(400)`` naming the key and value on bad input.
    """
    if not isinstance(request, Mapping):
        raise _bad("setup: expected a JSON object with rules, board, players and first_dealer")
    unknown = sorted(set(request) - set(SETUP_KEYS))
    if unknown:
        raise _bad(f"setup: unknown key {unknown[0]!r} (keys: {', '.join(SETUP_KEYS)})")
    rules_value = request.get("rules", "swiss")
    try:
        RuleSet.from_json(rules_value)
    except (PositionError, ValueError, TypeError) as error:
        raise _bad(f"setup: {error}") from None
    board = request.get("board", profile.seats)
    if board not in (4, 6) or isinstance(board, bool):
        raise _bad(f"setup: board {board!r} must be 4 or 6")
    if board != profile.seats:
        raise _bad(f"setup: board {board} does not fit this table's board {profile.name!r} "
                   f"({profile.seats} seats)")
    raw_players = request.get("players")
    if not isinstance(raw_players, list) or not 2 <= len(raw_players) <= board:
        raise _bad(f"setup: players must be a list of 2 to {board} players, not "
                   f"{_show(raw_players)}")
    players = [_player(index, raw, board) for index, raw in enumerate(raw_players)]
    first_dealer = request.get("first_dealer", 0)
    if not isinstance(first_dealer, int) or isinstance(first_dealer, bool) or not (
            0 <= first_dealer < len(players)):
        raise _bad(f"setup: first_dealer {first_dealer!r} is not a player (0…"
                   f"{len(players) - 1})")
    count = len(players)
    fresh = count not in (4, 6)
    position: dict[str, Any] = {
        "format": "dog-position/1", "rules": rules_value, "board": board, "turn": 0,
        "players": [{"color": p["color"], "at": p["at"],
                     "pegs": ["K"] * 4 + ([f"T{16 * p['at']}*"] if fresh else [])}
                    for p in players]}
    normalized: dict[str, Any] = {"rules": rules_value, "board": board, "players": players,
                                  "first_dealer": first_dealer}
    if "teams" in request:
        position["teams"] = request["teams"]
        normalized["teams"] = request["teams"]
    try:
        start = Position.from_json(position)
    except (PositionError, ValueError) as error:
        raise _bad(f"setup: {error}") from None
    return normalized, Setup(start, first_dealer)


def _player(index: int, raw: object, board: int) -> dict[str, Any]:
    where = f"setup: players[{index}]"
    if not isinstance(raw, Mapping):
        raise _bad(f"{where}: expected an object with name, color and at")
    unknown = sorted(set(raw) - set(PLAYER_KEYS))
    if unknown:
        raise _bad(f"{where}: unknown key {unknown[0]!r} (keys: {', '.join(PLAYER_KEYS)})")
    name = raw.get("name", f"Player {index + 1}")
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_LENGTH:
        raise _bad(f"{where}.name: {_show(name)} must be a text of 1 to {NAME_LENGTH} "
                   "characters")
    color = raw.get("color")
    if not isinstance(color, str) or not color.strip():
        raise _bad(f"{where}.color: {_show(color)} is not a colour name")
    at = raw.get("at", index)
    if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at < board:
        raise _bad(f"{where}.at: {_show(at)} is not a seat of the board (0…{board - 1})")
    return {"name": name.strip(), "color": color.strip(), "at": at}


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
