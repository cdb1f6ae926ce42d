"""The generator's working copy of a position: one location code per peg, track occupancy.

:class:`Work` is mutable and flat, so that a move is a few list assignments; the move generator
(:mod:`companion.rules.moves`, :mod:`companion.rules.seven`) and the diagnosis
(:mod:`companion.rules.diagnosis`) apply and undo parts on it.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.rules.board import FRESH, KENNEL
from companion.rules.move import RawPart
from companion.rules.position import Position
from companion.rules.walk import lanes

__all__ = ["BACKWARD_STEPS", "SEVEN_POINTS", "State", "Victims", "Work"]

State = tuple[tuple[int, ...], ...]
Victims = tuple[int, ...]
SEVEN_POINTS = 7
BACKWARD_STEPS = 4


class Work:
    """A mutable working copy of a position: peg codes and track occupancy.

    Pegs are numbered flat, player by player (``layout.offsets``). ``occ[f]`` is the peg on track
    field ``f`` or -1; ``home[i]`` is a bit mask of player ``i``'s occupied home fields;
    ``lanes[i]`` is player ``i``'s :class:`~companion.rules.walk.Lane`, the fields their pegs
    walk over.
    """

    __slots__ = (
        "always",
        "home",
        "lanes",
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
        self.lanes = lanes(layout)
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

    def copy(self) -> Work:
        """An independent copy (the same as ``Work(self.position)`` when nothing moved yet)."""
        other = Work.__new__(Work)
        for name in ("always", "lanes", "offsets", "owner", "position", "start", "track_len"):
            setattr(other, name, getattr(self, name))
        other.locs = self.locs.copy()
        other.occ = self.occ.copy()
        other.home = self.home.copy()
        return other

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

        The walk is the peg's :class:`~companion.rules.walk.Lane`; victims are the pegs knocked
        out: the one landed on and, for a 7, every peg passed on the track. A protected peg ends
        the walk, and an occupied home field the walk inside the home.
        """
        out: list[tuple[int, int, Victims]] = []
        locs = self.locs
        code = locs[peg]
        if code == KENNEL:
            return out
        owner = self.owner[peg]
        lane = self.lanes[owner]
        track_len = self.track_len
        if code >= track_len:
            mask = self.home[owner]
            for steps, target in enumerate(lane.home_ahead(code)[:most], 1):
                if mask >> (target - track_len) & 1:
                    break
                out.append((steps, target, ()))
            return out
        fields, branch = lane.walks[code]
        if branch == 0:
            self._home_ends(out, owner, 0, most, ())
        occ = self.occ
        always = self.always
        start = self.start
        passed: Victims = ()
        for steps, field in enumerate(fields[:most], 1):
            other = occ[field]
            if other < 0:
                out.append((steps, field, passed))
            else:
                other_code = locs[other]
                if other_code == FRESH or (always and other_code == start[other]):
                    return out
                if seven:
                    passed = (*passed, other)
                    out.append((steps, field, passed))
                else:
                    out.append((steps, field, (other,)))
            if steps == branch:
                self._home_ends(out, owner, steps, most, passed if seven else ())
        return out

    def _home_ends(
        self, out: list[tuple[int, int, Victims]], player: int, steps: int, most: int,
        victims: Victims,
    ) -> None:
        """Add the ends in ``player``'s home of a walk that turns in after ``steps`` steps."""
        mask = self.home[player]
        for k, code in enumerate(self.lanes[player].home[:most - steps]):
            if mask >> k & 1:
                return
            out.append((steps + 1 + k, code, victims))

    def backward(self, peg: int) -> tuple[int, Victims] | None:
        """The end of ``peg`` moving 4 backward (never into home), or None if blocked."""
        code = self.locs[peg]
        if code == KENNEL or code >= self.track_len:
            return None
        fields = self.lanes[self.owner[peg]].behind(code)[:BACKWARD_STEPS]
        for field in fields:
            other = self.occ[field]
            if other >= 0 and self.protected(other):
                return None
        landing = fields[-1]
        other = self.occ[landing]
        return landing, ((other,) if other >= 0 else ())

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
