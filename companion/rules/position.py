"""Positions: who plays, where every peg stands, whose turn it is (``dog-position/1``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from companion.rules.board import (
    BOARD_SIZES,
    FRESH,
    HOME_FIELDS,
    KENNEL,
    KEY_CODE_BIT,
    key_block,
    location_name,
    parse_location,
    start_field,
    track_field,
    track_length,
)
from companion.rules.errors import MAX_DEPTH, PositionError, excerpt, too_deep
from companion.rules.ruleset import RuleSet

__all__ = ["FORMAT", "Layout", "Player", "Position", "PositionError"]

FORMAT = "dog-position/1"
TEAM_SIZES = (4, 6)
INDIVIDUAL_SIZES = (2, 3, 5)
_TOP_KEYS = ("format", "rules", "board", "players", "teams", "turn")
_PLAYER_KEYS = ("color", "pegs", "at")


class Player(NamedTuple):
    """One player: colour, board (seat) position and peg locations as text (``K``, ``T5``, …)."""

    color: str
    seat: int
    pegs: tuple[str, ...]


class Layout:
    """What stays fixed for a whole game: rules, board, players' colours and seats, teams.

    Two positions belong to the same game exactly when their layouts are equal.
    """

    __slots__ = (
        "_key",
        "board",
        "colors",
        "explicit_teams",
        "key_bases",
        "offsets",
        "partners",
        "peg_code_bit",
        "peg_owner",
        "peg_start",
        "pegs_per_player",
        "rules",
        "seats",
        "spans",
        "starts",
        "teams",
        "track_len",
    )

    def __init__(
        self,
        rules: RuleSet,
        board: int,
        colors: Sequence[str],
        seats: Sequence[int],
        teams: Sequence[Sequence[int]] | None = None,
    ) -> None:
        n = len(colors)
        self.rules = rules
        self.board = board
        self.colors = tuple(colors)
        self.seats = tuple(seats)
        self.explicit_teams = teams is not None
        if teams is None:
            teams = default_teams(n)
        self.teams: tuple[tuple[int, ...], ...] = tuple(
            sorted(tuple(sorted(team)) for team in teams)
        )
        self.track_len = track_length(board)
        self.starts = tuple(start_field(seat) for seat in self.seats)
        partners: list[int | None] = [None] * n
        for team in self.teams:
            if len(team) == 2:
                partners[team[0]], partners[team[1]] = team[1], team[0]
        self.partners = tuple(partners)
        self.pegs_per_player = 4 if n in TEAM_SIZES else 5
        self.offsets = tuple(self.pegs_per_player * i for i in range(n + 1))
        self.peg_owner = tuple(i for i in range(n) for _ in range(self.pegs_per_player))
        self.peg_start = tuple(self.starts[i] for i in self.peg_owner)
        self.spans = tuple((self.offsets[i], self.offsets[i + 1]) for i in range(n))
        """Each player's ``(first, end)`` flat peg indexes."""
        block = key_block(self.track_len)
        self.key_bases = tuple(block * i for i in range(n))
        """Each player's lowest bit in a state key (:mod:`companion.rules.board`)."""
        self.peg_code_bit = tuple(self.key_bases[i] + KEY_CODE_BIT for i in self.peg_owner)
        """Each flat peg's bit of location code 0 in a state key."""
        self._key = (rules, board, self.colors, self.seats, self.teams)

    @property
    def players(self) -> int:
        """The number of players."""
        return len(self.colors)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Layout):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return (
            f"Layout(rules={self.rules.name!r}, board={self.board}, colors={self.colors!r}, "
            f"seats={self.seats!r}, teams={self.teams!r})"
        )

    def name(self, player: int, code: int) -> str:
        """The text of location ``code`` of a peg of ``player``."""
        return location_name(code, self.track_len, self.starts[player])

    def state_key(self, pegs: Sequence[Sequence[int]]) -> int:
        """The state key of every player's location codes (:mod:`companion.rules.board`)."""
        key = 0
        for base, codes in zip(self.key_bases, pegs, strict=True):
            kennel = 0
            for code in codes:
                if code == KENNEL:
                    kennel += 1
                else:
                    key |= 1 << (base + KEY_CODE_BIT + code)
            key |= ((1 << kennel) - 1) << base
        return key


def default_teams(players: int) -> tuple[tuple[int, ...], ...]:
    """Partners sit opposite with 4 or 6 players; with 2, 3 or 5 everybody plays alone."""
    if players in TEAM_SIZES:
        half = players // 2
        return tuple((i, i + half) for i in range(half))
    return tuple((i,) for i in range(players))


class Position:
    """An immutable, hashable position: the layout, every peg's location and the turn.

    Pegs of one player are interchangeable: a position stores each player's locations as a
    sorted multiset, so two positions are equal when every player has the same multiset of
    locations (``*`` counts), the same turn and the same layout. :meth:`same_locations`
    ignores the turn.
    """

    __slots__ = ("_generated", "_hash", "_layout", "_pegs", "_players", "_state_key", "_turn")

    def __init__(
        self,
        layout: Layout,
        pegs: tuple[tuple[int, ...], ...],
        turn: int,
        key: int | None = None,
    ) -> None:
        """Internal: ``pegs`` are location codes, each player's sorted, ``key`` their state key
        if known. Use the class methods."""
        self._layout = layout
        self._pegs = pegs
        self._turn = turn
        self._state_key = key
        self._hash: int | None = None
        self._players: tuple[Player, ...] | None = None
        self._generated: dict[Any, Any] | None = None
        """The moves of each card, kept by :mod:`companion.rules.moves` (nobody else)."""

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def from_json(cls, obj: object) -> Position:
        """A position from a ``dog-position/1`` object or JSON text, strictly validated.

        Raises :class:`PositionError` whose message names the offending key and value.
        """
        if isinstance(obj, (str, bytes)):
            try:
                obj = json.loads(obj)
            except RecursionError:
                raise PositionError(f"position: nested more than {MAX_DEPTH} levels deep") from None
            except ValueError as error:
                raise PositionError(f"position: not valid JSON ({error})") from None
        if too_deep(obj):
            raise PositionError(f"position: nested more than {MAX_DEPTH} levels deep")
        return _parse(obj)

    @classmethod
    def initial(
        cls,
        rules: RuleSet | str,
        board: int,
        colors: Sequence[str],
        seats: Sequence[int] | None = None,
        turn: int = 0,
    ) -> Position:
        """The position at the start of a game.

        Team game (4 or 6 players): every peg in its kennel. 2, 3 or 5 players: 4 pegs in the
        kennel and 1 fresh on the start field. Player ``i`` sits at ``seats[i]`` (default ``i``).
        """
        ruleset = RuleSet.from_json(rules) if isinstance(rules, str) else rules
        n = len(colors)
        players: list[dict[str, Any]] = []
        for i, color in enumerate(colors):
            seat = i if seats is None else seats[i]
            fresh = [] if n in TEAM_SIZES else [f"T{start_field(seat)}*"]
            players.append({"color": color, "pegs": ["K"] * 4 + fresh, "at": seat})
        return _parse(
            {"format": FORMAT, "rules": ruleset.to_json(), "board": board, "players": players,
             "turn": turn}
        )

    def with_turn(self, turn: int) -> Position:
        """The same position with player ``turn`` to move."""
        if not 0 <= turn < self._layout.players:
            last = self._layout.players - 1
            raise PositionError(f"turn: {turn!r} is not a player index 0…{last}")
        return Position(self._layout, self._pegs, turn, self._state_key)

    # -- the game it belongs to -------------------------------------------------------------

    @property
    def layout(self) -> Layout:
        """Rules, board, colours, seats and teams: what two positions of one game share."""
        return self._layout

    @property
    def rules(self) -> RuleSet:
        """The rule set."""
        return self._layout.rules

    @property
    def board(self) -> int:
        """The number of seat positions on the board (4 or 6)."""
        return self._layout.board

    @property
    def turn(self) -> int:
        """The index (in play order) of the player to move."""
        return self._turn

    @property
    def players(self) -> tuple[Player, ...]:
        """The players in play order, with their peg locations as text."""
        if self._players is None:
            layout = self._layout
            self._players = tuple(
                Player(color, layout.seats[i], self._peg_names(i))
                for i, color in enumerate(layout.colors)
            )
        return self._players

    @property
    def codes(self) -> tuple[tuple[int, ...], ...]:
        """Internal: every player's sorted location codes (see :mod:`companion.rules.board`)."""
        return self._pegs

    @property
    def key(self) -> int:
        """Internal: the state key of the locations (see :mod:`companion.rules.board`)."""
        if self._state_key is None:
            self._state_key = self._layout.state_key(self._pegs)
        return self._state_key

    def partner(self, player: int) -> int | None:
        """The partner of ``player`` in the team game, None when playing alone."""
        return self._layout.partners[player]

    def team_of(self, player: int) -> tuple[int, ...]:
        """The players of ``player``'s team (just ``(player,)`` without teams)."""
        for team in self._layout.teams:
            if player in team:
                return team
        return (player,)

    # -- progress ---------------------------------------------------------------------------

    def home_count(self, player: int) -> int:
        """How many of ``player``'s pegs are in their home."""
        track_len = self._layout.track_len
        return sum(1 for code in self._pegs[player] if code >= track_len)

    def finished(self, player: int) -> bool:
        """Whether all of the player's own pegs are home (with 5 pegs: 4 of them)."""
        return self.home_count(player) >= HOME_FIELDS

    def winner(self) -> tuple[int, ...] | None:
        """The winning team (or player, without teams), None while the game goes on."""
        for team in self._layout.teams:
            if all(self.finished(member) for member in team):
                return team
        return None

    def controlled(self, player: int | None = None) -> int | None:
        """Whose pegs ``player`` (default: the player to move) moves now.

        The player's own pegs; once they are all home, the partner's (docs/rulebook.md#partner);
        None when all are home and there is no partner.
        """
        if player is None:
            player = self._turn
        track_len = self._layout.track_len
        if any(code < track_len for code in self._pegs[player]):
            return player
        return self._layout.partners[player]

    def same_locations(self, other: Position) -> bool:
        """Whether every player has the same multiset of locations (the turn is ignored)."""
        return self._pegs == other._pegs and self._layout == other._layout

    # -- output -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The position as a ``dog-position/1`` object."""
        layout = self._layout
        players: list[dict[str, Any]] = []
        for i, player in enumerate(self.players):
            entry: dict[str, Any] = {"color": player.color, "pegs": list(player.pegs)}
            if player.seat != i:
                entry["at"] = player.seat
            players.append(entry)
        obj: dict[str, Any] = {
            "format": FORMAT,
            "rules": layout.rules.to_json_compact(),
            "board": layout.board,
            "players": players,
        }
        if layout.explicit_teams and layout.teams != default_teams(layout.players):
            obj["teams"] = [list(team) for team in layout.teams]
        obj["turn"] = self._turn
        return obj

    def dumps(self) -> str:
        """The position as compact ``dog-position/1`` JSON text."""
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    def _peg_names(self, player: int) -> tuple[str, ...]:
        layout = self._layout
        start = layout.starts[player]
        track_len = layout.track_len

        def order(code: int) -> int:
            return -1 if code == KENNEL else start if code == FRESH else code

        return tuple(
            location_name(code, track_len, start) for code in sorted(self._pegs[player], key=order)
        )

    # -- value semantics --------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self._pegs == other._pegs
            and self._turn == other._turn
            and self._layout == other._layout
        )

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self._pegs, self._turn, self._layout))
        return self._hash

    def __repr__(self) -> str:
        players = ", ".join(f"{p.color}: {' '.join(p.pegs)}" for p in self.players)
        return f"<Position {self.rules.name} board={self.board} turn={self._turn} [{players}]>"


# -- parsing ----------------------------------------------------------------------------------


MAX_COLOR_LENGTH = 32
"""A colour name is a short word: ``red``, ``dark-blue``."""


def _show(value: object) -> str:
    return excerpt(value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse(obj: object) -> Position:
    if not isinstance(obj, Mapping):
        raise PositionError(f"position: {_show(obj)} is not a JSON object")
    for key in obj:
        if key not in _TOP_KEYS:
            raise PositionError(f"{key}: unknown key at the top level (value {_show(obj[key])})")
    fmt = obj.get("format", FORMAT)
    if fmt != FORMAT:
        raise PositionError(f'format: {_show(fmt)} is not "{FORMAT}"')
    rules = RuleSet.from_json(obj.get("rules", "swiss"))
    for key in ("board", "players", "turn"):
        if key not in obj:
            raise PositionError(f"{key}: missing")
    board = obj["board"]
    if not _is_int(board) or board not in BOARD_SIZES:
        raise PositionError(f"board: {_show(board)} is not 4 or 6 (seat positions)")
    raw_players = obj["players"]
    if not isinstance(raw_players, list):
        raise PositionError(f"players: {_show(raw_players)} is not a list")
    n = len(raw_players)
    _check_player_count(n, board, rules)
    colors, seats = _parse_seating(raw_players, board)
    teams = _parse_teams(obj.get("teams"), n) if "teams" in obj else None
    layout = Layout(rules, board, colors, seats, teams)
    pegs = _parse_pegs(raw_players, layout)
    turn = obj["turn"]
    if not _is_int(turn) or not 0 <= turn < n:
        raise PositionError(f"turn: {_show(turn)} is not a player index 0…{n - 1}")
    return Position(layout, pegs, turn)


def _check_player_count(n: int, board: int, rules: RuleSet) -> None:
    if n > board:
        raise PositionError(f"players: {n} players do not fit on a board of {board} seats")
    if n in TEAM_SIZES:
        return
    if n in INDIVIDUAL_SIZES:
        if not rules.individual_play:
            raise PositionError(
                f"players: {n} players play individually, but rules.team_game is"
                f' "{rules.team_game}" (4 or 6 players in teams); use "schmidt" or team_game'
                ' "teams_or_individual"'
            )
        return
    raise PositionError(f"players: {n} players; Dog is played by 2 to 6")


def _parse_seating(raw_players: list[Any], board: int) -> tuple[list[str], list[int]]:
    colors: list[str] = []
    seats: list[int] = []
    for i, raw in enumerate(raw_players):
        path = f"players[{i}]"
        if not isinstance(raw, Mapping):
            raise PositionError(f"{path}: {_show(raw)} is not an object")
        for key in raw:
            if key not in _PLAYER_KEYS:
                raise PositionError(f"{path}.{key}: unknown key (value {_show(raw[key])})")
        if "color" not in raw:
            raise PositionError(f"{path}.color: missing")
        color = raw["color"]
        if not isinstance(color, str) or not color or color != color.strip() or " " in color:
            raise PositionError(f"{path}.color: {_show(color)} is not a colour name")
        if len(color) > MAX_COLOR_LENGTH:
            raise PositionError(
                f"{path}.color: {_show(color)} is longer than {MAX_COLOR_LENGTH} characters"
            )
        if color in colors:
            taken = colors.index(color)
            raise PositionError(f"{path}.color: {_show(color)} is taken by players[{taken}]")
        seat = raw.get("at", i)
        if not _is_int(seat) or not 0 <= seat < board:
            raise PositionError(f"{path}.at: {_show(seat)} is not a seat position 0…{board - 1}")
        if seat in seats:
            raise PositionError(f"{path}.at: {seat} is taken by players[{seats.index(seat)}]")
        colors.append(color)
        seats.append(seat)
    return colors, seats


def _parse_teams(raw: object, n: int) -> list[list[int]]:
    if not isinstance(raw, list) or not all(isinstance(team, list) for team in raw):
        raise PositionError(f"teams: {_show(raw)} is not a list of lists of player indexes")
    members = [member for team in raw for member in team]
    if sorted(members) != list(range(n)) or not all(_is_int(m) for m in members):
        raise PositionError(f"teams: {_show(raw)} does not name every player 0…{n - 1} once")
    size = 2 if n in TEAM_SIZES else 1
    if any(len(team) != size for team in raw):
        what = "teams of two partners" if size == 2 else "no teams (everybody plays alone)"
        raise PositionError(f"teams: {_show(raw)}: {n} players play in {what}")
    return raw


def _parse_pegs(raw_players: list[Any], layout: Layout) -> tuple[tuple[int, ...], ...]:
    track_len = layout.track_len
    owner_of_field: dict[int, str] = {}
    result: list[tuple[int, ...]] = []
    for i, raw in enumerate(raw_players):
        path = f"players[{i}].pegs"
        if "pegs" not in raw:
            raise PositionError(f"{path}: missing")
        pegs = raw["pegs"]
        if not isinstance(pegs, list):
            raise PositionError(f"{path}: {_show(pegs)} is not a list")
        if len(pegs) != layout.pegs_per_player:
            raise PositionError(
                f"{path}: {_show(pegs)} has {len(pegs)} pegs, but with {layout.players} players"
                f" each player has {layout.pegs_per_player}"
            )
        start = layout.starts[i]
        codes: list[int] = []
        homes: dict[int, int] = {}
        for j, text in enumerate(pegs):
            where = f"{path}[{j}]"
            try:
                code = parse_location(text, track_len, start)
            except ValueError as error:
                raise PositionError(f"{where}: {error}") from None
            field = track_field(code, start, track_len)
            if field is not None:
                if field in owner_of_field:
                    raise PositionError(
                        f"{where}: {_show(text)} is already taken by {owner_of_field[field]}"
                    )
                owner_of_field[field] = f"{path}[{j}] ({layout.colors[i]})"
            elif code >= track_len:
                if code in homes:
                    raise PositionError(
                        f"{where}: {_show(text)} is already taken by {path}[{homes[code]}]"
                    )
                homes[code] = j
            codes.append(code)
        result.append(tuple(sorted(codes)))
    return tuple(result)


def codes_not_in(codes: Sequence[int], other: Sequence[int]) -> list[int]:
    """The codes of ``codes`` left over after taking out those of ``other`` (a multiset
    difference, in the order of ``codes``)."""
    rest = list(other)
    out = []
    for code in codes:
        if code in rest:
            rest.remove(code)
        else:
            out.append(code)
    return out


def positions_of_one_game(before: Position, observed: Position) -> None:
    """Raise :class:`PositionError` naming the first difference unless both are of one game.

    The messages name ``observed`` by the key it has in ``rules check``: ``after``.
    """
    a, b = before.layout, observed.layout
    if a == b:
        return
    if a.rules != b.rules:
        raise PositionError(
            f"after.rules: {_show(b.rules.to_json_compact())} differs from before's"
            f" {_show(a.rules.to_json_compact())}"
        )
    if a.board != b.board:
        raise PositionError(f"after.board: {b.board} differs from before's {a.board}")
    if len(a.colors) != len(b.colors):
        raise PositionError(
            f"after.players: {len(b.colors)} players, but before has {len(a.colors)}"
        )
    for i, (x, y) in enumerate(zip(a.colors, b.colors, strict=True)):
        if x != y:
            raise PositionError(
                f"after.players[{i}].color: {_show(y)} differs from before's {_show(x)}"
            )
    for i, (x2, y2) in enumerate(zip(a.seats, b.seats, strict=True)):
        if x2 != y2:
            raise PositionError(f"after.players[{i}].at: {y2} differs from before's {x2}")
    raise PositionError(
        f"after.teams: {_show([list(t) for t in b.teams])} differ from before's"
        f" {_show([list(t) for t in a.teams])}"
    )
