"""Which class a hole shows: every (class, hole) pair scored by a small learned network.

The Gaussian distances of `board_reader.Prototypes` say how far a hole's colour ratios lie from
each learnt class. They lose what they cannot model: an overexposed ring that leaves only a
bound, a dark marble in dim light that noise pulls toward black, the absolute colour of the
hole compared with how that class looked in the reference frame. The match network gets, per
pair, the scaled residuals and the distance, the class's look, the hole's own change since
the reference frame against the class's reference look, how clipped the hole is, and the
hole's shape: its radial brightness profile now and since the reference, and how well the
board's grain around it still matches; its logit ranks the classes of a hole (the best one
wins; the shipped network, ``models/hole_match.npz``, is the mean of three trained alike). A
class the hole cannot hold never wins: kennel and home holes hold their own seat's marbles
only (`possible_classes`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.reader.features import CLIPPED_LOG, HoleFeatures, length
from vision.reader.network import Network

INPUTS = (
    "residual b", "residual g", "residual r", "residual unevenness", "distance",
    "distance over best", "is empty", "class b", "class g", "class r", "class unevenness",
    "look change b", "look change g", "look change r", "look change", "ring clipped",
    "centre clipped", "track", "home", "kennel", "light change", "disc pattern match",
    "ring pattern match", "rim pattern match",
    *(f"profile {part} {quartile}" for part in ("disc", "inner", "outer")
      for quartile in ("low", "high")),
    *(f"profile change {part} {quartile}" for part in ("disc", "inner", "outer")
      for quartile in ("low", "high")),
)
CHANGED_LOOK = 0.45  # a hole's centre changed by this much (log) beyond the light's, ...
CHANGED_NOISE = 0.5  # ... and this many times the frame's noise more, ...
CHANGED_DISC = 0.4  # ... its disc pattern matching the reference's no better than this
CHANGED_ALONE = 1.0  # a change this large (plus the noise's share) whatever the disc pattern
IMPOSSIBLE_SCORE = -30.0  # the logit of a class a hole cannot hold: almost always far below
# its best class (a hole that looks like nothing it can hold may score lower: the census never
# gives a hole such a class)


@dataclass(frozen=True)
class PairEvidence:
    """Per class and hole: ``residual`` (C, N, 4) scaled, ``means`` (C, N, 4) the class
    looks, ``look_change`` (C, N, 3) log centre colour now minus the class's reference centre
    colour at that hole, less the light's change there (`look_changes`); per hole
    ``ring_clipped`` and ``centre_clipped`` (N, 3) bool, ``kinds`` (N, 3) one-hot,
    ``disc_match`` (N,) how well the disc's brightness pattern agrees with the reference's,
    ``shape`` (N, 14) ring and rim pattern match, the radial brightness profile now and its
    change since the reference (`HoleFeatures.profile`);
    ``drift`` (3,) the board-wide light change; ``possible`` (C, N) which classes each hole
    can hold (`possible_classes`)."""

    residual: np.ndarray
    means: np.ndarray
    look_change: np.ndarray
    ring_clipped: np.ndarray
    centre_clipped: np.ndarray
    kinds: np.ndarray
    disc_match: np.ndarray
    shape: np.ndarray
    drift: np.ndarray
    possible: np.ndarray

    def matrix(self) -> np.ndarray:
        """(C * N, len(INPUTS)) float32 rows, class-major."""
        classes, holes = self.residual.shape[:2]
        distance = np.log1p(np.sqrt((self.residual ** 2).sum(axis=2)))
        per_hole = np.column_stack([self.ring_clipped.sum(axis=1) / 3,
                                    self.centre_clipped.sum(axis=1) / 3, self.kinds,
                                    np.full(holes, self.drift.mean()), self.disc_match,
                                    self.shape])
        is_empty = np.zeros((classes, holes, 1))
        is_empty[0] = 1.0
        stacked = np.concatenate([
            self.residual, distance[..., None], (distance - distance.min(axis=0))[..., None],
            is_empty, self.means, self.look_change,
            length(self.look_change)[..., None],
            np.broadcast_to(per_hole, (classes, *per_hole.shape)),
        ], axis=2)
        return stacked.reshape(classes * holes, -1).astype(np.float32)


def class_scores(network: Network, pairs: PairEvidence) -> np.ndarray:
    """(C, N) the match network's logits; `IMPOSSIBLE_SCORE` for classes a hole cannot hold."""
    logits = network.logits(pairs.matrix()).reshape(pairs.residual.shape[:2])
    return np.where(pairs.possible, logits, IMPOSSIBLE_SCORE)


def possible_classes(owners: np.ndarray, seats: list[int]) -> np.ndarray:
    """(C, N) which classes each hole can hold, given each hole's ``owners`` (the seat of a
    kennel or home hole, -1 on the track) and the playing `seats` (class k + 1 is seat
    ``seats[k]``): any hole can be empty and a track hole hold any colour, but a kennel or home
    hole holds only its own seat's marbles (a beaten marble goes back to its owner's kennel;
    a home takes its own seat's marbles only)."""
    colours = [(owners < 0) | (owners == seat) for seat in seats]
    return np.array([np.ones(len(owners), bool), *colours])


def class_centres(kennel_seats: np.ndarray, seats: list[int], reference_centre: np.ndarray,
                  empty_holes: np.ndarray) -> np.ndarray:
    """(C, N, 3) how each class's centre looked in the reference frame, per hole: an empty
    hole its own (kennels, full in the reference, take the median empty hole), a colour the
    median of its seat's kennel."""
    empty = np.where(empty_holes[:, None], reference_centre,
                     np.median(reference_centre[empty_holes], axis=0))
    looks = [empty] + [np.broadcast_to(np.median(reference_centre[kennel_seats == seat], axis=0),
                                       empty.shape) for seat in seats]
    return np.stack(looks)


def look_changes(now: HoleFeatures, reference: HoleFeatures, drift: np.ndarray,
                 centres: np.ndarray) -> np.ndarray:
    """(C, N, 3) each hole's centre colour now minus each class's reference centre colour,
    less the change of light at the hole: its ring's change where neither ring is
    overexposed, else the board-wide `drift`."""
    clipped = ring_overexposed(now, reference)
    light = np.where(clipped[:, None], drift, now.ring - reference.ring)
    return np.asarray(now.centre[None] - centres - light[None])


def ring_overexposed(now: HoleFeatures, reference: HoleFeatures) -> np.ndarray:
    """(N,) holes whose ring is overexposed in some channel in either frame: the change of
    light there is unknown."""
    return np.asarray((now.ring_clipped | (reference.ring >= CLIPPED_LOG)).any(axis=1))


def changed_holes(now: HoleFeatures, reference: HoleFeatures, disc_match: np.ndarray,
                  noise: float) -> np.ndarray:
    """(N,) the holes that no longer hold what they held in the reference: the centre's
    colour changed in some channel beyond the change of light there (its ring's) by
    `CHANGED_LOOK` plus `CHANGED_NOISE` times the frame's ``noise`` (the bare board's typical
    colour change, `occlusion.Baseline.foreign_regions`), and the disc's brightness pattern
    no longer matches (at most `CHANGED_DISC`); or changed by `CHANGED_ALONE` (plus the same
    share of noise) whatever the pattern (light from one side shades a marble and a dimple
    alike). A lamp moved since the reference moves the highlights in an empty dimple, but
    seldom changes its colour this much too. Where the ring is overexposed in either frame (a
    glare spot) the light there is unknown; but where it is overexposed in both, the glare
    stayed: a centre darker by `CHANGED_ALONE` in every channel than the change of light over
    the rest of the board (the median of the other rings') is a marble come into a glared
    dimple; so is a centre brighter by `CHANGED_LOOK` in every channel than the reference's
    (not overexposed there) and than any brightening of the board, whose disc pattern no longer
    matches (at most `CHANGED_DISC`): white glass in a glared dimple. No other hole under
    glare counts as changed."""
    clipped = ring_overexposed(now, reference)
    light = now.ring - reference.ring
    change = np.abs(now.centre - reference.centre - light).max(axis=1)
    beyond_noise = change - CHANGED_NOISE * noise
    changed = (((beyond_noise >= CHANGED_LOOK) & (disc_match <= CHANGED_DISC))
               | (beyond_noise >= CHANGED_ALONE)) & ~clipped
    glared = now.ring_clipped.any(axis=1) & (reference.ring >= CLIPPED_LOG).any(axis=1)
    if glared.any() and (~clipped).any():
        board = np.median(light[~clipped], axis=0)
        darker = (reference.centre - now.centre + board).min(axis=1) - CHANGED_NOISE * noise
        changed |= glared & ~now.centre_clipped.any(axis=1) & (darker >= CHANGED_ALONE)
        brighter = ((now.centre - reference.centre - np.maximum(board, 0.0)).min(axis=1)
                    - CHANGED_NOISE * noise)
        changed |= (glared & ~(reference.centre >= CLIPPED_LOG).any(axis=1)
                    & (brighter >= CHANGED_LOOK) & (disc_match <= CHANGED_DISC))
    return np.asarray(changed)
