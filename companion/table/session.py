"""The table: one refereed game at a time, driven by actions and camera readings.

Every action is checked first (a refused one raises :class:`TableError` and changes nothing),
then written to the journal as an event, then applied by :meth:`Table._apply` -- the only
place where the state changes. On start the last game is rebuilt by applying its journalled
events again, so a restart (or a power cut) loses nothing that was answered.

The turn, with a camera: the player to move announces a card; a stable reading equal to a
legal result is accepted at once; a reading on the way to one is "in progress"; any other
reading is judged once it has stayed unchanged for ``settle_s`` (or on :meth:`Table.done`).
After an illegal verdict the table waits for the position before (the verdict clears), a
legal result (accepted) or the referee's override. Without a camera, :meth:`Table.observe`
enters the board by hand and is judged at once.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, overload

from companion.rules import (
    Card,
    CardError,
    Move,
    Position,
    PositionError,
    Verdict,
    check,
    parse_card,
    playable,
)
from companion.rules.game import Game, GameError, Phase, fold_check
from companion.store import Journal
from companion.table import leds as scenes
from companion.table.board import BoardMap, ReadingError, View, start_holes
from companion.table.errors import TableError
from companion.table.leds import Lit
from companion.table.legal import Legal, LegalCache
from companion.table.settings import Settings, load_settings, save_settings
from companion.table.setup import parse_setup
from companion.table.snapshots import DEFAULT_LIMIT_BYTES, SnapshotStore, read_snapshot
from companion.table.warning_codes import warning_codes
from firmware_bridge.effects import Scene
from hw import BoardProfile

log = logging.getLogger(__name__)

FORMAT = "dog-table/1"
DEFAULT_SETTLE_S = 1.5
# The camera has seen no settled board for this long: the state says so (``camera.unsettled_long``)
# and the page asks whether something lies over the board or the light changed at once.
LONG_UNSETTLED_S = 30.0
CAMERA_STATUSES = ("reading", "lost", "manual", "simulated")
MIRROR_INTERVAL_S = 0.1
"""The pages hear of the LED strip's frames at most this often (an animation runs at 30/s)."""

Listener = queue.Queue[dict[str, Any] | None]


class Dimmable(Protocol):
    """The LED strip's comfort settings (`firmware_bridge.strip.LedStrip`)."""

    brightness: float
    night: bool


def _card(text: object) -> Card:
    if not isinstance(text, str):
        raise TableError(f"card: {text!r} is not a card name (A K Q J 10 … 2 JOKER)", 400)
    try:
        return parse_card(text)
    except CardError as error:
        raise TableError(f"card: {error}", 400) from None


def _joker_as(card: Card, joker_as: object) -> Card | None:
    """The card a Joker is announced as (None: any); 400 naming ``as`` otherwise."""
    if joker_as is None:
        return None
    if card is not Card.JOKER:
        raise TableError(f"as: only a Joker stands for another card, not {card}", 400)
    if not isinstance(joker_as, str):
        raise TableError(f"as: {joker_as!r} is not a card name (A K Q J 10 … 2)", 400)
    try:
        stood = parse_card(joker_as)
    except CardError as error:
        raise TableError(f"as: {error}", 400) from None
    if stood is Card.JOKER:
        raise TableError("as: a Joker stands for one of A K Q J 10 … 2, not for a Joker", 400)
    return stood


class Table:
    """The state of one physical (or simulated) table; the web page, buttons, camera loop and
    simulator use only its public methods (``docs/table.md``).

    ``state_dir`` holds the journal and the settings (None: a journal in memory); ``leds``
    receives the LED scenes (an `Animator`); ``strip`` is the strip whose brightness and night
    mode the settings set (default: the animator's ``strip``); ``settle_s`` is the settle time
    until the referee changes it (a saved setting wins); ``clock`` is the time base of the
    settle time (tests pass their own).
    """

    def __init__(self, profile: BoardProfile, *, simulated: bool = True,
                 hardware: Mapping[str, str] | None = None,
                 state_dir: str | Path | None = None,
                 leds: scenes.LedSink | None = None,
                 strip: Dimmable | None = None,
                 settle_s: float = DEFAULT_SETTLE_S,
                 snapshot_limit_bytes: int = DEFAULT_LIMIT_BYTES,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.profile = profile
        self.simulated = simulated
        self.hardware = dict(hardware or {"camera": "none", "leds": "none"})
        self.state_dir = None if state_dir is None else Path(state_dir)
        self._clock = clock
        self._sink = leds
        self._strip: Dimmable | None = strip if strip is not None else getattr(leds, "strip",
                                                                                None)
        default = Settings(settle_s=settle_s) if self._strip is None else Settings(
            brightness=float(self._strip.brightness), night=bool(self._strip.night),
            settle_s=settle_s)
        self._settings = load_settings(self.state_dir, default)
        self._dim_strip()
        self._snapshots = (None if self.state_dir is None
                           else SnapshotStore(self.state_dir, snapshot_limit_bytes))
        self._before_jpeg: bytes | None = None
        self._journal = (Journal(":memory:") if self.state_dir is None
                         else Journal.in_dir(self.state_dir))
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._version = 0
        self._hole_of_led = {h.led: h.id for h in profile.holes if h.led is not None}
        self._leds: dict[str, str] = {}
        self._mirrored_at = 0.0
        self._mirror_timer: threading.Timer | None = None
        self._scene_key: object = None
        self._legal = LegalCache()
        self._camera: dict[str, Any] = {"status": "manual", "warnings": [], "reference": False,
                                        "unsettled_long": False}
        self._unsettled_since: float | None = None
        self._camera_hooks: dict[str, Callable[..., Any]] = {}
        self._reading: dict[str, str | None] | None = None
        self._manual_holes: dict[str, str | None] = {}
        self._reading_error: ReadingError | None = None
        self._candidate: tuple[View, float] | None = None
        self._notice: str | None = None
        self._lost_why = ""
        self._camera_codes: list[dict[str, Any]] = []
        self._closed = False
        self._reset_game()
        self._resume()

    @property
    def settle_s(self) -> float:
        """How long a reading must stay unchanged before it is judged (seconds)."""
        return self._settings.settle_s

    @classmethod
    def replayed(cls, profile: BoardProfile,
                 events: Iterable[tuple[str, dict[str, Any]]]) -> Table:
        """A table (journal in memory, no LEDs) rebuilt from one game's journalled events:
        ``games show`` and ``games export`` read old games this way."""
        table = cls(profile)
        for kind, data in events:
            if kind == "setup":
                table._game_id = table._journal.new_game("replay", "", (kind, data))
            assert table._game_id is not None or kind == "setup"
            table._apply(kind, data, table._game_id or 0)
        return table

    def record(self) -> list[str]:
        """The game as a ``dog-record/1`` record (header and one line per event; an
        override is a ``ruling``)."""
        with self._lock:
            if self._game is None:
                raise TableError("no game is set up", 409)
            return self._game.record()

    # -- the game's state ------------------------------------------------------------------

    def _reset_game(self) -> None:
        self._game_id: int | None = None
        self._request: dict[str, Any] | None = None
        self._game: Game | None = None
        self._board: BoardMap | None = None
        self._steps: list[dict[str, Any]] = []
        self._moves: list[dict[str, Any]] = []
        self._start: Position | None = None
        self._announced: dict[str, Any] | None = None
        self._pending: str | None = None
        self._verdict: dict[str, Any] | None = None
        self._progress: list[str] = []
        self._disturbed: list[str] = []
        self._undo_requested = False
        self._disputes = 0
        self._legal.clear()

    def _resume(self) -> None:
        game = self._journal.last_game()
        if game is None:
            return
        events = self._journal.events(game)
        for event in events:
            try:
                self._apply(event.kind, event.data, game)
            except (GameError, PositionError, TableError, KeyError, ValueError) as error:
                log.error("journal: event %d (%s) of game %d cannot be applied again: %s",
                          event.seq, event.kind, game, error)
        self._version = len(events)
        log.info("journal: game %d resumed from %d events (%d moves)", game, len(events),
                 len(self._moves))

    # -- reading the state -----------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The ``dog-table/1`` state (``/api/state``) with the table's extra keys."""
        with self._lock:
            return self._state()

    def _state(self) -> dict[str, Any]:
        game = self._game
        request = self._request or {}
        phase = "setup" if game is None else "over" if game.over else "play"
        state: dict[str, Any] = {
            "format": FORMAT,
            "phase": phase,
            "position": None if game is None else game.position.to_json(),
            "round": 0 if game is None else game.round,
            "dealer": None if game is None else game.dealer,
            "counts": [] if game is None else list(game.counts),
            "folded": [] if game is None else sorted(game.folded),
            "moves": len(self._moves),
            "announced": None if self._announced is None else dict(self._announced),
            "pending": self._pending,
            "verdict": None if self._verdict is None else dict(self._verdict),
            "winners": None if game is None or game.winners is None else list(game.winners),
            "version": self._version,
            "board": self.profile.name,
            "seats": self.profile.seats,
            "simulated": self.simulated,
            "hardware": dict(self.hardware),
            "players": [dict(p) for p in request.get("players", [])],
            "rules": request.get("rules"),
            "teams": [] if game is None or not game.team_game
            else [list(team) for team in game.position.layout.teams],
            "holes": self._shown_holes(),
            "leds": dict(self._leds),
            "targets": self._shown()[1].holes if self._current_legal() is not None else [],
            "camera": {**self._camera, "warnings": (
                [f"camera lost: {self._lost_why}"] if self._camera["status"] == "lost" else []
            ) + list(self._camera["warnings"]), "warning_codes": (
                [{"code": "camera_lost", "args": {"why": self._lost_why}}]
                if self._camera["status"] == "lost" else []
            ) + [dict(code) for code in self._camera_codes]},
            "disturbed": list(self._disturbed),
            "exchange": self._exchange_showing(),
            "hand_size": 0 if game is None or game.round == 0 else game.deal_size(game.round),
            "progress": list(self._progress),
            "reading_error": None if self._reading_error is None else str(self._reading_error),
            "reading_error_code": None if self._reading_error is None else {
                "code": self._reading_error.code, "args": dict(self._reading_error.details)},
            "redrawn": game is not None and game.redrawn,
            "turn": None if game is None else game.turn,
            "undo_requested": self._undo_requested,
            "notice": self._notice,
            "settings": self._settings.to_json(),
        }
        return state

    def _exchange_showing(self) -> bool:
        """The partner exchange reminder: only a team game exchanges cards."""
        game = self._game
        return (game is not None and game.team_game and not game.over
                and game.phase is Phase.EXCHANGE)

    def _shown_holes(self) -> dict[str, str | None]:
        if self._reading is not None and self._camera["status"] in ("reading", "simulated"):
            return dict(self._reading)
        if self._game is not None and self._board is not None:
            return self._board.holes(self._game.position)
        holes = start_holes(self.profile)
        holes.update(self._manual_holes)
        return holes

    def believed_holes(self) -> dict[str, str | None]:
        """Every hole as the table believes the board is (the position, not the camera)."""
        with self._lock:
            if self._game is not None and self._board is not None:
                return self._board.holes(self._game.position)
            holes = start_holes(self.profile)
            holes.update(self._manual_holes)
            return holes

    def history(self) -> list[dict[str, Any]]:
        """Every accepted move of the game in order: ``n``, ``player``, ``card``,
        ``notation``, ``position`` (after the move)."""
        with self._lock:
            return [dict(move) for move in self._moves]

    def history_position(self, k: int) -> dict[str, Any]:
        """The position after move ``k`` (0: the start of the game)."""
        with self._lock:
            if self._start is None:
                raise TableError("no game is set up", 409)
            if not isinstance(k, int) or not 0 <= k <= len(self._moves):
                raise TableError(f"move {k!r} is not a move of this game (0…"
                                 f"{len(self._moves)})", 404)
            if k == 0:
                return self._start.to_json()
            return dict(self._moves[k - 1]["position"])

    def legal_results(self) -> list[dict[str, Any]]:
        """The legal results of the announced card (``notation``, ``result`` POSITION), for
        manual entry by choosing one; ``[]`` without an announced card."""
        with self._lock:
            if self._current_legal() is None:
                return []
            return [{"notation": move.notation, "result": move.result.to_json()}
                    for move in self._shown()[0]]

    @overload
    def snapshot(self) -> dict[str, Any]: ...

    @overload
    def snapshot(self, snapshot_id: str) -> bytes: ...

    def snapshot(self, snapshot_id: str | None = None) -> dict[str, Any] | bytes:
        """A kept camera snapshot (JPEG bytes) by id; without an id the state (as
        :meth:`state`, for the first page)."""
        if snapshot_id is None:
            return self.state()
        return read_snapshot(self.state_dir, snapshot_id)

    # -- subscribers ------------------------------------------------------------------------

    def subscribe(self) -> Listener:
        """A queue that receives the state now and after every change, and None at close."""
        listener: Listener = queue.Queue(maxsize=16)
        with self._lock:
            listener.put(self._state())
            self._listeners.append(listener)
        return listener

    def unsubscribe(self, listener: Listener) -> None:
        """Stop sending to a listener (its page was closed)."""
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def close(self) -> None:
        """The table shuts down: every listener gets None, the journal is closed."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._send(None)
            self._listeners.clear()
            self._journal.close()

    def _changed(self) -> None:
        """Something visible changed: new version, LEDs, every listener."""
        if self._closed:
            return
        self._version += 1
        self._show_leds()
        self._send(self._state())

    def _send(self, state: dict[str, Any] | None) -> None:
        for listener in list(self._listeners):
            try:
                listener.put_nowait(state)
            except queue.Full:      # a stalled page skips to the newest state
                while True:
                    try:
                        listener.get_nowait()
                    except queue.Empty:
                        break
                listener.put_nowait(state)

    # -- the LEDs ---------------------------------------------------------------------------

    def mirror_leds(self, colors: Sequence[tuple[int, int, int]]) -> None:
        """Show on the page what the LED strip shows: LED ``i`` has colour ``colors[i]``.

        Hand it to the strip with ``strip.add_listener(lambda shown: table.mirror_leds(
        shown.colors))``; lit holes appear in the state as ``"leds": {"T5": "#00ff00"}``.
        """
        lit = {self._hole_of_led[led]: "#{:02x}{:02x}{:02x}".format(*color)
               for led, color in enumerate(colors)
               if any(color) and led in self._hole_of_led}
        with self._lock:
            if lit == self._leds:
                return
            self._leds = lit
            wait = self._mirrored_at + MIRROR_INTERVAL_S - time.monotonic()
            if wait > 0:        # an animation: tell the pages at most every interval
                if self._mirror_timer is None:
                    self._mirror_timer = threading.Timer(wait, self._publish_mirror)
                    self._mirror_timer.daemon = True
                    self._mirror_timer.start()
                return
        self._publish_mirror()

    def _publish_mirror(self) -> None:
        with self._lock:
            self._mirror_timer = None
            self._mirrored_at = time.monotonic()
            if self._closed:
                return
            self._version += 1
            self._send(self._state())

    def _show_leds(self) -> None:
        if self._sink is None:
            return
        key, make = self._scene()
        if key == self._scene_key:
            return
        self._scene_key = key
        self._sink.play(make())

    def _scene(self) -> tuple[object, Callable[[], Scene]]:
        from firmware_bridge.effects import nothing

        game, board = self._game, self._board
        if game is None or board is None:
            return ("nothing",), nothing
        if game.winners is not None:
            winners = game.winners
            return ("won", winners), lambda: scenes.won_scene(board, winners)
        verdict = self._verdict
        if self._pending == "illegal" and verdict is not None:
            wrong, expected = tuple(verdict["wrong"]), tuple(verdict["expected"])
            return (("illegal", wrong, expected),
                    lambda: scenes.repair_scene(board, wrong, expected))
        if self._disturbed:
            wrong, expected = self._repair_holes()
            return (("repair", wrong, expected),
                    lambda: scenes.repair_scene(board, wrong, expected))
        legal = self._current_legal()
        if legal is not None:
            lit = self._shown()[1]
            return ("card", id(legal), id(lit)), lambda: scenes.card_scene(board, lit)
        turn = game.turn
        if turn is None:
            return ("nothing",), nothing
        return ("turn", turn), lambda: scenes.turn_scene(board, turn)

    def _repair_holes(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Holes with a marble that should not be there, and holes missing one."""
        assert self._game is not None and self._board is not None
        should = self._board.holes(self._game.position)
        seen = self._reading or should
        wrong = tuple(h for h in self._disturbed if seen.get(h) is not None)
        expected = tuple(h for h in self._disturbed if should.get(h) is not None)
        return wrong, expected

    # -- actions ----------------------------------------------------------------------------

    def setup(self, request: dict[str, Any]) -> dict[str, Any]:
        """Start a new game (``POST /api/setup``); a running game ends (it stays in the
        journal). Round 1 is dealt."""
        with self._lock:
            normalized, _ = parse_setup(request, self.profile)
            labels = ", ".join(f"{p['name']} ({p['color']})" for p in normalized["players"])
            if self._closed:
                raise TableError("the table is shutting down", 409)
            data = {"request": normalized}
            game_id = self._journal.new_game("table", labels, ("setup", data))
            self._apply("setup", data, game_id)
            self._journal_deal(0)
            self._changed()
            return self._state()

    def announce(self, card: str, player: int | None = None,
                 joker_as: str | None = None) -> dict[str, Any]:
        """The player to move announces ``card`` (``player``: the seat index in play order
        claiming it; None: the referee for the player to move). Lights its targets; a Joker
        with ``joker_as`` lights only those of the Joker played as that card (the move is
        still judged as a Joker)."""
        with self._lock:
            game = self._playing()
            chosen = _card(card)
            stood_for = _joker_as(chosen, joker_as)
            turn = game.turn
            assert turn is not None
            if player is not None and player != turn:
                raise TableError(f"player {player} is not to move: it is "
                                 f"{self._name(turn)}'s turn", 409)
            if self._pending == "illegal":
                raise TableError("the last move was judged illegal: put the board back, play a "
                                 "legal result or let the referee decide first", 409)
            if not playable(game.position, chosen):
                raise TableError(f"{chosen} cannot be played by {self._name(turn)} in this "
                                 "position", 409)
            self._before_jpeg = self._camera_jpeg()
            data: dict[str, Any] = {"card": str(chosen), "player": turn}
            if stood_for is not None:
                data["as"] = str(stood_for)
            self._commit("announce", data)
            self._reconsider()
            return self._state()

    def observe(self, position: dict[str, Any] | None = None,
                holes: dict[str, Any] | None = None) -> dict[str, Any]:
        """A final reading of the board entered by hand (or by another reader), judged at
        once (``POST /api/observe``)."""
        with self._lock:
            game = self._playing()
            board = self._board
            assert board is not None
            if (position is None) == (holes is None):
                raise TableError("observe: give either position or holes", 400)
            before = game.position
            if holes is not None:
                try:
                    checked = board.check_holes(holes)
                    observed = board.position(checked, before)
                except ReadingError as error:
                    raise TableError(f"holes: {error}", 400) from None
            else:
                try:
                    observed = Position.from_json(position)
                except PositionError as error:
                    raise TableError(f"position: {error}", 400) from None
                if observed.layout != before.layout:
                    raise TableError("position: rules, board, colours, seats or teams differ "
                                     "from this game's", 400)
            if self._announced is None:
                if observed.same_locations(before):
                    return self._state()
                raise TableError("no card is announced: announce the card before entering "
                                 "the board", 409)
            self._judge(board.view(observed), observed, final=True)
            return self._state()

    def fold(self, hand: list[str] | None = None, player: int | None = None) -> dict[str, Any]:
        """The player to move cannot play (``POST /api/fold``): team game, the cards are out
        for the round; 2, 3 or 5 players, a card is discarded and one drawn (the second time
        one more is discarded and the turn passes). A claimed ``hand`` that holds a playable
        card is refused, naming it."""
        with self._lock:
            game = self._playing()
            turn = game.turn
            assert turn is not None
            if player is not None and player != turn:
                raise TableError(f"player {player} is not to move: it is "
                                 f"{self._name(turn)}'s turn", 409)
            if self._pending == "illegal":
                raise TableError("the last move was judged illegal: settle it first", 409)
            cards: list[Card] | None = None
            if hand is not None:
                if not isinstance(hand, list):
                    raise TableError("hand: expected a list of card names", 400)
                cards = [_card(name) for name in hand]
                claim = fold_check(game.position, cards)
                if not claim.justified:
                    assert claim.move is not None
                    raise TableError(f"{self._name(turn)} can play {claim.playable} "
                                     f"({claim.move.notation}): a playable card must be played",
                                     409)
                if game.team_game and len(cards) != game.counts[turn]:
                    raise TableError(f"hand: {self._name(turn)} holds {game.counts[turn]} "
                                     f"cards, not {len(cards)}", 400)
            redraw = not game.team_game and not game.redrawn
            data = {"player": turn, "hand": None if cards is None else [str(c) for c in cards],
                    "redraw": redraw}
            self._try(lambda: self._check_fold(game, data))
            self._commit("fold", data)
            return self._state()

    def undo(self, to: int | None = None) -> dict[str, Any]:
        """Take back the last move, or go back to right after move ``to`` (0: the start)."""
        with self._lock:
            if self._game is None:
                raise TableError("no game is set up", 409)
            moves = len(self._moves)
            if to is None:
                if moves == 0:
                    raise TableError("no move to take back", 409)
                to = moves - 1
            # right after the last move only when folds or an exchange came after it
            last = moves if self._steps_after_last_move() else moves - 1
            if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to <= last:
                raise TableError(f"to: {to!r} is not an earlier move of this game (0…"
                                 f"{max(last, 0)})", 400 if not isinstance(to, int)
                                 else 409)
            self._commit("undo", {"to": to})
            self._reconsider()
            return self._state()

    def done(self) -> dict[str, Any]:
        """The player says the move is finished: judge the current camera reading now."""
        with self._lock:
            game = self._playing()
            board = self._board
            assert board is not None
            if self._announced is None:
                raise TableError("no card is announced: announce the card first", 409)
            if self._reading is None or self._camera["status"] not in ("reading", "simulated"):
                raise TableError("there is no camera reading to judge: enter the board by hand",
                                 409)
            try:
                observed = board.position(self._reading, game.position)
            except ReadingError as error:
                self._reading_error = error
                self._changed()
                raise TableError(f"the board cannot be read as a position: {error}", 409) \
                    from None
            self._judge(board.view_of(self._reading), observed, final=True)
            return self._state()

    def override(self, position: dict[str, Any] | None = None) -> dict[str, Any]:
        """The referee decides: with None the observed position of the pending illegal
        verdict counts as played; with a position the board is set to it (the turn passes
        as after a move)."""
        with self._lock:
            game = self._playing()
            turn = game.turn
            assert turn is not None
            if position is None:
                if self._pending != "illegal" or self._verdict is None:
                    raise TableError("there is no illegal verdict to accept", 409)
                after = Position.from_json(self._verdict["observed"])
            else:
                try:
                    after = Position.from_json(position)
                except PositionError as error:
                    raise TableError(f"position: {error}", 400) from None
                if after.layout != game.position.layout:
                    raise TableError("position: rules, board, colours, seats or teams differ "
                                     "from this game's", 400)
            card = None if self._announced is None else self._announced["card"]
            self._commit("override", {"player": turn, "card": card,
                                      "position": after.to_json()})
            self._reconsider()
            return self._state()

    def end_exchange(self) -> dict[str, Any]:
        """The partner exchange is done: its reminder goes (the first card announced of the
        round ends it too)."""
        with self._lock:
            self._playing()
            if not self._exchange_showing():
                raise TableError("there is no partner exchange to end now (only a team game "
                                 "exchanges cards, before the round's first card)", 409)
            self._commit("exchange", {})
            return self._state()

    def change_settings(self, changes: Mapping[str, Any]) -> dict[str, Any]:
        """Referee: change ``brightness`` (0…1), ``night`` (bool) and/or ``settle_s``
        (0.2…10 s); kept in the state directory, so a restart keeps them. A bad key or value is
        refused (400, naming it) and changes nothing."""
        with self._lock:
            settings = self._settings.changed(changes)
            if self._closed:
                raise TableError("the table is shutting down", 409)
            save_settings(self.state_dir, settings)
            self._settings = settings
            self._dim_strip()
            self._scene_key = None      # the scene again, so that a still frame is redrawn
            self._changed()
            return self._state()

    def _dim_strip(self) -> None:
        if self._strip is None:
            return
        self._strip.brightness = self._settings.brightness
        self._strip.night = self._settings.night

    def camera_image(self, overlay: bool = False) -> bytes:
        """The camera's newest frame as JPEG; with ``overlay`` the markers and every hole's
        reading drawn over it (when the board was found in it). `TableError` 404 without a
        camera, 409 before its first frame."""
        with self._lock:
            hook = self._camera_hooks.get("image")
        if hook is None:
            raise TableError("there is no camera image: this table has no camera loop", 404)
        try:
            image: bytes | None = hook(overlay)
        except Exception as error:  # the camera's own error, in words
            log.exception("camera: no image")
            raise TableError(f"the camera image could not be made: {error}", 409) from None
        if image is None:
            raise TableError("the camera has not delivered a frame yet", 409)
        return image

    def request_undo(self) -> dict[str, Any]:
        """A player asks the referee to take back the last move (the undo button); the
        page shows the request until the referee decides or the game goes on."""
        with self._lock:
            if self._game is None or not self._moves:
                raise TableError("no move to take back", 409)
            self._undo_requested = True
            self._changed()
            return self._state()

    def notice(self, text: str | None) -> None:
        """A short message for the page (a button press the table refused), or None."""
        with self._lock:
            self._notice = text
            self._changed()

    def take_reference(self) -> dict[str, Any]:
        """The current camera frame becomes the reader's reference (every marble in its
        kennel)."""
        self._camera_hook("take_reference", "a reference frame needs one",
                          "the reference frame could not be taken")
        with self._lock:
            self._camera["reference"] = True
            self._changed()
            return self._state()

    def relearn_light(self) -> dict[str, Any]:
        """The light changed at once (a lamp switched on or off): the reader learns it anew
        from the current camera frame, which the referee has checked shows the board as the
        table holds it with nothing over it."""
        self._camera_hook("relearn", "learning the light needs one",
                          "the light could not be learnt")
        with self._lock:
            self._changed()
            return self._state()

    def _camera_hook(self, name: str, needs: str, failed: str) -> None:
        """Call the camera loop's hook ``name``: `TableError` 409 without a camera (``needs``
        says what for) or with the camera's or reader's own error after ``failed``."""
        with self._lock:
            hook = self._camera_hooks.get(name)
        if hook is None:
            raise TableError(f"there is no camera: {needs}", 409)
        try:
            hook()
        except Exception as error:  # the camera's or the reader's own error, in words
            raise TableError(f"{failed}: {error}", 409) from None

    # -- the camera loop's side ------------------------------------------------------------

    def attach_camera(self, status: str, take_reference: Callable[[], Any] | None,
                      jpeg: Callable[[], bytes | None] | None = None,
                      image: Callable[[bool], bytes | None] | None = None,
                      relearn: Callable[[], Any] | None = None) -> None:
        """A camera loop feeds this table (``status``: ``reading`` or ``simulated``);
        ``take_reference()`` makes the newest frame the reference, ``jpeg()`` gives the
        newest frame as JPEG (kept before and after a disputed move), ``image(overlay)`` the
        same with the reading drawn over it when ``overlay`` (:meth:`camera_image`),
        ``relearn()`` learns the light from the newest frame (:meth:`relearn_light`)."""
        if status not in CAMERA_STATUSES:
            raise ValueError(f"camera status {status!r} is not one of "
                             f"{', '.join(CAMERA_STATUSES)}")
        with self._lock:
            if take_reference is not None:
                self._camera_hooks["take_reference"] = take_reference
            if relearn is not None:
                self._camera_hooks["relearn"] = relearn
            if jpeg is not None:
                self._camera_hooks["jpeg"] = jpeg
            if image is not None:
                self._camera_hooks["image"] = image
            self._camera["status"] = status
            self._changed()

    def camera_lost(self, why: str) -> None:
        """The camera stopped delivering frames: manual entry carries on."""
        with self._lock:
            if self._camera["status"] == "lost":
                return
            self._lost_why = why
            self._reading = None        # what the camera saw last may be past by its return
            self._candidate = None
            self._unsettled_since = None    # the lost camera's warning says what matters now
            self._camera["unsettled_long"] = False
            self._progress = []
            if self._pending == "in progress":
                self._pending = None
            self._commit_camera("lost", why)

    def camera_back(self, status: str = "reading") -> None:
        """Frames come again."""
        with self._lock:
            if self._camera["status"] != "lost":
                return
            self._commit_camera(status, "")

    def camera_warnings(self, warnings: Sequence[str], reference: bool | None = None,
                        codes: Sequence[dict[str, Any]] | None = None) -> None:
        """The reader's warnings (overexposed kennel, markers not found), in English, and
        the same as ``{"code", "args"}`` for the pages to translate (``board_not_found``;
        without ``codes`` they are recognised from the reader's sentences,
        `companion.table.warning_codes`; ``camera_lost`` comes with a lost camera)."""
        with self._lock:
            new = list(warnings)
            if new == self._camera["warnings"] and (reference is None
                                                    or reference == self._camera["reference"]):
                return
            self._camera["warnings"] = new
            self._camera_codes = [dict(code) for code in (
                warning_codes(new) if codes is None else codes)]
            if reference is not None:
                self._camera["reference"] = reference
            self._changed()

    def feed(self, holes: Mapping[str, str | None], now: float | None = None) -> None:
        """A stable camera reading of every hole (no ``?``; from the stabilizer)."""
        with self._lock:
            if self._closed:
                return
            self._reading = dict(holes)
            self._reading_at = self._clock() if now is None else now
            self._unsettled_since = None
            self._camera["unsettled_long"] = False
            self._consider(self._reading_at)
            self._changed()

    def unsettled(self, now: float | None = None) -> None:
        """The camera sees a hand, motion or an unreadable hole: a reading waiting for its
        settle time is not judged; the settle clock starts again with the next stable
        reading (the camera loop feeds it again, even when it is the same). Unsettled for
        `LONG_UNSETTLED_S` without a stable reading, the state says so (`tick`)."""
        with self._lock:
            self._candidate = None
            if self._unsettled_since is None:
                self._unsettled_since = self._clock() if now is None else now

    def tick(self, now: float | None = None) -> None:
        """Time passes: a reading that stayed unchanged for the settle time is judged."""
        with self._lock:
            now = self._clock() if now is None else now
            since = self._unsettled_since
            if (since is not None and now - since >= LONG_UNSETTLED_S
                    and not self._camera["unsettled_long"]):
                self._camera["unsettled_long"] = True
                self._changed()
            candidate = self._candidate
            if (candidate is None or self._announced is None or self._game is None
                    or self._closed):
                return
            if now - candidate[1] < self.settle_s:
                return
            self._candidate = None
            board = self._board
            assert board is not None and self._reading is not None
            try:
                observed = board.position(self._reading, self._game.position)
            except ReadingError as error:
                self._reading_error = error
                self._changed()
                return
            self._judge(board.view_of(self._reading), observed, final=True)

    def update_holes(self, holes: dict[str, str | None]) -> None:
        """Show some holes as read (the first page's demo); no game logic."""
        unknown = sorted(set(holes) - {h.id for h in self.profile.holes})
        if unknown:
            raise ValueError(f"board {self.profile.name!r} has no hole {unknown[0]!r}")
        with self._lock:
            self._manual_holes.update(holes)
            self._changed()

    # -- judging ---------------------------------------------------------------------------

    def _reconsider(self) -> None:
        """After a change of card or position: look at the current camera reading again."""
        if self._reading is not None and self._camera["status"] in ("reading", "simulated"):
            self._consider(self._clock())
            self._changed()

    def _consider(self, now: float) -> None:
        """A new stable camera reading (not final): accept, show progress, wait or report."""
        game, board, reading = self._game, self._board, self._reading
        self._candidate = None
        self._progress = []
        self._reading_error = None
        if game is None or board is None or reading is None or game.over:
            self._disturbed = []
            return
        view = board.view_of(reading)
        position_view = board.view(game.position)
        legal = self._current_legal()
        if legal is None:
            self._disturbed = self._differing(view, position_view)
            return
        self._disturbed = []
        if view == legal.before_view:
            if self._pending == "illegal":
                self._commit("clear", {})
            elif self._pending is not None:
                self._pending = None
            return
        move = legal.result(view)
        if move is not None:
            self._accept(move)
            return
        if self._pending == "illegal":
            self._rejudged_holes(view)
            return
        changed = legal.on_the_way(view)
        if changed is not None:
            self._pending = "in progress"
            self._progress = self._hole_ids(changed)
            return
        self._pending = None
        self._candidate = (view, now)

    def _judge(self, view: View, observed: Position, *, final: bool) -> None:
        """Judge a final reading of the board."""
        legal = self._current_legal()
        assert legal is not None and final
        if self._pending == "illegal" and view == legal.before_view:
            self._commit("clear", {})
            return
        move = legal.result(view)
        if move is not None:
            self._accept(move)
            return
        assert self._game is not None and self._announced is not None
        before = self._game.position
        verdict = check(before, observed, legal.card)
        if verdict.move is not None:
            self._accept(verdict.move)
            return
        data = self._verdict_json(verdict, observed)
        data["snapshots"] = self._keep_snapshots()
        self._commit("verdict", {"verdict": data})

    def _camera_jpeg(self) -> bytes | None:
        hook = self._camera_hooks.get("jpeg")
        if hook is None or self._camera["status"] not in ("reading", "simulated"):
            return None
        try:
            image: bytes | None = hook()
        except Exception:   # a snapshot is a help, never a reason to refuse a move
            log.exception("camera: no snapshot")
            return None
        return image

    def _keep_snapshots(self) -> dict[str, str] | None:
        """Keep the frames before and after a disputed move; their ids."""
        after = self._camera_jpeg()
        if self._snapshots is None or after is None or self._before_jpeg is None:
            return None
        base = f"{self._game_id}-{self._disputes + 1}"
        try:
            return {"before": self._snapshots.save(f"{base}-before", self._before_jpeg),
                    "after": self._snapshots.save(f"{base}-after", after)}
        except OSError as error:
            log.warning("camera: could not save the snapshots (%s)", error)
            return None

    def _accept(self, move: Any) -> None:
        assert self._announced is not None
        self._commit("play", {"card": self._announced["card"],
                              "player": self._announced["player"],
                              "position": move.result.to_json(), "notation": move.notation})

    def _verdict_json(self, verdict: Verdict, observed: Position) -> dict[str, Any]:
        assert self._board is not None and self._game is not None
        nearest = list(verdict.nearest)
        goal = nearest[0].move.result if nearest else self._game.position
        wrong, expected = self._wrong_and_expected(self._board.holes(observed),
                                                  self._board.holes(goal))
        return {"legal": False, "card": str(verdict.card), "move": None,
                "reason": verdict.reason, "code": verdict.code, "args": dict(verdict.args),
                "rule": verdict.rule,
                "reasons": {language: verdict.text(language) for language in ("de", "en")},
                "observed": observed.to_json(),
                "nearest": [near.to_json() for near in nearest],
                "wrong": wrong, "expected": expected, "snapshots": None}

    def _wrong_and_expected(self, seen: Mapping[str, str | None],
                            goal: Mapping[str, str | None]) -> tuple[list[str], list[str]]:
        assert self._board is not None
        kinds = self._board.kind
        wrong = sorted(h for h, c in seen.items()
                       if kinds[h] != "kennel" and c is not None and goal.get(h) != c)
        expected = sorted(h for h, c in goal.items()
                          if kinds[h] != "kennel" and c is not None and seen.get(h) != c)
        return wrong, expected

    def _rejudged_holes(self, view: View) -> None:
        """An illegal verdict stands; the red and green holes follow the board."""
        assert self._verdict is not None and self._board is not None
        nearest = self._verdict["nearest"]
        goal = (Position.from_json(nearest[0]["result"]) if nearest
                else self._game.position if self._game is not None else None)
        if goal is None or self._reading is None:
            return
        wrong, expected = self._wrong_and_expected(self._reading, self._board.holes(goal))
        self._verdict = {**self._verdict, "wrong": wrong, "expected": expected}

    def _differing(self, seen: View, should: View) -> list[str]:
        return self._hole_ids([key for key, value in seen.items() if should.get(key) != value])

    def _hole_ids(self, keys: Sequence[str]) -> list[str]:
        """View keys as hole ids (a kennel ``K<seat>`` as its holes)."""
        assert self._board is not None
        ids: list[str] = []
        for key in keys:
            if key.startswith("K"):
                ids.extend(self._board.kennels.get(int(key[1:]), ()))
            else:
                ids.append(key)
        return sorted(ids)

    def _current_legal(self) -> Legal | None:
        if self._announced is None or self._game is None or self._board is None:
            return None
        return self._legal.get(self._board, self._game.position,
                               _card(self._announced["card"]))

    def _shown(self) -> tuple[tuple[Move, ...], Lit]:
        """The announced card's moves and lit holes as shown: a Joker announced as a card
        only as that card."""
        legal = self._current_legal()
        assert legal is not None and self._board is not None and self._announced is not None
        stood = self._announced.get("as")
        return legal.standing_for(self._board, None if stood is None else _card(stood))

    # -- journal and apply -----------------------------------------------------------------

    def _commit(self, kind: str, data: dict[str, Any], game: int | None = None) -> None:
        """Write an event to the journal, then apply it and tell everyone."""
        if self._closed:
            raise TableError("the table is shutting down", 409)
        game_id = self._game_id if game is None else game
        assert game_id is not None
        round_before = 0 if self._game is None else self._game.round
        self._journal.append(game_id, kind, data)
        self._apply(kind, data, game_id)
        self._journal_deal(round_before)
        self._changed()

    def _journal_deal(self, round_before: int) -> None:
        """A move or fold that ended a round dealt the next: a ``deal`` row records it (the
        deal itself follows from the event before it, also when replaying)."""
        game = self._game
        if game is not None and game.round > round_before and game.dealer is not None:
            assert self._game_id is not None
            self._journal.append(self._game_id, "deal", {
                "round": game.round, "dealer": game.dealer,
                "cards": game.deal_size(game.round)})

    def _commit_camera(self, status: str, why: str) -> None:
        if self._closed:
            return
        if self._game_id is not None:
            self._journal.append(self._game_id, "camera",
                                 {"status": "lost" if status == "lost" else "back", "why": why})
        self._camera["status"] = status
        self._changed()

    def _apply(self, kind: str, data: dict[str, Any], game_id: int) -> None:
        """The one place where the game's state changes (live and when replaying)."""
        if kind == "setup":
            self._start_game(data["request"], game_id)
            return
        game = self._game
        if game is None:
            raise TableError(f"a {kind} event before any setup", 409)
        if kind in ("announce", "fold", "override") and game.phase is Phase.EXCHANGE:
            self._step({"kind": "exchange"})    # the first card of the round ends the reminder
        if kind == "announce":
            self._announced = {"card": data["card"], "player": int(data["player"])}
            if data.get("as") is not None:
                self._announced["as"] = data["as"]
            self._pending = None
            self._verdict = None
            self._progress = []
        elif kind == "play":
            self._step({"kind": "play", "card": data["card"], "player": data["player"],
                        "position": data["position"]})
            self._verdict = {"legal": True, "card": data["card"],
                             "move": self._moves[-1]["notation"], "reason": None,
                             "code": None, "args": {}, "rule": None,
                             "observed": data["position"], "nearest": [], "wrong": [],
                             "expected": [], "snapshots": None}
            self._after_turn()
        elif kind == "verdict":
            self._disputes += 1 if data["verdict"].get("snapshots") else 0
            self._pending = "illegal"
            self._verdict = dict(data["verdict"])
            self._progress = []
        elif kind == "clear":
            self._pending = None
            self._verdict = None
        elif kind == "fold":
            self._step({"kind": "fold", **data})
            self._verdict = None
            self._after_turn()
        elif kind == "override":
            self._step({"kind": "override", **data})
            self._verdict = None
            self._after_turn()
        elif kind == "undo":
            self._rebuild(int(data["to"]))
            self._verdict = None
            self._after_turn()
        elif kind == "exchange":
            if game.phase is Phase.EXCHANGE:
                self._step({"kind": "exchange"})
        elif kind == "deal":
            if int(data["round"]) != game.round:
                log.warning("journal: deal of round %s recorded, the game is in round %d",
                            data["round"], game.round)
        elif kind == "camera":
            pass    # recorded for the game's story; the live status comes from the loop
        else:
            raise TableError(f"unknown event kind {kind!r}", 409)

    def _start_game(self, request: dict[str, Any], game_id: int) -> None:
        _, setup = parse_setup(request, self.profile)
        self._reset_game()
        self._game_id = game_id
        self._request = request
        self._game = Game(setup)
        self._board = BoardMap(self.profile, setup.start)
        self._game.deal()
        self._start = self._game.position

    def _step(self, step: dict[str, Any]) -> None:
        """Apply one step of the game (a move, a fold, an override) and keep it."""
        game = self._game
        assert game is not None
        kind = step["kind"]
        if kind == "exchange":
            game.exchange()
        elif kind == "play":
            game.play(_card(step["card"]), Position.from_json(step["position"]),
                      int(step["player"]))
        elif kind == "override":
            card = None if step["card"] is None else _card(step["card"])
            game.rule(card, Position.from_json(step["position"]), int(step["player"]))
        elif kind == "fold":
            self._check_fold(game, step)
            if step["redraw"]:
                game.redraw(player=int(step["player"]))
            else:
                hand = step.get("hand")
                cards = None
                if hand is not None and game.team_game:
                    cards = [_card(name) for name in hand]
                game.fold(cards, int(step["player"]))
        self._steps.append(step)
        if kind in ("play", "override"):
            event = game.events[-1] if kind == "play" or step["card"] is not None else None
            notation = getattr(event, "notation", None) or "set by the referee"
            self._moves.append({"n": len(self._moves) + 1, "player": int(step["player"]),
                                "card": step["card"], "notation": notation,
                                "position": game.position.to_json()})
        if game.phase is Phase.DEAL:
            game.deal()

    @staticmethod
    def _check_fold(game: Game, step: Mapping[str, Any]) -> None:
        if step["redraw"] and (game.team_game or game.redrawn):
            raise TableError("no card can be drawn now", 409)

    def _rebuild(self, to: int) -> None:
        """Back to right after move ``to``: replay the kept steps up to it."""
        assert self._request is not None and self._game_id is not None
        steps, moves = list(self._steps), 0
        keep: list[dict[str, Any]] = []
        for step in steps:
            if moves == to:
                break
            keep.append(step)
            if step["kind"] in ("play", "override"):
                moves += 1
        request, game_id = self._request, self._game_id
        self._start_game(request, game_id)
        for step in keep:
            self._step(step)

    def _steps_after_last_move(self) -> bool:
        """Whether folds (or the end of an exchange) came after the game's last move."""
        return bool(self._steps) and self._steps[-1]["kind"] not in ("play", "override")

    def _after_turn(self) -> None:
        self._undo_requested = False
        self._announced = None
        self._pending = None
        self._progress = []
        self._candidate = None

    # -- helpers ---------------------------------------------------------------------------

    def _playing(self) -> Game:
        game = self._game
        if game is None:
            raise TableError("no game is set up: set one up first", 409)
        if game.over:
            raise TableError("the game is over: set up a new one", 409)
        return game

    def _name(self, player: int) -> str:
        players = (self._request or {}).get("players", [])
        if 0 <= player < len(players):
            return f"{players[player]['name']} ({players[player]['color']})"
        return f"player {player}"

    @staticmethod
    def _try(action: Callable[[], None]) -> None:
        try:
            action()
        except GameError as error:
            raise TableError(str(error), 409) from None
