"""The simulated table live: a virtual board as the table's camera, and bot games on it.

:class:`LiveTable` wires a `companion.table.Table` to a :class:`VirtualTable` through the
table's own camera loop (`companion.table.camera.CameraLoop`), the way a camera is wired in.
While no bot game runs, the virtual board follows the table: whatever the table holds true
(a game set up, a move entered by hand, an undo) a hand arranges on the board, so the camera
agrees with the table; the reader's reference frame is taken by itself the first time every
marble sits in its kennel. :meth:`LiveTable.start_game` starts a bot game (a
:class:`~companion.sim.conductor.Conductor` in its own thread); seats can be handed to a
person and back while it runs, and a person's seat sees its own hand and legal moves.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.rules import Position, RuleSet, legal_moves_by_card, parse_card
from companion.sim.bots import make_bot
from companion.sim.client import ClientError, LocalTable
from companion.sim.conductor import Conductor, ConductorError
from companion.sim.holes import HoleMap, every_spot
from companion.sim.virtual import VirtualTable

if TYPE_CHECKING:
    from companion.table import Table
    from companion.table.camera import CameraLoop
    from vision.render import RenderConditions

log = logging.getLogger(__name__)

PUMP_S = 0.05
FOLLOW_S = 0.5


class DemoError(ValueError):
    """A demo request that cannot be carried out; the message names the value."""


@dataclass(frozen=True)
class DemoOptions:
    """A bot game: rule set, seed, bot kind, cheat probability, speed (1: calm players)."""

    rules: str = "swiss"
    seed: int = 1
    bots: str = "heuristic"
    cheat: float = 0.1
    speed: float = 1.0

    def checked(self) -> DemoOptions:
        """The options, or `DemoError` naming the first bad one."""
        try:
            RuleSet.from_json(self.rules)
        except ValueError as error:
            raise DemoError(f"rules: {error}") from None
        try:
            make_bot(self.bots)
        except ValueError as error:
            raise DemoError(str(error)) from None
        if not 0.0 <= self.cheat <= 1.0:
            raise DemoError(f"cheat: {self.cheat!r} is not a probability (0…1)")
        if not 0.05 <= self.speed <= 20:
            raise DemoError(f"speed: {self.speed!r} is not between 0.05 and 20")
        return self


class LiveTable:
    """A table whose camera is a virtual board; see the module docstring."""

    def __init__(self, table: Table, *, conditions: RenderConditions | None = None,
                 fps: float = 5.0, seed: int = 0) -> None:
        from companion.table.camera import CameraLoop

        self.table = table
        self.virtual = VirtualTable(table.profile, table.believed_holes(), conditions=conditions,
                                    fps=fps, seed=seed, pace=True)
        self.camera: CameraLoop = CameraLoop(table, self.virtual, simulated=True)
        self.conductor: Conductor | None = None
        self.options: DemoOptions | None = None
        self.error: str | None = None
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    # -- running ------------------------------------------------------------------------------

    def start(self) -> LiveTable:
        """Start the camera loop and the follower; take a reference frame if none is known."""
        self.camera.start()
        self._spawn("sim-follow", self._follow)
        return self

    def close(self) -> None:
        """Stop the bots, the follower and the camera loop."""
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=5)
        self.camera.close()

    def __enter__(self) -> LiveTable:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _spawn(self, name: str, target: Any) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    def _pump(self) -> None:
        if self._stop.wait(PUMP_S):
            raise ConductorError("the simulated table is shutting down")

    # -- a bot game ---------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether a bot game is being played."""
        with self._lock:
            return self.conductor is not None and not self.conductor.over and self.error is None

    def start_game(self, options: DemoOptions) -> dict[str, Any]:
        """Start a bot game with these options (a running one is replaced)."""
        options = options.checked()
        with self._lock:
            if self.running:
                raise DemoError("a bot game is running: wait for its end")
            seats = self.table.profile.seats
            bots = [make_bot(options.bots, options.seed * 10 + i) for i in range(seats)]
            conductor = Conductor(
                LocalTable(self.table), self.virtual, bots, RuleSet.from_json(options.rules),
                seed=options.seed, cheat=options.cheat, pump=self._pump,
                pause_s=1.5 / options.speed, show_s=4.0 / options.speed,
                notify=self.table.notice)
            self.virtual.timing = self.virtual.base_timing.scaled(options.speed)
            self.conductor, self.options, self.error = conductor, options, None
        self._spawn("sim-bots", lambda: self._play(conductor))
        return self.status()

    def _play(self, conductor: Conductor) -> None:
        try:
            conductor.start()
            conductor.play()
        except (ConductorError, ClientError) as error:
            if not self._stop.is_set():
                log.error("demo: the bot game stopped: %s", error)
                with self._lock:
                    self.error = str(error)

    def status(self) -> dict[str, Any]:
        """``{"running", "options", "bots": [i, ...], "people": [i, ...], "error"}``."""
        with self._lock:
            conductor, options = self.conductor, self.options
            people = sorted(conductor.humans) if conductor is not None else []
            players = len(conductor.bots) if conductor is not None else 0
            return {"running": self.running,
                    "options": None if options is None else {
                        "rules": options.rules, "seed": options.seed, "bots": options.bots,
                        "cheat": options.cheat, "speed": options.speed},
                    "bots": [i for i in range(players) if i not in people],
                    "people": people, "error": self.error}

    def take_seat(self, player: int) -> dict[str, Any]:
        """A person plays ``player`` from now on."""
        self._conductor().take_seat(self._player(player))
        return self.status()

    def release_seat(self, player: int) -> dict[str, Any]:
        """The bot plays ``player`` again."""
        self._conductor().release_seat(self._player(player))
        return self.status()

    def seat(self, player: int) -> dict[str, Any]:
        """What the person at ``player``'s seat may see: the hand, each card's legal moves
        (only while it is that player's turn) and whether they have to choose the card they
        pass in the partner exchange (``give``)."""
        conductor = self._conductor()
        player = self._player(player)
        with conductor.lock:
            hand = conductor.hand(player)
            give = conductor.exchange_due(player)
            moves: dict[str, list[str]] = {}
            if conductor.game.turn == player and not give:
                by_card = legal_moves_by_card(conductor.game.position,
                                              [parse_card(c) for c in hand])
                moves = {str(card): [m.notation for m in found]
                         for card, found in by_card.items()}
        return {"player": player, "person": player in conductor.humans, "hand": hand,
                "to_move": conductor.game.turn == player and not give, "moves": moves,
                "give": give}

    def give_for(self, player: int, card: str) -> dict[str, Any]:
        """The person at ``player``'s seat passes ``card`` to their partner."""
        conductor = self._conductor()
        try:
            conductor.give_for(self._player(player), card)
        except ValueError as error:
            raise DemoError(str(error)) from None
        return self.status()

    def play_for(self, player: int, card: str, notation: str) -> dict[str, Any]:
        """The person at ``player``'s seat has the hand move one legal move of ``card``."""
        conductor = self._conductor()
        try:
            conductor.play_for(self._player(player), card, notation)
        except ValueError as error:
            raise DemoError(str(error)) from None
        return self.status()

    def _conductor(self) -> Conductor:
        with self._lock:
            if self.conductor is None:
                raise DemoError("no bot game has been started")
            return self.conductor

    def _player(self, player: object) -> int:
        conductor = self._conductor()
        if not isinstance(player, int) or not 0 <= player < len(conductor.bots):
            raise DemoError(f"player {player!r} is not a player of this game "
                            f"(0…{len(conductor.bots) - 1})")
        return player

    # -- following the table when no bot plays -------------------------------------------

    def _follow(self) -> None:
        while not self._stop.wait(FOLLOW_S):
            with self._lock:
                if self.running:
                    continue
            if self.virtual.busy:
                continue
            self._reference()
            believed = self.table.believed_holes()
            if _same_marbles(believed, self.virtual.planned):
                continue
            state = self.table.state()
            position = state.get("position")
            if position is None:
                self.virtual.place(believed)
                continue
            parsed = Position.from_json(position)
            try:
                self.virtual.arrange(HoleMap.of(self.table.profile, parsed), parsed)
            except ValueError:  # colours the board does not have: show it as the table does
                self.virtual.place(believed)


    def _reference(self) -> None:
        """Without a reference frame, take one as soon as every marble is in its kennel."""
        from companion.table import TableError
        from vision.render import start_occupancy

        if self.table.state()["camera"]["reference"]:
            return
        start = every_spot(self.table.profile, start_occupancy(self.table.profile))
        if self.virtual.holes == start and self.camera.frames_read:
            try:
                self.table.take_reference()
            except TableError as error:
                log.warning("simulated table: no reference frame yet (%s)", error)


def _same_marbles(a: dict[str, str | None], b: dict[str, str | None]) -> bool:
    kennel = {h for h in a if h.startswith("K")}
    if any(a.get(h) != b.get(h) for h in a if h not in kennel):
        return False
    return sorted(str(a[h]) for h in kennel) == sorted(str(b.get(h)) for h in kennel)

