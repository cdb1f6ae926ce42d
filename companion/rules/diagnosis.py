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


def explain(before: Position, after: Position, card: Card, example: Move | None) -> str:
    """The reason sentence for an observed ``after`` that no legal move of ``card`` gives.

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

    def peg(self, player: int, code: int) -> str:
        """``blue at T22`` / ``red's fresh peg on T16``."""
        if code == FRESH:
            return f"{self.color(player)}'s fresh peg on {self.where(player, code)[:-1]}"
        return f"{self.color(player)} at {self.where(player, code)}"

    def the_card(self) -> str:
        return "the Joker" if self.card is Card.JOKER else f"the {self.card}"

    def owner_phrase(self, player: int) -> str:
        mover = self.mover
        if player == mover:
            return f"{self.color(mover)}'s own pegs"
        return f"{self.color(player)}'s pegs (all of {self.color(mover)}'s own pegs are home)"

    # -- the reason ---------------------------------------------------------------------------

    def reason(self) -> str:
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

    def fallback(self) -> str:
        assert self.example is not None
        near = self.example.notation
        return (
            f"no legal move of {self.the_card()} leads to the observed position"
            f" (legal, for example: {near})"
        )

    def unplayable(self) -> str:
        card = self.card
        player = self.controlled
        mover = self.color(self.mover)
        if player is None:
            return f"{mover} has no pegs left to move: the game is over"
        if card is Card.JACK:
            return (
                f"the J cannot be played: none of {self.color(player)}'s pegs on the track can be"
                " swapped (pegs in kennel or home and protected pegs never swap), while other"
                " players' pegs could be; the Jack has no effect only when no other player's"
                " swappable peg stands on the track (§6)"
            )
        why = "; ".join(self.stuck(player)) or "no peg can move"
        if card is Card.SEVEN:
            return (
                f"the 7 cannot be played: {self.owner_phrase(player)} cannot move 7 points in"
                f" total, and all 7 must be moved (§5): {why}"
            )
        return f"{self.the_card()} cannot be played by {mover}: {why}"

    def stuck(self, player: int) -> list[str]:
        """Why each of ``player``'s pegs cannot move with the card."""
        work = self.work
        card = self.card
        out: list[str] = []
        in_kennel = [peg for peg in work.pegs_of(player) if work.locs[peg] == KENNEL]
        if in_kennel:
            if card.starts or card is Card.JOKER:
                start = self.layout.starts[player]
                blocker = work.occ[start]
                if blocker >= 0:
                    holder = self.peg(work.owner[blocker], work.locs[blocker])
                    out.append(f"the start field T{start} is blocked by {holder} (§3)")
            elif len(in_kennel) == len(work.pegs_of(player)):
                out.append(
                    f"all of {self.color(player)}'s pegs are in the kennel, and only the A, the K"
                    " and the Joker start a peg (§3)"
                )
        steps = card.forward_steps or (SEVEN_POINTS,)
        for peg in work.pegs_of(player):
            code = work.locs[peg]
            if code == KENNEL:
                continue
            name = self.where(player, code)
            if code >= work.track_len:
                room = HOME_FIELDS - 1 - (code - work.track_len)
                out.append(f"{name} has {room} free field(s) ahead at most in the home (§4)")
                continue
            stop = self.first_blocker(peg, max(steps))
            if stop is not None:
                out.append(
                    f"{name} is blocked by {self.peg(work.owner[stop], work.locs[stop])},"
                    " which cannot be passed (§3)"
                )
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

    def nothing_moved(self) -> str:
        assert self.example is not None
        example = self.example.notation
        if self.card is Card.JACK:
            return (
                f"nothing moved, but a swap is possible ({example}): the Jack must swap when it"
                " can, even to the player's disadvantage (§6)"
            )
        return (
            f"nothing moved, but {self.the_card()} has legal moves ({example}): a card played"
            " must be executed completely, its points never lapse (§4)"
        )

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

    def stranger_moved(self) -> str | None:
        """A sentence if pegs of a player who does not move now moved on the board."""
        allowed = {self.controlled}
        if self.card in (Card.SEVEN, Card.JOKER):
            allowed = set(self.moving_players())
        for player, arrived in enumerate(self.arrived):
            targets = [code for code in arrived if code != KENNEL]
            if not targets:
                continue
            origins = [self.where(player, code) for code in self.left[player]]
            change = f"{self.color(player)} {'/'.join(origins)}→" + "/".join(
                self.where(player, code) for code in targets
            )
            if player in allowed:
                continue
            landed = self.landed_on(player)
            if landed is not None:
                return (
                    f"{self.peg(player, landed)} was landed on and must go back to its kennel:"
                    " a peg landing on an occupied field knocks out its occupant (§4)"
                )
            whose = self.owner_phrase(self.controlled) if self.controlled is not None else ""
            if self.controlled == self.mover and player == self.layout.partners[self.mover]:
                return (
                    f"{self.color(player)}'s peg moved ({change}), but {self.color(self.mover)}"
                    " plays with the partner's pegs only once all own pegs are home (§7)"
                )
            return (
                f"{self.color(player)}'s peg moved ({change}), but {self.the_card()} moves only"
                f" {whose} (§2)"
            )
        return None

    def landed_on(self, player: int) -> int | None:
        """A location ``player`` left on which a controlled peg arrived, if any."""
        arrived_fields = {
            self.field(other, code)
            for other in self.moving_players()
            for code in self.arrived[other]
            if code != KENNEL
        }
        for code in self.left[player]:
            if code != KENNEL and self.field(player, code) in arrived_fields:
                return code
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

    def route_faults(self, work: Work, player: int, origin: int, route: Route) -> list[str]:
        """Rules broken by walking ``route`` in ``work``'s current state (§3, §4)."""
        faults: list[str] = []
        mover = self.color(player)
        for field in route.passed:
            other = work.occ[field]
            if other >= 0 and work.protected(other):
                faults.append(
                    f"{self.peg(work.owner[other], work.locs[other])} blocks: it cannot be"
                    f" passed, it is protected on its own start field (§3)"
                )
        if 0 <= route.landing < work.track_len:
            other = work.occ[route.landing]
            if other >= 0 and work.protected(other):
                faults.append(
                    f"{self.peg(work.owner[other], work.locs[other])} is protected on its own"
                    " start field: it cannot be knocked out (§3)"
                )
        if route.enters_home and route.from_start:
            if self.layout.rules.from_behind:
                faults.append(
                    f"{mover}'s peg starts on its own start field"
                    f" {self.where(player, origin).rstrip('*')}: it must come from behind and"
                    " cross the start field to enter its home (home_entry from_behind, §4)"
                )
            elif origin == FRESH:
                faults.append(
                    f"{self.peg(player, origin)} may not enter its home before it has moved:"
                    " the start must be touched twice (home_entry not_fresh, §4)"
                )
        mask = work.home[player]
        for k in route.home_passed:
            if mask >> k & 1:
                faults.append(f"{mover}'s peg on H{k} cannot be passed inside the home (§4)")
        if route.landing >= work.track_len and mask >> (route.landing - work.track_len) & 1:
            faults.append(
                f"{mover}'s home field {self.where(player, route.landing)} is taken: nobody is"
                " knocked out in the home (§4)"
            )
        return faults

    def kennel_arrivals(self) -> Counter[int]:
        return Counter({player: arrived.count(KENNEL) for player, arrived in enumerate(
            self.arrived)})

    # -- single-peg cards ------------------------------------------------------------------------

    def single(self, parts: list[Change]) -> str | None:
        card = self.card
        if len(parts) > 1:
            listed = ", ".join(
                f"{self.color(p.player)} {self.where(p.player, p.origin)}→"
                f"{self.where(p.player, p.target)}" for p in parts
            )
            return (
                f"{len(parts)} pegs moved ({listed}), but only the 7 may be split over several"
                " pegs (§5)"
            )
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
        move = f"{self.color(player)} moved {self.where(player, origin)}→"
        move += self.where(player, target)
        if ahead is not None and ahead.steps in forward:
            return self.replay([(part, ahead)], seven=card is Card.JOKER and ahead.steps == 7)
        if behind is not None and back_ok and behind.steps == 4:
            return self.replay([(part, behind)], seven=False)
        if back_ok and target >= self.layout.track_len:
            return f"{move}: a 4 backward never enters the home (§4)"
        wanted = " or ".join(str(n) for n in forward) if card is not Card.JOKER else "1 to 13"
        if ahead is None:
            return f"{move}: no forward way leads there with {self.the_card()} (§4)"
        return (
            f"{move}: that is {ahead.steps} fields forward, but {self.the_card()} moves exactly"
            f" {wanted} (§2, §4)"
        )

    def start(self, part: Change) -> str | None:
        player = part.player
        if not (self.card.starts or self.card is Card.JOKER):
            return (
                f"{self.color(player)} started a peg with {self.the_card()}, but only the A, the"
                " K and the Joker move a peg from the kennel onto its start field (§3)"
            )
        start = self.layout.starts[player]
        if part.target not in (FRESH, start):
            return (
                f"{self.color(player)}'s peg left the kennel for {self.where(player, part.target)}"
                f", but a started peg goes onto its own start field T{start} (§3)"
            )
        blocker = self.work.occ[start]
        if blocker >= 0 and self.work.protected(blocker):
            return (
                f"{self.peg(self.work.owner[blocker], self.work.locs[blocker])} is protected:"
                " nobody may start onto it (§3)"
            )
        return None

    # -- replaying parts ---------------------------------------------------------------------

    def replay(self, parts: list[tuple[Change, Route]], seven: bool) -> str | None:
        """Replay ``parts`` in order on a copy of the position; the first rule broken."""
        work = Work(self.before)
        knocked: list[tuple[int, int, str]] = []
        jumped: set[tuple[int, int]] = set()
        faults: list[str] = []
        for part, _ in parts:
            peg = self.find_peg(work, part.player, part.origin)
            if peg is None:
                return (
                    f"{self.color(part.player)}'s peg on {self.where(part.player, part.origin)}"
                    " was knocked out by an earlier part of the 7 and cannot move any more (§5)"
                )
            route = self.route(part.player, part.origin, part.target, _.backward)
            assert route is not None
            faults.extend(self.route_faults(work, part.player, part.origin, route))
            victims: list[int] = []
            for field in route.passed:
                other = work.occ[field]
                if other >= 0:
                    jumped.add((work.owner[other], work.locs[other]))
            if seven:
                for field in route.passed:
                    other = work.occ[field]
                    if other >= 0 and not work.protected(other) and other != peg:
                        victims.append(other)
                        knocked.append((work.owner[other], work.locs[other], "passed by the 7"))
            if 0 <= route.landing < work.track_len:
                other = work.occ[route.landing]
                if other >= 0 and not work.protected(other):
                    victims.append(other)
                    knocked.append((work.owner[other], work.locs[other], "landed on"))
            work.lift(peg)
            work.knock(tuple(victims))
            work.put(peg, part.target)
        if faults:
            return faults[0]
        return self.unexplained_kennels(knocked, frozenset() if seven else frozenset(jumped))

    def find_peg(self, work: Work, player: int, code: int) -> int | None:
        for peg in work.pegs_of(player):
            if work.locs[peg] == code:
                return peg
        return None

    def unexplained_kennels(
        self, knocked: list[tuple[int, int, str]], passed: frozenset[tuple[int, int]] = frozenset()
    ) -> str | None:
        """Knock-outs that did not happen, and pegs in a kennel that nothing knocked out.

        ``passed`` holds ``(player, code)`` of pegs a card other than the 7 jumped over.
        """
        arrivals = self.kennel_arrivals()
        expected: Counter[int] = Counter()
        for player, code, how in knocked:
            expected[player] += 1
            if code in self.left[player]:
                continue
            if how == "landed on":
                return (
                    f"{self.peg(player, code)} was landed on and must go back to its kennel:"
                    " a peg landing on an occupied field knocks out its occupant (§4)"
                )
            return (
                f"{self.peg(player, code)} was passed by the 7 and must go back to its kennel:"
                " the 7 knocks out every peg it passes (§5)"
            )
        for player, count in arrivals.items():
            if count <= expected[player]:
                continue
            gone = [code for code in self.left[player] if code != KENNEL]
            if gone and (player, gone[0]) in passed:
                return (
                    f"{self.peg(player, gone[0])} was only passed and must stay: only the 7"
                    " knocks out the pegs it passes (§4)"
                )
            where = self.where(player, gone[0]) if gone else "the board"
            return (
                f"{self.color(player)}'s peg from {where} was put into its kennel, but nothing"
                " knocked it out (§4)"
            )
        return None

    # -- the 7 --------------------------------------------------------------------------------

    def seven(self) -> str | None:
        mover = self.mover
        partner = self.layout.partners[mover]
        track_len = self.layout.track_len
        if (
            partner is not None
            and self.controlled == mover
            and any(code != KENNEL for code in self.arrived[partner])
            and any(code < track_len for code in self.after.codes[mover])
        ):
            return (
                f"{self.color(partner)}'s pegs moved, but {self.color(mover)}'s own pegs are not"
                " all home: the 7 moves the partner's pegs only after the last own peg is home"
                " (§5, §7)"
            )
        best: tuple[int, str | None] | None = None
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
            listed = ", ".join(
                f"{self.color(p.player)} {self.where(p.player, p.origin)}→"
                f"{self.where(p.player, p.target)}" for p in self.board_moves()
            )
            return (
                f"the parts of the 7 add up to {total} fields ({listed}), but all 7 points must"
                " be moved, exactly (§5)"
            )
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

    def jack(self, swap: tuple[Change, Change] | None) -> str | None:
        player = self.controlled
        if swap is None:
            return (
                f"{self.the_card()} played as the J swaps one of"
                f" {self.owner_phrase(player) if player is not None else 'the pegs'} with"
                " another player's peg; the observed change is not a swap (§6)"
            )
        a, b = swap
        if player not in (a.player, b.player):
            return (
                f"wrong Jack partner: {self.color(a.player)} at {self.where(a.player, a.origin)}"
                f" and {self.color(b.player)} at {self.where(b.player, b.origin)} were swapped,"
                f" but the Jack swaps one of {self.owner_phrase(player or self.mover)} with"
                " another player's peg (§6)"
            )
        for part in (a, b):
            peg = self.find_peg(self.work, part.player, part.origin)
            if peg is not None and self.work.protected(peg):
                return (
                    f"{self.peg(part.player, part.origin)} is protected on its own start field:"
                    " it cannot be swapped (§6)"
                )
            if part.origin >= self.layout.track_len or part.origin == KENNEL:
                return (
                    f"{self.color(part.player)}'s peg in {self.where(part.player, part.origin)}"
                    " cannot be swapped: pegs in kennel or home never swap (§6)"
                )
        return None

