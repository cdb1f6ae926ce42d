"""The referee: is an observed position a legal result of the card played? (rulebook#referee)"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules.board import FRESH, KENNEL
from companion.rules.cards import Card
from companion.rules.diagnosis import explain
from companion.rules.move import Move
from companion.rules.moves import Outcomes, find_move, outcomes, playable
from companion.rules.position import Layout, Position, codes_not_in, positions_of_one_game
from companion.rules.reasons import Reason, reason_text, rule_of

__all__ = ["NEAREST_COUNT", "Nearest", "Verdict", "check", "differences", "unplayable_reason"]

NEAREST_COUNT = 3


@dataclass(frozen=True)
class Nearest:
    """A legal result near the observed position, and how the observation differs from it.

    Each difference reads ``"red: T12 observed, T13 expected"``.
    """

    move: Move
    differences: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"notation": …, "result": POSITION, "differences": […]}``."""
        return {
            "notation": self.move.notation,
            "result": self.move.result.to_json(),
            "differences": list(self.differences),
        }


@dataclass(frozen=True)
class Verdict:
    """The referee's verdict on one played card.

    Legal: ``move`` is the legal move that leads to the observed position; ``code``, ``reason``
    and ``rule`` are None. Illegal: ``code`` is a stable snake_case reason code
    (:data:`~companion.rules.reasons.CATALOGUE`) and ``args`` its arguments (colours, fields
    such as ``"T12"``, numbers); ``reason`` is its English sentence naming the rule, peg and
    field (``reason_text(code, args, "de")`` gives the German one); ``rule`` is the anchor of
    the rule in ``docs/rulebook.md`` (``"seven"`` → ``docs/rulebook.md#seven``). ``nearest``
    lists the closest legal results, best first (empty when the card cannot be played at all;
    ``playable`` is then False and ``code`` one of ``not_playable``, ``seven_not_playable``,
    ``jack_not_playable``, ``game_over``).
    """

    legal: bool
    card: Card
    move: Move | None = None
    reason: str | None = None
    nearest: tuple[Nearest, ...] = ()
    playable: bool = True
    code: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    rule: str | None = None

    def text(self, language: str = "en") -> str | None:
        """The reason sentence in ``language`` (``"de"`` or ``"en"``); None when legal."""
        if self.code is None:
            return None
        return reason_text(self.code, self.args, language)

    def to_json(self, language: str = "en") -> dict[str, Any]:
        """The verdict as printed by ``dog-companion rules check`` (INTERFACES.md section 3),
        with the reason sentence in ``language``."""
        if self.legal:
            assert self.move is not None
            return {"legal": True, "move": self.move.notation}
        return {
            "legal": False,
            "reason": self.text(language),
            "code": self.code,
            "rule": self.rule,
            "args": self.args,
            "nearest": [near.to_json() for near in self.nearest],
        }


def check(before: Position, observed: Position, card: Card) -> Verdict:
    """Whether playing ``card`` in ``before`` (the player to move) can lead to ``observed``.

    Only the peg locations of ``observed`` are compared; its turn is ignored. Raises
    :class:`~companion.rules.errors.PositionError` when the two positions are not of one game
    (rules, board, colours, seats or teams differ).
    """
    positions_of_one_game(before, observed)
    found = find_move(before, card, observed)
    if found is not None:
        return Verdict(True, card, found)
    near = nearest(outcomes(before, card), observed)
    why = explain(before, observed, card, near[0].move if near else None)
    return illegal(card, why, near)


def unplayable_reason(position: Position, card: Card) -> Reason | None:
    """Why ``card`` cannot be played by the player to move (codes ``not_playable``,
    ``seven_not_playable``, ``jack_not_playable``, ``game_over``); None when it can."""
    if playable(position, card):
        return None
    return explain(position, position, card, None)


def illegal(card: Card, why: Reason, near: tuple[Nearest, ...] = ()) -> Verdict:
    """The verdict "illegal" for ``why``; without ``near`` results the card is not playable."""
    return Verdict(
        False,
        card,
        reason=reason_text(why.code, why.args, "en"),
        nearest=near,
        playable=bool(near),
        code=why.code,
        args=why.args,
        rule=rule_of(why.code),
    )


def nearest(
    candidates: Outcomes, observed: Position, count: int = NEAREST_COUNT
) -> tuple[Nearest, ...]:
    """The ``count`` legal results closest to ``observed``: fewest differing pegs, then shortest
    field distance, then the generator's order.

    The number of differing pegs comes from the state keys; moves are built and field
    distances computed only for the results that can still be among the ``count`` best.
    """
    if not candidates.keys:
        return ()
    observed_key = observed.key
    by_pegs = [(key ^ observed_key).bit_count() for key in candidates.keys]
    cutoff = sorted(by_pegs)[min(count, len(by_pegs)) - 1]
    layout = observed.layout
    scored = []
    for index, pegs in enumerate(by_pegs):
        if pegs <= cutoff:
            move = candidates.move(index)
            scored.append((_distance(layout, move.result.codes, observed.codes), index, move))
    scored.sort(key=lambda item: (item[0], item[1]))
    return tuple(
        Nearest(move, differences(move.result, observed)) for _, _, move in scored[:count]
    )


def differences(expected: Position, observed: Position) -> tuple[str, ...]:
    """How ``observed`` differs from ``expected``, e.g. ``("red: T12 observed, T13 expected",)``."""
    layout = expected.layout
    out: list[str] = []
    for player, (exp, obs) in enumerate(zip(expected.codes, observed.codes, strict=True)):
        if exp == obs:
            continue
        for seen, wanted in _pairs(layout, player, exp, obs):
            out.append(
                f"{layout.colors[player]}: {layout.name(player, seen)} observed,"
                f" {layout.name(player, wanted)} expected"
            )
    return tuple(out)


def _pairs(
    layout: Layout, player: int, expected: tuple[int, ...], observed: tuple[int, ...]
) -> list[tuple[int, int]]:
    """Observed-only and expected-only locations paired up, nearest first."""
    seen = codes_not_in(observed, expected)
    wanted = codes_not_in(expected, observed)
    pairs = []
    while seen and wanted:
        best = min(
            ((_gap(layout, player, a, b), a, b) for a in seen for b in wanted),
            key=lambda item: item[0],
        )
        _, a, b = best
        seen.remove(a)
        wanted.remove(b)
        pairs.append((a, b))
    return pairs


def _gap(layout: Layout, player: int, a: int, b: int) -> int:
    """A rough distance between two locations of one player's peg."""
    track_len = layout.track_len
    start = layout.starts[player]

    def place(code: int) -> int:
        if code == FRESH:
            return start
        if code == KENNEL:
            return -100
        return code

    x, y = place(a), place(b)
    if x < 0 or y < 0:
        return 0 if x == y else 50
    if x >= track_len or y >= track_len:
        if x >= track_len and y >= track_len:
            return abs(x - y)
        return 20
    gap = abs(x - y) % track_len
    return min(gap, track_len - gap) or (0 if a == b else 1)


def _distance(
    layout: Layout, expected: tuple[tuple[int, ...], ...], observed: tuple[tuple[int, ...], ...]
) -> tuple[int, int]:
    pegs = 0
    fields = 0
    for player, (exp, obs) in enumerate(zip(expected, observed, strict=True)):
        if exp == obs:
            continue
        for a, b in _pairs(layout, player, exp, obs):
            pegs += 1
            fields += _gap(layout, player, a, b)
    return pegs, fields
