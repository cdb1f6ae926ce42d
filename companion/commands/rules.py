"""``dog-companion rules …``: legal moves, the referee's check, positions drawn as text.

``moves POSITION --card C`` and ``check BEFORE AFTER --card C`` print JSON on stdout
(INTERFACES.md section 3); an illegal verdict adds its reason ``"code"``, ``"rule"`` (the
anchor in ``docs/rulebook.md``) and ``"args"``, and ``--language de|en`` chooses the language of
its ``"reason"`` sentence (default en). ``show POSITION`` draws the position. A POSITION is
JSON text, a file path or ``-`` for stdin. Exit codes: 0 done, 1 illegal / not playable, 2 bad
input (one line on stderr naming the problem).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

EXIT_DONE = 0
EXIT_ILLEGAL = 1
EXIT_BAD_INPUT = 2
MESSAGE_LENGTH = 300
"""The error line on stderr is cut to this many characters."""

POSITION_HELP = "a dog-position/1 position: JSON text, a file path, or - for stdin"
CARD_HELP = "the card played: A K Q J 10 … 2 JOKER (or 1/11 13 12 SWAP ?), any case"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``moves``, ``check`` and ``show`` sub-commands to ``parser``."""
    sub = parser.add_subparsers(
        dest="rules_command", metavar="SUBCOMMAND", parser_class=type(parser)
    )
    moves = sub.add_parser(
        "moves",
        help="every legal move of a card for the player to move",
        description="Print every legal move of CARD for the player to move, as JSON.",
    )
    moves.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    moves.add_argument("--card", required=True, help=CARD_HELP)
    moves.add_argument("--pretty", action="store_true", help="indent the JSON")
    moves.add_argument("--language", choices=("en", "de"), default="en",
                       help="the language of the reason when the card cannot be played")
    moves.set_defaults(handler=run_moves)

    check = sub.add_parser(
        "check",
        help="the referee's verdict on a played card",
        description="Is AFTER a legal result of playing CARD in BEFORE? Prints the verdict.",
    )
    check.add_argument("before", metavar="BEFORE", help=POSITION_HELP)
    check.add_argument("after", metavar="AFTER", help=POSITION_HELP)
    check.add_argument("--card", required=True, help=CARD_HELP)
    check.add_argument("--pretty", action="store_true", help="indent the JSON")
    check.add_argument(
        "--language",
        choices=("en", "de"),
        default="en",
        help="the language of the reason sentence (default: en)",
    )
    check.set_defaults(handler=run_check)

    show = sub.add_parser(
        "show",
        help="draw a position as text",
        description="Draw POSITION as text: track rows per seat, kennels, homes, turn.",
    )
    show.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    show.set_defaults(handler=run_show)


class InputError(Exception):
    """Bad input: the message is the one line printed on stderr."""


def run_moves(args: argparse.Namespace) -> int:
    """``rules moves``: every legal move as JSON; exit 1 when the card cannot be played (the
    JSON then adds the reason's ``code``, ``rule`` and sentence)."""
    from companion.rules import legal_moves, reason_text, rule_of, unplayable_reason

    try:
        position = _position(args.position, "POSITION")
        card = _card(args.card)
    except InputError as error:
        return _fail("moves", error)
    moves = legal_moves(position, card)
    out: dict[str, Any] = {
        "card": str(card),
        "playable": bool(moves),
        "moves": [{"notation": m.notation, "result": m.result.to_json()} for m in moves],
    }
    why = None if moves else unplayable_reason(position, card)
    if why is not None:
        out["reason"] = reason_text(why.code, why.args, args.language)
        out["code"] = why.code
        out["rule"] = rule_of(why.code)
    _print_json(out, args.pretty)
    return EXIT_DONE if moves else EXIT_ILLEGAL


def run_check(args: argparse.Namespace) -> int:
    """``rules check``: the verdict as JSON; exit 1 when the move is illegal."""
    from companion.rules import PositionError, check

    try:
        if args.before == "-" and args.after == "-":
            raise InputError("BEFORE and AFTER cannot both be read from stdin (-)")
        before = _position(args.before, "BEFORE")
        after = _position(args.after, "AFTER")
        card = _card(args.card)
        verdict = check(before, after, card)
    except PositionError as error:
        return _fail("check", InputError(str(error)))
    except InputError as error:
        return _fail("check", error)
    _print_json(verdict.to_json(args.language), args.pretty)
    return EXIT_DONE if verdict.legal else EXIT_ILLEGAL


def run_show(args: argparse.Namespace) -> int:
    """``rules show``: the position drawn as text."""
    from companion.rules.text import render

    try:
        position = _position(args.position, "POSITION")
    except InputError as error:
        return _fail("show", error)
    _write(render(position) + "\n")
    return EXIT_DONE


def _position(text: str, name: str) -> Any:
    from companion.rules import Position, PositionError

    source = _read(text, name)
    try:
        return Position.from_json(source)
    except PositionError as error:
        raise InputError(f"{name}: {error}") from None


def _read(text: str, name: str) -> str:
    if text == "-":
        return sys.stdin.read()
    if text.lstrip().startswith("{"):
        return text
    path = Path(text)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{name}: {_excerpt(text)} is neither JSON nor an existing file") from None
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise InputError(f"{name}: cannot read {_excerpt(text)} ({reason})") from None


def _card(text: str) -> Any:
    from companion.rules import CardError, parse_card

    try:
        return parse_card(text)
    except CardError as error:
        raise InputError(f"--card: {error}") from None


def _excerpt(text: str) -> str:
    from companion.rules.errors import excerpt

    return excerpt(text)


def _fail(command: str, error: Exception) -> int:
    message = " ".join(str(error).split())
    if len(message) > MESSAGE_LENGTH:
        message = message[: MESSAGE_LENGTH - 1] + "…"
    sys.stderr.write(f"dog-companion rules {command}: error: {message}\n")
    return EXIT_BAD_INPUT


def _print_json(obj: object, pretty: bool) -> None:
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    text = json.dumps(
        obj,
        ensure_ascii=encoding != "utf8",
        indent=2 if pretty else None,
        separators=None if pretty else (",", ":"),
    )
    _write(text + "\n")


def _write(text: str) -> None:
    try:
        sys.stdout.write(text)
    except UnicodeEncodeError:
        sys.stdout.write(text.encode("ascii", "backslashreplace").decode("ascii"))
