"""Positions drawn as plain text for humans (``dog-companion rules show``)."""

from __future__ import annotations

from companion.rules.board import FIELDS_PER_SEAT, FRESH, HOME_FIELDS, KENNEL
from companion.rules.position import Position

__all__ = ["letters", "render"]

EMPTY = "·"


def letters(colors: tuple[str, ...]) -> dict[str, str]:
    """One distinct capital letter per colour: its first letter that is still free."""
    out: dict[str, str] = {}
    for color in colors:
        for char in color.upper() + "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            if char.isalpha() and char not in out.values():
                out[color] = char
                break
    return out


def render(position: Position) -> str:
    """The position as rows of text: one row of 16 track fields per seat position, in the
    direction of movement, with the player sitting there, its kennel and its home.

    A peg is the capital letter of its colour; ``*`` marks a fresh peg, ``·`` an empty field.
    """
    layout = position.layout
    mark = letters(layout.colors)
    track: list[str] = [EMPTY] * layout.track_len
    for player, codes in enumerate(position.codes):
        for code in codes:
            if code == FRESH:
                track[layout.starts[player]] = mark[layout.colors[player]] + "*"
            elif 0 <= code < layout.track_len:
                track[code] = mark[layout.colors[player]]
    mover = position.turn
    lines = [
        f"rules {layout.rules.name} · board {layout.board} · turn: {layout.colors[mover]}"
        f" (player {mover}, seat {layout.seats[mover]})",
        "legend: " + " ".join(f"{mark[c]}={c}" for c in layout.colors)
        + f" · * fresh · {EMPTY} empty · movement left to right, then down",
        "",
        "seat fields    " + "".join(f"{n:<3}" for n in range(FIELDS_PER_SEAT))
        + "player    kennel  home H0-H3",
    ]
    for seat in range(layout.board):
        first = seat * FIELDS_PER_SEAT
        cells = "".join(f"{track[first + n]:<3}" for n in range(FIELDS_PER_SEAT))
        row = f"{seat:>4} T{first:<2}-T{first + FIELDS_PER_SEAT - 1:<3} {cells}"
        if seat in layout.seats:
            player = layout.seats.index(seat)
            color = layout.colors[player]
            codes = position.codes[player]
            kennel = sum(1 for code in codes if code == KENNEL)
            homes = {code - layout.track_len for code in codes if code >= layout.track_len}
            home = " ".join(mark[color] if k in homes else EMPTY for k in range(HOME_FIELDS))
            turn = "▶ " if player == mover else "  "
            row += f"{turn}{color:<8}{kennel:^7} {home}"
        else:
            row += "  (empty seat)"
        lines.append(row.rstrip())
    return "\n".join(lines)
