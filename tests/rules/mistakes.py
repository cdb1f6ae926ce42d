"""Observed mistakes of every kind, made on purpose: the referee's reason must name them.

:func:`observe` plays a random legal move (or a forbidden one) in a random position and spoils
the result the way players at a real table do. It returns the observation and the *truth*: the
pegs (colour, field) that the mistake is about; the reason names the mistake when its arguments
name one of these pegs (:func:`names_truth`). Used by the property test and ``bench/rules.py``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from companion.rules import Card, Move, Position, PositionError, Verdict, check, legal_moves
from tests.rules.conftest import random_position

KINDS = (
    "wrong_distance",
    "knocked_left_standing",
    "passed_left_standing",
    "protected_passed",
    "illegal_home_entry",
    "wrong_colour",
    "nothing_moved",
    "two_pegs_moved",
)
NOTHING = frozenset({("", "")})
"""The truth of "nothing moved": no peg, the code says it."""


@dataclass(frozen=True)
class Observation:
    """A spoilt result: ``after`` is what the camera saw after ``card`` was played."""

    kind: str
    before: Position
    after: Position
    card: Card
    truth: frozenset[tuple[str, str]]


Pegs = dict[str, list[str]]


def pegs_of(position: Position) -> Pegs:
    return {player.color: list(player.pegs) for player in position.players}


def rebuilt(position: Position, pegs: Pegs) -> Position | None:
    obj = position.to_json()
    for entry in obj["players"]:
        entry["pegs"] = pegs[entry["color"]]
    try:
        return Position.from_json(obj)
    except PositionError:
        return None


def _field(name: str) -> str:
    return name.rstrip("*")


def _track(name: str) -> int | None:
    return int(name[1:].rstrip("*")) if name.startswith("T") else None


def _moves(rng: random.Random, before: Position, cards: tuple[Card, ...]) -> Iterator[Move]:
    card = rng.choice(cards)
    moves = legal_moves(before, card)
    rng.shuffle(moves)
    yield from moves


def _single_cards() -> tuple[Card, ...]:
    return tuple(c for c in Card if c not in (Card.SEVEN, Card.JACK, Card.JOKER))


def wrong_distance(rng: random.Random, before: Position) -> Observation | None:
    for move in _moves(rng, before, (*_single_cards(), Card.SEVEN)):
        part = rng.choice(move.parts)
        n = _track(part.target)
        if n is None or part.origin == "K":
            continue
        pegs = pegs_of(move.result)
        track_len = 16 * before.layout.board
        wrong = f"T{(n + rng.choice((-1, 1))) % track_len}"
        if wrong == _field(part.origin) or part.target not in pegs[part.color]:
            continue
        pegs[part.color][pegs[part.color].index(part.target)] = wrong
        after = rebuilt(before, pegs)
        if after is not None:
            truth = frozenset({(part.color, wrong), (part.color, _field(part.origin))})
            return Observation("wrong_distance", before, after, move.card, truth)
    return None


def _left_standing(rng: random.Random, before: Position, passed: bool) -> Observation | None:
    """A knocked-out peg not taken off: passed by a 7 it stays on its field; landed on, it is
    pushed aside to a neighbouring field."""
    cards = (Card.SEVEN,) if passed else (*_single_cards(), Card.SEVEN)
    track_len = 16 * before.layout.board
    for move in _moves(rng, before, cards):
        for part in move.parts:
            victims = [k for k in part.knocked if (_field(k[1]) != _field(part.target)) == passed]
            if not victims:
                continue
            color, where = rng.choice(victims)
            n = _track(where)
            assert n is not None
            standing = where if passed else f"T{(n + rng.choice((-1, 1))) % track_len}"
            if any(standing == _field(other.origin) for other in move.parts):
                continue
            pegs = pegs_of(move.result)
            pegs[color][pegs[color].index("K")] = standing
            after = rebuilt(before, pegs)
            if after is not None:
                kind = "passed_left_standing" if passed else "knocked_left_standing"
                truth = frozenset({(color, _field(where)), (color, standing)})
                return Observation(kind, before, after, move.card, truth)
    return None


def knocked_left_standing(rng: random.Random, before: Position) -> Observation | None:
    return _left_standing(rng, before, passed=False)


def passed_left_standing(rng: random.Random, before: Position) -> Observation | None:
    return _left_standing(rng, before, passed=True)


def _protected(before: Position) -> list[tuple[str, int]]:
    """(colour, field) of the protected pegs on the track."""
    always = before.layout.rules.always_protected
    out = []
    for player, seat in zip(before.players, before.layout.seats, strict=True):
        start = 16 * seat
        for name in player.pegs:
            if name == f"T{start}*" or (always and name == f"T{start}"):
                out.append((player.color, start))
    return out


def protected_passed(rng: random.Random, before: Position) -> Observation | None:
    blockers = _protected(before)
    mover = before.controlled()
    if not blockers or mover is None:
        return None
    color = before.layout.colors[mover]
    track_len = 16 * before.layout.board
    values = {c.forward_steps[0]: c for c in _single_cards() if len(c.forward_steps) == 1}
    options = []
    for name in before.players[mover].pegs:
        n = _track(name)
        if n is None:
            continue
        for blocker_color, field in blockers:
            gap = (field - n) % track_len
            for steps, card in values.items():
                if 0 < gap < steps:
                    options.append((name, (n + steps) % track_len, card, blocker_color, field))
    rng.shuffle(options)
    for name, target, card, blocker_color, field in options:
        pegs = pegs_of(before)
        pegs[color][pegs[color].index(name)] = f"T{target}"
        after = rebuilt(before, pegs)
        if after is not None:
            truth = frozenset({(blocker_color, f"T{field}")})
            return Observation("protected_passed", before, after, card, truth)
    return None


def illegal_home_entry(rng: random.Random, before: Position) -> Observation | None:
    mover = before.controlled()
    if mover is None:
        return None
    color = before.layout.colors[mover]
    start = 16 * before.layout.seats[mover]
    pegs = pegs_of(before)
    own = pegs[color]
    rules = before.layout.rules
    origins = [name for name in own if name == f"T{start}*"]
    if rules.from_behind:
        origins += [name for name in own if name == f"T{start}"]
    if not origins:
        return None
    origin = rng.choice(origins)
    free = [k for k in range(4) if f"H{k}" not in own]
    rng.shuffle(free)
    for k in free:
        card = {1: Card.ACE, 2: Card.TWO, 3: Card.THREE, 4: Card.FOUR}[k + 1]
        if any(f"H{j}" in own for j in range(k)):
            continue
        pegs[color][own.index(origin)] = f"H{k}"
        after = rebuilt(before, pegs)
        if after is not None:
            truth = frozenset({(color, f"T{start}"), (color, f"H{k}")})
            return Observation("illegal_home_entry", before, after, card, truth)
    return None


def wrong_colour(rng: random.Random, before: Position) -> Observation | None:
    mover = before.controlled()
    if mover is None:
        return None
    team = set(before.team_of(before.turn)) | {mover}
    others = [i for i in range(before.layout.players) if i not in team]
    track_len = 16 * before.layout.board
    for move in _moves(rng, before, _single_cards()):
        if len(move.parts) != 1 or move.parts[0].origin == "K":
            continue
        part = move.parts[0]
        a, b = _track(part.origin), _track(part.target)
        if a is None or b is None:
            continue
        steps = (b - a) % track_len
        for other in rng.sample(others, len(others)):
            color = before.layout.colors[other]
            pegs = pegs_of(before)
            own = [name for name in pegs[color] if _track(name) is not None]
            if not own:
                continue
            origin = rng.choice(own)
            n = _track(origin)
            assert n is not None
            target = f"T{(n + steps) % track_len}"
            pegs[color][pegs[color].index(origin)] = target
            after = rebuilt(before, pegs)
            if after is not None:
                truth = frozenset({(color, _field(origin)), (color, target)})
                return Observation("wrong_colour", before, after, move.card, truth)
    return None


def nothing_moved(rng: random.Random, before: Position) -> Observation | None:
    for move in _moves(rng, before, tuple(Card)):
        if move.no_effect:
            continue
        return Observation("nothing_moved", before, before, move.card, NOTHING)
    return None


def two_pegs_moved(rng: random.Random, before: Position) -> Observation | None:
    track_len = 16 * before.layout.board
    for move in _moves(rng, before, _single_cards()):
        if len(move.parts) != 1:
            continue
        part = move.parts[0]
        pegs = pegs_of(move.result)
        own = [name for name in pegs[part.color] if _track(name) is not None
               and name != part.target]
        if not own:
            continue
        origin = rng.choice(own)
        n = _track(origin)
        assert n is not None
        target = f"T{(n + rng.randint(1, 5)) % track_len}"
        pegs[part.color][pegs[part.color].index(origin)] = target
        after = rebuilt(before, pegs)
        if after is not None:
            truth = frozenset({
                (part.color, _field(part.origin)), (part.color, part.target),
                (part.color, _field(origin)), (part.color, target),
            })
            return Observation("two_pegs_moved", before, after, move.card, truth)
    return None


MAKERS: dict[str, Callable[[random.Random, Position], Observation | None]] = {
    "wrong_distance": wrong_distance,
    "knocked_left_standing": knocked_left_standing,
    "passed_left_standing": passed_left_standing,
    "protected_passed": protected_passed,
    "illegal_home_entry": illegal_home_entry,
    "wrong_colour": wrong_colour,
    "nothing_moved": nothing_moved,
    "two_pegs_moved": two_pegs_moved,
}


def observe(rng: random.Random, kind: str, tries: int = 50) -> Observation | None:
    """A random observation of mistake ``kind``, None if ``tries`` positions gave none."""
    for _ in range(tries):
        rules = rng.choice(("swiss", "schmidt"))
        players, board = rng.choice(((4, 4), (4, 4), (6, 6), (2, 4), (3, 4), (5, 6)))
        if rules == "swiss" and players not in (4, 6):
            players, board = 4, 4
        before = random_position(rng, rules=rules, players=players, board=board)
        found = MAKERS[kind](rng, before)
        if found is not None:
            return found
    return None


def checked_sample(rng: random.Random, count: int) -> Iterator[tuple[str, Observation, Verdict]]:
    """``count`` observations, the kinds in turn, each with the referee's verdict (observations
    a kind could not make are left out)."""
    for index in range(count):
        kind = KINDS[index % len(KINDS)]
        observation = observe(rng, kind)
        if observation is not None:
            yield kind, observation, check(observation.before, observation.after,
                                           observation.card)


def named_pegs(args: dict[str, Any]) -> set[tuple[str, str]]:
    """Every (colour, field) a reason's arguments name, fields without the fresh mark."""
    out: set[tuple[str, str]] = set()
    for prefix in ("", "other_", "by_"):
        color = args.get(f"{prefix}color")
        if color is None:
            continue
        for key in ("field", "from", "to"):
            where = args.get(f"{prefix}{key}")
            if isinstance(where, str):
                out.add((color, _field(where)))
    for move in args.get("moves", ()):
        out.add((move["color"], _field(move["from"])))
        out.add((move["color"], _field(move["to"])))
    for sub in args.get("why", ()):
        out |= named_pegs(sub["args"])
    return out


def names_truth(observation: Observation, verdict: Verdict) -> bool:
    """Whether the verdict's reason names the peg and field of the real mistake."""
    if observation.truth is NOTHING:
        return verdict.code in ("nothing_moved", "jack_must_swap")
    return bool(named_pegs(verdict.args) & observation.truth)
