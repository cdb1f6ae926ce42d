"""`dog-companion games list | show ID | export ID | import FILE`: the journal's games.

Games move between tables as game records (``dog-record/1`` lines, docs/game-record.md).
``export`` prints a game's record; ``import`` checks a record line by line with the rules and
keeps it as a game of its own (it does not become the table's current game). Output is JSON
on stdout, messages on stderr; exit 2 with one line naming the problem on bad input.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

MAX_RECORD_BYTES = 20 * 1024 * 1024


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the sub-commands of `games`."""
    parser.add_argument("--state-dir", dest="state_dir", metavar="DIR",
                        help="folder of the journal (default: as `run`: DOG_STATE_DIR, "
                             "systemd's STATE_DIRECTORY, else ~/.local/state/dog-companion)")
    sub = parser.add_subparsers(dest="games_command", metavar="SUB-COMMAND",
                                parser_class=type(parser))
    sub.add_parser("list", help="every game in the journal").set_defaults(handler=list_games)
    show = sub.add_parser("show", help="one game: players, state and moves")
    show.add_argument("id", type=int)
    show.set_defaults(handler=show_game)
    export = sub.add_parser("export", help="one game as dog-record/1 lines")
    export.add_argument("id", type=int)
    export.set_defaults(handler=export_game)
    imported = sub.add_parser("import", help="keep a dog-record/1 file as a game")
    imported.add_argument("file", type=Path)
    imported.set_defaults(handler=import_game)


class GamesError(ValueError):
    """Bad input for `games`; the message names the problem."""


def _journal(args: argparse.Namespace) -> Any:
    from companion.store import Journal
    from companion.table.config import default_state_dir

    folder = Path(args.state_dir) if args.state_dir else default_state_dir(os.environ)
    return Journal.in_dir(folder)


def _run(args: argparse.Namespace, action: Any) -> int:
    from companion.store import StoreError

    try:
        journal = _journal(args)
    except StoreError as error:
        print(f"dog-companion games: {error}", file=sys.stderr)
        return 2
    try:
        return int(action(journal))
    except GamesError as error:
        print(f"dog-companion games: {error}", file=sys.stderr)
        return 2
    finally:
        journal.close()


def _print(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False, indent=2))


def _when(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat(timespec="seconds")


def list_games(args: argparse.Namespace) -> int:
    """Print every game: number, start, source, label, events."""
    def action(journal: Any) -> int:
        _print([{"id": g.id, "created": _when(g.created), "source": g.source, "label": g.label,
                 "events": g.events} for g in journal.games()])
        return 0
    return _run(args, action)


def _game_info(journal: Any, game_id: int) -> Any:
    info = journal.game(game_id)
    if info is None:
        raise GamesError(f"there is no game {game_id} in the journal (see 'games list')")
    return info


def _table_of(journal: Any, game_id: int) -> Any:
    """A table game rebuilt from its events."""
    from companion.table import Table, TableError
    from hw import load_profile

    events = [(event.kind, event.data) for event in journal.events(game_id)]
    setups = [data for kind, data in events if kind == "setup"]
    if not setups:
        raise GamesError(f"game {game_id} has no setup event")
    profile = load_profile(f"brandi-{setups[0]['request']['board']}")
    try:
        return Table.replayed(profile, events)
    except TableError as error:
        raise GamesError(f"game {game_id} cannot be rebuilt: {error}") from None


def _record_lines(journal: Any, game_id: int) -> list[str]:
    from companion.store import iter_lines

    info = _game_info(journal, game_id)
    if info.source == "import":
        return list(iter_lines(journal.events(game_id)))
    lines: list[str] = _table_of(journal, game_id).record()
    return lines


def show_game(args: argparse.Namespace) -> int:
    """Print one game: its players, phase, round, winners and moves."""
    def action(journal: Any) -> int:
        info = _game_info(journal, args.id)
        if info.source == "import":
            from companion.rules import Game
            from companion.rules.record import Ruling

            game = Game.replay(_record_lines(journal, args.id))
            moves = ["set by the referee" if isinstance(event, Ruling)
                     else getattr(event, "notation", None) for event in game.events]
            _print({"id": info.id, "source": info.source, "label": info.label,
                    "phase": game.phase.value, "round": game.round,
                    "winners": None if game.winners is None else list(game.winners),
                    "moves": [m for m in moves if m]})
            return 0
        table = _table_of(journal, args.id)
        state = table.state()
        _print({"id": info.id, "source": info.source, "label": info.label,
                "created": _when(info.created), "phase": state["phase"],
                "round": state["round"], "players": state["players"],
                "rules": state["rules"], "winners": state["winners"],
                "moves": [move["notation"] for move in table.history()]})
        return 0
    return _run(args, action)


def export_game(args: argparse.Namespace) -> int:
    """Print one game's record lines."""
    def action(journal: Any) -> int:
        for line in _record_lines(journal, args.id):
            print(line)
        return 0
    return _run(args, action)


def check_record(path: Path) -> tuple[list[str], str]:
    """The record's lines and a label, after checking every line with the rules;
    `GamesError` naming the line and the reason otherwise."""
    from companion.rules import Game, GameError
    from companion.rules.record import RecordError

    try:
        if path.stat().st_size > MAX_RECORD_BYTES:
            raise GamesError(f"{path}: larger than {MAX_RECORD_BYTES // 2**20} MB, not a "
                             "game record")
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise GamesError(f"{path}: no such file") from None
    except UnicodeDecodeError as error:
        raise GamesError(f"{path}: line 1: not UTF-8 text ({error.reason}): not a game "
                         "record") from None
    except OSError as error:
        raise GamesError(f"{path}: {error.strerror}") from None
    lines = text.splitlines()
    numbered = [(number, line) for number, line in enumerate(lines, start=1) if line.strip()]
    if not numbered:
        raise GamesError(f"{path}: empty file, not a game record")
    from companion.rules.record import parse_event, parse_header

    try:
        game = Game(parse_header(numbered[0][1]))
    except (RecordError, GameError) as error:
        raise GamesError(f"{path}: line {numbered[0][0]}: {error}") from None
    for number, line in numbered[1:]:
        try:
            game.apply(parse_event(line))
        except (RecordError, GameError) as error:
            raise GamesError(f"{path}: line {number}: {error}") from None
    colors = ", ".join(player.color for player in game.setup.start.players)
    return [line for _, line in numbered], f"imported {path.name}: {colors}"


def import_game(args: argparse.Namespace) -> int:
    """Check a record and keep it as a game of its own."""
    def action(journal: Any) -> int:
        lines, label = check_record(args.file)
        game_id = journal.new_game("import", label)
        for line in lines:
            journal.append(game_id, "record", {"line": line})
        _print({"imported": game_id, "lines": len(lines)})
        return 0
    return _run(args, action)
