"""Scripted games: a legal game played by the rules' self-play, as table actions.

`game_script` plays a whole game in full mode (it knows the hands) and returns the setup and
the steps a referee table sees: ``("play", player, card, position)``, ``("fold", player)``.
`drive` sends the steps to a table, manually or as camera readings; `resume_index` finds
where a table that was restarted stands in the script.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.rules import Game, RuleSet
from companion.rules.record import Fold, Play, Redraw
from companion.rules.selfplay import COLORS, play_game
from companion.table import Table

Step = tuple[Any, ...]


def game_script(seed: int = 1, players: int = 4, board: int = 4,
                rules: str = "swiss") -> tuple[dict[str, Any], list[Step], Game]:
    """The setup request, the steps and the finished full-mode game."""
    game = play_game(RuleSet.from_json(rules), players, board, seed, checked=False)
    start = game.setup.start
    request = {"rules": rules, "board": board, "first_dealer": game.setup.first_dealer,
               "players": [{"name": f"P{i}", "color": COLORS[i], "at": player.seat}
                           for i, player in enumerate(start.players)]}
    steps: list[Step] = []
    for event in game.events:
        if isinstance(event, Play):
            steps.append(("play", event.player, str(event.card), event.position.to_json()))
        elif isinstance(event, (Fold, Redraw)):
            steps.append(("fold", event.player))
    return request, steps, game


def signature(state: dict[str, Any]) -> tuple[Any, ...]:
    """What tells two moments of a game apart: round, cards held, turn, redraw, moves."""
    return (state["round"], tuple(state["counts"]), state["position"]["turn"],
            state["redrawn"], state["moves"], state["phase"])


def step(table: Table, entry: Step, camera: bool = False) -> None:
    """One scripted step: announce and enter the position (by hand or as a camera reading),
    or fold."""
    if entry[0] == "fold":
        table.fold(player=entry[1])
        return
    _, player, card, position = entry
    table.announce(card, player=player)
    if camera:
        table.feed(holes_of(table, position))
        if table.state()["announced"] is not None:     # a Jack without effect
            table.done()
    else:
        table.observe(position=position)
        if table.state()["camera"]["status"] == "reading":
            table.feed(holes_of(table, position))    # the camera sees the board too


def holes_of(table: Table, position: dict[str, Any]) -> dict[str, str | None]:
    """The camera's reading of a position."""
    from companion.rules import Position
    from companion.table.board import BoardMap

    return BoardMap(table.profile, Position.from_json(position)).holes(
        Position.from_json(position))


def drive(table: Table, steps: list[Step], start: int = 0, camera_every: int = 0) -> None:
    """Send steps ``start…`` to the table (every ``camera_every``-th as a camera reading)."""
    for index in range(start, len(steps)):
        step(table, steps[index], camera=bool(camera_every) and index % camera_every == 0)


def signatures(profile: Any, request: dict[str, Any], steps: list[Step]) -> list[Any]:
    """The signature of the game after 0, 1, … steps of the script."""
    replica = Table(profile)
    replica.setup(request)
    found = [signature(replica.state())]
    for entry in steps:
        step(replica, entry)
        found.append(signature(replica.state()))
    return found


def resume_index(table: Table, moments: list[Any]) -> int:
    """How many steps of the script a (restarted) table has taken; -1 before the setup."""
    state = table.state()
    if state["phase"] == "setup":
        return -1
    wanted = signature(state)
    if wanted not in moments:
        raise AssertionError(f"the table's state {wanted} is not a moment of the script")
    return len(moments) - 1 - moments[::-1].index(wanted)


def play_script(state_dir: Path, profile: Any, request: dict[str, Any], steps: list[Step],
                moments: list[Any]) -> None:
    """The crash test's child: open the journal, resume where it stands, play to the end."""
    table = Table(profile, state_dir=state_dir)
    done = resume_index(table, moments)
    if done < 0:
        table.setup(request)
        done = 0
    drive(table, steps, done)
    table.close()
