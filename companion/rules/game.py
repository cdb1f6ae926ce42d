"""Game flow: rounds, deals, the card exchange, turns, folding and the end of the game.

A :class:`Game` is driven by events (:mod:`companion.rules.record`). Each event method checks
the event against the rules of docs/rulebook.md (rounds and turns, folding, small games) and
either applies it or raises a :class:`GameError` that names what is wrong -- and then the game
is unchanged.

Two modes share one API:

* **full** (the setup has a seed): the game shuffles and deals the cards itself and knows every
  hand, so it also checks that a played card is in the hand and that a fold is justified.
  Self-play and the simulator use it.
* **referee** (no seed): the cards are secret; the game knows only how many cards each player
  holds (from the deal) and checks every announced card and observed position.

Example (full mode)::

    game = Game(Setup.new(SWISS, seed=7))
    game.deal()
    game.exchange([hand[0] for hand in game.hands])
    card = game.hands[game.turn][0]
    moves = game.legal_moves(card)
    if moves:
        game.play(card, moves[0].result)
    else:
        game.fold()
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from companion.rules.cards import Card
from companion.rules.deck import Deck
from companion.rules.move import Move
from companion.rules.moves import legal_moves, playable
from companion.rules.position import Position, PositionError
from companion.rules.record import (
    Deal,
    Event,
    Exchange,
    Fold,
    Play,
    RecordError,
    Redraw,
    Ruling,
    Setup,
    parse_event,
    parse_header,
    record_lines,
)
from companion.rules.referee import Verdict, check

EventT = TypeVar("EventT", Deal, Exchange, Play, Redraw, Fold, Ruling)


class GameError(ValueError):
    """An event the game cannot accept. The game is unchanged."""


class GameOverError(GameError):
    """An event after the game has ended."""


class PhaseError(GameError):
    """An event out of sequence: a play before the exchange, a deal in the middle of a round."""


class TurnError(GameError):
    """An event by a player who is not to move (out of turn, folded, or out of cards)."""


class HandError(GameError):
    """Cards named that the player does not hold (full mode), or a wrong number of cards."""


class IllegalMoveError(GameError):
    """The position after a played card is not a legal result of that card."""

    def __init__(self, message: str, verdict: Verdict) -> None:
        super().__init__(message)
        self.verdict = verdict
        """The referee's verdict: the reason and the nearest legal results."""


class FoldError(GameError):
    """A fold or redraw that the rules do not allow: a card was playable, or the wrong step."""


class Phase(enum.Enum):
    """What the game waits for next."""

    DEAL = "deal"
    EXCHANGE = "exchange"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True)
class FoldCheck:
    """Whether folding with a hand is justified; if not, a playable card and one of its moves."""

    justified: bool
    playable: Card | None = None
    move: Move | None = None


def fold_check(position: Position, hand: Iterable[Card]) -> FoldCheck:
    """Whether the player to move in ``position`` has no playable card in ``hand``."""
    for card in dict.fromkeys(hand):
        if playable(position, card):
            return FoldCheck(False, card, legal_moves(position, card)[0])
    return FoldCheck(True)


class Game:
    """The state of one game of Dog, changed only by events.

    Players are named by their index in play order (``position.players``).
    """

    def __init__(self, setup: Setup) -> None:
        count = len(setup.start.players)
        if not 0 <= setup.first_dealer < count:
            raise GameError(f"first_dealer {setup.first_dealer} is not a player (0..{count - 1})")
        if setup.deck_top and setup.seed is None:
            raise GameError("deck_top needs a seed: a referee game does not deal the cards")
        self.setup = setup
        self._position = setup.start
        self._deck = None if setup.seed is None else Deck(random.Random(setup.seed), setup.deck_top)
        self._hands: list[list[Card]] | None = (
            None if setup.seed is None else [[] for _ in range(count)]
        )
        self._counts = [0] * count
        self._folded: set[int] = set()
        self._redrawn = False
        self._round = 0
        self._phase = Phase.DEAL
        self._turn: int | None = None
        self._winners: tuple[int, ...] | None = None
        self._events: list[Event] = []

    # -- state ------------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The current position; its ``turn`` is the player to move during a round."""
        return self._position

    @property
    def phase(self) -> Phase:
        """What the game waits for next."""
        return self._phase

    @property
    def players(self) -> int:
        """Number of players."""
        return len(self._counts)

    @property
    def team_game(self) -> bool:
        """Whether partners play together (4 or 6 players) rather than each alone."""
        return self._position.partner(0) is not None

    @property
    def hands_known(self) -> bool:
        """Whether the game knows every hand (full mode)."""
        return self._hands is not None

    @property
    def round(self) -> int:
        """The current round, 1 for the first deal; 0 before it."""
        return self._round

    @property
    def dealer(self) -> int | None:
        """Who dealt the current round (None before the first deal)."""
        if self._round == 0:
            return None
        return self._dealer_of(self._round)

    @property
    def turn(self) -> int | None:
        """The player to move, or None between rounds and after the end."""
        return self._turn

    @property
    def counts(self) -> tuple[int, ...]:
        """How many cards each player holds."""
        return tuple(self._counts)

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...] | None:
        """Every player's hand (full mode), else None."""
        if self._hands is None:
            return None
        return tuple(tuple(hand) for hand in self._hands)

    @property
    def folded(self) -> frozenset[int]:
        """Players who folded this round (team game) and sit it out."""
        return frozenset(self._folded)

    @property
    def redrawn(self) -> bool:
        """2, 3 or 5 players: the player to move has discarded and drawn a card this turn."""
        return self._redrawn

    @property
    def winners(self) -> tuple[int, ...] | None:
        """The winning team's players (or the single winner), once the game is over."""
        return self._winners

    @property
    def over(self) -> bool:
        """Whether a team (or a single player) has all its pegs home."""
        return self._phase is Phase.OVER

    @property
    def events(self) -> tuple[Event, ...]:
        """Every accepted event, in order."""
        return tuple(self._events)

    @property
    def deck(self) -> Deck | None:
        """The deck the game deals from (full mode), else None."""
        return self._deck

    def deal_size(self, round_number: int) -> int:
        """How many cards every player receives in round ``round_number`` (1-based)."""
        return self._position.rules.deal_sequence.cards(round_number)

    def receiver(self, player: int) -> int:
        """Who gets ``player``'s card in the exchange: the partner, else the next player."""
        partner = self._position.partner(player)
        return (player + 1) % self.players if partner is None else partner

    def legal_moves(self, card: Card) -> list[Move]:
        """The legal moves of ``card`` for the player to move."""
        return legal_moves(self._position, card)

    def state(self) -> dict[str, Any]:
        """Everything that makes up the state, as plain values (to compare two games)."""
        return {
            "position": self._position.to_json(),
            "phase": self._phase.value,
            "round": self._round,
            "turn": self._turn,
            "counts": list(self._counts),
            "hands": None if self._hands is None else [_names(hand) for hand in self._hands],
            "folded": sorted(self._folded),
            "redrawn": self._redrawn,
            "winners": self._winners,
            "stack": None if self._deck is None else _names(self._deck.stack),
            "discards": None if self._deck is None else _names(self._deck.discards),
            "events": len(self._events),
        }

    # -- events -----------------------------------------------------------------------------

    def deal(self) -> Deal:
        """Deal the next round (full mode: from the deck; referee: the card counts)."""
        round_number = self._round + 1
        return self._apply_deal(
            Deal(round_number, self._dealer_of(round_number), self.deal_size(round_number))
        )

    def exchange(self, given: Sequence[Card] | None = None) -> Exchange:
        """Every player passes one card (``given[i]`` by player ``i``; full mode only)."""
        return self._apply_exchange(Exchange(None if given is None else tuple(given)))

    def play(self, card: Card, after: Position, player: int | None = None) -> Play:
        """``player`` (default: the player to move) plays ``card``, leading to ``after``."""
        return self._apply_play(Play(self._who(player), card, after))

    def redraw(self, discard: Card | None = None, player: int | None = None) -> Redraw:
        """2, 3 or 5 players: a player who cannot move discards a card and draws one."""
        return self._apply_redraw(Redraw(self._who(player), discard))

    def fold(self, cards: Sequence[Card] | None = None, player: int | None = None) -> Fold:
        """A player who cannot move folds (team game: whole hand; else one card, after a
        redraw). Full mode, team game: ``cards`` default to the whole hand."""
        return self._apply_fold(Fold(self._who(player), None if cards is None else tuple(cards)))

    def rule(self, card: Card | None, after: Position, player: int | None = None) -> Ruling:
        """The referee's word: ``player``'s turn ends with the board at ``after`` whatever the
        rules say (``card`` leaves the hand; None: the board is set without a card)."""
        return self._apply_ruling(Ruling(self._who(player), card, after))

    def apply(self, event: Event) -> Event:
        """Apply any event (as read from a record); return it as accepted."""
        if isinstance(event, Deal):
            return self._apply_deal(event)
        if isinstance(event, Exchange):
            return self._apply_exchange(event)
        if isinstance(event, Play):
            return self._apply_play(event)
        if isinstance(event, Redraw):
            return self._apply_redraw(event)
        if isinstance(event, Ruling):
            return self._apply_ruling(event)
        return self._apply_fold(event)

    # -- record -----------------------------------------------------------------------------

    def record(self) -> list[str]:
        """The game record (``dog-record/1``): header line, then one line per event."""
        return record_lines(self.setup, self._events)

    @classmethod
    def replay(cls, lines: Iterable[str]) -> Game:
        """Rebuild a game from its record lines (blank lines are ignored)."""
        texts = (line for line in lines if line.strip())
        try:
            header = next(texts)
        except StopIteration:
            raise GameError("empty record: the header line is missing") from None
        game = cls(parse_header(header))
        for number, text in enumerate(texts, start=2):
            try:
                game.apply(parse_event(text))
            except (GameError, RecordError) as error:
                error.args = (f"record line {number}: {error}",)
                raise
        return game

    # -- event handlers ---------------------------------------------------------------------

    def _apply_deal(self, event: Deal) -> Deal:
        self._require(Phase.DEAL, "deal")
        round_number = self._round + 1
        expected = (round_number, self._dealer_of(round_number), self.deal_size(round_number))
        if (event.round, event.dealer, event.cards) != expected:
            raise PhaseError(
                f"round {expected[0]} is due: player {expected[1]} deals {expected[2]} cards, "
                f"not round {event.round} by player {event.dealer} with {event.cards} cards"
            )
        starter = (event.dealer + 1) % self.players
        hands: tuple[tuple[Card, ...], ...] | None = None
        deck = self._deck
        if deck is not None:
            deck = deck.copy()
            dealt: list[list[Card]] = [[] for _ in range(self.players)]
            for _ in range(event.cards):
                for offset in range(self.players):
                    dealt[(starter + offset) % self.players].append(deck.draw())
            hands = tuple(tuple(hand) for hand in dealt)
            if event.hands is not None and event.hands != hands:
                raise HandError("the dealt hands differ from the deck's cards for this seed")
        elif event.hands is not None:
            raise HandError("a referee game does not know the hands: a deal names no cards")
        self._deck = deck
        if hands is not None:
            self._hands = [list(hand) for hand in hands]
        self._counts = [event.cards] * self.players
        self._folded.clear()
        self._redrawn = False
        self._round = round_number
        self._phase = Phase.EXCHANGE
        self._set_turn(starter)
        return self._accept(Deal(event.round, event.dealer, event.cards, hands))

    def _apply_exchange(self, event: Exchange) -> Exchange:
        self._require(Phase.EXCHANGE, "exchange cards")
        if self._hands is None:
            if event.given is not None:
                raise HandError(
                    "a referee game does not know the hands: an exchange names no cards"
                )
        else:
            if event.given is None or len(event.given) != self.players:
                raise HandError(f"name the card each of the {self.players} players passes on")
            for player, card in enumerate(event.given):
                self._require_cards(player, [card])
            for player, card in enumerate(event.given):
                self._hands[player].remove(card)
            for player, card in enumerate(event.given):
                self._hands[self.receiver(player)].append(card)
        self._phase = Phase.PLAY
        return self._accept(event)

    def _apply_play(self, event: Play) -> Play:
        self._require_turn(event.player, f"play {event.card}")
        self._require_cards(event.player, [event.card])
        before = self._position
        try:
            verdict = check(before, event.position, event.card)
        except PositionError as error:
            raise GameError(
                f"the position after {event.card} is not of this game: {error}"
            ) from None
        if verdict.move is None:
            raise IllegalMoveError(
                f"player {event.player} ({before.players[event.player].color}) cannot play "
                f"{event.card} to that position: {verdict.reason}",
                verdict,
            )
        move = verdict.move
        self._take_cards(event.player, [event.card])
        self._end_turn(event.player, move.result)
        return self._accept(Play(event.player, event.card, move.result, move.notation))

    def _apply_ruling(self, event: Ruling) -> Ruling:
        action = "play" if event.card is None else f"play {event.card}"
        self._require_turn(event.player, action)
        if event.position.layout != self._position.layout:
            raise GameError("the position of the ruling is not of this game: other rules, "
                            "board, colours or seats")
        if event.card is not None:
            self._require_cards(event.player, [event.card])
            self._take_cards(event.player, [event.card])
        after = event.position.with_turn(event.player)
        self._end_turn(event.player, after)
        return self._accept(Ruling(event.player, event.card, after))

    def _end_turn(self, player: int, after: Position) -> None:
        """``player``'s turn ended with the board at ``after``: the next turn or the end."""
        self._redrawn = False
        self._position = after
        winners = after.winner()
        if winners is not None:
            self._winners = winners
            self._phase = Phase.OVER
            self._turn = None
        else:
            self._pass_turn(player)

    def _apply_redraw(self, event: Redraw) -> Redraw:
        self._require_turn(event.player, "discard and draw a card")
        if self.team_game:
            raise FoldError("cards are never drawn in a team game: a player who cannot move folds")
        if self._redrawn:
            raise FoldError(
                f"player {event.player} has already drawn a card this turn: "
                "play a card or discard one more"
            )
        deck = self._deck
        drawn = event.drawn
        if self._hands is not None and deck is not None:
            if event.discard is None:
                raise HandError("name the card to discard")
            self._require_cards(event.player, [event.discard])
            self._require_unplayable(event.player, self._hands[event.player])
            deck = deck.copy()
            deck.discard([event.discard])
            drawn = deck.draw()
            if event.drawn is not None and event.drawn != drawn:
                raise HandError(f"the card drawn is {drawn}, not {event.drawn}")
            self._hands[event.player].remove(event.discard)
            self._hands[event.player].append(drawn)
        self._deck = deck
        self._redrawn = True
        return self._accept(Redraw(event.player, event.discard, drawn))

    def _apply_fold(self, event: Fold) -> Fold:
        player = event.player
        self._require_turn(player, "fold")
        cards = event.cards
        if cards is None and self._hands is not None and self.team_game:
            cards = tuple(self._hands[player])
        if self.team_game:
            if cards is not None and len(cards) != self._counts[player]:
                raise HandError(
                    f"a fold discards the whole hand: {self._counts[player]} cards, "
                    f"not {len(cards)}"
                )
        elif not self._redrawn:
            raise FoldError(
                f"player {player} must first discard one card and draw one (rule book: folding)"
            )
        elif cards is not None and len(cards) != 1:
            raise HandError(f"after the redraw the player discards one card, not {len(cards)}")
        if self._hands is not None and cards is None:
            raise HandError("name the discarded card")
        if cards is not None:
            self._require_cards(player, cards)
            self._require_unplayable(player, cards if self._hands is None else self._hands[player])
            self._take_cards(player, cards)
        else:
            self._counts[player] = 0 if self.team_game else self._counts[player] - 1
        if self.team_game:
            self._folded.add(player)
        self._redrawn = False
        self._pass_turn(player)
        return self._accept(Fold(player, cards))

    # -- helpers ----------------------------------------------------------------------------

    def _who(self, player: int | None) -> int:
        if player is not None:
            return player
        self._require(Phase.PLAY, "move")
        assert self._turn is not None  # during play somebody is always to move
        return self._turn

    def _require(self, phase: Phase, action: str) -> None:
        if self._phase is Phase.OVER:
            raise GameOverError(
                f"the game is over (won by players {self._winners}): cannot {action}"
            )
        if self._phase is not phase:
            raise PhaseError(f"cannot {action} now: the game waits for the {self._phase.value}")

    def _require_turn(self, player: int, action: str) -> None:
        self._require(Phase.PLAY, action)
        if not 0 <= player < self.players:
            raise TurnError(f"there is no player {player} (0..{self.players - 1})")
        if player == self._turn:
            return
        name = f"player {player} ({self._position.players[player].color})"
        if player in self._folded:
            raise TurnError(f"{name} folded and sits out the rest of round {self._round}")
        if self._counts[player] == 0:
            raise TurnError(f"{name} has no cards left in round {self._round}")
        assert self._turn is not None
        turn_color = self._position.players[self._turn].color
        raise TurnError(f"{name} cannot {action}: it is player {self._turn}'s turn ({turn_color})")

    def _require_cards(self, player: int, cards: Sequence[Card]) -> None:
        if self._hands is None:
            if len(cards) > self._counts[player]:
                raise HandError(f"player {player} holds only {self._counts[player]} cards")
            return
        missing = Counter(cards) - Counter(self._hands[player])
        if missing:
            names = ", ".join(_names(missing.elements()))
            raise HandError(f"player {player} does not hold {names}")

    def _require_unplayable(self, player: int, hand: Sequence[Card]) -> None:
        claim = fold_check(self._position, hand)
        if not claim.justified:
            assert claim.move is not None
            raise FoldError(
                f"player {player} can play {claim.playable} ({claim.move.notation}): "
                "a playable card must be played"
            )

    def _take_cards(self, player: int, cards: Sequence[Card]) -> None:
        if self._hands is not None:
            for card in cards:
                self._hands[player].remove(card)
        self._counts[player] -= len(cards)
        if self._deck is not None:
            self._deck.discard(cards)

    def _dealer_of(self, round_number: int) -> int:
        return (self.setup.first_dealer + round_number - 1) % self.players

    def _pass_turn(self, player: int) -> None:
        for offset in range(1, self.players + 1):
            candidate = (player + offset) % self.players
            if self._counts[candidate] > 0:
                self._set_turn(candidate)
                return
        self._turn = None
        self._phase = Phase.DEAL

    def _set_turn(self, player: int) -> None:
        self._turn = player
        self._position = self._position.with_turn(player)

    def _accept(self, event: EventT) -> EventT:
        self._events.append(event)
        return event


def _names(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]
