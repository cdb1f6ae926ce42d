"""Realistic illegal moves: what a player who cheats (or errs) at a Dog table does instead.

:func:`plan_cheat` turns a bot's honest turn into one of the :class:`CheatKind` mistakes
where the position and hand allow it. Every planned cheat is verified illegal by the referee
(:func:`companion.rules.check`; the false "cannot play" by
:func:`companion.rules.game.fold_check`) before it is returned, so a cheat is never a legal
move in disguise. A cheat keeps the honest card announced where it can, so that the cheater
can put the board right with a legal move of that card once the referee objects.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.rules import Card, Move, Position, check, legal_moves
from companion.rules.board import HOME_FIELDS
from companion.rules.errors import PositionError
from companion.rules.game import fold_check

__all__ = ["Cheat", "CheatKind", "plan_cheat"]


class CheatKind(enum.Enum):
    """The kinds of mistakes a cheating bot makes."""

    WRONG_DISTANCE = "wrong_distance"
    """The marble lands one field short of or beyond where the card takes it."""
    WRONG_CARD = "wrong_card"
    """A card is announced, the move of another card of the hand is made."""
    PASSED_LEFT_STANDING = "passed_left_standing"
    """A 7 passes a marble, which is left standing instead of going to its kennel."""
    KNOCKED_LEFT_STANDING = "knocked_left_standing"
    """A marble landed on is not taken off to its kennel but set down beside the field."""
    PASSED_PROTECTED = "passed_protected"
    """A marble moves past a protected marble on its start field."""
    HOME_FROM_START = "home_from_start"
    """A fresh marble turns from its start field straight into its home."""
    WRONG_COLOUR = "wrong_colour"
    """Another player's marble is moved with the card."""
    FALSE_FOLD = "false_fold"
    """"Cannot play" said while holding a playable card."""


@dataclass(frozen=True)
class Cheat:
    """A planned illegal turn.

    ``card`` is announced; ``after`` is the position the cheater leaves on the board (None for
    a false fold, which names ``hand``); ``honest`` is the legal move of ``card`` the cheater
    puts the board right with once caught (None for a false fold: the bot then plays its
    honest turn); ``subject`` names the marble the mistake is about (``"blue@T21"``), for a
    false fold the playable card.
    """

    kind: CheatKind
    card: Card | None
    after: Position | None
    honest: Move | None
    subject: str
    hand: tuple[Card, ...] = ()


Planner = Callable[[Position, Sequence[Card], Card, Move, random.Random], "Cheat | None"]


def plan_cheat(position: Position, hand: Sequence[Card], card: Card | None, move: Move | None,
               rng: random.Random,
               kinds: Sequence[CheatKind] | None = None) -> Cheat | None:
    """A realistic illegal turn instead of playing ``card`` with ``move`` (None: no cheat fits).

    The kinds (default: all) are tried in random order; the first that the position allows
    and the referee confirms illegal is returned. A fold (``card`` None) cannot be turned into
    a cheat: a player who has nothing to play has nothing to cheat with.
    """
    if card is None or move is None:
        return None
    order = list(CheatKind if kinds is None else kinds)
    rng.shuffle(order)
    for kind in order:
        cheat = _PLANNERS[kind](position, hand, card, move, rng)
        if cheat is not None and _confirmed(position, cheat):
            return cheat
    return None


def _confirmed(position: Position, cheat: Cheat) -> bool:
    """Whether the referee objects to the cheat (the planners' own double check), and a
    marble moved at all."""
    if cheat.kind is CheatKind.FALSE_FOLD:
        return not fold_check(position, cheat.hand).justified
    assert cheat.card is not None and cheat.after is not None
    if cheat.after.same_locations(position):  # nothing moved: no move to judge
        return False
    return not check(position, cheat.after, cheat.card).legal


# -- positions as text ---------------------------------------------------------------------


def _pegs(position: Position) -> list[list[str]]:
    return [list(player.pegs) for player in position.players]


def _build(position: Position, pegs: list[list[str]]) -> Position | None:
    """The position with these peg texts, or None if that is no position (two on a field)."""
    obj = position.to_json()
    for player, texts in zip(obj["players"], pegs, strict=True):
        player["pegs"] = texts
    try:
        return Position.from_json(obj)
    except PositionError:
        return None


def _field(text: str) -> int | None:
    """The track field of a peg text (``T21``, ``T16*``), None in kennel or home."""
    if text.startswith("T"):
        return int(text[1:].rstrip("*"))
    return None


def _occupied(pegs: list[list[str]]) -> set[int]:
    return {field for texts in pegs for text in texts if (field := _field(text)) is not None}


def _replace(texts: list[str], old: str, new: str) -> None:
    texts[texts.index(old)] = new


def _protected(position: Position, player: int, text: str) -> bool:
    if text.endswith("*"):
        return True
    start = position.layout.starts[player]
    return position.rules.always_protected and text == f"T{start}"


def _single_step(move: Move) -> bool:
    """A one-marble move along the track or into the home (no start, no swap, no 7)."""
    if len(move.parts) != 1 or move.as_card in (Card.JACK, Card.SEVEN):
        return False
    part = move.parts[0]
    return part.origin != "K" and part.swap_color is None


# -- the planners ----------------------------------------------------------------------------


def _wrong_distance(position: Position, hand: Sequence[Card], card: Card, move: Move,
                    rng: random.Random) -> Cheat | None:
    candidates = [m for m in legal_moves(position, card) if _single_step(m)]
    rng.shuffle(candidates)
    for legal in candidates:
        part = legal.parts[0]
        player = position.layout.colors.index(part.color)
        for off in rng.sample((-1, 1), 2):
            wrong = _shifted(position, part.target, off)
            if wrong is None:
                continue
            pegs = _pegs(legal.result)
            if wrong.startswith("T") and int(wrong[1:]) in _occupied(pegs):
                continue
            if wrong in pegs[player]:
                continue
            _replace(pegs[player], part.target, wrong)
            after = _build(position, pegs)
            if after is not None:
                return Cheat(CheatKind.WRONG_DISTANCE, card, after, legal,
                             f"{part.color}@{wrong}")
    return None


def _shifted(position: Position, target: str, off: int) -> str | None:
    if target.startswith("H"):
        k = int(target[1:]) + off
        return f"H{k}" if 0 <= k < HOME_FIELDS else None
    field = _field(target)
    if field is None:
        return None
    return f"T{(field + off) % position.layout.track_len}"


def _wrong_card(position: Position, hand: Sequence[Card], card: Card, move: Move,
                rng: random.Random) -> Cheat | None:
    others = [c for c in dict.fromkeys(hand) if c is not card and c is not Card.JOKER]
    rng.shuffle(others)
    for other in others:
        for legal in legal_moves(position, other):
            if not check(position, legal.result, card).legal and legal.parts:
                part = legal.parts[0]
                return Cheat(CheatKind.WRONG_CARD, card, legal.result, move,
                             f"{part.color}@{part.target}")
    return None


def _passed_left_standing(position: Position, hand: Sequence[Card], card: Card, move: Move,
                          rng: random.Random) -> Cheat | None:
    sevens = [c for c in (Card.SEVEN, Card.JOKER) if c in hand]
    for seven in sevens:
        for legal in legal_moves(position, seven):
            if legal.as_card is not Card.SEVEN:
                continue
            for part in legal.parts:
                passed = [k for k in part.knocked if k[1] != part.target]
                if not passed:
                    continue
                colour, where = passed[0]
                pegs = _pegs(legal.result)
                victim = position.layout.colors.index(colour)
                _replace(pegs[victim], "K", where)
                after = _build(position, pegs)
                if after is not None:
                    return Cheat(CheatKind.PASSED_LEFT_STANDING, seven, after, legal,
                                 f"{colour}@{where}")
    return None


def _knocked_left_standing(position: Position, hand: Sequence[Card], card: Card, move: Move,
                           rng: random.Random) -> Cheat | None:
    for other in dict.fromkeys([card, *hand]):
        for legal in legal_moves(position, other):
            if legal.as_card is Card.SEVEN or not legal.parts:
                continue
            part = legal.parts[-1]
            landed = [k for k in part.knocked if k[1] == part.target]
            if not landed:
                continue
            colour, where = landed[0]
            field = _field(where)
            if field is None:
                continue
            pegs = _pegs(legal.result)
            taken = _occupied(pegs)
            for off in (1, -1, 2, -2):
                beside = (field + off) % position.layout.track_len
                if beside in taken:
                    continue
                victim = position.layout.colors.index(colour)
                _replace(pegs[victim], "K", f"T{beside}")
                after = _build(position, pegs)
                if after is not None:
                    return Cheat(CheatKind.KNOCKED_LEFT_STANDING, other, after, legal,
                                 f"{colour}@{where}")
                break
    return None


def _passed_protected(position: Position, hand: Sequence[Card], card: Card, move: Move,
                      rng: random.Random) -> Cheat | None:
    mover = position.controlled()
    if mover is None:
        return None
    layout = position.layout
    track = layout.track_len
    pegs = _pegs(position)
    blocks = {_field(text): (player, text) for player, texts in enumerate(pegs)
              for text in texts if _protected(position, player, text)}
    taken = _occupied(pegs)
    for other in dict.fromkeys([card, *hand]):
        if not legal_moves(position, other):
            continue
        for steps in other.forward_steps:
            for text in pegs[mover]:
                origin = _field(text)
                if origin is None or text.endswith("*"):
                    continue
                path = [(origin + k) % track for k in range(1, steps)]
                blocked = [blocks[f] for f in path if f in blocks]
                target = (origin + steps) % track
                if not blocked or target in taken:
                    continue
                moved = _pegs(position)
                _replace(moved[mover], text, f"T{target}")
                after = _build(position, moved)
                if after is None:
                    continue
                honest = legal_moves(position, other)[0]
                owner, where = blocked[0]
                return Cheat(CheatKind.PASSED_PROTECTED, other, after, honest,
                             f"{layout.colors[owner]}@{where.rstrip('*')}")
    return None


def _home_from_start(position: Position, hand: Sequence[Card], card: Card, move: Move,
                     rng: random.Random) -> Cheat | None:
    mover = position.controlled()
    if mover is None:
        return None
    start = position.layout.starts[mover]
    fresh = f"T{start}*"
    pegs = _pegs(position)
    if fresh not in pegs[mover]:
        return None
    for other in dict.fromkeys([card, *hand]):
        if not legal_moves(position, other):
            continue
        for steps in other.forward_steps:
            if steps > HOME_FIELDS:
                continue
            fields = [f"H{k}" for k in range(steps)]
            if any(field in pegs[mover] for field in fields):
                continue
            moved = _pegs(position)
            _replace(moved[mover], fresh, fields[-1])
            after = _build(position, moved)
            if after is not None:
                colour = position.layout.colors[mover]
                return Cheat(CheatKind.HOME_FROM_START, other, after,
                             legal_moves(position, other)[0], f"{colour}@T{start}")
    return None


def _wrong_colour(position: Position, hand: Sequence[Card], card: Card, move: Move,
                  rng: random.Random) -> Cheat | None:
    mover = position.controlled()
    layout = position.layout
    track = layout.track_len
    pegs = _pegs(position)
    taken = _occupied(pegs)
    strangers = [(player, text) for player, texts in enumerate(pegs) if player != mover
                 for text in texts if _field(text) is not None]
    rng.shuffle(strangers)
    for other in dict.fromkeys([card, *hand]):
        if not legal_moves(position, other):
            continue
        for steps in other.forward_steps:
            for player, text in strangers:
                origin = _field(text)
                assert origin is not None
                target = (origin + steps) % track
                if target in taken:
                    continue
                moved = _pegs(position)
                _replace(moved[player], text, f"T{target}")
                after = _build(position, moved)
                if after is not None:
                    return Cheat(CheatKind.WRONG_COLOUR, other, after,
                                 legal_moves(position, other)[0],
                                 f"{layout.colors[player]}@{text.rstrip('*')}")
    return None


def _false_fold(position: Position, hand: Sequence[Card], card: Card, move: Move,
                rng: random.Random) -> Cheat | None:
    claim = fold_check(position, hand)
    if claim.justified:
        return None
    return Cheat(CheatKind.FALSE_FOLD, None, None, None, str(claim.playable), tuple(hand))


_PLANNERS: dict[CheatKind, Planner] = {
    CheatKind.WRONG_DISTANCE: _wrong_distance,
    CheatKind.WRONG_CARD: _wrong_card,
    CheatKind.PASSED_LEFT_STANDING: _passed_left_standing,
    CheatKind.KNOCKED_LEFT_STANDING: _knocked_left_standing,
    CheatKind.PASSED_PROTECTED: _passed_protected,
    CheatKind.HOME_FROM_START: _home_from_start,
    CheatKind.WRONG_COLOUR: _wrong_colour,
    CheatKind.FALSE_FOLD: _false_fold,
}
