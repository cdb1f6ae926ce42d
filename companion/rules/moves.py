"""Legal moves (the move generator): every position a card can lead to (docs/rulebook.md 2-12).

The generator works on a flat, mutable copy of the position (:class:`Work`): one location code
per peg and an occupancy table of the track, so that a move is a few list assignments. The 7 is
a depth-first search over (points left, pegs not yet moved) that applies a part, recurses and
undoes it, and skips every intermediate state it has already expanded, every part that merely
commutes with the part before it, and every walk it has already made; its distinct results are
kept as state keys and become :class:`Position` objects only when the moves are listed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from typing import Any, NamedTuple

from companion.rules.board import BOARD_SIZES, FRESH, HOME_FIELDS, KENNEL
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
"""Bits per peg in a packed node of the 7 search: codes run from -2 to track length + 3."""
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
        """Whether ``peg`` is protected on its own start field (docs/rulebook.md#protection)."""
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
            if seven:
                passed = (*passed, other)
                out.append((steps, here, passed))
            else:
                out.append((steps, here, (other,)))

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


SevenResult = tuple[list[int], tuple[RawPart, ...], int]
"""Internal: one distinct result of the 7 before it becomes a :class:`Move` (a plain tuple: the
search makes one per result): every peg's final code (flat, unsorted), the first sequence of
parts the search found that leads there, and a bit mask of the players whose pegs it changed."""


Pruner = Callable[[int, int, Victims], bool]


def _search_seven(work: Work, goal: Position | None = None) -> dict[int, SevenResult]:
    """Every result of every split of the 7 in every order (docs/rulebook.md#seven), by state key.

    Depth-first over (points left, pegs moved), applying each part to ``work`` in place and
    undoing it. A node is keyed exactly by one int that packs every peg's code into 7 bits with
    the pegs moved and the points left, updated in O(1) per part, so a node reached before (the
    same parts in another order) is skipped before anything is applied. A part that uses all
    points left is a leaf; only a new packed leaf gets its state key, and only a new state key
    becomes a :data:`SevenResult`, with the first sequence of parts that reached it.

    Commuting parts: when a lower peg of the player who made the last part could not touch any
    field of that part (its walk's window misses them), making it now gives only results that
    the search reaches, earlier, with the lower peg first; its walk is skipped. Each result's
    first sequence is the lexicographically first one in the search's order either way, so the
    pruning changes neither the notation nor the order of the results.

    With a ``goal`` only the moves towards it are searched (:func:`_goal_pruner`) and the search
    stops when it is reached.
    """
    position = work.position
    layout = position.layout
    mover = position.turn
    partner = layout.partners[mover]
    own = work.pegs_of(mover)
    partner_pegs = work.pegs_of(partner) if partner is not None else range(0)
    locs, occ, home, start, owner = work.locs, work.occ, work.home, work.start, work.owner
    walks = _SevenWalks(work, [peg for peg in (*own, *partner_pegs) if locs[peg] != KENNEL])
    forward, clean = work.forward, walks.clean
    windows, track_paths, home_paths = walks.windows, walks.track_paths, walks.home_paths
    track_len = work.track_len
    shift, moved_shift, points_bits = _packing(len(locs))
    code_bit = layout.peg_code_bit
    kennel_bit = [1 << (base + codes.count(KENNEL))
                  for base, codes in zip(layout.key_bases, position.codes, strict=True)]
    """Per player: the state key bit that one more peg in the kennel sets."""
    prune = _goal_pruner(work, goal) if goal is not None else None
    goal_key = goal.key if goal is not None else -1
    results: dict[int, SevenResult] = {}
    leaves: set[int] = set()
    seen: set[int] = set()
    done: list[RawPart] = []

    def knock_key(victims: Victims) -> int:
        """How the state key changes when ``victims`` go to their kennels; counts them in."""
        change = 0
        for victim in victims:
            victim_owner = owner[victim]
            change += kennel_bit[victim_owner] - (1 << (code_bit[victim] + locs[victim]))
            kennel_bit[victim_owner] <<= 1
        return change

    def unknock(victims: Victims) -> None:
        """Count ``victims`` out of their kennels again (undo :func:`knock_key`)."""
        for victim in victims:
            kennel_bit[owner[victim]] >>= 1

    def keep(peg: int, code: int, victims: Victims, key: int, touched: int) -> None:
        final = locs.copy()
        final[peg] = code
        knocked: tuple[tuple[int, int], ...] = ()
        for victim in victims:
            knocked += ((owner[victim], locs[victim]),)
            final[victim] = KENNEL
            touched |= 1 << owner[victim]
        last = RawPart(owner[peg], locs[peg], code, knocked)
        results[key] = (final, (*done, last), touched)

    def search(
        points: int, moved: int, packed: int, key: int, touched: int, dirty: int, last: int,
        last_path: int,
    ) -> bool:
        """Expand one node; True once the goal is reached (``work`` is restored then too).

        ``key`` is the node's state key, ``touched`` the players whose pegs changed, ``dirty``
        the fields the parts so far touched (:class:`_SevenWalks`), ``last`` the peg of the
        last part and ``last_path`` the fields it touched (for commuting parts).
        """
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
            ahead = windows[peg][points]
            if peg < last and owner[last] == player and not ahead & last_path:
                continue
            slot = -1 if ahead & dirty else peg << 3 | points
            walk = clean.get(slot)
            if walk is None:
                walk = forward(peg, points, True)
                if slot >= 0:
                    clean[slot] = walk
            peg_shift = shift[peg]
            now_moved = moved | 1 << peg
            moved_bits = now_moved << moved_shift
            now_touched = touched | 1 << player
            lifted = key - (1 << (code_bit[peg] + origin))
            for steps, code, victims in walk:
                if prune is not None and prune(peg, code, victims):
                    continue
                child = packed + ((code - origin) << peg_shift)
                for victim in victims:
                    child += (KENNEL - locs[victim]) << shift[victim]
                left = points - steps
                if left == 0:
                    if child in leaves:
                        continue
                    leaves.add(child)
                    child_key = lifted + (1 << (code_bit[peg] + code))
                    if victims:
                        child_key += knock_key(victims)
                        unknock(victims)
                    if child_key not in results:
                        keep(peg, code, victims, child_key, now_touched)
                        if child_key == goal_key:
                            return True
                    continue
                node = child + moved_bits + points_bits[left]
                if node in seen:
                    continue
                seen.add(node)
                child_key = lifted + (1 << (code_bit[peg] + code))
                # Apply the part in place: lift the peg, knock out victims (never fresh: fresh
                # pegs are protected), put the peg.
                if origin >= track_len:
                    home[player] &= ~(1 << (origin - track_len))
                else:
                    occ[start[peg] if origin == FRESH else origin] = -1
                knocked: tuple[tuple[int, int], ...] = ()
                child_touched = now_touched
                if victims:
                    child_key += knock_key(victims)
                    for victim in victims:
                        victim_code = locs[victim]
                        knocked += ((owner[victim], victim_code),)
                        occ[victim_code] = -1
                        locs[victim] = KENNEL
                        child_touched |= 1 << owner[victim]
                locs[peg] = code
                if code >= track_len:
                    home[player] |= 1 << (code - track_len)
                else:
                    occ[code] = peg
                done.append(RawPart(player, origin, code, knocked))
                touches = home_paths[peg] if code >= track_len else track_paths[peg][steps]
                reached = search(left, now_moved, child, child_key, child_touched,
                                 dirty | touches, peg, touches)
                done.pop()
                # Undo it.
                if code >= track_len:
                    home[player] &= ~(1 << (code - track_len))
                else:
                    occ[code] = -1
                if victims:
                    unknock(victims)
                    for victim, (_, victim_code) in zip(victims, knocked, strict=True):
                        locs[victim] = victim_code
                        occ[victim_code] = victim
                locs[peg] = origin
                if origin >= track_len:
                    home[player] |= 1 << (origin - track_len)
                else:
                    occ[start[peg] if origin == FRESH else origin] = peg
                if reached:
                    return True
        return False

    packed = sum((code + _PACK_OFFSET) << shift[peg] for peg, code in enumerate(locs))
    search(SEVEN_POINTS, 0, packed, position.key, 0, 0, -1, 0)
    return results


class _SevenWalks:
    """What the 7 search needs to walk each peg once while nothing in its way has changed.

    A peg that has not moved yet walks over the fields ahead of it, and into its home once it
    reaches its start field; nothing else decides its ends. The search passes a mask of every
    field the parts so far have touched (``dirty``, all homes as one group of bits); a walk
    whose fields (its ``window``) are all clean is the walk of the original position, made once
    per peg and number of points (``clean``).

    Per peg, as it stands in the original position: ``windows[peg][n]``, the fields a walk of
    up to ``n`` steps looks at; ``track_paths[peg][n]``, the fields a part of ``n`` steps along
    the track touches; ``home_paths[peg]``, those a part into or inside its home touches.
    """

    __slots__ = ("clean", "home_paths", "track_paths", "windows")

    def __init__(self, work: Work, pegs: Iterable[int]) -> None:
        """Tables for ``pegs`` (those the 7 may move); other pegs get empty entries."""
        track_len = work.track_len
        rings, windows = _rings(track_len), _windows(track_len)
        home = _home_bits(track_len)
        count = len(work.locs)
        self.clean: dict[int, list[tuple[int, int, Victims]]] = {}
        self.windows: list[tuple[int, ...]] = [()] * count
        self.track_paths: list[tuple[int, ...]] = [()] * count
        self.home_paths: list[int] = [0] * count
        for peg in pegs:
            field = work.field(peg)
            if field < 0:
                self.windows[peg] = windows[-1][0]
                self.home_paths[peg] = home
                continue
            to_start = min((work.start[peg] - field) % track_len, SEVEN_POINTS)
            self.windows[peg] = windows[field][to_start]
            self.track_paths[peg] = rings[field]
            self.home_paths[peg] = rings[field][to_start] | home


def _home_bits(track_len: int) -> int:
    """The home fields' bits in the masks of the 7 search (after the track's)."""
    return ((1 << HOME_FIELDS) - 1) << track_len


@cache
def _packing(pegs: int) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """How the 7 search packs a node of ``pegs`` pegs into one int: each peg's shift, the shift
    of the moved pegs' bits, and the bits of each number of points left."""
    shifts = tuple(_PACK_BITS * peg for peg in range(pegs))
    moved_shift = _PACK_BITS * pegs
    points_bits = tuple(left << (moved_shift + pegs) for left in range(SEVEN_POINTS + 1))
    return shifts, moved_shift, points_bits


@cache
def _rings(track_len: int) -> tuple[tuple[int, ...], ...]:
    """``rings[f][n]``: the bits of track fields ``f … f+n`` (around the track), n ≤ 7."""
    full = (1 << track_len) - 1
    rings = []
    for field in range(track_len):
        row = []
        for n in range(SEVEN_POINTS + 1):
            bits = ((1 << (n + 1)) - 1) << field
            row.append((bits | bits >> track_len) & full)
        rings.append(tuple(row))
    return tuple(rings)


@cache
def _windows(track_len: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``windows[f][d][n]``: what a walk of up to ``n`` steps from field ``f`` looks at, ``d``
    (at most 7) steps before its start field: the ring ahead, and the home once it can reach
    it. The last row (``f`` = -1) is for a peg in its home: the home only."""
    home = _home_bits(track_len)
    points = range(SEVEN_POINTS + 1)
    rows = [
        tuple(tuple(ring[n] | home if to_start < n else ring[n] for n in points)
              for to_start in points)
        for ring in _rings(track_len)
    ]
    rows.append(((home,) * len(points),) * len(points))
    return tuple(rows)


def _goal_pruner(work: Work, goal: Position) -> Pruner:
    """Whether a part cannot lead to ``goal``: its peg lands where the goal has no peg of its
    owner (and no later knock-out can send it to the kennel), or it knocks out a peg of a player
    who does not move that the goal still has on that field."""
    position = work.position
    layout = position.layout
    mover = position.turn
    partner = layout.partners[mover]
    movers = {mover} if partner is None else {mover, partner}
    locs, owner, spans = work.locs, work.owner, layout.spans
    goal_codes = [set(codes) for codes in goal.codes]
    goal_kennels = [codes.count(KENNEL) for codes in goal.codes]

    def off_goal(peg: int, code: int, victims: Victims) -> bool:
        player = owner[peg]
        if code not in goal_codes[player]:
            first, end = spans[player]
            if locs[first:end].count(KENNEL) >= goal_kennels[player]:
                return True
        for victim in victims:
            victim_owner = owner[victim]
            if victim_owner not in movers and locs[victim] in goal_codes[victim_owner]:
                return True
        return False

    return off_goal


def _seven_results(position: Position) -> dict[int, SevenResult]:
    """Every distinct result of the 7 by state key, in the generator's order (cached)."""
    memo = _memo(position)
    results: dict[int, SevenResult] | None = memo.get(_SEVEN_RESULTS)
    if results is None:
        results = memo[_SEVEN_RESULTS] = _search_seven(_work(position))
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
    if position.cache is None:
        position.cache = {}
    return position.cache


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


def find_move(position: Position, card: Card, goal: Position) -> Move | None:
    """The legal move of ``card`` whose result has the locations of ``goal``, or None.

    ``goal`` belongs to the game of ``position``. The same move :func:`legal_moves` lists for
    that result, found without listing every result of a 7 (the search is pruned towards
    ``goal`` and stops there).
    """
    if card is Card.JOKER:
        for concrete in CONCRETE_CARDS:
            move = find_move(position, concrete, goal)
            if move is not None:
                return move.as_joker()
        return None
    memo = _memo(position)
    if card is Card.SEVEN and card not in memo:
        results = memo.get(_SEVEN_RESULTS)
        if results is None:
            results = _search_seven(_work(position), goal)
        result = results.get(goal.key)
        return None if result is None else _seven_move(position, goal.key, result)
    for move in _generate(position, card):
        if move.result.codes == goal.codes:
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


