"""Bots playing a whole game at the table: cards from a dealer the table never sees, marbles
moved on the virtual board, everything else through the table's public interface.

The table referees with secret cards (it knows only how many each player holds). The
:class:`Conductor` is the card table around it: a seeded full-mode `companion.rules.Game`
deals the same rounds as the table and knows every hand; each bot decides its turn from its
hand; the conductor announces the card (or says "cannot play") through a
:class:`~companion.sim.client.TableClient` and has the virtual table's hand move the
marbles. With a cheat probability, a bot makes a realistic illegal move instead
(:mod:`companion.sim.cheats`); once the referee objects, it puts the board right with a legal
move of the announced card. A seat can be left to a person (:meth:`Conductor.take_seat`):
the conductor then waits for that player's turn to end at the table and follows it.

Waiting is done by ``pump()``: one frame of a :class:`~companion.sim.pipeline.FramePipeline`
in tests and benchmarks, a short sleep while the live camera loop runs in its threads.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.rules import Card, Game, Move, Position, RuleSet, Setup, check
from companion.rules.game import Phase
from companion.sim.bots import Bot, Decision
from companion.sim.cheats import Cheat, CheatKind, plan_cheat
from companion.sim.client import ClientError, TableClient
from companion.sim.holes import HoleMap
from companion.sim.virtual import VirtualTable

__all__ = ["Conductor", "ConductorError", "Turn"]

WAIT_S = 30.0
"""Longest wait (on the virtual table's clock) for the table to judge a move."""


DONE_AFTER_S = 3.0
"""How long a player leaves a board the table takes for a move in progress before saying
"done"."""
SETTLE_S = 1.0
"""How long the board is left alone at the start (the camera settles on it)."""
REFERENCE_TRIES = 10
"""Tries of the camera's reference frame at the start, ``SETTLE_S`` apart."""


class ConductorError(RuntimeError):
    """The table and the dealt game disagree, or the table did not answer in time."""


@dataclass
class Turn:
    """What happened in one turn, for tests and benchmarks.

    ``kind`` is ``"play"``, ``"fold"`` or the value of the cheat's :class:`CheatKind`;
    ``verdict`` the table's verdict on the (first) board shown; ``caught`` whether the
    table objected to a cheat; ``false_illegal`` a legal move the table called illegal;
    ``hand_left`` and ``judged`` the virtual table's clock when the hand left the board and
    when the table's verdict came.
    """

    player: int
    kind: str
    card: str | None
    notation: str | None = None
    subject: str | None = None
    caught: bool | None = None
    false_illegal: bool = False
    verdict: dict[str, Any] | None = None
    refusal: str | None = None
    hand_left: float | None = None
    judged: float | None = None


@dataclass
class Conductor:
    """Runs a bot game at a table; see the module docstring.

    ``bots[i]`` plays player ``i`` (in play order) at ``seats[i]`` of the board;
    ``cheat`` is the probability of an illegal move per turn; a bot thinks ``pause_s``
    before its turn, and a caught cheat leaves the board wrong ``show_s`` before putting it
    right (seconds on the virtual table's clock, 0 in tests).
    """

    client: TableClient
    virtual: VirtualTable
    bots: Sequence[Bot]
    rules: RuleSet
    seed: int = 0
    cheat: float = 0.0
    pump: Callable[[], object] = lambda: None
    seats: Sequence[int] | None = None
    cheat_kinds: Sequence[CheatKind] | None = None
    names: Sequence[str] | None = None
    turns: list[Turn] = field(default_factory=list)
    humans: set[int] = field(default_factory=set)
    gifts: dict[int, Card] = field(default_factory=dict)
    """The cards people chose to pass in this round's exchange (player → card)."""
    pause_s: float = 0.0
    show_s: float = 0.0
    notify: Callable[[str | None], None] | None = None
    """Shows a refusal the state does not carry (a false "cannot play") on the page."""
    inject: Sequence[CheatKind] = ()
    """Cheats whole games seldom offer (a 7 passing a marble left standing, passing a
    protected marble): made whenever the bot's turn allows one, up to ``inject_each`` times
    of each kind, besides the ``cheat`` probability."""
    inject_each: int = 3

    def __post_init__(self) -> None:
        players = len(self.bots)
        profile = self.virtual.profile
        if not 2 <= players <= profile.seats:
            raise ValueError(f"bots: {players} players; the board {profile.name} seats 2 to "
                             f"{profile.seats}")
        seats = list(self.seats) if self.seats is not None else _spread(players, profile.seats)
        self.seats = seats
        self.colors = [profile.default_colors[seat] for seat in seats]
        self.rng = random.Random(f"dog conductor {self.seed}")
        self.first_dealer = self.rng.randrange(players)
        self.game = Game(Setup.new(self.rules, profile.seats, self.colors, seats,
                                   first_dealer=self.first_dealer, seed=self.seed))
        self.hole_map = HoleMap.of(profile, self.game.position)
        self.lock = threading.RLock()

    # -- the game --------------------------------------------------------------------------

    def setup_request(self) -> dict[str, Any]:
        """The table's ``POST /api/setup`` body for this game."""
        names = self.names or [f"{bot.name.capitalize()} {i + 1}"
                               for i, bot in enumerate(self.bots)]
        assert self.seats is not None
        return {"rules": self.rules.to_json_compact(), "board": self.virtual.profile.seats,
                "players": [{"name": name, "color": colour, "at": seat}
                            for name, colour, seat in zip(names, self.colors, self.seats,
                                                          strict=True)],
                "first_dealer": self.first_dealer}

    def start(self) -> None:
        """Set the game up at the table, every marble in its kennel, and take the camera's
        reference frame."""
        self.virtual.place(self.hole_map.holes(self.game.setup.start))
        self.client.setup(self.setup_request())
        self._pump_for(SETTLE_S)
        for attempt in range(REFERENCE_TRIES):
            try:
                self.client.take_reference()
                break
            except ClientError:  # no frame has reached the camera loop yet
                if attempt == REFERENCE_TRIES - 1:
                    raise
                self._pump_for(SETTLE_S)
        self._pump_for(SETTLE_S)  # the camera's first settled reading reaches the table
        self._deal(people=False)

    def _pump_for(self, seconds: float) -> None:
        until = self.virtual.now + seconds
        while self.virtual.now < until:
            self.pump()

    @property
    def over(self) -> bool:
        """Whether the game has a winner."""
        return self.game.over

    def play(self, max_turns: int | None = None) -> None:
        """Play turns until the game is over (or ``max_turns`` turns were played)."""
        played = 0
        while not self.game.over and (max_turns is None or played < max_turns):
            self.turn()
            played += 1

    def fast_forward(self, until: Callable[[Game], bool]) -> int:
        """Play honest turns by entering each result by hand (``observe``, no camera) until
        ``until(game)`` holds: a quick way to a late position. Then the virtual board is set
        to the table's position and the camera settles on it. Returns the turns played."""
        played = 0
        while not self.game.over and not until(self.game):
            with self.lock:
                self._deal(people=False)
                player = self.game.turn
                assert player is not None
                hands = self.game.hands
                assert hands is not None
                decision = self.bots[player].decide(self.game.position, hands[player])
                if decision.card is None or decision.move is None:
                    self.client.fold(self.hand(player), player)
                    self._fold_dealt(player)
                else:
                    self.client.announce(str(decision.card), player)
                    self.client.observe(decision.move.result.to_json(), player)
                    self.game.play(decision.card, decision.move.result)
                played += 1
        self.virtual.place(self.hole_map.holes(self.game.position, self.virtual.holes))
        self._pump_for(SETTLE_S)
        return played

    def turn(self) -> Turn:
        """Play the next turn at the table and return what happened (first waiting, in a
        round's exchange, until every person has chosen the card they pass)."""
        while True:
            with self.lock:
                if self._deal():
                    player = self.game.turn
                    assert player is not None
                    self._check_in_step()
                    human = player in self.humans
                    break
            self.pump()
        record = self._follow_person(player) if human else self._bot_turn(player)
        self.turns.append(record)
        return record

    def hand(self, player: int) -> list[str]:
        """The cards player ``player`` holds now."""
        hands = self.game.hands
        assert hands is not None
        return [str(card) for card in hands[player]]

    def take_seat(self, player: int) -> None:
        """A person plays ``player`` from now on (the bot stops choosing for it); in team
        games only (with 2, 3 or 5 players the card a person discards on "cannot play" is
        theirs alone, so the dealt game could not follow)."""
        self._known(player)
        if not self.game.team_game:
            raise ValueError("a person can take a seat in team games (4 or 6 players) only")
        with self.lock:
            self.humans.add(player)

    def release_seat(self, player: int) -> None:
        """The bot plays ``player`` again."""
        self._known(player)
        with self.lock:
            self.humans.discard(player)

    def exchange_due(self, player: int) -> bool:
        """Whether the person at ``player``'s seat still has to choose the card they pass."""
        with self.lock:
            return (self.game.phase is Phase.EXCHANGE and player in self.humans
                    and player not in self.gifts)

    def give_for(self, player: int, card: str) -> None:
        """The person at ``player``'s seat passes ``card`` in this round's exchange."""
        self._known(player)
        with self.lock:
            if player not in self.humans:
                raise ValueError(f"player {player} is played by a bot")
            if self.game.phase is not Phase.EXCHANGE:
                raise ValueError("no exchange is due")
            chosen = _card_of(card)
            hands = self.game.hands
            assert hands is not None
            if chosen not in hands[player]:
                raise ValueError(f"player {player} does not hold {card}")
            self.gifts[player] = chosen

    def _known(self, player: int) -> None:
        if not isinstance(player, int) or not 0 <= player < len(self.bots):
            raise ValueError(f"player {player!r} is not a player of this game "
                             f"(0…{len(self.bots) - 1})")

    # -- keeping the dealt game in step with the table ----------------------------------------

    def _deal(self, people: bool = True) -> bool:
        """Deal and exchange in the dealt game: a person passes the card they chose, a bot
        its own choice. False while a person (``people``) has not chosen yet."""
        game = self.game
        if game.phase is Phase.DEAL:
            game.deal()
        if game.phase is Phase.EXCHANGE:
            chosen = {p: card for p, card in self.gifts.items() if people and p in self.humans}
            if people and any(p not in chosen for p in self.humans):
                return False
            hands = game.hands
            assert hands is not None
            gifts = [chosen[p] if p in chosen else
                     self.bots[p].give(game.position.with_turn(p), hands[p], game.receiver(p))
                     for p in range(game.players)]
            self.gifts.clear()
            game.exchange(gifts)
        return True

    def _check_in_step(self) -> None:
        state = self.client.state()
        position = state.get("position")
        if position is None:
            raise ConductorError("the table has no game")
        table = Position.from_json(position)
        if not table.same_locations(self.game.position) or table.turn != self.game.turn:
            raise ConductorError(f"the table's position {table} differs from the dealt game's "
                                 f"{self.game.position}")
        if list(state["counts"]) != list(self.game.counts):
            raise ConductorError(f"the table's card counts {state['counts']} differ from the "
                                 f"dealt game's {list(self.game.counts)}")

    # -- a bot's turn ----------------------------------------------------------------------

    def _bot_turn(self, player: int) -> Turn:
        self._pump_for(self.pause_s)
        position = self.game.position
        hands = self.game.hands
        assert hands is not None
        hand = hands[player]
        decision = self.bots[player].decide(position, hand)
        cheat = self._injected(position, hand, decision)
        if cheat is None and self.cheat > 0 and self.rng.random() < self.cheat:
            cheat = plan_cheat(position, hand, decision.card, decision.move, self.rng,
                               self.cheat_kinds)
        if cheat is not None and cheat.kind is CheatKind.FALSE_FOLD:
            record = self._false_fold(player, cheat)
            if decision.card is not None and decision.move is not None:
                honest = self._honest(player, decision.card, decision.move)
                record.notation, record.hand_left, record.judged = (
                    honest.notation, honest.hand_left, honest.judged)
            return record
        if cheat is not None:
            return self._cheat(player, cheat)
        if decision.card is None or decision.move is None:
            return self._fold(player, hand)
        return self._honest(player, decision.card, decision.move)

    def _injected(self, position: Position, hand: Sequence[Card],
                  decision: Decision) -> Cheat | None:
        """One of the ``inject`` kinds, where this turn allows it and its count is not full."""
        for kind in self.inject:
            if sum(turn.kind == kind.value for turn in self.turns) >= self.inject_each:
                continue
            cheat = plan_cheat(position, hand, decision.card, decision.move, self.rng, [kind])
            if cheat is not None:
                return cheat
        return None

    def _honest(self, player: int, card: Card, move: Move) -> Turn:
        record = Turn(player, "play", str(card), move.notation)
        before = self.client.announce(str(card), player)["moves"]
        self.virtual.play(self.hole_map, move)
        if move.no_effect:  # nothing to see: the player says the move is done
            self._wait_hand(record)
            self.client.done(player)
        state = self._wait_verdict(before, record)
        if state["moves"] == before:  # a legal move called illegal: the referee sets it
            record.false_illegal = True
            self.client.override(move.result.to_json())
        self.game.play(card, move.result)
        return record

    def _cheat(self, player: int, cheat: Cheat) -> Turn:
        assert cheat.card is not None and cheat.after is not None and cheat.honest is not None
        record = Turn(player, cheat.kind.value, str(cheat.card), cheat.honest.notation,
                      cheat.subject)
        before = self.client.announce(str(cheat.card), player)["moves"]
        mover = self.colors[self.game.position.controlled() or player]
        self.virtual.arrange(self.hole_map, cheat.after, mover)
        state = self._wait_verdict(before, record)
        record.caught = state["moves"] == before
        self._pump_for(self.show_s)
        if not record.caught:  # the referee missed it: take it back, announce again
            self.client.undo()
            self.client.announce(str(cheat.card), player)
        self.virtual.arrange(self.hole_map, cheat.honest.result, mover)
        fixed = Turn(player, "play", str(cheat.card))
        state = self._wait_verdict(before, fixed, illegal_ends=False)
        if state["moves"] == before:
            record.false_illegal = True
            self.client.override(cheat.honest.result.to_json())
        self.game.play(cheat.card, cheat.honest.result)
        return record

    def _false_fold(self, player: int, cheat: Cheat) -> Turn:
        record = Turn(player, cheat.kind.value, None, subject=cheat.subject)
        try:
            self.client.fold([str(card) for card in cheat.hand], player)
        except ClientError as error:
            record.caught = error.status == 409
            record.refusal = str(error)
            if self.notify is not None:
                self.notify(record.refusal)
            self._pump_for(self.show_s)
            if self.notify is not None:
                self.notify(None)
            return record
        record.caught = False
        self.turns.append(record)
        raise ConductorError(f"the table let player {player} fold while holding a playable "
                             f"{cheat.subject}: the dealt game cannot follow")

    def _fold(self, player: int, hand: Sequence[Card]) -> Turn:
        record = Turn(player, "fold", None)
        try:
            self.client.fold([str(card) for card in hand], player)
        except ClientError as error:
            raise ConductorError(f"the table refused a justified fold: {error}") from None
        self._fold_dealt(player)
        return record

    def _fold_dealt(self, player: int) -> None:
        """The dealt game follows the table's "cannot play": a team game's player is out
        for the round; with 2, 3 or 5 players the bot first discards a card and draws one
        (its turn goes on), the second time it throws one card away."""
        game = self.game
        if game.team_game:
            game.fold()
            return
        hands = game.hands
        assert hands is not None
        card = self.bots[player].discard(game.position, hands[player])
        if game.redrawn:
            game.fold([card])
        else:
            game.redraw(card)

    def _wait_hand(self, record: Turn) -> None:
        """Pump until the virtual table's hand has left the board."""
        virtual = self.virtual
        deadline = virtual.now + WAIT_S
        while virtual.busy:
            self.pump()
            if virtual.now > deadline:
                raise ConductorError("the virtual table's hand did not finish")
        record.hand_left = virtual.now

    def _wait_verdict(self, moves: int, record: Turn, *,
                      illegal_ends: bool = True) -> dict[str, Any]:
        """Pump until the hand is gone and the table accepted a move (or, with
        ``illegal_ends``, objected to it); on a timeout the state as it is.

        A board the table takes for a move still in progress (a 7's passed marble left
        standing looks like a part not yet made) is declared finished with "done" once it
        has stood for ``DONE_AFTER_S``."""
        virtual = self.virtual
        if record.hand_left is None:
            self._wait_hand(record)
        deadline = virtual.now + WAIT_S
        done_at = virtual.now + DONE_AFTER_S
        while True:
            state = self.client.state()
            if state["pending"] == "in progress" and virtual.now >= done_at:
                turn = self.game.turn
                assert turn is not None
                state = self.client.done(turn)
                done_at = deadline
            if state["moves"] > moves or (illegal_ends and state["pending"] == "illegal"):
                record.judged = virtual.now
                if record.verdict is None:
                    record.verdict = state.get("verdict")
                return state
            if virtual.now > deadline:
                if not illegal_ends:
                    return state
                raise ConductorError(f"no verdict within {WAIT_S:.0f} s on the table's clock "
                                     f"(pending {state['pending']!r})")
            self.pump()

    # -- a person's turn -------------------------------------------------------------------

    def _follow_person(self, player: int) -> Turn:
        """Wait until the person's turn is over at the table, then follow it."""
        record = Turn(player, "person", None)
        start = self.client.state()
        moves, folded = start["moves"], set(start["folded"])
        while True:
            with self.lock:
                if player not in self.humans:
                    return self._bot_turn(player)
            state = self.client.state()
            if state["moves"] > moves:
                played = state.get("verdict") or {}
                position = Position.from_json(state["position"])
                card = _card_of(played.get("card"))
                verdict = check(self.game.position, position, card)
                if verdict.move is None:
                    raise ConductorError(f"the person's move {played.get('move')} is not "
                                         "legal in the dealt game")
                self.game.play(card, verdict.move.result)
                record.card, record.notation = str(card), verdict.move.notation
                if not self.virtual.busy and self.virtual.planned != self.hole_map.holes(
                        position, self.virtual.planned):
                    self.virtual.arrange(self.hole_map, position)
                return record
            if player in state["folded"] and player not in folded:
                self.game.fold()
                record.kind = "fold"
                return record
            self.pump()

    def play_for(self, player: int, card: str, notation: str) -> None:
        """A person at ``player``'s seat has the hand move the marbles of one of ``card``'s
        legal moves (by its notation) on the virtual board; the table judges as usual."""
        with self.lock:
            if player not in self.humans:
                raise ValueError(f"player {player} is played by a bot")
            if self.game.turn != player:
                raise ValueError(f"player {player} is not to move")
            chosen = _card_of(card)
            hands = self.game.hands
            assert hands is not None
            if chosen not in hands[player]:
                raise ValueError(f"player {player} does not hold {card}")
            from companion.rules import legal_moves

            move = next((m for m in legal_moves(self.game.position, chosen)
                         if m.notation == notation), None)
            if move is None:
                raise ValueError(f"{notation!r} is not a legal move of {card}")
            self.virtual.play(self.hole_map, move)


def _card_of(text: object) -> Card:
    from companion.rules import parse_card

    if not isinstance(text, str):
        raise ConductorError(f"the table names no card ({text!r})")
    return parse_card(text)


def _spread(players: int, board: int) -> list[int]:
    from companion.rules.selfplay import spread_seats

    return spread_seats(players, board)
