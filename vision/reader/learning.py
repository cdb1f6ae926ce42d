"""Learning from accepted positions: what the reader compares against follows the light.

The reference frame labels every hole once (kennels full, track and homes empty). In a game,
every position the table accepts labels every hole again. From such a frame (nothing over the
board, the reading agreeing with the truth) the reader moves, by `LEARN_RATE` of the way:

* each hole's stored look (`HoleFeatures` of the reference: ring, centre, sectors, profile) to
  the frame's, where the hole holds what it held in the reference; elsewhere the stored look
  follows the change of light at the hole, interpolated from the holes that do
  (`interpolated`, Gaussian weights over `LIGHT_REACH_MM`);
* each colour's look to the median of the holes holding that colour now, each empty hole's own
  look to the frame's (bounded as in the reference by `OWN_LOOK_LIMIT` from the plain track's);
* the bare board between the holes (the occlusion baseline) to the frame's, away from holes
  whose marble came or went (their shadows), where the change of light is interpolated.

The patterns of the board's grain stay the reference's: light does not move them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from vision.reader.features import HoleFeatures

LEARN_RATE = 0.5  # how far one accepted frame moves what the reader compares against
LIGHT_REACH_MM = 60.0  # the change of light at a hole is judged from holes this close
MAX_DISAGREEMENT = 2  # holes a reading may differ from the truth by (incl. "?") to be learnt
SHADOW_REACH_MM = 22.0  # a marble's shadow falls this far from its hole's centre


def interpolated(values: np.ndarray, known_xy: np.ndarray, wanted_xy: np.ndarray) -> np.ndarray:
    """(T, ...) Gaussian-weighted mean of ``values`` (K, ...) measured at ``known_xy`` (K, 2),
    at ``wanted_xy`` (T, 2) mm; the nearest values dominate (`LIGHT_REACH_MM`)."""
    if not len(wanted_xy):
        return np.zeros((0, *values.shape[1:]), values.dtype)
    apart = np.linalg.norm(wanted_xy[:, None] - known_xy[None], axis=2)
    # Relative to the nearest known value, so that far points still get finite weights.
    weights = np.exp(-0.5 * ((apart - apart.min(axis=1, keepdims=True)) / LIGHT_REACH_MM) ** 2)
    weights /= weights.sum(axis=1, keepdims=True)
    return np.asarray(np.tensordot(weights, values, axes=(1, 0)))


def _light_change(delta: np.ndarray, same: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """(N, ...) ``delta`` where ``same``, elsewhere interpolated from those holes."""
    change = delta.copy()
    change[~same] = interpolated(delta[same], centres[same], centres[~same])
    return change


def blend_features(stored: HoleFeatures, frame: HoleFeatures, same: np.ndarray,
                   centres: np.ndarray, rate: float = LEARN_RATE) -> HoleFeatures:
    """The stored per-hole looks moved towards ``frame``'s: holes where ``same`` (N,) (they
    hold what they held in the reference) by their own change, the others by the change of
    light around them (their ring's, interpolated from the ``same`` holes at ``centres``)."""
    ring_change = _light_change(frame.ring - stored.ring, same, centres)
    light = ring_change[~same]

    def moved(old: np.ndarray, new: np.ndarray, follows: np.ndarray) -> np.ndarray:
        change = new - old
        change[~same] = follows
        return np.asarray(old + rate * change, dtype=old.dtype)

    def kept_unless_same(old: np.ndarray, new: np.ndarray) -> np.ndarray:
        return np.asarray(np.where(same.reshape(-1, *[1] * (old.ndim - 1)), new, old))

    sector_light = light[:, None, :]
    return replace(
        stored,
        ring=moved(stored.ring, frame.ring, light),
        centre=moved(stored.centre, frame.centre, light),
        ring_sectors=moved(stored.ring_sectors, frame.ring_sectors, sector_light),
        rim_sectors=moved(stored.rim_sectors, frame.rim_sectors, sector_light),
        spread=moved(stored.spread, frame.spread, np.zeros(int((~same).sum()))),
        ring_texture=moved(stored.ring_texture, frame.ring_texture,
                           np.zeros(int((~same).sum()))),
        profile=moved(stored.profile, frame.profile, np.zeros((int((~same).sum()), 6))),
        ring_clipped=kept_unless_same(stored.ring_clipped, frame.ring_clipped),
        centre_clipped=kept_unless_same(stored.centre_clipped, frame.centre_clipped),
    )


def blend_means(means: np.ndarray, empty_vectors: np.ndarray, vectors: np.ndarray,
                truth: np.ndarray, kennel: np.ndarray, plain: np.ndarray,
                own_look_limit: float, rate: float = LEARN_RATE) -> np.ndarray:
    """(C, N, F) the class looks ``means`` moved towards a frame's: ``empty_vectors`` and
    ``vectors`` (N, F) are its features as an empty hole and as a marble, ``truth`` (N,) every
    hole's class index (0 empty). Each colour seen takes the median of its holes, each empty
    track or home hole its own look within ``own_look_limit`` of the plain track's
    (``plain``), kennels the plain track's, the others (a marble there now) the plain track's
    change."""
    means = np.array(means, dtype=float)
    empty = truth == 0
    plain_now = empty & plain
    if plain_now.any():
        plain_empty = np.median(empty_vectors[plain_now], axis=0)
        own = plain_empty + np.clip(empty_vectors - plain_empty, -own_look_limit,
                                    own_look_limit)
        old_plain = np.median(means[0][plain_now], axis=0)
        target = np.where((empty & ~kennel)[:, None], own, means[0] + plain_empty - old_plain)
        target[kennel] = plain_empty
        means[0] += rate * (target - means[0])
    for index in range(1, len(means)):
        holding = truth == index
        if holding.any():
            look = np.median(vectors[holding], axis=0)
            means[index] += rate * (look - means[index])
    return means


def blend_surface(stored: np.ndarray, frame: np.ndarray, fair: np.ndarray,
                  points_xy: np.ndarray, anchors: np.ndarray | None = None,
                  rate: float = LEARN_RATE) -> np.ndarray:
    """(P, 3) the bare board's stored colours (log) moved towards ``frame``'s: where ``fair``
    (no marble came or went nearby) by their own change, elsewhere by the change interpolated
    from the fair points near them (``points_xy`` (P, 2) mm), of the ``anchors`` (P,) only
    when given and any is fair (the rings around the holes: a few hundred, not thousands)."""
    if not fair.any():
        return stored
    change = frame - stored
    sources = fair if anchors is None or not (fair & anchors).any() else fair & anchors
    change[~fair] = interpolated(change[sources], points_xy[sources], points_xy[~fair])
    return np.asarray(stored + rate * change, dtype=stored.dtype)


def blend_table(stored: tuple[np.ndarray, np.ndarray] | None,
                now: tuple[np.ndarray, np.ndarray],
                rate: float = LEARN_RATE) -> tuple[np.ndarray, np.ndarray]:
    """The table beside the board (`SurfaceGrid.sample_outside`: log colours, seen) moved
    ``rate`` of the way to ``now``'s, where both frames show it: its light follows the
    board's."""
    if stored is None:
        return now
    (before, seen_before), (colours, seen) = stored, now
    return before + rate * (colours - before), seen_before & seen


def near(points_xy: np.ndarray, centres: np.ndarray, reach_mm: float) -> np.ndarray:
    """(P,) which points lie within ``reach_mm`` of any of ``centres`` (K, 2)."""
    if not len(centres):
        return np.zeros(len(points_xy), bool)
    apart = np.linalg.norm(points_xy[:, None] - centres[None], axis=2)
    return np.asarray(apart.min(axis=1) <= reach_mm)
