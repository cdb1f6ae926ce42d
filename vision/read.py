"""Which marble sits in which hole: per-hole classification, empty or a colour.

Every hole is described relative to the board surface right around it, so that the light
falling on that spot (level, colour temperature, a shadow across the board) cancels out:

* ``ring`` — median colour of the board in a ring around the hole;
* ``paint`` — how much the printed decorations (kennel bands, coloured rings of start and home
  fields) change that ring compared with the plain track surface nearby, measured once;
* ``feature`` — log colour of the hole's centre minus log of the plain board surface there
  (ring corrected for paint), plus how uneven the centre is (glass highlights, a hole's
  shading).

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
from vision.occlusion import occluded_holes

EMPTY = None
UNKNOWN = "?"
FEATURE_FLOOR = np.array([0.10, 0.10, 0.10, 0.10])  # least spread of a class, per feature
MOTION_LIMIT = 0.2  # log colour change of a hole's centre between frames that means motion
OUTLIER_DISTANCE = 6.0  # farther than this from every class: something unknown is there
ABSENT_SEAT_DISTANCE = 0.3  # a kennel this close to the empty look holds no marbles
PLAIN_NEIGHBOURS = 4
_LOG_OFFSET = 4.0

# Glass marbles and board surfaces as seen in neutral light (BGR), for the default prototypes.
TYPICAL_MARBLE_BGR = {
    "red": (40, 36, 190), "yellow": (30, 190, 235), "green": (60, 160, 40),
    "blue": (190, 95, 25), "white": (225, 228, 228), "black": (30, 28, 28),
}
TYPICAL_SURFACE_BGR = {"wood": (150, 188, 222), "aluminium": (192, 192, 188)}


class ReadError(ValueError):
    """A frame cannot be read (e.g. a reference frame that does not show a start position)."""


def _log(values: np.ndarray) -> np.ndarray:
    return np.log(values.astype(np.float32) + _LOG_OFFSET)


@dataclass(frozen=True)
class HoleFeatures:
    """Per-hole measurements of one frame (profile hole order)."""

    ring: np.ndarray  # (N, 3) log median BGR of the board around each hole
    centre: np.ndarray  # (N, 3) log median BGR of each hole's centre
    unevenness: np.ndarray  # (N,) spread of brightness over each hole's centre
    ring_texture: np.ndarray  # (N,) spread of brightness over each ring

    @classmethod
    def measure(cls, samples: HoleSamples) -> HoleFeatures:
        """Robust statistics (medians, percentile spreads) of the sampled pixels."""
        ring = np.median(samples.ring, axis=1)
        centre = np.median(samples.disc, axis=1)
        disc_light = samples.disc.mean(axis=2)
        ring_light = samples.ring.mean(axis=2)
        low, high = np.percentile(disc_light, [20, 90], axis=1)
        ring_low, ring_high = np.percentile(ring_light, [20, 80], axis=1)
        level = ring_light.mean(axis=1) + _LOG_OFFSET
        return cls(_log(ring), _log(centre), (high - low) / level, (ring_high - ring_low) / level)

    def vectors(self, paint: np.ndarray) -> np.ndarray:
        """(N, 4) classification features given each hole's paint correction."""
        surface = self.ring - paint
        return np.column_stack([self.centre - surface, self.unevenness])


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
    """What each class looks like: ``names`` (None = empty), per-hole ``means`` (C, N, F)
    and ``scales`` (C, F); ``paint`` (N, 3) and ``ring`` (N, 3) from the reference frame."""

    names: tuple[str | None, ...]
    means: np.ndarray
    scales: np.ndarray
    paint: np.ndarray | None = None
    ring: np.ndarray | None = None
    learnt: bool = False


def _robust_spread(values: np.ndarray) -> np.ndarray:
    """Standard deviation estimated from the median absolute deviation, per column."""
    return 1.4826 * np.median(np.abs(values - np.median(values, axis=0)), axis=0)


def learn_prototypes(profile: BoardProfile, features: HoleFeatures) -> Prototypes:
    """Learn seat colours and empty holes from a start-of-game frame.

    Kennel ``K<p>.*`` shows seat p's colour (named ``profile.default_colors[p]``); a seat whose
    kennel looks like empty holes is left out (fewer players than seats). Track and home holes
    must be empty.
    """
    paint = paint_offsets(profile, features.ring)
    vectors = features.vectors(paint)
    kinds = [hole.kind for hole in profile.holes]
    empty = np.array([kind != "kennel" for kind in kinds])
    empty_mean = np.median(vectors[empty], axis=0)
    empty_scale = np.hypot(_robust_spread(vectors[empty]), FEATURE_FLOOR)
    count = len(profile.holes)
    per_hole_empty = np.where(empty[:, None], vectors, empty_mean)
    names: list[str | None] = [EMPTY]
    means, scales = [per_hole_empty], [empty_scale]
    for seat in range(profile.seats):
        kennel = np.array([h.kind == "kennel" and h.seat == seat for h in profile.holes])
        if not kennel.any():
            continue
        colour = vectors[kennel]
        if np.linalg.norm(np.median(colour, axis=0) - empty_mean) < ABSENT_SEAT_DISTANCE:
            continue  # an empty kennel: nobody plays this seat
        if seat >= len(profile.default_colors):
            raise ReadError(f"board {profile.name}: no colour name for seat {seat}")
        names.append(profile.default_colors[seat])
        means.append(np.broadcast_to(np.median(colour, axis=0), (count, vectors.shape[1])))
        scales.append(np.hypot(_robust_spread(colour), FEATURE_FLOOR))
    if len(names) < 2:
        raise ReadError("reference frame: no kennel shows marbles; take the reference with "
                        "every marble in its kennel")
    return Prototypes(tuple(names), np.stack(means), np.stack(scales), paint, features.ring,
                      learnt=True)


def default_prototypes(profile: BoardProfile, features: HoleFeatures,
                       paint: np.ndarray) -> Prototypes:
    """Prototypes without a reference frame: typical marble colours over the board's material
    (guessed from the plain track's colour), empty look from the track's majority."""
    vectors = features.vectors(paint)
    plain = np.array([hole.kind == "track" and hole.seat is None for hole in profile.holes])
    empty_mean = np.median(vectors[plain], axis=0)
    surface = np.exp(np.median(features.ring[plain], axis=0))
    material = "wood" if surface[0] < 0.8 * surface[2] else "aluminium"
    count, width = vectors.shape
    names: list[str | None] = [EMPTY]
    means = [np.broadcast_to(empty_mean, (count, width))]
    for colour in profile.default_colors:
        if colour not in TYPICAL_MARBLE_BGR:
            continue
        ratio = _log(np.array(TYPICAL_MARBLE_BGR[colour])) - _log(
            np.array(TYPICAL_SURFACE_BGR[material]))
        names.append(colour)
        means.append(np.broadcast_to(np.append(ratio, 0.5), (count, width)))
    scales = np.tile(FEATURE_FLOOR * 2.5, (len(names), 1))
    return Prototypes(tuple(names), np.stack(means), scales)


@dataclass
class HoleReading:
    """The reading of one frame: ``holes`` maps every hole id to a colour, None or "?"."""

    holes: dict[str, str | None]
    confidence: float
    occluded: bool
    fit: BoardFit
    hole_confidence: np.ndarray = field(repr=False)
    features: HoleFeatures = field(repr=False)

    def to_json(self) -> dict:
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
        self.prototypes: Prototypes | None = None
        if reference is not None:
            self.prototypes = learn_prototypes(profile, self.measure(reference)[1])

    def measure(self, image: np.ndarray) -> tuple[BoardFit, HoleFeatures]:
        """Locate the board and measure every hole (`LocateError` if the board is not found)."""
        fit = self.locator.locate(image)
        return fit, HoleFeatures.measure(self.sampler.sample(image, fit.homography))

    def read(self, image: np.ndarray) -> HoleReading:
        """Classify every hole of one BGR frame."""
        fit, features = self.measure(image)
        prototypes = self.prototypes
        if prototypes is None:
            paint = paint_offsets(self.profile, features.ring)
            prototypes = default_prototypes(self.profile, features, paint)
        else:
            paint = prototypes.paint
        vectors = features.vectors(paint)
        distance = np.sqrt((((vectors[None] - prototypes.means) / prototypes.scales[:, None, :])
                            ** 2).sum(axis=2))  # (C, N)
        best = distance.argmin(axis=0)
        likelihood = np.exp(-0.5 * (distance - distance.min(axis=0)) ** 2)
        confidence = likelihood.max(axis=0) / likelihood.sum(axis=0)
        unknown = distance.min(axis=0) > OUTLIER_DISTANCE
        hidden = occluded_holes(self.profile, features, prototypes.ring, unknown)
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
