"""Legal moves (the move generator): every position a card can lead to (docs/rulebook.md 2-12).

The generator works on a flat, mutable copy of the position (:class:`~companion.rules.work.Work`),
shared by every card asked of that position; the 7 is searched by :mod:`companion.rules.seven`.
The moves of each card are cached with the position; :func:`forget` drops that cache.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from companion.rules.board import BOARD_SIZES, FRESH, KENNEL
from companion.rules.cards import CONCRETE_CARDS, Card
from companion.rules.move import Move, RawPart
from companion.rules.position import Position
from companion.rules.seven import SevenResult, search_seven
from companion.rules.work import State, Victims, Work

__all__ = ["Move", "find_move", "forget", "legal_moves", "legal_moves_by_card", "playable"]


# -- the cards ------------------------------------------------------------------------------

Found = dict[State, Move]


def _single(work: Work, card: Card, found: Found) -> None:
    """Start moves (A, K), forward moves of one peg and the 4 backward."""
    player = work.controlled()
    if player is None:
        return
    pegs = work.pegs_of(player)
    if card.starts:
        _start(work, player, card, found)
    reach = _reach(work)
    for steps in card.forward_steps:
        for peg in _distinct(work, pegs):
            for moved, code, victims in reach(peg):
                if moved == steps:
                    _record(work, found, card, peg, code, victims)
    if card is Card.FOUR:
        for peg in _distinct(work, pegs):
            back = work.backward(peg)
            if back is not None:
                _record(work, found, card, peg, back[0], back[1], backward=True)


_LONGEST = 13


def _reach(work: Work) -> Callable[[int], list[tuple[int, int, Victims]]]:
    """Every forward end of a peg up to 13 steps (no 7), walked once per position and peg."""
    walks: dict[int, list[tuple[int, int, Victims]]] = _memo(work.position).setdefault(
        "reach", {}
    )

    def reach(peg: int) -> list[tuple[int, int, Victims]]:
        walk = walks.get(peg)
        if walk is None:
            walk = walks[peg] = work.forward(peg, _LONGEST, seven=False)
        return walk

    return reach


def _distinct(work: Work, pegs: range) -> Iterator[int]:
    """The pegs of ``pegs`` off the kennel, one per distinct location."""
    seen: set[int] = set()
    for peg in pegs:
        code = work.locs[peg]
        if code != KENNEL and code not in seen:
            seen.add(code)
            yield peg


def _start(work: Work, player: int, card: Card, found: Found) -> None:
    kennel = [peg for peg in work.pegs_of(player) if work.locs[peg] == KENNEL]
    if not kennel:
        return
    start = work.position.layout.starts[player]
    other = work.occ[start]
    if other >= 0 and work.protected(other):
        return
    _record(work, found, card, kennel[0], FRESH, (other,) if other >= 0 else ())


def _record(
    work: Work,
    found: Found,
    card: Card,
    peg: int,
    code: int,
    victims: Victims,
    backward: bool = False,
) -> None:
    part = work.step(peg, code, victims)
    owner = work.owner
    state = work.state_after({owner[peg], *(owner[victim] for victim in victims)})
    if state not in found:
        result = Position(work.position.layout, state, work.position.turn)
        found[state] = Move(card, card, (part,), result, backward)
    work.undo(peg, part, victims)




def _seven_results(position: Position) -> dict[int, SevenResult]:
    """Every distinct result of the 7 by state key, in the generator's order (cached)."""
    memo = _memo(position)
    results: dict[int, SevenResult] | None = memo.get(_SEVEN_RESULTS)
    if results is None:
        results = memo[_SEVEN_RESULTS] = search_seven(_work(position))
    return results


def _seven_move(position: Position, key: int, result: SevenResult) -> Move:
    """The :class:`Move` of one result of the 7 in ``position``, by its state key."""
    return _seven_moves(position, ((key, result),))[0]


def _seven_moves(
    position: Position, results: Iterable[tuple[int, SevenResult]]
) -> list[Move]:
    """The :class:`Move` of each result of the 7; only the touched players' pegs are sorted."""
    layout = position.layout
    spans = layout.spans
    codes = position.codes
    turn = position.turn
    seven = Card.SEVEN
    moves = []
    for key, (locs, parts, touched) in results:
        state = list(codes)
        for player in _PLAYERS_IN[touched]:
            first, end = spans[player]
            state[player] = tuple(sorted(locs[first:end]))
        moves.append(Move(seven, seven, parts, Position(layout, tuple(state), turn, key)))
    return moves


_PLAYERS_IN = tuple(
    tuple(p for p in range(max(BOARD_SIZES)) if mask >> p & 1)
    for mask in range(1 << max(BOARD_SIZES))
)
"""The players (indexes) in each bit mask of players."""


def _jack(work: Work, found: Found) -> None:
    """Every swap, or the Jack without effect (docs/rulebook.md#jack)."""
    player = work.controlled()
    if player is None:
        return
    position = work.position
    locs = work.locs
    owner = work.owner
    mine = [peg for peg in _distinct(work, work.pegs_of(player))
            if 0 <= locs[peg] < work.track_len and not work.protected(peg)]
    others = [peg for peg, code in enumerate(locs)
              if owner[peg] != player and 0 <= code < work.track_len and not work.protected(peg)]
    for peg in mine:
        for other in others:
            origin, target = locs[peg], locs[other]
            locs[peg], locs[other] = target, origin
            state = work.state_after((player, owner[other]))
            locs[peg], locs[other] = origin, target
            if state not in found:
                raw = (RawPart(player, origin, target, (), owner[other]),)
                found[state] = Move(Card.JACK, Card.JACK, raw, Position(
                    position.layout, state, position.turn))
    if not found and not others:
        found[position.codes] = Move(Card.JACK, Card.JACK, (), position)


_WORK = "work"
_SEVEN_RESULTS = "7 results"


def _memo(position: Position) -> dict[Any, Any]:
    """The position's cache of generated moves (created on first use)."""
    memo: dict[Any, Any] | None = position._generated
    if memo is None:
        memo = position._generated = {}
    return memo


def forget(position: Position) -> None:
    """Drop the moves cached with ``position`` (benchmarks measure cold calls with it)."""
    position._generated = None


def _work(position: Position) -> Work:
    """The working copy of ``position`` shared by every card (cached)."""
    memo = _memo(position)
    work: Work | None = memo.get(_WORK)
    if work is None:
        work = memo[_WORK] = Work(position)
    return work


def _generate(position: Position, card: Card) -> list[Move]:
    """The legal moves of a concrete card (not the Joker), cached on the position."""
    memo = _memo(position)
    moves: list[Move] | None = memo.get(card)
    if moves is None:
        if card is Card.SEVEN:
            moves = _seven_moves(position, _seven_results(position).items())
        else:
            found: Found = {}
            if card is Card.JACK:
                _jack(_work(position), found)
            else:
                _single(_work(position), card, found)
            moves = list(found.values())
        memo[card] = moves
    return moves


def legal_moves(position: Position, card: Card) -> list[Move]:
    """Every legal move of ``card`` for the player to move, one per distinct result.

    A Joker lists the moves of every other card (labelled ``JOKER as …``). An empty list means
    the card cannot be played. Every ``move.result`` keeps the turn of ``position``.
    """
    if card is not Card.JOKER:
        return list(_generate(position, card))
    seen: set[State] = set()
    moves: list[Move] = []
    for concrete in CONCRETE_CARDS:
        for move in _generate(position, concrete):
            state = move.result.codes
            if state not in seen:
                seen.add(state)
                moves.append(move.as_joker())
    return moves


class Outcomes(NamedTuple):
    """Internal: the distinct results of a card in the order of :func:`legal_moves`, as state
    keys; ``move(i)`` builds the move of the ``i``-th."""

    keys: list[int]
    move: Callable[[int], Move]


def outcomes(position: Position, card: Card) -> Outcomes:
    """Internal: the results of :func:`legal_moves` as :class:`Outcomes`; the moves of a 7 not
    listed before are built only when asked for."""
    if card is not Card.JOKER:
        return _concrete_outcomes(position, card)
    seen: set[int] = set()
    keys: list[int] = []
    sources: list[tuple[Outcomes, int]] = []
    for concrete in CONCRETE_CARDS:
        found = _concrete_outcomes(position, concrete)
        for index, key in enumerate(found.keys):
            if key not in seen:
                seen.add(key)
                keys.append(key)
                sources.append((found, index))

    def move(index: int) -> Move:
        found, at = sources[index]
        return found.move(at).as_joker()

    return Outcomes(keys, move)


def _concrete_outcomes(position: Position, card: Card) -> Outcomes:
    if card is Card.SEVEN and card not in _memo(position):
        results = _seven_results(position)
        keys = list(results)
        return Outcomes(
            keys, lambda index: _seven_move(position, keys[index], results[keys[index]])
        )
    moves = _generate(position, card)
    return Outcomes([move.result.key for move in moves], moves.__getitem__)


def find_move(position: Position, card: Card, observed: Position) -> Move | None:
    """The legal move of ``card`` whose result has the locations of ``observed``, or None.

    ``observed`` belongs to the game of ``position``. The same move :func:`legal_moves` lists for
    that result, found without listing every result of a 7 (the search is pruned towards
    ``observed`` and stops there).
    """
    if card is Card.JOKER:
        for concrete in CONCRETE_CARDS:
            move = find_move(position, concrete, observed)
            if move is not None:
                return move.as_joker()
        return None
    memo = _memo(position)
    if card is Card.SEVEN and card not in memo:
        results = memo.get(_SEVEN_RESULTS)
        if results is None:
            results = search_seven(_work(position), observed)
        result = results.get(observed.key)
        return None if result is None else _seven_move(position, observed.key, result)
    for move in _generate(position, card):
        if move.result.codes == observed.codes:
            return move
    return None


def legal_moves_by_card(position: Position, cards: Sequence[Card]) -> dict[Card, list[Move]]:
    """The legal moves of each distinct card of a hand (work is shared between the cards)."""
    return {card: legal_moves(position, card) for card in dict.fromkeys(cards)}


def playable(position: Position, card: Card) -> bool:
    """Whether ``card`` has at least one legal move."""
    if card is Card.JOKER:
        return any(_playable(position, concrete) for concrete in CONCRETE_CARDS)
    return _playable(position, card)


def _playable(position: Position, card: Card) -> bool:
    if card is Card.SEVEN and card not in _memo(position):
        return bool(_seven_results(position))
    return bool(_generate(position, card))


