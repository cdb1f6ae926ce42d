"""The marble census: every playing seat has exactly as many marbles as the reference showed.

A Dog game never adds or removes marbles: every seat's marbles are in its kennel, on the track or
in its home, and the reference frame counted them (one per kennel hole of each seat that plays,
`seats`, and one on its start field where it holds one: Schmidt's 2, 3 and 5 players). The
reader's per-hole decisions know nothing of each other; the census checks them against the
count, the way a player would ("that is a fifth white, one of them must be
something else"):

* **Too many of a colour**: the holes that like that colour least become ``"?"`` until the
  count fits. One of them is certainly wrong.
* **Nothing over the board**: when no hand or card is over any hole
  (`board_reader.nothing_over_holes`: none on the board, or none near a hole), at most
  `MAX_DOUBT` holes are in doubt and none of them is at a foreign region, the most likely
  reading that has exactly each seat's count is taken (never giving a hole a colour it cannot
  hold), as long as no hole is overruled by more than `MAX_COST` log-odds. The holes in doubt
  hold the marbles nobody else shows. (More holes in doubt with nothing found over the board
  are mostly a hand the occlusion test missed: they are resolved only by changes of at most
  `MANY_DOUBTS_COST` each: white glass doubted on the track, each hole looking most (or almost
  as much) like the white marbles nobody else shows.) When more holes than the
  count needs would take a change almost equally well (within `AMBIGUOUS` log-odds: "the
  missing black is one of these two"), picking one would be a guess: they all become ``"?"``.
* **Too many of a colour, the runner-up clear**: when nothing is over the board, a hole
  hidden for a surplus colour takes its second-best colour if that one beats every other
  class clearly (`RUNNER_UP_MARGIN`), is within `MAX_COST` of the surplus colour, and still
  has marbles not seen: two dark glass marbles read blue where four blue ones are seen are the
  two black ones, whatever else lies in doubt.
* **Every marble it could hold seen, a hand about**: a hole in doubt that no hand or card
  reaches is empty when every marble it could hold is already in another hole: all marbles
  for a track hole, its own seat's for a kennel or home hole (they hold no other).
  Holes at a foreign region stay ``"?"``.

The last two rely on the seats: a playing seat taken for empty would make them wrong. When a
kennel of the reference frame is overexposed (its marbles look like the board, so whether its
seat plays is a guess: `board_reader.blind_kennels`) they do not run (``counted`` False).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.reader.trust import AT_REGION_MM  # a hole this close to a hand or card: never resolved

UNKNOWN = -1  # label of a hole in doubt
MAX_COST = 8.0  # most log-odds the census may overrule one hole's best class by
MAX_DOUBT = 2  # most holes in doubt the count may resolve when nothing is over the board
# With more holes in doubt, the most log-odds a change may cost (path-traced 0833: three white
# marbles on the track doubted in a frame the camera exposed anew, two looking most like the
# whites nobody else showed, the third 0.6 more like an empty hole; compositing seeds 2024,
# 2025, 2036 and 2037 read alike with 0 and with 2).
MANY_DOUBTS_COST = 2.0
AMBIGUOUS = 1.5  # log-odds within which two holes are equally good homes for a change
RUNNER_UP_MARGIN = 8.0  # log-odds by which a surplus hole's runner-up colour beats the rest
# With a hand over the holes, a hole in doubt is cleared only by marbles seen farther than this
# from every region (`board_reader.TOUCH_REACH_MM`; path-traced 0604: fingers 14 mm from the
# hand's region, read as a red marble, cleared the red kennel hole under the same hand).
SEEN_REACH_MM = 20.0


@dataclass(frozen=True)
class Census:
    """How many marbles each class has: ``capacity`` (C,), class 0 the empty hole (any
    number); ``possible`` (C, N) which classes each hole can hold
    (`match.possible_classes`; None: any class); ``counted`` whether the seats that
    play are known for sure (else only the rules for a colour read too often run)."""

    capacity: np.ndarray
    possible: np.ndarray | None = None
    counted: bool = True

    def settle(self, scores: np.ndarray, labels: np.ndarray, reach: np.ndarray,
               nothing_over: bool) -> np.ndarray:
        """Labels (N,) class indices or `UNKNOWN` made to agree with the count.

        ``scores`` (C, N) are the match network's logits, ``labels`` the reading so far
        (each hole's best class or `UNKNOWN`), ``reach`` (N,) mm to the nearest foreign
        region (inf when there is none), ``nothing_over`` whether no hand or card is over a
        hole (the regions are strays or far from every hole).
        """
        log_odds = _log_softmax(scores)
        doubt = labels == UNKNOWN
        if self.counted and nothing_over and (reach[doubt] > AT_REGION_MM).all():
            few = doubt.sum() <= MAX_DOUBT
            exact = self._exact(log_odds, MAX_COST if few else MANY_DOUBTS_COST)
            if exact is not None:
                return exact
        settled = self._at_most(log_odds, labels)
        if not self.counted:
            return settled
        if nothing_over:
            settled = self._runner_up(log_odds, labels, settled, reach)
        # A hole in doubt away from hands is empty when every marble it could hold is seen
        # elsewhere. (A hole just hidden for a surplus colour showed something: it stays "?".)
        # So is one beside or under a hand over the holes (not a stray, which may be all that
        # shows of a hand the occlusion test missed) that holds one colour only (a kennel or a
        # home), all of whose marbles are seen elsewhere, and that looks empty.
        # With a hand over the holes, only marbles seen away from it count: fingers can look
        # like a marble.
        seen = settled if nothing_over else np.where(reach > SEEN_REACH_MM, settled, UNKNOWN)
        missing = self._counts(seen) < self.capacity[1:]
        holdable = np.ones_like(log_odds[1:], bool) if self.possible is None else self.possible[1:]
        unseen = (holdable & missing[:, None]).any(axis=0)
        at_seen_hand = ((holdable.sum(axis=0) == 1) & (log_odds.argmax(axis=0) == 0)
                        & (not nothing_over))
        resolve = ((labels == UNKNOWN) & ~unseen & ((reach > AT_REGION_MM) | at_seen_hand)
                   & (log_odds.max(axis=0) - log_odds[0] <= MAX_COST))
        settled[resolve] = 0
        return settled

    def _holdable(self, log_odds: np.ndarray) -> np.ndarray:
        """``log_odds`` (C, N) with the classes a hole cannot hold at minus infinity."""
        return log_odds if self.possible is None else np.where(self.possible, log_odds, -np.inf)

    def _counts(self, labels: np.ndarray) -> np.ndarray:
        """Holes per colour class (classes 1..C-1)."""
        return np.bincount(labels[labels > 0], minlength=len(self.capacity))[1:]

    def _at_most(self, log_odds: np.ndarray, labels: np.ndarray) -> np.ndarray:
        """Hide the least convinced holes of every colour with more holes than marbles."""
        settled = labels.copy()
        for colour in range(1, len(self.capacity)):
            holes = np.flatnonzero(settled == colour)
            excess = len(holes) - int(self.capacity[colour])
            if excess > 0:
                others = np.delete(log_odds[:, holes], colour, axis=0).max(axis=0)
                margin = log_odds[colour, holes] - others
                settled[holes[np.argsort(margin)[:excess]]] = UNKNOWN
        return settled

    def _runner_up(self, log_odds: np.ndarray, labels: np.ndarray, settled: np.ndarray,
                   reach: np.ndarray) -> np.ndarray:
        """Give a hole hidden for a surplus colour (`_at_most`) its runner-up colour where
        that is clear: no foreign region near, the runner-up within `MAX_COST` of the surplus
        colour and beating every other class by `RUNNER_UP_MARGIN`, and that colour's
        marbles not all seen yet."""
        holdable = self._holdable(log_odds)
        settled = settled.copy()
        for hole in np.flatnonzero((settled == UNKNOWN) & (labels != UNKNOWN)
                                   & (reach > AT_REGION_MM)):
            others = holdable[:, hole].copy()
            others[labels[hole]] = -np.inf
            ranked = np.argsort(others)
            colour, second = int(ranked[-1]), others[ranked[-2]]
            if (colour == 0 or log_odds[labels[hole], hole] - others[colour] > MAX_COST
                    or others[colour] - second < RUNNER_UP_MARGIN
                    or self._counts(settled)[colour - 1] >= self.capacity[colour]):
                continue
            settled[hole] = colour
        return settled

    def _exact(self, log_odds: np.ndarray, max_cost: float) -> np.ndarray | None:
        """The best reading with exactly each colour's count, by cheapest single changes, or
        None when a change would cost more than ``max_cost`` or the count cannot be met. Holes
        that would take a change `AMBIGUOUS`ly (more of them than it needs) are `UNKNOWN`."""
        holdable = self._holdable(log_odds)
        labels = holdable.argmax(axis=0)
        holes = np.arange(labels.size)
        ambiguous = np.zeros(labels.size, bool)
        for _ in range(labels.size + int(self.capacity[1:].sum())):
            counts = self._counts(labels)
            over = np.flatnonzero(counts > self.capacity[1:]) + 1
            under = np.flatnonzero(counts < self.capacity[1:]) + 1
            if not over.size and not under.size:
                labels[ambiguous] = UNKNOWN
                return np.asarray(labels)
            # A surplus marble may be an empty hole or a missing colour; an empty hole may be a
            # missing colour. Cost (C, N): what giving a hole that class loses against now.
            surplus = np.isin(labels, over)
            allowed = np.zeros(log_odds.shape, bool)
            allowed[np.ix_(under, np.flatnonzero(surplus | (labels == 0)))] = True
            allowed[0, surplus] = True
            if self.possible is not None:
                allowed &= self.possible  # never a colour the hole cannot hold
            cost = log_odds[labels, holes][None, :] - log_odds
            if not allowed.any():
                return None
            cost[~allowed] = np.inf
            colour, hole = np.unravel_index(np.argmin(cost), cost.shape)
            if cost[colour, hole] > max_cost:
                return None
            rivals = cost[colour] <= cost[colour, hole] + AMBIGUOUS
            if colour:  # a missing marble: as many holes take it as are missing
                needed = self.capacity[colour] - counts[colour - 1]
            else:  # a surplus marble: as many holes of that colour give it up as are too many
                rivals &= labels == labels[hole]
                needed = counts[labels[hole] - 1] - self.capacity[labels[hole]]
            if rivals.sum() > needed:
                ambiguous |= rivals
            labels[hole] = colour
        return None


def _log_softmax(scores: np.ndarray) -> np.ndarray:
    """Per hole (column) the log-probability of each class."""
    shifted = scores - scores.max(axis=0)
    return np.asarray(shifted - np.log(np.exp(shifted).sum(axis=0)))
