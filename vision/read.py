"""Which marble sits in which hole: per-hole classification, empty or a colour.

Every hole is described relative to the board surface right around it, so that the light
falling on that spot (level, colour temperature, a shadow across the board) cancels out:

* ``ring`` — the board's colour in a ring around the hole (upper quartile: the marble's own
  shadow does not count);
* ``paint`` — how much the printed decorations (kennel bands, coloured rings of start and home
  fields) change that ring compared with the plain track surface nearby, measured once;
* ``feature`` — log colour of the hole's centre minus log of the surface there (an empty
  hole against its own ring, a marble against the plain board: the ring corrected for paint),
  plus how uneven the centre is (glass highlights, a hole's shading).

Seat colours are learnt from a *reference* frame taken at the start of a game (every marble in
its kennel, the track and homes empty): each kennel gives its seat's colour, each empty hole
its own empty look. Without a reference the reader falls back to default colour prototypes
and takes the empty look from the track itself (most track holes are empty in any game):
less robust, documented in docs/vision.md. Holes under a hand or an object are reported as
``"?"`` (see :mod:`vision.occlusion`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from hw import BoardProfile
from vision.holes import HoleSampler, HoleSamples
from vision.locate import BoardFit, Locator
from vision.occlusion import CORE_REACH_MM, NEAR_REACH_MM, Baseline, SurfaceGrid, region_distance

EMPTY = None
UNKNOWN = "?"
FEATURE_FLOOR = np.array([0.10, 0.10, 0.10, 0.10])  # least spread of a class, per feature
DARK_RATIO = 0.7  # log ratio to the board below which a colour counts as dark ...
DARK_SPREAD = 0.15  # ... and its spread grows by this per unit of log ratio
FLAT_LIMIT = 0.12  # log colour difference centre/ring below which a hole looks covered
FLAT_UNEVENNESS = 0.08  # and brightness spread below which its centre is featureless
MOTION_LIMIT = 0.2  # log colour change of a hole's centre between frames that means motion
OUTLIER_DISTANCE = 4.5  # farther than this from every class: something unknown is there
DOUBTFUL_DISTANCE = 3.0  # farther than this: hidden too if next to a hidden hole
DOUBT_REACH_MM = 50.0  # "next to": centres this close
STRANGE_DISTANCE = 4.5  # two adjacent holes this far from every class: something is there
ADJACENT_MM = 30.0  # adjacent holes: centres this close
NEAR_DOUBT_DISTANCE = 2.0  # a hole near a foreign region farther than this from every class ...
OWN_LOOK_LIMIT = 0.15  # how far a hole's empty look may differ from the plain track's
ABSENT_SEAT_DISTANCE = 0.3  # a kennel this close to the empty look holds no marbles
PLAIN_NEIGHBOURS = 4  # plain track holes that say what the bare board looks like near a hole
RING_PERCENTILE = 75  # the ring's colour: upper quartile (shadows and rims are darker)
DISC_PERCENTILE = 35  # the centre's colour: below the median (highlights are brighter)
CLIPPED_LEVEL = 247  # 8-bit level from which a channel says nothing about colour
CLIP_SLACK = 0.35  # how far (log) the true value of a clipped channel may lie beyond it
_LOG_OFFSET = 4.0

# Without a reference frame: how each marble typically looks against the plain board around
# it (the colour features below: log B, G, R ratio and unevenness), measured with this reader
# on the simulator's boards in neutral light. A stand-in for learning, not a substitute.
DEFAULT_LOOKS = {
    "wood": {"red": (-0.44, -0.89, 0.06, 0.53), "yellow": (-0.64, 0.22, 0.17, 0.35),
             "green": (-0.18, 0.14, -1.07, 0.56), "blue": (0.6, -0.28, -1.4, 0.55),
             "white": (0.7, 0.3, 0.16, 0.13), "black": (-0.94, -1.4, -1.56, 0.7)},
    "aluminium": {"red": (-0.88, -0.93, 0.2, 0.49), "yellow": (-1.14, 0.16, 0.27, 0.31),
                  "green": (-0.66, 0.08, -0.96, 0.49), "blue": (0.09, -0.38, -1.32, 0.48),
                  "white": (0.23, 0.24, 0.28, 0.13), "black": (-1.42, -1.46, -1.45, 0.64)},
}
DEFAULT_SPREAD = 2.0  # default looks are this many times less certain than learnt ones


class ReadError(ValueError):
    """A frame cannot be read (e.g. a reference frame that does not show a start position)."""


def _quantile(values: np.ndarray, *percents: float) -> np.ndarray:
    """Per hole (axis 1) the value at each percentile (nearest rank; fast, no sorting)."""
    last = values.shape[1] - 1
    ranks = [round(percent / 100 * last) for percent in percents]
    ordered = np.partition(values, ranks, axis=1)
    picked = [ordered[:, rank] for rank in ranks]
    return picked[0] if len(picked) == 1 else np.stack(picked)


def _log(values: np.ndarray) -> np.ndarray:
    return np.log(values.astype(np.float32) + _LOG_OFFSET)


@dataclass(frozen=True)
class HoleFeatures:
    """Per-hole measurements of one frame (profile hole order)."""

    ring: np.ndarray  # (N, 3) log median BGR of the board around each hole
    centre: np.ndarray  # (N, 3) log median BGR of each hole's centre
    spread: np.ndarray  # (N,) spread of brightness over each hole's centre (8-bit levels)
    ring_clipped: np.ndarray  # (N, 3) the board around the hole is overexposed in a channel
    centre_clipped: np.ndarray  # (N, 3) the hole's centre is overexposed in a channel

    @classmethod
    def measure(cls, samples: HoleSamples) -> HoleFeatures:
        """Robust statistics (medians, percentile spreads) of the sampled pixels."""
        # Upper quartile: the marble's own shadow and rim darken part of the ring.
        ring = _quantile(samples.ring, RING_PERCENTILE)
        # Lower than the median: a glass marble's highlight is small and very bright.
        centre = _quantile(samples.disc, DISC_PERCENTILE)
        disc_light = samples.disc.mean(axis=2)
        low, high = _quantile(disc_light, 20, 90)
        return cls(_log(ring), _log(centre), high - low, ring >= CLIPPED_LEVEL,
                   centre >= CLIPPED_LEVEL)

    def look_flat(self) -> np.ndarray:
        """Per hole: the centre looks like the board around it, neither a dimple nor a marble
        (a hand, a card or paper over the hole)."""
        ratio = np.abs(self.centre - self.ring)
        known = ~(self.ring_clipped | self.centre_clipped)
        flat = np.where(known, ratio < FLAT_LIMIT, True).all(axis=1) & known.any(axis=1)
        return flat & (self.unevenness(np.zeros_like(self.ring)) < FLAT_UNEVENNESS)

    def unevenness(self, paint: np.ndarray) -> np.ndarray:
        """Brightness spread over each hole's centre relative to the surface around it."""
        level = np.exp(self.ring - paint).mean(axis=1)
        return self.spread / level

    def residuals(self, vectors: np.ndarray, means: np.ndarray) -> np.ndarray:
        """``vectors - means`` where clipping allows it: a clipped ring makes the measured
        ratio an upper bound of the true one, a clipped centre a lower bound (each by up to
        `CLIP_SLACK`: what is clipped is rarely far above the clipping level), both: unknown."""
        residual = vectors - means
        colour = residual[..., :3]
        ring, centre = self.ring_clipped, self.centre_clipped
        below = np.minimum(colour, 0) + np.maximum(colour - CLIP_SLACK, 0)
        above = np.maximum(colour, 0) + np.minimum(colour + CLIP_SLACK, 0)
        colour[...] = np.where(ring & ~centre, below, colour)
        colour[...] = np.where(centre & ~ring, above, colour)
        colour[...] = np.where(ring & centre, 0.0, colour)
        return residual

    def vectors(self, paint: np.ndarray) -> np.ndarray:
        """(N, 4) classification features given each hole's paint correction."""
        surface = self.ring - paint
        return np.column_stack([self.centre - surface, self.unevenness(paint)])


def paint_offsets(profile: BoardProfile, ring: np.ndarray) -> np.ndarray:
    """Log colour of each hole's ring minus that of the plain track rings nearest to it."""
    centres = np.array([(hole.x, hole.y) for hole in profile.holes])
    plain = np.array([hole.kind == "track" and hole.seat is None for hole in profile.holes])
    plain_centres, plain_rings = centres[plain], ring[plain]
    distance = np.linalg.norm(centres[:, None, :] - plain_centres[None, :, :], axis=2)
    nearest = np.argsort(distance, axis=1)[:, :PLAIN_NEIGHBOURS]
    return ring - np.median(plain_rings[nearest], axis=1)


@dataclass(frozen=True)
class Prototypes:
    """What each class looks like: ``names`` (None = empty, always first), per-hole ``means``
    (C, N, F) and ``scales`` (C, F) of the features.

    The empty class is measured against each hole's own ring (``empty_paint``): an empty hole
    is a shaded dimple in whatever surrounds it. Marbles are measured against the plain board
    (``paint``): a marble's own colour does not depend on the paint around its hole.
    """

    names: tuple[str | None, ...]
    means: np.ndarray
    scales: np.ndarray
    paint: np.ndarray
    empty_paint: np.ndarray

    def distances(self, features: HoleFeatures) -> np.ndarray:
        """(C, N) scaled distance of every hole's features to every class."""
        empty = features.vectors(self.empty_paint)[None]
        marbles = np.broadcast_to(features.vectors(self.paint),
                                  (len(self.names) - 1, *empty.shape[1:]))
        stacked = np.concatenate([empty, marbles])
        scaled = features.residuals(stacked, self.means) / self.scales[:, None, :]
        return np.sqrt((scaled ** 2).sum(axis=2))


def _robust_spread(values: np.ndarray) -> np.ndarray:
    """Standard deviation estimated from the median absolute deviation, per column."""
    return 1.4826 * np.median(np.abs(values - np.median(values, axis=0)), axis=0)


def _floor(mean: np.ndarray) -> np.ndarray:
    """Least spread of a class: wider for dark colours, whose ratios noise moves more."""
    darkness = np.clip(-mean[:3] - DARK_RATIO, 0.0, None)
    return FEATURE_FLOOR + np.append(DARK_SPREAD * darkness, 0.0)


def _plain_track(profile: BoardProfile) -> np.ndarray:
    return np.array([hole.kind == "track" and hole.seat is None for hole in profile.holes])


def learn_prototypes(profile: BoardProfile, features: HoleFeatures) -> Prototypes:
    """Learn seat colours and empty holes from a start-of-game frame.

    Kennel ``K<p>.*`` shows seat p's colour (named ``profile.default_colors[p]``); a seat whose
    kennel looks like empty holes is left out (fewer players than seats). Track and home holes
    must be empty; each gives its own empty look, kennels take the plain track's.
    """
    paint = paint_offsets(profile, features.ring)
    no_paint = np.zeros_like(paint)
    empty_vectors = features.vectors(no_paint)
    kennel = np.array([hole.kind == "kennel" for hole in profile.holes])
    plain_empty = np.median(empty_vectors[_plain_track(profile)], axis=0)
    # Each hole's own empty look, but only so far from the plain track's: a glint or a shadow
    # edge in the reference frame must not become part of a hole's look.
    own_look = plain_empty + np.clip(empty_vectors - plain_empty, -OWN_LOOK_LIMIT, OWN_LOOK_LIMIT)
    empty_means = np.where(kennel[:, None], plain_empty, own_look)
    names: list[str | None] = [EMPTY]
    means = [empty_means]
    scales = [np.hypot(_robust_spread(empty_vectors[~kennel]), FEATURE_FLOOR)]
    vectors = features.vectors(paint)
    for seat in range(profile.seats):
        own = np.array([h.kind == "kennel" and h.seat == seat for h in profile.holes])
        if not own.any():
            continue
        if np.linalg.norm(np.median(empty_vectors[own], axis=0) - plain_empty) < (
                ABSENT_SEAT_DISTANCE):
            continue  # an empty kennel: nobody plays this seat
        if seat >= len(profile.default_colors):
            raise ReadError(f"board {profile.name}: no colour name for seat {seat}")
        names.append(profile.default_colors[seat])
        mean = np.median(vectors[own], axis=0)
        means.append(np.broadcast_to(mean, empty_means.shape))
        scales.append(np.hypot(_robust_spread(vectors[own]), _floor(mean)))
    if len(names) < 2:
        raise ReadError("reference frame: no kennel shows marbles; take the reference with "
                        "every marble in its kennel")
    return Prototypes(tuple(names), np.stack(means), np.stack(scales), paint, no_paint)


def default_prototypes(profile: BoardProfile, features: HoleFeatures) -> Prototypes:
    """Prototypes without a reference frame: typical marble colours over the board's material
    (guessed from the plain track's colour), empty look from the track's majority."""
    paint = paint_offsets(profile, features.ring)
    vectors = features.vectors(paint)
    plain = _plain_track(profile)
    empty_mean = np.median(vectors[plain], axis=0)
    surface = np.exp(np.median(features.ring[plain], axis=0))
    looks = DEFAULT_LOOKS["wood" if surface[0] < 0.8 * surface[2] else "aluminium"]
    names: list[str | None] = [EMPTY]
    means = [np.broadcast_to(empty_mean, vectors.shape)]
    for colour in profile.default_colors:
        if colour in looks:
            names.append(colour)
            means.append(np.broadcast_to(np.array(looks[colour]), vectors.shape))
    scales = np.stack([FEATURE_FLOOR * DEFAULT_SPREAD] + [
        _floor(mean[0]) * DEFAULT_SPREAD for mean in means[1:]])
    return Prototypes(tuple(names), np.stack(means), scales, paint, paint)


@dataclass
class HoleReading:
    """The reading of one frame: ``holes`` maps every hole id to a colour, None or "?"."""

    holes: dict[str, str | None]
    confidence: float
    occluded: bool
    fit: BoardFit
    hole_confidence: np.ndarray = field(repr=False)
    features: HoleFeatures = field(repr=False)

    def to_json(self) -> dict[str, object]:
        """The ``vision read`` contract: holes, occluded, confidence."""
        return {"holes": dict(self.holes), "occluded": self.occluded,
                "confidence": round(float(self.confidence), 4)}


class BoardReader:
    """Reads frames of one board from one camera: locate, sample, classify, flag occlusion."""

    def __init__(self, profile: BoardProfile, reference: np.ndarray | None = None) -> None:
        self.profile = profile
        self.locator = Locator(profile)
        self.sampler = HoleSampler(profile)
        self.ids = [hole.id for hole in profile.holes]
        self.grid = SurfaceGrid.for_profile(profile)
        centres = np.array([(hole.x, hole.y) for hole in profile.holes])
        apart = np.linalg.norm(centres[:, None] - centres[None], axis=2)
        self._neighbours = apart <= DOUBT_REACH_MM
        self._adjacent = (apart <= ADJACENT_MM) & (apart > 0)
        self.prototypes: Prototypes | None = None
        self.baseline: Baseline | None = None
        if reference is not None:
            self.locator.locate(reference)
            empty = [(h.x, h.y) for h in profile.holes if h.kind != "kennel"]
            self.locator.refine(reference, np.array(empty), profile.hole_diameter_mm / 2)
            fit, features = self.measure(reference)
            self.prototypes = learn_prototypes(profile, features)
            self.baseline = Baseline.learn(self.grid, self.grid.sample(reference, fit.homography),
                                           features.ring)

    def measure(self, image: np.ndarray) -> tuple[BoardFit, HoleFeatures]:
        """Locate the board and measure every hole (`LocateError` if the board is not found)."""
        fit = self.locator.locate(image)
        return fit, HoleFeatures.measure(self.sampler.sample(image, fit.homography))

    def _spread_to_doubtful(self, hidden: np.ndarray, doubtful: np.ndarray) -> np.ndarray:
        """Also hide doubtful holes next to hidden ones (the hand's edge), transitively."""
        hidden = hidden.copy()
        while True:
            reached = doubtful & ~hidden & self._neighbours[:, hidden].any(axis=1)
            if not reached.any():
                return hidden
            hidden |= reached

    def read(self, image: np.ndarray) -> HoleReading:
        """Classify every hole of one BGR frame."""
        fit, features = self.measure(image)
        prototypes = self.prototypes or default_prototypes(self.profile, features)
        distance = prototypes.distances(features)  # (C, N)
        best = distance.argmin(axis=0)
        squared = distance ** 2
        likelihood = np.exp(-0.5 * (squared - squared.min(axis=0)))
        confidence = likelihood.max(axis=0) / likelihood.sum(axis=0)
        unknown = distance.min(axis=0) > OUTLIER_DISTANCE
        hidden = unknown | features.look_flat()
        nearest = distance.min(axis=0)
        if self.baseline is not None:
            surface = self.grid.sample(image, fit.homography)
            region, ring_changed = self.baseline.foreign_regions(surface, features.ring)
            reach = region_distance(self.grid, region)
            # Right at a region: hidden. At its edge: hidden when the hole itself is in doubt
            # (its ring changed, or it looks like no class clearly) -- a hand's edge.
            doubt = ring_changed | (nearest > NEAR_DOUBT_DISTANCE)
            hidden |= (reach <= CORE_REACH_MM) | ((reach <= NEAR_REACH_MM) & doubt)
        strange = nearest > STRANGE_DISTANCE
        # Two strange holes side by side: something is there (a fingertip, a cuff).
        hidden |= strange & self._adjacent[:, strange].any(axis=1)
        hidden = self._spread_to_doubtful(hidden, nearest > DOUBTFUL_DISTANCE)
        holes: dict[str, str | None] = {}
        for index, hole_id in enumerate(self.ids):
            holes[hole_id] = UNKNOWN if hidden[index] else prototypes.names[best[index]]
        visible = ~hidden
        board_confidence = float(confidence[visible].min()) if visible.any() else 0.0
        return HoleReading(holes, board_confidence, bool(hidden.any()), fit, confidence,
                           features)


def frame_motion(previous: HoleReading, current: HoleReading) -> bool:
    """True when the centre of any hole changed colour between two frames (something moving)."""
    change = np.abs(current.features.centre - previous.features.centre).max(axis=1)
    return bool((change > MOTION_LIMIT).any())
