"""Whether a hole's best class can be trusted, or the hole must be reported as ``"?"``.

The reader gathers, per hole, the evidence a careful person would weigh: how well the hole
fits its best class and how clearly it beats the runner-up; how far the nearest hand or card
is and how much of the board around the hole it covers; whether the hole and the board around
it changed since the reference frame in a way light does not explain, and how far around the
hole; how dark the hole is and how noisy the frame; how strange its neighbours look. A small
network (`network`, ``models/hole_trust.npz``: the mean of four trained alike) turns
that into the log-odds that the best class may be reported: that it is right and less than
half of the marble is covered by a hand or card. Holes below the network's threshold are
reported as unknown. The threshold was chosen in training (`vision/reader/train.py`) so that a
definite wrong colour under a hand costs as much as 50 false unknowns.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.reader.features import brightness, length, medians

REACH_CAP_MM = 100.0  # farther from a foreign region than this counts as far
STRANGE = 4.5  # scaled distance to every class beyond which a hole looks like nothing known
DOUBTFUL = 3.0  # ... and beyond which it is in doubt
AT_REGION_MM = 12.0  # a hole this close to a foreign region is at it
NEAR_REGION_MM = 19.0  # ... this close, near it
NOISE_FLOOR = 0.1  # 8-bit levels added to the frame's noise before its log (a clean render)

INPUTS = (
    "best distance", "nearest distance", "second distance", "best score", "score margin",
    "best is empty", "best brightness", "unevenness", "region reach", "at region",
    "ring changed", "flat", "ring clipped", "centre clipped", "track", "home", "kennel",
    "adjacent strangest", "around strangest", "around strange count", "around doubtful count",
    "adjacent weakest score", "frame doubtful share", "frame region share",
    "ring chroma change", "ring brightness change", "centre change", "centre brightness change",
    "light change", "ring pattern match", "ring match below typical", "disc pattern match",
    "texture change", "adjacent worst ring match", "around worst ring match",
    "sector chroma change", "sector darkening", "sector brightening",
    "rim sector chroma change", "rim sector darkening", "rim sector brightening",
    "adjacent sector chroma change", "gaussian agrees", "rim pattern match",
    "ring sector extent chroma", "ring sector extent darkening",
    "rim sector extent chroma", "rim sector extent darkening",
    "region share", "ring level", "centre level", "frame noise", "centre noise",
)


@dataclass(frozen=True)
class HoleEvidence:
    """Everything the reader knows about the holes of one frame, before the trust decision.

    ``distance`` (C, N) Gaussian distances to the classes and ``scores`` (C, N) the match
    network's logits (the best class has the highest), ``class_brightness`` (C,) mean log ratio
    of each class to the board (0 for empty), ``reach`` (N,) mm to the nearest foreign region,
    ``nothing_over`` whether those are all strays, no hand or card
    (`occlusion.nothing_over_board`), ``ring_changed`` and ``flat`` (N,) bool,
    ``unevenness`` (N,), ``ring_clipped`` and ``centre_clipped`` (N, 3) bool, ``kinds`` (N, 3)
    one-hot track/home/kennel, ``adjacent`` and ``around`` (N, N) bool neighbourhoods,
    ``ring_delta`` and ``centre_delta`` (N, 3) log colour change of the ring and centre since
    the reference, ``ring_match``, ``disc_match`` and ``rim_match`` (N,) how well their
    brightness patterns still agree with the reference's (`HoleFeatures.pattern_match`),
    ``texture_change`` (N,) the change of the ring's relative brightness spread, ``sectors``
    (10, N) how unevenly ring and rim changed (`HoleFeatures.sector_change`), ``region_share``
    (N,) how much of the board around each hole a foreign region covers
    (`occlusion.region_share`), ``noise`` the frame's noise in 8-bit levels, ``levels``
    (N, 2) the log brightness of ring and centre (how dark the spot is: the noise weighs more
    there).
    """

    distance: np.ndarray
    scores: np.ndarray
    class_brightness: np.ndarray
    reach: np.ndarray
    nothing_over: bool
    ring_changed: np.ndarray
    flat: np.ndarray
    unevenness: np.ndarray
    ring_clipped: np.ndarray
    centre_clipped: np.ndarray
    kinds: np.ndarray
    adjacent: np.ndarray
    around: np.ndarray
    ring_delta: np.ndarray
    centre_delta: np.ndarray
    ring_match: np.ndarray
    disc_match: np.ndarray
    rim_match: np.ndarray
    texture_change: np.ndarray
    sectors: np.ndarray
    region_share: np.ndarray
    noise: float
    levels: np.ndarray

    @property
    def best(self) -> np.ndarray:
        """Per hole the index of the best class."""
        return np.asarray(self.scores.argmax(axis=0))

    @property
    def margin(self) -> np.ndarray:
        """Per hole how far the best class's score lies above the runner-up's (10 where there
        is one class only)."""
        if len(self.scores) < 2:
            return np.full(self.scores.shape[1], 10.0)
        top = np.sort(self.scores, axis=0)
        return np.asarray(top[-1] - top[-2])

    def matrix(self) -> np.ndarray:
        """(N, len(INPUTS)) float32 feature rows, one per hole."""
        count = self.distance.shape[1]
        holes = np.arange(count)
        best = self.best
        ordered = np.sort(self.distance, axis=0)
        nearest = ordered[0]
        second = ordered[1] if len(ordered) > 1 else ordered[0] + 10
        margin = self.margin
        strange = (nearest > STRANGE).astype(np.float32)
        doubtful = (nearest > DOUBTFUL).astype(np.float32)
        log_nearest = np.log1p(nearest)
        adjacent = self.adjacent.astype(np.float32)
        around = self.around.astype(np.float32)
        reach = np.minimum(self.reach, REACH_CAP_MM)
        log_noise = np.log(self.noise + NOISE_FLOOR)
        # Light changed over the whole board: the median change of the rings takes it out.
        drift = medians(self.ring_delta.T)
        ring = self.ring_delta - drift
        ring_brightness = brightness(ring)
        ring_chroma = length(ring - ring_brightness[:, None])
        centre = self.centre_delta - drift
        columns = [
            np.log1p(self.distance[best, holes]), log_nearest, np.log1p(second),
            self.scores[best, holes],
            margin, best == 0, self.class_brightness[best], self.unevenness,
            reach / REACH_CAP_MM, reach <= AT_REGION_MM, self.ring_changed, self.flat,
            self.ring_clipped.sum(axis=1) / 3, self.centre_clipped.sum(axis=1) / 3,
            *self.kinds.T, _largest(adjacent, log_nearest), _largest(around, log_nearest),
            around @ strange, around @ doubtful,
            10 - _largest(adjacent, 10 - np.minimum(margin, 10)),
            np.full(count, doubtful.mean()), np.full(count, (self.reach <= NEAR_REGION_MM).mean()),
            ring_chroma, ring_brightness, length(centre), brightness(centre),
            np.full(count, drift.mean()), self.ring_match,
            self.ring_match - medians(self.ring_match[None, :])[0], self.disc_match,
            self.texture_change,
            1 - _largest(adjacent, 1 - self.ring_match), 1 - _largest(around, 1 - self.ring_match),
            *self.sectors[:6], _largest(adjacent, self.sectors[0]),
            self.distance.argmin(axis=0) == best, self.rim_match, *self.sectors[6:],
            self.region_share, *self.levels.T, np.full(count, log_noise),
            # noise against the centre's level: in a dark spot of a noisy frame a black
            # marble and an empty hole look alike
            log_noise - self.levels[:, 1],
        ]
        rows = np.empty((count, len(columns)), np.float32)
        for index, column in enumerate(columns):
            rows[:, index] = column
        return rows


def _largest(neighbours: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per hole the largest of its neighbours' non-negative `values` (0 without neighbours);
    `neighbours` (N, N) is 1.0 where two holes are neighbours. A product is far faster than
    masking."""
    return np.asarray((neighbours * values[None, :].astype(np.float32)).max(axis=1))

