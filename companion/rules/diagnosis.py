"""Why an observed position is not a legal result: the referee's reason sentence.

The diagnosis reconstructs what the players did -- which pegs went from where to where -- and
replays it against the rules, reporting the first rule it breaks with the peg and the field:
wrong distance, a knocked-out peg left standing, a peg passed by a 7 left standing, passing or
knocking a protected peg, entering home illegally, passing inside home, a wrong Jack swap, a
card that cannot be played at all, pegs of another player moved.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator
from functools import partial
from typing import NamedTuple

from companion.rules.board import FRESH, KENNEL
from companion.rules.cards import Card
from companion.rules.move import Move
from companion.rules.position import Position, codes_not_in
from companion.rules.reasons import Reason
from companion.rules.walk import Route, lanes
from companion.rules.work import SEVEN_POINTS, Work

__all__ = ["explain"]

_MAX_ORDERS = 720
_MAX_READINGS = 20000
_MAX_PAIRINGS = 48
"""The most promising pairings of one player kept for the readings (:func:`_promise`)."""
_MAX_REPLAYS = 600
"""The 7's readings are replayed cheapest first until this many replays are spent."""
_ROLE_COST = {"start": 2, "fresh": 1, "bad": 1}
"""What a pairing costs by itself (the other roles cost only with the replay)."""
_PUSHED_ASIDE = 2
"""A peg found this many fields from where it stood may have been pushed aside."""
_JOKER_FORWARD = tuple(range(1, 14))


class Change(NamedTuple):
    """A reconstructed change: a peg of ``player`` went from ``origin`` to ``target`` (codes)."""

    player: int
    origin: int
    target: int


class Pairing(NamedTuple):
    """One reading of a peg's change: flat peg ``peg`` ended on ``target`` in ``role``.

    Roles: ``same`` (did not move), ``part`` (a part of the 7), ``kennel`` (knocked out),
    ``displaced`` (pushed aside, or moved though it may not move), ``start`` (left the kennel),
    ``fresh`` (only its fresh mark changed), ``bad`` (no forward way leads there).
    """

    peg: int
    target: int
    role: str


class Option(NamedTuple):
    """One player's pairings in a reading of a 7, with their parts, the points the parts move,
    what the pairings cost by themselves and how many pegs they change."""

    pairs: tuple[Pairing, ...]
    parts: tuple[Pairing, ...]
    steps: int
    cost: int
    changed: int


def _promise(option: Option) -> tuple[int, int]:
    """How promising one player's pairings are: their own cost, and how far their parts alone
    are from 7 points (a player without parts: 0), then how many pegs they change."""
    gap = abs(option.steps - SEVEN_POINTS) if option.parts else 0
    return option.cost + min(gap, 2), option.changed


_FIELD = 0xFFFF
"""One field of a packed option (:func:`_packed`)."""
_SUMS = (1 << 48) - 1
"""The cost, parts and changed fields of a packed option, without its points."""


def _packed(option: Option) -> int:
    """``option``'s points, cost, parts and changed pegs packed into one int (16 bits each, the
    points on top), so that the sums of a reading's options are one addition per option."""
    return (option.steps << 48 | option.cost << 32 | len(option.parts) << 16
            | option.changed)


class Mistake(NamedTuple):
    """One mistake of a reading: its reason code, what it costs and how to write its reason
    (only the reported mistake is written)."""

    code: str
    cost: int
    reason: Callable[[], Reason]


_RANKS = {
    code: rank for rank, code in enumerate((
        "protected_passed", "protected_landed_on", "home_entry_from_behind",
        "home_entry_fresh", "home_passed", "home_field_taken", "landed_on_left_standing",
        "passed_left_standing", "knocked_out_earlier", "partner_seven_too_early",
        "other_player_moved", "no_forward_way", "start_wrong_card", "moved_without_cause",
        "seven_wrong_total", "kennel_without_cause", "fresh_mark_lost", "fresh_mark_added",
    ))
}
"""Which mistake of a reading is reported: the lowest rank."""
_NO_LIMIT = 1000


def _known(reason: Reason) -> Callable[[], Reason]:
    return lambda: reason


class _Lazy:
    """A value computed on first use."""

    def __init__(self, make: Callable[[], dict[str, str]]) -> None:
        self.make = make
        self.value: dict[str, str] | None = None

    def __call__(self) -> dict[str, str]:
        if self.value is None:
            self.value = self.make()
        return self.value


class Knock(NamedTuple):
    """A knock-out a replayed part must cause: ``player``'s peg at ``code``, landed on or
    passed by the 7, by the part ``by``."""

    player: int
    code: int
    landed: bool
    by: Change


def explain(before: Position, observed: Position, card: Card, example: Move | None) -> Reason:
    """The reason for an ``observed`` position that no legal move of ``card`` gives.

    ``example`` is the card's legal move nearest to ``observed``, None when the card cannot be
    played at all.
    """
    return _Diagnosis(before, observed, card, example).reason()


class _Diagnosis:
    def __init__(
        self, before: Position, observed: Position, card: Card, example: Move | None
    ) -> None:
        self.before = before
        self.observed = observed
        self.card = card
        self.example = example
        self.layout = before.layout
        self.lanes = lanes(self.layout)
        self.work = Work(before)
        self.unmoved = self.work.copy()  # the position before, copied by every replay
        self.mover = before.turn
        self.controlled = before.controlled()
        self.left: list[list[int]] = []
        self.arrived: list[list[int]] = []
        self.fresh_marks: list[Reason] = []
        for player, (old, new) in enumerate(zip(before.codes, observed.codes, strict=True)):
            left = codes_not_in(old, new) if old != new else []
            arrived = codes_not_in(new, old) if old != new else []
            start = self.layout.starts[player]
            for was, seen in ((FRESH, start), (start, FRESH)):
                if was in left and seen in arrived:
                    left.remove(was)
                    arrived.remove(seen)
                    self.fresh_marks.append(self.fresh_mark(player, was, seen))
            self.left.append(left)
            self.arrived.append(arrived)

    # -- naming -------------------------------------------------------------------------------

    def color(self, player: int) -> str:
        return self.layout.colors[player]

    def where(self, player: int, code: int) -> str:
        return self.layout.name(player, code)

    def peg(self, player: int, code: int, prefix: str = "") -> dict[str, str]:
        """The arguments naming a peg: ``{"color": "blue", "field": "T22"}``."""
        return {f"{prefix}color": self.color(player), f"{prefix}field": self.where(player, code)}

    def by(self, player: int, origin: int, target: int) -> dict[str, str]:
        """The arguments naming the mover's peg that made a mistake."""
        return {
            "by_color": self.color(player),
            "by_from": self.where(player, origin),
            "by_to": self.where(player, target),
        }

    def moved(self, player: int, origin: int, target: int) -> dict[str, str]:
        return {
            "color": self.color(player),
            "from": self.where(player, origin),
            "to": self.where(player, target),
        }

    def whose(self, player: int) -> dict[str, str]:
        return {"owner_color": self.color(player), "mover_color": self.color(self.mover)}

    # -- the reason ---------------------------------------------------------------------------

    def reason(self) -> Reason:
        """The reason; a changed fresh mark only when nothing else explains the observation."""
        found = self.main_reason()
        if found.code == "no_legal_move" and self.fresh_marks:
            return self.fresh_marks[0]
        return found

    def fresh_mark(self, player: int, was: int, seen: int) -> Reason:
        args = {**self.peg(player, was), "observed": self.where(player, seen)}
        if was == FRESH:
            return Reason("fresh_mark_lost", args)
        return Reason("fresh_mark_added", args)

    def main_reason(self) -> Reason:
        if self.example is None:
            return self.unplayable()
        if not any(self.left) and not any(self.arrived):
            return self.nothing_moved()
        swap = self.swap()
        if self.card is Card.JACK or (self.card is Card.JOKER and swap is not None):
            return self.jack(swap) or self.fallback()
        if self.card is Card.SEVEN or (self.card is Card.JOKER and self.own_parts() > 1):
            return self.seven() or self.fallback()
        stranger = self.stranger_moved()
        if stranger:
            return stranger
        return self.single(self.board_moves()) or self.fallback()

    def own_parts(self) -> int:
        """How many of the controlled player's pegs arrived somewhere on the board."""
        player = self.controlled
        if player is None:
            return 0
        return sum(1 for code in self.arrived[player] if code != KENNEL)

    def fallback(self) -> Reason:
        assert self.example is not None
        return Reason(
            "no_legal_move", {"card": str(self.card), "example": self.example.notation}
        )

    def unplayable(self) -> Reason:
        card = self.card
        player = self.controlled
        mover = self.color(self.mover)
        if player is None:
            return Reason("game_over", {"mover_color": mover})
        if card is Card.JACK:
            return Reason("jack_not_playable", {"color": self.color(player)})
        why = [sub.to_json() for sub in self.stuck(player)] or [
            Reason("no_peg_can_move", {}).to_json()
        ]
        if card is Card.SEVEN:
            return Reason("seven_not_playable", {**self.whose(player), "why": why})
        return Reason("not_playable", {"card": str(card), "mover_color": mover, "why": why})

    def stuck(self, player: int) -> list[Reason]:
        """Why each of ``player``'s pegs cannot move with the card."""
        work = self.work
        card = self.card
        out: list[Reason] = []
        in_kennel = [peg for peg in work.pegs_of(player) if work.locs[peg] == KENNEL]
        if in_kennel:
            if card.starts or card is Card.JOKER:
                start = self.layout.starts[player]
                blocker = work.occ[start]
                if blocker >= 0:
                    holder = self.peg(work.owner[blocker], work.locs[blocker])
                    out.append(Reason("start_blocked", {"start": f"T{start}", **holder}))
            elif len(in_kennel) == len(work.pegs_of(player)):
                out.append(Reason("all_in_kennel", {"color": self.color(player)}))
        steps = card.forward_steps or (SEVEN_POINTS,)
        for peg in work.pegs_of(player):
            code = work.locs[peg]
            if code == KENNEL:
                continue
            name = self.where(player, code)
            if code >= work.track_len:
                room = len(self.lanes[player].home_ahead(code))
                out.append(Reason("home_no_room", {"at": name, "room": room}))
                continue
            stop = self.first_blocker(peg, max(steps))
            if stop is not None:
                holder = self.peg(work.owner[stop], work.locs[stop])
                out.append(Reason("blocked_by_protected", {"at": name, **holder}))
        return out

    def first_blocker(self, peg: int, steps: int) -> int | None:
        work = self.work
        for field in self.lanes[work.owner[peg]].ahead(work.locs[peg])[:steps]:
            other = work.occ[field]
            if other >= 0 and work.protected(other):
                return other
        return None

    def nothing_moved(self) -> Reason:
        assert self.example is not None
        example = self.example.notation
        if self.card is Card.JACK:
            return Reason("jack_must_swap", {"example": example})
        return Reason("nothing_moved", {"card": str(self.card), "example": example})

    # -- who moved ------------------------------------------------------------------------------

    def board_moves(self) -> list[Change]:
        """Pegs of the controlled players that arrived somewhere on the board, paired with an
        origin they most plausibly came from (or the kennel for a start)."""
        parts: list[Change] = []
        for player in self.moving_players():
            targets = [code for code in self.arrived[player] if code != KENNEL]
            origins = list(self.left[player])
            for target in targets:
                if not origins:
                    break
                origin = min(origins, key=lambda code: self.gap(player, code, target))
                origins.remove(origin)
                parts.append(Change(player, origin, target))
        return parts

    def moving_players(self) -> list[int]:
        players = [self.mover]
        partner = self.layout.partners[self.mover]
        if partner is not None:
            players.append(partner)
        return players

    def gap(self, player: int, origin: int, target: int) -> int:
        steps = self.lanes[player].steps(origin, target)
        return steps if steps is not None else 1000

    def stranger_moved(self) -> Reason | None:
        """A reason if pegs of a player who does not move now moved on the board."""
        allowed = {self.controlled}
        for player, arrived in enumerate(self.arrived):
            targets = [code for code in arrived if code != KENNEL]
            if not targets or player in allowed:
                continue
            moves = [
                {"color": self.color(player), "from": self.where(player, origin),
                 "to": self.where(player, target)}
                for origin, target in zip(self.left[player], targets, strict=False)
            ]
            landed = self.landed_on(player)
            if landed is not None:
                code, by = landed
                return Reason(
                    "landed_on_left_standing", {**self.peg(player, code), **self.by(*by)}
                )
            if self.controlled == self.mover and player == self.layout.partners[self.mover]:
                return Reason(
                    "partner_too_early",
                    {"color": self.color(player), "mover_color": self.color(self.mover),
                     "moves": moves},
                )
            assert self.controlled is not None
            return Reason(
                "other_player_moved",
                {"color": self.color(player), "card": str(self.card), "moves": moves,
                 **self.whose(self.controlled)},
            )
        return None

    def landed_on(self, player: int) -> tuple[int, Change] | None:
        """A location ``player`` left on which a controlled peg arrived, if any, and that
        controlled peg's change."""
        arrivals = {
            self.field(part.player, part.target): part for part in self.board_moves()
        }
        for code in self.left[player]:
            if code != KENNEL and self.field(player, code) in arrivals:
                return code, arrivals[self.field(player, code)]
        return None

    # -- routes --------------------------------------------------------------------------------

    def route_faults(
        self, work: Work, player: int, origin: int, route: Route
    ) -> list[Reason]:
        """Rules broken by walking ``route`` (a :class:`~companion.rules.walk.Lane`'s, every
        field passed listed) in ``work``'s current state."""
        faults: list[Reason] = []
        mover = self.color(player)
        by = _Lazy(lambda: self.by(player, origin, route.landing))
        for field in route.passed:
            other = work.occ[field]
            if other >= 0 and work.protected(other):
                faults.append(Reason(
                    "protected_passed", {**self.peg(work.owner[other], work.locs[other]), **by()}
                ))
        if 0 <= route.landing < work.track_len:
            other = work.occ[route.landing]
            if other >= 0 and work.protected(other):
                faults.append(Reason(
                    "protected_landed_on",
                    {**self.peg(work.owner[other], work.locs[other]), **by()},
                ))
        if route.enters_home and route.from_start:
            if self.layout.rules.from_behind:
                faults.append(Reason(
                    "home_entry_from_behind",
                    {"color": mover, "from": self.where(player, origin).rstrip("*"), **by()},
                ))
            elif origin == FRESH:
                faults.append(Reason("home_entry_fresh", {**self.peg(player, origin), **by()}))
        mask = work.home[player]
        for k in route.home_passed:
            if mask >> k & 1:
                faults.append(Reason("home_passed", {"color": mover, "field": f"H{k}", **by()}))
        if route.landing >= work.track_len and mask >> (route.landing - work.track_len) & 1:
            faults.append(Reason(
                "home_field_taken",
                {"color": mover, "field": self.where(player, route.landing), **by()},
            ))
        return faults

    def kennel_arrivals(self) -> Counter[int]:
        return Counter({player: arrived.count(KENNEL) for player, arrived in enumerate(
            self.arrived)})

    # -- single-peg cards ------------------------------------------------------------------------

    def single(self, parts: list[Change]) -> Reason | None:
        card = self.card
        if len(parts) > 1:
            moves = [self.moved(*part) for part in parts]
            return Reason("several_pegs_moved", {"count": len(parts), "moves": moves})
        if not parts:
            return self.unexplained_kennels([]) or None
        part = parts[0]
        player, origin, target = part
        if origin == KENNEL:
            return self.start(part)
        forward = card.forward_steps or (_JOKER_FORWARD if card is Card.JOKER else ())
        back_ok = card in (Card.FOUR, Card.JOKER)
        lane = self.lanes[player]
        ahead = lane.route(origin, target)
        behind = lane.route(origin, target, backward=True)
        moved = self.moved(*part)
        if ahead is not None and ahead.steps in forward:
            return self.replay([(part, ahead)], seven=card is Card.JOKER and ahead.steps == 7)
        if behind is not None and back_ok and behind.steps == 4:
            return self.replay([(part, behind)], seven=False)
        if back_ok and target >= self.layout.track_len:
            return Reason("four_backward_into_home", moved)
        if back_ok and behind is not None and (ahead is None or behind.steps < ahead.steps):
            return Reason("wrong_distance_backward",
                          {**moved, "steps": behind.steps, "card": str(card)})
        if ahead is None:
            return Reason("no_forward_way", {**moved, "card": str(card)})
        return Reason(
            "wrong_distance",
            {**moved, "steps": ahead.steps, "card": str(card), "wanted": list(forward)},
        )

    def start(self, part: Change) -> Reason | None:
        player = part.player
        if not (self.card.starts or self.card is Card.JOKER):
            return Reason("start_wrong_card", {"color": self.color(player), "card": str(self.card)})
        start = self.layout.starts[player]
        if part.target not in (FRESH, start):
            return Reason(
                "start_wrong_field",
                {"color": self.color(player), "to": self.where(player, part.target),
                 "start": f"T{start}"},
            )
        blocker = self.work.occ[start]
        if blocker >= 0 and self.work.protected(blocker):
            return Reason(
                "start_onto_protected", self.peg(self.work.owner[blocker], self.work.locs[blocker])
            )
        return None

    # -- replaying parts ---------------------------------------------------------------------

    def replay(self, parts: list[tuple[Change, Route]], seven: bool) -> Reason | None:
        """Replay ``parts`` in order on a copy of the position; the first rule broken."""
        work = self.unmoved.copy()
        knocked: list[Knock] = []
        jumped: dict[tuple[int, int], Change] = {}
        faults: list[Reason] = []
        for part, planned in parts:
            peg = self.find_peg(work, part.player, part.origin)
            if peg is None:
                return Reason(
                    "knocked_out_earlier",
                    {"color": self.color(part.player),
                     "field": self.where(part.player, part.origin)},
                )
            route = self.lanes[part.player].route(part.origin, part.target, planned.backward)
            assert route is not None
            faults.extend(self.route_faults(work, part.player, part.origin, route))
            victims: list[int] = []
            for field in route.passed:
                other = work.occ[field]
                if other >= 0:
                    jumped.setdefault((work.owner[other], work.locs[other]), part)
            if seven:
                for field in route.passed:
                    other = work.occ[field]
                    if other >= 0 and not work.protected(other) and other != peg:
                        victims.append(other)
                        knocked.append(Knock(work.owner[other], work.locs[other], False, part))
            if 0 <= route.landing < work.track_len:
                other = work.occ[route.landing]
                if other >= 0 and not work.protected(other):
                    victims.append(other)
                    knocked.append(Knock(work.owner[other], work.locs[other], True, part))
            work.lift(peg)
            work.knock(tuple(victims))
            work.put(peg, part.target)
        if faults:
            return faults[0]
        return self.unexplained_kennels(knocked, {} if seven else jumped)

    def find_peg(self, work: Work, player: int, code: int) -> int | None:
        for peg in work.pegs_of(player):
            if work.locs[peg] == code:
                return peg
        return None

    def unexplained_kennels(
        self, knocked: list[Knock], passed: dict[tuple[int, int], Change] | None = None
    ) -> Reason | None:
        """Knock-outs that did not happen, and pegs in a kennel that nothing knocked out.

        ``passed`` maps ``(player, code)`` of pegs a card other than the 7 jumped over to the
        part that jumped.
        """
        arrivals = self.kennel_arrivals()
        expected: Counter[int] = Counter()
        for knock in knocked:
            expected[knock.player] += 1
            if knock.code in self.left[knock.player]:
                continue
            args = {**self.peg(knock.player, knock.code), **self.by(*knock.by)}
            if knock.landed:
                return Reason("landed_on_left_standing", args)
            return Reason("passed_left_standing", args)
        for player, count in arrivals.items():
            if count <= expected[player]:
                continue
            gone = [code for code in self.left[player] if code != KENNEL]
            jumper = (passed or {}).get((player, gone[0])) if gone else None
            if jumper is not None:
                return Reason(
                    "passed_knocked_out", {**self.peg(player, gone[0]), **self.by(*jumper)}
                )
            return Reason(
                "kennel_without_cause",
                {"color": self.color(player), "field": self.where(player, gone[0])},
            )
        return None

    # -- the 7 --------------------------------------------------------------------------------

    def seven(self) -> Reason | None:
        """The likeliest mistake behind an illegal 7.

        Every reading of the observation -- which peg went to which location, which changes are
        parts of the 7 and which are pegs pushed aside, in which order the parts ran -- is
        replayed; the reading with the fewest mistakes (then the fewest parts) wins, and its most
        telling mistake is the reason. Ties go to the reading that changes fewer pegs.
        """
        best: tuple[tuple[int, int, int, int], Mistake] | None = None
        budget = _MAX_REPLAYS
        for bound, count, changed, total, combo in self.seven_readings():
            if best is not None and ((bound, count, changed) > best[0][:3] or budget <= 0):
                break
            reading = tuple(pair for option in combo for pair in option.pairs)
            parts = [pair for option in combo for pair in option.parts]
            for order in itertools.islice(itertools.permutations(parts), _MAX_ORDERS):
                budget -= 1
                limit = best[0][0] if best is not None else _NO_LIMIT
                mistakes = self.seven_mistakes(reading, order, total, limit)
                if not mistakes:  # the parts are legal; a changed fresh mark is all
                    continue
                cost = sum(mistake.cost for mistake in mistakes)
                first = min(mistakes, key=lambda mistake: _RANKS[mistake.code])
                score = (cost, count, changed, _RANKS[first.code])
                if best is None or score < best[0]:
                    best = (score, first)
                if cost == bound:
                    break
        return None if best is None else best[1].reason()

    def flat(self, peg: int) -> tuple[int, int]:
        """``(player, code)`` of flat peg index ``peg`` before the move."""
        return self.work.owner[peg], self.work.locs[peg]

    def seven_players(self) -> set[int]:
        partner = self.layout.partners[self.mover]
        return {self.mover} if partner is None else {self.mover, partner}

    def seven_readings(self) -> Iterator[tuple[int, int, int, int, tuple[Option, ...]]]:
        """Every reading of the observation as ``(bound, parts, changed, total, options)``
        (one option per player), the cheapest first: ``bound`` is the cost of the mistakes the
        pairings show by themselves, ``parts`` how many parts the 7 has, ``changed`` how many
        pegs changed, ``total`` the points the parts move.

        Readings are the first :data:`_MAX_READINGS` of the product of the players' options;
        equal ones stay in product order. Only their sums are computed for all of them (packed
        into one int per reading); a reading's options are put together when it is reached.
        """
        allowed = self.seven_players()
        per_player: list[list[Option]] = []
        for player in range(self.layout.players):
            pegs = list(self.work.pegs_of(player))
            if player not in allowed:
                # pegs that may not move: only those that left their location changed
                moved = self.first_of_each(pegs, self.left[player])
                unmoved = tuple(
                    Pairing(peg, self.work.locs[peg], "same") for peg in pegs if peg not in moved
                )
                options = [
                    option._replace(pairs=(*unmoved, *option.pairs))
                    for option in self.pairings(player, moved, self.arrived[player], allowed)
                ]
            else:
                options = self.pairings(player, pegs, list(self.observed.codes[player]), allowed)
            ranked = sorted(options, key=_promise)
            per_player.append(ranked[:_MAX_PAIRINGS])
        fixed = tuple(options[0] for options in per_player if len(options) == 1)
        varied = [options for options in per_player if len(options) > 1]
        sums = [sum(_packed(option) for option in fixed)]
        for options in varied:
            packed = [_packed(option) for option in options]
            sums = [s + p for s in sums[:_MAX_READINGS] for p in packed]
        sums = sums[:_MAX_READINGS]
        # the cost of a wrong total, by total, moved into the cost field of a packed sum
        penalty = [
            (0 if total == SEVEN_POINTS else 1 if abs(total - SEVEN_POINTS) == 1 else 2) << 32
            for total in range((max(sums) >> 48) + 1)
        ]
        keys = [
            ((packed_sum & _SUMS) + penalty[packed_sum >> 48]) << 32 | index
            for index, packed_sum in enumerate(sums)
        ]
        keys.sort()
        radices = [len(options) for options in varied]
        for key in keys:
            index = key & 0xFFFFFFFF
            combo: list[Option] = []
            for options, radix in zip(reversed(varied), reversed(radices), strict=True):
                index, digit = divmod(index, radix)
                combo.append(options[digit])
            combo.reverse()
            yield (key >> 64, key >> 48 & _FIELD, key >> 32 & _FIELD,
                   sums[key & 0xFFFFFFFF] >> 48, fixed + tuple(combo))

    def first_of_each(self, pegs: list[int], codes: list[int]) -> list[int]:
        """One peg of ``pegs`` per code in ``codes`` (a multiset), standing on that code."""
        chosen: list[int] = []
        for code in codes:
            for peg in pegs:
                if self.work.locs[peg] == code and peg not in chosen:
                    chosen.append(peg)
                    break
        return chosen

    def pairings(
        self, player: int, pegs: list[int], targets: list[int], allowed: set[int]
    ) -> list[Option]:
        """Every way to give each of ``player``'s pegs one of ``targets``, with every role the
        change can play, as the options they add to a reading (the ways of the later pegs to
        the targets left are made once)."""
        may_move = player in allowed
        locs = self.work.locs
        Way = tuple[tuple[Pairing, ...], tuple[Pairing, ...], int, int, int]
        made: dict[tuple[int, tuple[int, ...]], list[Way]] = {}

        def ways(index: int, remaining: tuple[int, ...]) -> list[Way]:
            """The ways of pegs ``index…`` to ``remaining``, as the fields of an Option."""
            if index == len(pegs):
                return [((), (), 0, 0, 0)]
            found = made.get((index, remaining))
            if found is not None:
                return found
            peg = pegs[index]
            origin = locs[peg]
            out: list[Way] = []
            for target in sorted(set(remaining)):
                rest = list(remaining)
                rest.remove(target)
                tails = ways(index + 1, tuple(rest))
                for role in self.roles(player, origin, target, may_move):
                    head = Pairing(peg, target, role)
                    cost = _ROLE_COST.get(role, 0)
                    changed = role != "same"
                    if role == "part":
                        steps = self.lanes[player].steps(origin, target) or 0
                        out.extend([
                            ((head, *pairs), (head, *parts), tail_steps + steps,
                             tail_cost + cost, tail_changed + changed)
                            for pairs, parts, tail_steps, tail_cost, tail_changed in tails
                        ])
                    else:
                        out.extend([
                            ((head, *pairs), parts, tail_steps, tail_cost + cost,
                             tail_changed + changed)
                            for pairs, parts, tail_steps, tail_cost, tail_changed in tails
                        ])
            made[index, remaining] = out
            return out

        return list(map(Option._make, ways(0, tuple(sorted(targets)))))

    def roles(self, player: int, origin: int, target: int, allowed: bool) -> tuple[str, ...]:
        """What a change ``origin`` → ``target`` of a peg of ``player`` can have been."""
        if target == origin:
            return ("same",)
        if target == KENNEL:
            return ("kennel",)
        if origin == KENNEL:
            return ("start",)
        start = self.layout.starts[player]
        if (origin, target) in ((FRESH, start), (start, FRESH)):
            return ("fresh",)
        if not allowed:
            return ("displaced",)
        steps = self.lanes[player].steps(origin, target)
        if steps is None:
            return ("bad",)
        near = 0 <= origin < self.layout.track_len and 0 <= target < self.layout.track_len
        if near and min(steps, self.layout.track_len - steps) <= _PUSHED_ASIDE:
            return ("part", "displaced")
        return ("part",)

    def seven_mistakes(
        self, reading: tuple[Pairing, ...], order: tuple[Pairing, ...], total: int, limit: int
    ) -> list[Mistake]:
        """The mistakes of ``reading`` with its parts run in ``order``; the replay stops early
        once they cost more than ``limit``."""
        work = self.unmoved.copy()
        mover = self.mover
        out: list[Mistake] = []
        knocked: dict[int, Knock] = {}
        if total != SEVEN_POINTS:
            out.append(Mistake("seven_wrong_total", 1 if abs(total - SEVEN_POINTS) == 1 else 2,
                               partial(self.wrong_total, order, total)))
        for pair in order:
            if sum(mistake.cost for mistake in out) > limit:
                return out
            player, origin = self.flat(pair.peg)
            if work.locs[pair.peg] == KENNEL:
                out.append(Mistake("knocked_out_earlier", 1, partial(
                    Reason, "knocked_out_earlier",
                    {"color": self.color(player), "field": self.where(player, origin)})))
                continue
            if player != mover and any(
                work.locs[peg] < work.track_len for peg in work.pegs_of(mover)
            ):
                out.append(Mistake("partner_seven_too_early", 1, partial(
                    Reason, "partner_seven_too_early",
                    {"color": self.color(player), "mover_color": self.color(mover)})))
            route = self.lanes[player].route(origin, pair.target)
            assert route is not None
            out.extend(
                Mistake(fault.code, 1, _known(fault))
                for fault in self.route_faults(work, player, origin, route)
            )
            change = Change(player, origin, pair.target)
            victims: list[int] = []
            for field in route.passed:
                other = work.occ[field]
                if other >= 0 and not work.protected(other) and other != pair.peg:
                    victims.append(other)
                    knocked[other] = Knock(work.owner[other], work.locs[other], False, change)
            if 0 <= route.landing < work.track_len:
                other = work.occ[route.landing]
                if other >= 0 and not work.protected(other):
                    victims.append(other)
                    knocked[other] = Knock(work.owner[other], work.locs[other], True, change)
            work.lift(pair.peg)
            work.knock(tuple(victims))
            work.put(pair.peg, pair.target)
        for pair in reading:
            if pair.role != "same" or pair.peg in knocked:
                out.extend(self.pairing_mistakes(pair, knocked.get(pair.peg)))
        return out

    def wrong_total(self, order: tuple[Pairing, ...], total: int) -> Reason:
        moves = [self.moved(*self.flat(pair.peg), pair.target) for pair in order]
        return Reason("seven_wrong_total", {"total": total, "moves": moves})

    def pairing_mistakes(self, pair: Pairing, knock: Knock | None) -> list[Mistake]:
        """The mistakes a peg's own change shows: a knock-out not done or not caused, a peg
        moved that may not move, a start or a way the 7 does not have."""
        player, origin = self.flat(pair.peg)
        role = pair.role
        if knock is not None:
            if role in ("kennel", "part"):
                return []
            if knock.landed:
                # pushed aside: found on a neighbouring field (further away, it moved too)
                near = role == "same" or self.near(player, origin, pair.target)
                return [Mistake("landed_on_left_standing", 1 if near else 2,
                                partial(self.left_standing, "landed_on_left_standing", knock))]
            # a passed peg left standing stays where it was; one found elsewhere moved too
            return [Mistake("passed_left_standing", 1 if role == "same" else 2,
                            partial(self.left_standing, "passed_left_standing", knock))]
        args = partial(self.moved, player, origin, pair.target)
        if role == "kennel":
            return [Mistake("kennel_without_cause", 1, partial(
                Reason, "kennel_without_cause",
                {"color": self.color(player), "field": self.where(player, origin)}))]
        if role == "start":
            return [Mistake("start_wrong_card", _ROLE_COST[role], partial(
                Reason, "start_wrong_card", {"color": self.color(player), "card": str(self.card)}
            ))]
        if role == "fresh":
            return [Mistake("fresh_mark_lost", 1,
                            partial(self.fresh_mark, player, origin, pair.target))]
        if role == "bad":
            return [Mistake("no_forward_way", 1, lambda: Reason(
                "no_forward_way", {**args(), "card": str(self.card)}))]
        if role == "displaced":
            if player in self.seven_players():
                return [Mistake("moved_without_cause", 2,
                                lambda: Reason("moved_without_cause", args()))]
            controlled = self.controlled if self.controlled is not None else self.mover
            return [Mistake("other_player_moved", 1, lambda: Reason("other_player_moved", {
                "color": self.color(player), "card": str(self.card), "moves": [args()],
                **self.whose(controlled)}))]
        return []

    def near(self, player: int, origin: int, target: int) -> bool:
        """Whether ``target`` is at most a few track fields from ``origin``."""
        on_track = {FRESH, *range(self.layout.track_len)}
        if origin not in on_track or target not in on_track:
            return False
        a, b = self.field(player, origin), self.field(player, target)
        gap = abs(a - b) % self.layout.track_len
        return min(gap, self.layout.track_len - gap) <= _PUSHED_ASIDE

    def left_standing(self, code: str, knock: Knock) -> Reason:
        return Reason(code, {**self.peg(knock.player, knock.code), **self.by(*knock.by)})

    # -- the Jack -----------------------------------------------------------------------------

    def swap(self) -> tuple[Change, Change] | None:
        """The two pegs that exchanged fields, if the change is exactly one swap."""
        changed = [p for p in range(len(self.left)) if self.left[p] or self.arrived[p]]
        if len(changed) != 2:
            return None
        p, q = changed
        if not (len(self.left[p]) == len(self.arrived[p]) == 1 == len(self.left[q])
                == len(self.arrived[q])):
            return None
        a = Change(p, self.left[p][0], self.arrived[p][0])
        b = Change(q, self.left[q][0], self.arrived[q][0])
        if self.field(a.player, a.origin) != self.field(b.player, b.target):
            return None
        if self.field(b.player, b.origin) != self.field(a.player, a.target):
            return None
        return a, b

    def field(self, player: int, code: int) -> int:
        track_len = self.layout.track_len
        if code == FRESH:
            return self.layout.starts[player]
        return code if 0 <= code < track_len else -1 - code

    def jack(self, swap: tuple[Change, Change] | None) -> Reason | None:
        player = self.controlled
        assert player is not None
        if swap is None:
            return Reason("not_a_swap", {"card": str(self.card), **self.whose(player)})
        a, b = swap
        if player not in (a.player, b.player):
            return Reason(
                "jack_wrong_partner",
                {**self.peg(a.player, a.origin), **self.peg(b.player, b.origin, "other_"),
                 **self.whose(player)},
            )
        for part in (a, b):
            peg = self.find_peg(self.work, part.player, part.origin)
            if peg is not None and self.work.protected(peg):
                return Reason("swap_protected", self.peg(part.player, part.origin))
            if part.origin >= self.layout.track_len or part.origin == KENNEL:
                return Reason("swap_kennel_or_home", self.peg(part.player, part.origin))
        return None
