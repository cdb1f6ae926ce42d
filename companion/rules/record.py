"""Game events and the game record (``dog-record/1``, JSON lines).

A game is its setup followed by a list of events. The record writes the setup as a header line
and then one event per line; replaying the events on a fresh :class:`~companion.rules.game.Game`
rebuilds the same state. This module only converts between values and text: no file access.

Events are what happened at the table, from the game's point of view:

* :class:`Deal` -- the dealer deals a round (the hands only when the game knows them);
* :class:`Exchange` -- the card exchange after a deal (the cards only when known);
* :class:`Play` -- a player plays a card; the position after the move;
* :class:`Redraw` -- 2, 3 or 5 players: a player who cannot move discards one card, draws one;
* :class:`Fold` -- a player who cannot move discards (team game: the whole hand);
* :class:`Ruling` -- the referee's word: the turn ends with the board as the referee says.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.rules.cards import Card, CardError, parse_card
from companion.rules.position import Position, PositionError
from companion.rules.ruleset import RuleSet

FORMAT = "dog-record/1"


class RecordError(ValueError):
    """A record line is not valid ``dog-record/1``; the message names the line and key."""


@dataclass(frozen=True)
class Setup:
    """Everything fixed before the first deal.

    ``start`` is the position before the first deal, normally :meth:`Position.initial`.
    ``first_dealer`` is the index (in play order) of the player who deals round 1.
    With a ``seed`` the game deals its own shuffled cards and knows every hand (self-play,
    simulator); without one it is a referee that only knows how many cards each player holds.
    ``deck_top`` stacks the deck: these cards are drawn first, in this order (seeded games only).
    """

    start: Position
    first_dealer: int = 0
    seed: int | None = None
    deck_top: tuple[Card, ...] = ()

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        board: int = 4,
        colors: Sequence[str] = ("red", "yellow", "green", "blue"),
        seats: Sequence[int] | None = None,
        *,
        first_dealer: int = 0,
        seed: int | None = None,
        deck_top: Sequence[Card] = (),
    ) -> Setup:
        """A setup starting from the initial position of ``rules`` for these players."""
        start = Position.initial(rules, board, list(colors), None if seats is None else list(seats))
        return cls(start, first_dealer, seed, tuple(deck_top))

    @property
    def hands_known(self) -> bool:
        """Whether the game deals the cards itself and so knows every hand."""
        return self.seed is not None


@dataclass(frozen=True)
class Deal:
    """The dealer deals ``cards`` cards to every player for round ``round``.

    ``hands`` (by player index) is known only when the game deals the cards itself.
    """

    round: int
    dealer: int
    cards: int
    hands: tuple[tuple[Card, ...], ...] | None = None


@dataclass(frozen=True)
class Exchange:
    """After a deal every player passes one card face down: to the partner in a team game, else
    to the next player in play order. ``given`` is each player's card, when known."""

    given: tuple[Card, ...] | None = None


@dataclass(frozen=True)
class Play:
    """``player`` plays ``card``; ``position`` is the position after the move.

    ``notation`` names the move; the game fills it in when it accepts the play.
    """

    player: int
    card: Card
    position: Position
    notation: str | None = None


@dataclass(frozen=True)
class Redraw:
    """2, 3 or 5 players: ``player`` cannot move, discards ``discard`` and draws ``drawn``.

    Both cards are known only when the game knows the hands.
    """

    player: int
    discard: Card | None = None
    drawn: Card | None = None


@dataclass(frozen=True)
class Fold:
    """``player`` cannot move and discards ``cards`` (when known).

    Team game: the whole hand; the player sits out the rest of the round.
    2, 3 or 5 players, after a :class:`Redraw`: one card; the turn passes.
    """

    player: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True)
class Ruling:
    """The referee's ruling: ``player``'s turn ends with the board at ``position``, whether or
    not the rules allow it. ``card`` leaves the hand; None: the board was set without a card.
    """

    player: int
    card: Card | None
    position: Position


Event = Deal | Exchange | Play | Redraw | Fold | Ruling


def header_line(setup: Setup) -> str:
    """The header line of a record: format, rule set, board, players, dealer, seed."""
    start = setup.start
    obj: dict[str, Any] = {
        "format": FORMAT,
        "rules": start.rules.to_json(),
        "board": start.board,
        "players": [{"color": player.color, "at": player.seat} for player in start.players],
        "first_dealer": setup.first_dealer,
    }
    if setup.seed is not None:
        obj["seed"] = setup.seed
    if setup.deck_top:
        obj["deck_top"] = _card_names(setup.deck_top)
    initial = Position.initial(
        start.rules, start.board, [p.color for p in start.players], [p.seat for p in start.players]
    )
    if start != initial:
        obj["start"] = _position_json(start)
    return _dumps(obj)


def parse_header(line: str) -> Setup:
    """The setup written by :func:`header_line`."""
    obj = _loads(line, "header")
    if obj.get("format") != FORMAT:
        raise RecordError(f"header: format must be {FORMAT!r}, not {obj.get('format')!r}")
    try:
        rules = RuleSet.from_json(obj["rules"])
        players = obj["players"]
        colors = [str(p["color"]) for p in players]
        seats = [int(p["at"]) for p in players]
        if "start" in obj:
            start = Position.from_json(obj["start"])
        else:
            start = Position.initial(rules, int(obj["board"]), colors, seats)
        return Setup(
            start=start,
            first_dealer=int(obj.get("first_dealer", 0)),
            seed=None if obj.get("seed") is None else int(obj["seed"]),
            deck_top=_cards(obj.get("deck_top", ())),
        )
    except KeyError as missing:
        raise RecordError(f"header: missing key {missing}") from None
    except (TypeError, PositionError, CardError) as error:
        raise RecordError(f"header: {error}") from None


def event_line(event: Event) -> str:
    """One event as a record line."""
    obj: dict[str, Any]
    if isinstance(event, Deal):
        obj = {"event": "deal", "round": event.round, "dealer": event.dealer, "cards": event.cards}
        if event.hands is not None:
            obj["hands"] = [_card_names(hand) for hand in event.hands]
    elif isinstance(event, Exchange):
        obj = {"event": "exchange"}
        if event.given is not None:
            obj["given"] = _card_names(event.given)
    elif isinstance(event, Play):
        obj = {"event": "play", "player": event.player, "card": str(event.card)}
        if event.notation is not None:
            obj["move"] = event.notation
        obj["position"] = _position_json(event.position)
    elif isinstance(event, Redraw):
        obj = {"event": "redraw", "player": event.player}
        if event.discard is not None:
            obj["discard"] = str(event.discard)
        if event.drawn is not None:
            obj["drawn"] = str(event.drawn)
    elif isinstance(event, Ruling):
        obj = {"event": "ruling", "player": event.player}
        if event.card is not None:
            obj["card"] = str(event.card)
        obj["position"] = _position_json(event.position)
    else:
        obj = {"event": "fold", "player": event.player}
        if event.cards is not None:
            obj["cards"] = _card_names(event.cards)
    return _dumps(obj)


def parse_event(line: str) -> Event:
    """The event written by :func:`event_line`."""
    obj = _loads(line, "event")
    kind = obj.get("event")
    try:
        if kind == "deal":
            hands = obj.get("hands")
            return Deal(
                round=int(obj["round"]),
                dealer=int(obj["dealer"]),
                cards=int(obj["cards"]),
                hands=None if hands is None else tuple(_cards(hand) for hand in hands),
            )
        if kind == "exchange":
            given = obj.get("given")
            return Exchange(None if given is None else _cards(given))
        if kind == "play":
            return Play(
                player=int(obj["player"]),
                card=parse_card(obj["card"]),
                position=Position.from_json(obj["position"]),
                notation=obj.get("move"),
            )
        if kind == "redraw":
            return Redraw(
                player=int(obj["player"]),
                discard=_optional_card(obj.get("discard")),
                drawn=_optional_card(obj.get("drawn")),
            )
        if kind == "fold":
            cards = obj.get("cards")
            return Fold(int(obj["player"]), None if cards is None else _cards(cards))
        if kind == "ruling":
            return Ruling(
                player=int(obj["player"]),
                card=_optional_card(obj.get("card")),
                position=Position.from_json(obj["position"]),
            )
    except KeyError as missing:
        raise RecordError(f"{kind} event: missing key {missing}") from None
    except (TypeError, PositionError, CardError) as error:
        raise RecordError(f"{kind} event: {error}") from None
    raise RecordError(f"unknown event {kind!r}: expected deal, exchange, play, redraw, fold "
                      "or ruling")


def record_lines(setup: Setup, events: Iterable[Event]) -> list[str]:
    """The whole record: the header line, then one line per event."""
    return [header_line(setup), *(event_line(event) for event in events)]


def _position_json(position: Position) -> Any:
    obj = position.to_json()
    return json.loads(obj) if isinstance(obj, str) else obj


def _card_names(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _cards(names: Iterable[Any]) -> tuple[Card, ...]:
    return tuple(parse_card(str(name)) for name in names)


def _optional_card(name: Any) -> Card | None:
    return None if name is None else parse_card(str(name))


def _dumps(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _loads(line: str, what: str) -> dict[str, Any]:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as error:
        raise RecordError(f"{what}: not JSON ({error})") from None
    if not isinstance(obj, dict):
        raise RecordError(f"{what}: expected a JSON object, got {type(obj).__name__}")
    return obj
