"""The 7's search: every result of every split of the 7 in every order (docs/rulebook.md#seven).

A depth-first search over (points left, pegs not yet moved) that applies a part to a
:class:`~companion.rules.work.Work`, recurses and undoes it, and skips every intermediate state it
has already expanded, every part that merely commutes with the part before it, and every walk it
has already made; its distinct results are kept as state keys and become :class:`Position`
objects only when the moves are listed (:mod:`companion.rules.moves`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

from companion.rules.board import FRESH, HOME_FIELDS, KENNEL
from companion.rules.move import RawPart
from companion.rules.position import Position
from companion.rules.walk import track_ahead
from companion.rules.work import SEVEN_POINTS, Victims, Work

__all__ = ["Pruner", "SevenResult", "search_seven"]

_PACK_BITS = 7
"""Bits per peg in a packed node of the 7 search: codes run from -2 to track length + 3."""
_PACK_OFFSET = 2

SevenResult = tuple[list[int], tuple[RawPart, ...], int]
"""Internal: one distinct result of the 7 before it becomes a :class:`Move` (a plain tuple: the
search makes one per result): every peg's final code (flat, unsorted), the first sequence of
parts the search found that leads there, and a bit mask of the players whose pegs it changed."""


Pruner = Callable[[int, int, Victims], bool]


def search_seven(work: Work, observed: Position | None = None) -> dict[int, SevenResult]:
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

    With an ``observed`` position only the moves towards it are searched (:func:`_pruner`) and
    the search
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
    prune = _pruner(work, observed) if observed is not None else None
    observed_key = observed.key if observed is not None else -1
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
        """Expand one node; True once the observed position is reached (``work`` restored too).

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
                        if child_key == observed_key:
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
            to_start = min(work.lanes[work.owner[peg]].to_start(field), SEVEN_POINTS)
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
    """``rings[f][n]``: the bits of track field ``f`` and the ``n`` fields ahead of it, n ≤ 7."""
    rings = []
    for field, ahead in enumerate(track_ahead(track_len)):
        row = [1 << field]
        for passed in ahead[:SEVEN_POINTS]:
            row.append(row[-1] | 1 << passed)
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


def _pruner(work: Work, observed: Position) -> Pruner:
    """Whether a part cannot lead to ``observed``: its peg lands where ``observed`` has no peg
    of its owner (and no later knock-out can send it to the kennel), or it knocks out a peg of a
    player who does not move that ``observed`` still has on that field."""
    position = work.position
    layout = position.layout
    mover = position.turn
    partner = layout.partners[mover]
    movers = {mover} if partner is None else {mover, partner}
    locs, owner, spans = work.locs, work.owner, layout.spans
    observed_codes = [set(codes) for codes in observed.codes]
    observed_kennels = [codes.count(KENNEL) for codes in observed.codes]

    def off_course(peg: int, code: int, victims: Victims) -> bool:
        player = owner[peg]
        if code not in observed_codes[player]:
            first, end = spans[player]
            if locs[first:end].count(KENNEL) >= observed_kennels[player]:
                return True
        for victim in victims:
            victim_owner = owner[victim]
            if victim_owner not in movers and locs[victim] in observed_codes[victim_owner]:
                return True
        return False

    return off_course
