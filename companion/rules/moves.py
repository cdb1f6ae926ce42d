"""Legal moves (the move generator): every position a card can lead to (RULES.md sections 2 to 7).

The generator works on a flat, mutable copy of the position (:class:`Work`): one location code
per peg and an occupancy table of the track, so that a move is a few list assignments. The 7 is
a depth-first search over (points left, pegs not yet moved) that applies a part, recurses and
undoes it, and skips every intermediate state it has already expanded; only distinct final
states become :class:`Position` objects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from companion.rules.board import FRESH, HOME_FIELDS, KENNEL
from companion.rules.cards import CONCRETE_CARDS, Card
from companion.rules.move import Move, RawPart
from companion.rules.position import Position

__all__ = ["Move", "Work", "find_move", "legal_moves", "legal_moves_by_card", "playable"]

State = tuple[tuple[int, ...], ...]
Victims = tuple[int, ...]
SEVEN_POINTS = 7
BACKWARD_STEPS = 4
_LAST_HOME = HOME_FIELDS - 1
_PACK_BITS = 7
"""Bits per peg in a packed state key: codes run from -2 to track length + 3 < 2**7 - 2."""
_PACK_OFFSET = 2


class Work:
    """A mutable working copy of a position: peg codes and track occupancy.

    Pegs are numbered flat, player by player (``layout.offsets``). ``occ[f]`` is the peg on track
    field ``f`` or -1; ``home[i]`` is a bit mask of player ``i``'s occupied home fields.
    """

    __slots__ = (
        "always",
        "from_behind",
        "home",
        "locs",
        "occ",
        "offsets",
        "owner",
        "position",
        "start",
        "track_len",
    )

    def __init__(self, position: Position) -> None:
        layout = position.layout
        self.position = position
        self.track_len = track_len = layout.track_len
        self.owner = layout.peg_owner
        self.start = layout.peg_start
        self.offsets = layout.offsets
        self.always = layout.rules.always_protected
        self.from_behind = layout.rules.from_behind
        self.locs: list[int] = [code for codes in position.codes for code in codes]
        self.occ: list[int] = [-1] * track_len
        self.home: list[int] = [0] * layout.players
        for peg, code in enumerate(self.locs):
            if code >= track_len:
                self.home[self.owner[peg]] |= 1 << (code - track_len)
            elif code == FRESH:
                self.occ[self.start[peg]] = peg
            elif code >= 0:
                self.occ[code] = peg

    def protected(self, peg: int) -> bool:
        """Whether ``peg`` is protected on its own start field (RULES.md section 3)."""
        code = self.locs[peg]
        return code == FRESH or (self.always and code == self.start[peg])

    def pegs_of(self, player: int) -> range:
        """The flat indexes of ``player``'s pegs."""
        return range(self.offsets[player], self.offsets[player + 1])

    def controlled(self) -> int | None:
        """Whose pegs the player to move moves now: own, or the partner's once all own are home."""
        mover = self.position.turn
        track_len = self.track_len
        locs = self.locs
        for peg in self.pegs_of(mover):
            if locs[peg] < track_len:
                return mover
        return self.position.layout.partners[mover]

    def state_after(self, players: Iterable[int]) -> State:
        """The canonical state when only ``players``' pegs changed since the position."""
        state = list(self.position.codes)
        locs = self.locs
        offsets = self.offsets
        for player in players:
            state[player] = tuple(sorted(locs[offsets[player]:offsets[player + 1]]))
        return tuple(state)

    def field(self, peg: int) -> int:
        """The track field ``peg`` stands on, or -1."""
        code = self.locs[peg]
        if code == FRESH:
            return self.start[peg]
        return code if 0 <= code < self.track_len else -1

    # -- walking ----------------------------------------------------------------------------

    def forward(self, peg: int, most: int, seven: bool) -> list[tuple[int, int, Victims]]:
        """Every end of ``peg`` moving forward 1…``most`` steps: ``(steps, code, victims)``.

        Victims are the pegs knocked out: the one landed on and, for a 7, every peg passed on
        the track. A protected peg ends the walk; home is entered per the rule set's option.
        """
        out: list[tuple[int, int, Victims]] = []
        locs = self.locs
        code = locs[peg]
        track_len = self.track_len
        if code == KENNEL:
            return out
        if code >= track_len:
            k = code - track_len
            mask = self.home[self.owner[peg]]
            for steps in range(1, min(most, _LAST_HOME - k) + 1):
                if mask >> (k + steps) & 1:
                    break
                out.append((steps, code + steps, ()))
            return out
        start = self.start[peg]
        here = start if code == FRESH else code
        enter_from_start = not self.from_behind and code != FRESH
        occ = self.occ
        always = self.always
        passed: Victims = ()
        steps = 0
        while True:
            if here == start and (steps > 0 or enter_from_start):
                mask = self.home[self.owner[peg]]
                home_passed = passed if seven else ()
                for k in range(min(HOME_FIELDS, most - steps)):
                    if mask >> k & 1:
                        break
                    out.append((steps + 1 + k, track_len + k, home_passed))
            if steps == most:
                return out
            here = here + 1 if here + 1 < track_len else 0
            steps += 1
            other = occ[here]
            if other < 0:
                out.append((steps, here, passed))
                continue
            other_code = locs[other]
            if other_code == FRESH or (always and other_code == self.start[other]):
                return out
            out.append((steps, here, (*passed, other) if seven else (other,)))
            if seven:
                passed = (*passed, other)

    def backward(self, peg: int) -> tuple[int, Victims] | None:
        """The end of ``peg`` moving 4 backward (never into home), or None if blocked."""
        code = self.locs[peg]
        if code == KENNEL or code >= self.track_len:
            return None
        here = self.start[peg] if code == FRESH else code
        other = -1
        for _ in range(BACKWARD_STEPS):
            here = here - 1 if here > 0 else self.track_len - 1
            other = self.occ[here]
            if other >= 0 and self.protected(other):
                return None
        return here, ((other,) if other >= 0 else ())

    # -- changing ---------------------------------------------------------------------------

    def knock(self, victims: Victims) -> tuple[tuple[int, int], ...]:
        """Send ``victims`` to their kennels; returns their ``(player, code)`` before."""
        knocked = []
        for victim in victims:
            knocked.append((self.owner[victim], self.locs[victim]))
            self.occ[self.field(victim)] = -1
            self.locs[victim] = KENNEL
        return tuple(knocked)

    def put(self, peg: int, code: int) -> None:
        """Move ``peg`` to ``code`` (the target must be free)."""
        self.lift(peg)
        self.locs[peg] = code
        if code >= self.track_len:
            self.home[self.owner[peg]] |= 1 << (code - self.track_len)
        elif code != KENNEL:
            self.occ[self.start[peg] if code == FRESH else code] = peg

    def lift(self, peg: int) -> None:
        """Take ``peg`` off its field (its code is left as it was)."""
        code = self.locs[peg]
        if code >= self.track_len:
            self.home[self.owner[peg]] &= ~(1 << (code - self.track_len))
        elif code != KENNEL:
            self.occ[self.start[peg] if code == FRESH else code] = -1

    def step(self, peg: int, code: int, victims: Victims) -> RawPart:
        """Knock out ``victims`` and move ``peg`` to ``code``; returns the part done."""
        origin = self.locs[peg]
        knocked = self.knock(victims)
        self.put(peg, code)
        return RawPart(self.owner[peg], origin, code, knocked)

    def undo(self, peg: int, part: RawPart, victims: Victims) -> None:
        """Undo :meth:`step`."""
        self.put(peg, part.origin)
        for victim, (_, code) in zip(victims, part.knocked, strict=True):
            self.put(victim, code)


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
    cache = work.position.cache
    assert cache is not None
    walks: dict[int, list[tuple[int, int, Victims]]] = cache.setdefault("reach", {})

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


def _seven(work: Work, found: Found, goal: State | None = None) -> None:
    """Every result of every split of the 7 in every order (RULES.md section 5).

    With a ``goal`` state only the moves leading there are searched: a part is pruned when its
    peg lands where the goal has no peg of its owner (and no later knock-out can send it to the
    kennel), or when it knocks out a peg of a player who does not move that the goal still has
    on that field.

    Depth-first over (points left, pegs moved). A state is keyed exactly by one int that packs
    every peg's code into 7 bits (``_pack``), updated in O(1) per part, so a state reached before
    (the same parts in another order) is skipped before anything is applied. A part that uses
    all points left is a leaf: only a new final key is turned into a canonical state, and each
    distinct final state is kept once, with the first sequence of parts that reached it.
    """
    position = work.position
    layout = position.layout
    mover = position.turn
    own = work.pegs_of(mover)
    partner = layout.partners[mover]
    partner_pegs = work.pegs_of(partner) if partner is not None else range(0)
    locs = work.locs
    occ = work.occ
    home = work.home
    start = work.start
    owner = work.owner
    offsets = layout.offsets
    spans = [(offsets[i], offsets[i + 1]) for i in range(layout.players)]
    track_len = work.track_len
    turn = position.turn
    shift = [_PACK_BITS * peg for peg in range(len(locs))]
    moved_shift = _PACK_BITS * len(locs)
    points_shift = moved_shift + len(locs)
    seen: set[int] = set()
    finals: set[int] = set()
    done: list[RawPart] = []
    movers = {mover} if partner is None else {mover, partner}
    goal_codes = [set(codes) for codes in goal] if goal is not None else []
    goal_kennels = [codes.count(KENNEL) for codes in goal] if goal is not None else []

    def off_goal(peg: int, code: int, victims: Victims) -> bool:
        player = owner[peg]
        if code not in goal_codes[player]:
            first, last = spans[player]
            if locs[first:last].count(KENNEL) >= goal_kennels[player]:
                return True
        for victim in victims:
            victim_owner = owner[victim]
            if victim_owner not in movers and locs[victim] in goal_codes[victim_owner]:
                return True
        return False

    def finish(peg: int, code: int, victims: Victims) -> None:
        final = locs.copy()
        final[peg] = code
        for victim in victims:
            final[victim] = KENNEL
        state = tuple(tuple(sorted(final[a:b])) for a, b in spans)
        if state not in found:
            knocked = tuple((owner[victim], locs[victim]) for victim in victims)
            last = RawPart(owner[peg], locs[peg], code, knocked)
            result = Position(layout, state, turn)
            found[state] = Move(Card.SEVEN, Card.SEVEN, (*done, last), result)

    def search(points: int, moved: int, packed: int) -> None:
        pegs = own
        for peg in own:
            if locs[peg] < track_len:
                break
        else:
            pegs = partner_pegs
        for peg in pegs:
            origin = locs[peg]
            if moved >> peg & 1 or origin == KENNEL:
                continue
            player = owner[peg]
            bit = 1 << peg
            for steps, code, victims in work.forward(peg, points, seven=True):
                if goal is not None and off_goal(peg, code, victims):
                    continue
                child = packed + ((code - origin) << shift[peg])
                for victim in victims:
                    child += (KENNEL - locs[victim]) << shift[victim]
                left = points - steps
                if left == 0:
                    if child not in finals:
                        finals.add(child)
                        finish(peg, code, victims)
                    continue
                key = child + ((moved | bit) << moved_shift) + (left << points_shift)
                if key in seen:
                    continue
                seen.add(key)
                # Apply the part in place: lift the peg, knock out victims, put the peg.
                if origin >= track_len:
                    home[player] &= ~(1 << (origin - track_len))
                else:
                    occ[start[peg] if origin == FRESH else origin] = -1
                knocked = tuple((owner[victim], locs[victim]) for victim in victims)
                for victim in victims:
                    victim_code = locs[victim]
                    occ[start[victim] if victim_code == FRESH else victim_code] = -1
                    locs[victim] = KENNEL
                locs[peg] = code
                if code >= track_len:
                    home[player] |= 1 << (code - track_len)
                else:
                    occ[code] = peg
                done.append(RawPart(player, origin, code, knocked))
                search(left, moved | bit, child)
                done.pop()
                # Undo it.
                if code >= track_len:
                    home[player] &= ~(1 << (code - track_len))
                else:
                    occ[code] = -1
                for victim, (_, victim_code) in zip(victims, knocked, strict=True):
                    locs[victim] = victim_code
                    occ[start[victim] if victim_code == FRESH else victim_code] = victim
                locs[peg] = origin
                if origin >= track_len:
                    home[player] |= 1 << (origin - track_len)
                else:
                    occ[start[peg] if origin == FRESH else origin] = peg

    packed = sum((code + _PACK_OFFSET) << shift[peg] for peg, code in enumerate(locs))
    search(SEVEN_POINTS, 0, packed)


def _jack(work: Work, found: Found) -> None:
    """Every swap, or the Jack without effect (RULES.md section 6)."""
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


def _generate(position: Position, card: Card) -> list[Move]:
    """The legal moves of a concrete card (not the Joker), cached on the position."""
    cache = position.cache
    if cache is None:
        cache = position.cache = {}
    moves: list[Move] | None = cache.get(card)
    if moves is None:
        work = cache.get("work")
        if work is None:
            work = cache["work"] = Work(position)
        found: Found = {}
        if card is Card.SEVEN:
            _seven(work, found)
        elif card is Card.JACK:
            _jack(work, found)
        else:
            _single(work, card, found)
        moves = cache[card] = list(found.values())
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


def find_move(position: Position, card: Card, goal: Position) -> Move | None:
    """The legal move of ``card`` whose result has the locations of ``goal``, or None.

    The same move :func:`legal_moves` lists for that result, found without listing every
    result of a 7 (the search is pruned towards ``goal``).
    """
    if card is Card.JOKER:
        for concrete in CONCRETE_CARDS:
            move = find_move(position, concrete, goal)
            if move is not None:
                return move.as_joker()
        return None
    state = goal.codes
    if card is not Card.SEVEN or (position.cache is not None and card in position.cache):
        for move in _generate(position, card):
            if move.result.codes == state:
                return move
        return None
    found: Found = {}
    _seven(Work(position), found, state)
    return found.get(state)


def legal_moves_by_card(position: Position, cards: Sequence[Card]) -> dict[Card, list[Move]]:
    """The legal moves of each distinct card of a hand (work is shared between the cards)."""
    return {card: legal_moves(position, card) for card in dict.fromkeys(cards)}


def playable(position: Position, card: Card) -> bool:
    """Whether ``card`` has at least one legal move."""
    if card is Card.JOKER:
        return any(_generate(position, concrete) for concrete in CONCRETE_CARDS)
    return bool(_generate(position, card))


