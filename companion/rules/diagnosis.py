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
from typing import NamedTuple

from companion.rules.board import FRESH, HOME_FIELDS, KENNEL
from companion.rules.cards import Card
from companion.rules.move import Move
from companion.rules.moves import SEVEN_POINTS, Work
from companion.rules.position import Position, codes_not_in
from companion.rules.reasons import Reason

__all__ = ["explain"]

_MAX_ORDERS = 720
_JOKER_FORWARD = tuple(range(1, 14))


class Route(NamedTuple):
    """A peg's way from one location to another: steps, fields passed, where it lands."""

    steps: int
    passed: tuple[int, ...]
    home_passed: tuple[int, ...]
    landing: int
    enters_home: bool
    from_start: bool
    backward: bool


class Change(NamedTuple):
    """A reconstructed change: a peg of ``player`` went from ``origin`` to ``target`` (codes)."""

    player: int
    origin: int
    target: int


class Knock(NamedTuple):
    """A knock-out a replayed part must cause: ``player``'s peg at ``code``, landed on or
    passed by the 7, by the part ``by``."""

    player: int
    code: int
    landed: bool
    by: Change


def explain(before: Position, after: Position, card: Card, example: Move | None) -> Reason:
    """The reason for an observed ``after`` that no legal move of ``card`` gives.

    ``example`` is the card's legal move nearest to ``after``, None when the card cannot be
    played at all.
    """
    return _Diagnosis(before, after, card, example).reason()


class _Diagnosis:
    def __init__(
        self, before: Position, after: Position, card: Card, example: Move | None
    ) -> None:
        self.before = before
        self.after = after
        self.card = card
        self.example = example
        self.layout = before.layout
        self.work = Work(before)
        self.mover = before.turn
        self.controlled = before.controlled()
        self.left: list[list[int]] = []
        self.arrived: list[list[int]] = []
        for old, new in zip(before.codes, after.codes, strict=True):
            self.left.append(codes_not_in(old, new) if old != new else [])
            self.arrived.append(codes_not_in(new, old) if old != new else [])

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
        if self.example is None:
            return self.unplayable()
        if not any(self.left) and not any(self.arrived):
            return self.nothing_moved()
        swap = self.swap()
        if self.card is Card.JACK or (self.card is Card.JOKER and swap is not None):
            return self.jack(swap) or self.fallback()
        stranger = self.stranger_moved()
        if stranger:
            return stranger
        parts = self.board_moves()
        if self.card is Card.SEVEN or (self.card is Card.JOKER and len(parts) > 1):
            return self.seven() or self.fallback()
        return self.single(parts) or self.fallback()

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
                room = HOME_FIELDS - 1 - (code - work.track_len)
                out.append(Reason("home_no_room", {"at": name, "room": room}))
                continue
            stop = self.first_blocker(peg, max(steps))
            if stop is not None:
                holder = self.peg(work.owner[stop], work.locs[stop])
                out.append(Reason("blocked_by_protected", {"at": name, **holder}))
        return out

    def first_blocker(self, peg: int, steps: int) -> int | None:
        work = self.work
        field = work.field(peg)
        for _ in range(steps):
            field = (field + 1) % work.track_len
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
        steps = self.steps(player, origin, target)
        return steps if steps is not None else 1000

    def stranger_moved(self) -> Reason | None:
        """A reason if pegs of a player who does not move now moved on the board."""
        allowed = {self.controlled}
        if self.card in (Card.SEVEN, Card.JOKER):
            allowed = set(self.moving_players())
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

    def steps(self, player: int, origin: int, target: int) -> int | None:
        """How many fields forward a peg of ``player`` goes from ``origin`` to ``target``, None
        if no forward way leads there (the length of :meth:`route`, without building it)."""
        track_len = self.layout.track_len
        start = self.layout.starts[player]
        if origin == KENNEL or target in (KENNEL, FRESH):
            return None
        if origin >= track_len:
            return target - origin if target > origin else None
        here = start if origin == FRESH else origin
        if target >= track_len:
            return (start - here) % track_len + 1 + target - track_len
        return (target - here) % track_len or None

    def route(self, player: int, origin: int, target: int, backward: bool) -> Route | None:
        """The way from ``origin`` to ``target`` of a peg of ``player``, None if there is none."""
        track_len = self.layout.track_len
        start = self.layout.starts[player]
        if origin == KENNEL or target in (KENNEL, FRESH):
            return None
        if origin >= track_len:
            if backward or target <= origin:
                return None
            k0, k1 = origin - track_len, target - track_len
            return Route(k1 - k0, (), tuple(range(k0 + 1, k1)), target, False, False, False)
        here = start if origin == FRESH else origin
        if backward:
            if target >= track_len:
                return None
            steps = (here - target) % track_len
            passed = tuple((here - i) % track_len for i in range(1, steps))
            return Route(steps, passed, (), target, False, False, True) if steps else None
        if target >= track_len:
            k = target - track_len
            to_start = (start - here) % track_len
            passed = tuple((here + i) % track_len for i in range(1, to_start + 1))
            return Route(to_start + 1 + k, passed, tuple(range(k)), target, True, to_start == 0,
                         False)
        steps = (target - here) % track_len
        passed = tuple((here + i) % track_len for i in range(1, steps))
        return Route(steps, passed, (), target, False, False, False) if steps else None

    def forward_route(self, part: Change) -> Route:
        """The forward :meth:`route` of a part known to have one."""
        route = self.route(part.player, part.origin, part.target, backward=False)
        assert route is not None
        return route

    def route_faults(
        self, work: Work, player: int, origin: int, route: Route
    ) -> list[Reason]:
        """Rules broken by walking ``route`` in ``work``'s current state."""
        faults: list[Reason] = []
        mover = self.color(player)
        by = self.by(player, origin, route.landing)
        for field in route.passed:
            other = work.occ[field]
            if other >= 0 and work.protected(other):
                faults.append(Reason(
                    "protected_passed", {**self.peg(work.owner[other], work.locs[other]), **by}
                ))
        if 0 <= route.landing < work.track_len:
            other = work.occ[route.landing]
            if other >= 0 and work.protected(other):
                faults.append(Reason(
                    "protected_landed_on",
                    {**self.peg(work.owner[other], work.locs[other]), **by},
                ))
        if route.enters_home and route.from_start:
            if self.layout.rules.from_behind:
                faults.append(Reason(
                    "home_entry_from_behind",
                    {"color": mover, "from": self.where(player, origin).rstrip("*"), **by},
                ))
            elif origin == FRESH:
                faults.append(Reason("home_entry_fresh", {**self.peg(player, origin), **by}))
        mask = work.home[player]
        for k in route.home_passed:
            if mask >> k & 1:
                faults.append(Reason("home_passed", {"color": mover, "field": f"H{k}", **by}))
        if route.landing >= work.track_len and mask >> (route.landing - work.track_len) & 1:
            faults.append(Reason(
                "home_field_taken",
                {"color": mover, "field": self.where(player, route.landing), **by},
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
        ahead = self.route(player, origin, target, backward=False)
        behind = self.route(player, origin, target, backward=True)
        moved = self.moved(*part)
        if ahead is not None and ahead.steps in forward:
            return self.replay([(part, ahead)], seven=card is Card.JOKER and ahead.steps == 7)
        if behind is not None and back_ok and behind.steps == 4:
            return self.replay([(part, behind)], seven=False)
        if back_ok and target >= self.layout.track_len:
            return Reason("four_backward_into_home", moved)
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
        work = Work(self.before)
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
            route = self.route(part.player, part.origin, part.target, planned.backward)
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
        mover = self.mover
        partner = self.layout.partners[mover]
        track_len = self.layout.track_len
        if (
            partner is not None
            and self.controlled == mover
            and any(code != KENNEL for code in self.arrived[partner])
            and any(code < track_len for code in self.after.codes[mover])
        ):
            return Reason(
                "partner_seven_too_early",
                {"color": self.color(partner), "mover_color": self.color(mover)},
            )
        best: tuple[int, Reason | None] | None = None
        sums: list[int] = []
        for assignment in self.assignments():
            lengths = [self.steps(part.player, part.origin, part.target) for part in assignment]
            if None in lengths:
                continue
            total = sum(length for length in lengths if length is not None)
            sums.append(total)
            if total != SEVEN_POINTS:
                continue
            routes = [(part, self.forward_route(part)) for part in assignment]
            for order in itertools.islice(itertools.permutations(routes), _MAX_ORDERS):
                fault = self.replay(list(order), seven=True)
                score = 0 if fault is None else 1
                if best is None or score < best[0]:
                    best = (score, fault)
        if best is not None:
            return best[1]
        if sums:
            total = min(sums, key=lambda s: abs(s - SEVEN_POINTS))
            moves = [self.moved(*part) for part in self.board_moves()]
            return Reason("seven_wrong_total", {"total": total, "moves": moves})
        return None

    def assignments(self) -> list[list[Change]]:
        """Every way to pair the controlled pegs' arrivals with origins they left."""
        per_player: list[list[list[Change]]] = []
        for player in self.moving_players():
            targets = [code for code in self.arrived[player] if code != KENNEL]
            origins = [code for code in self.left[player] if code != KENNEL]
            if not targets:
                continue
            options = []
            for chosen in itertools.permutations(origins, len(targets)):
                options.append(
                    [Change(player, o, t) for o, t in zip(chosen, targets, strict=True)]
                )
            per_player.append(options or [[]])
        return [
            [part for group in combo for part in group]
            for combo in itertools.islice(itertools.product(*per_player), _MAX_ORDERS)
        ]

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
