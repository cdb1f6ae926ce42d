"""What the reader measures at every hole: the colour of its centre and of the board around it.

Robust statistics of the sampled pixels (`holes`): the centre's colour below the median
(a glass highlight is small and bright), the ring's upper quartile (the marble's own shadow and
rim darken part of it), how uneven the centre is, which channels are overexposed, and the
hole's radial brightness profile (a milky marble is bright inside a grey rim, a dimple dark
throughout). Colours are kept as logarithms: ratios of them cancel the light falling on both.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.reader.holes import BAND_OFFSETS, RIM_OFFSETS, RING_OFFSETS, HoleSamples

FLAT_LIMIT = 0.12  # log colour difference centre/ring below which a hole looks covered
FLAT_UNEVENNESS = 0.08  # and brightness spread below which its centre is featureless
RING_PERCENTILE = 75  # the ring's colour: upper quartile (shadows and rims are darker)
DISC_PERCENTILE = 35  # the centre's colour: below the median (highlights are brighter)
CLIPPED_LEVEL = 247  # 8-bit level from which a channel says nothing about colour
CLIP_SLACK = 0.35  # how far (log) the true value of a clipped channel may lie beyond it
LOG_OFFSET = 4.0  # features are logs of 8-bit level + this (dark levels stay finite)
CLIPPED_LOG = float(np.log(CLIPPED_LEVEL + LOG_OFFSET))  # a log colour this high is overexposed
SECTORS = 8  # ring and rim are also described in this many sectors (a hand's edge covers few)
EXTENT_RANK = 3  # how far around a change reaches: the change of this many sectors at least
PROFILE_SPLIT_MM = 5.75  # the band's inner part (a marble's body) and outer part (its rim)
PROFILE_PERCENTILES = (25, 75)  # each part of the profile: its lower and upper quartile


def _sector_weights(offsets: np.ndarray) -> np.ndarray:
    """(points, SECTORS) weights that average the points of each angular sector."""
    turn = np.arctan2(offsets[:, 1], offsets[:, 0]) / (2 * np.pi) + 0.5
    sector = np.floor(turn * SECTORS).astype(int) % SECTORS
    weights = np.eye(SECTORS)[sector] / np.bincount(sector, minlength=SECTORS)
    return np.asarray(weights.astype(np.float32))


def _sector_means(pixels: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """(N, SECTORS, 3) mean colour of each sector of (N, points, 3) pixels."""
    return np.tensordot(pixels, weights, axes=([1], [0])).transpose(0, 2, 1)


_RING_SECTORS = _sector_weights(RING_OFFSETS)
_RIM_SECTORS = _sector_weights(RIM_OFFSETS)
_BAND_INNER = np.hypot(BAND_OFFSETS[:, 0], BAND_OFFSETS[:, 1]) <= PROFILE_SPLIT_MM


def _quantile(values: np.ndarray, *percents: float) -> np.ndarray:
    """Per hole (axis 1) the value at each percentile (nearest rank; fast, no sorting)."""
    last = values.shape[1] - 1
    ranks = [round(percent / 100 * last) for percent in percents]
    ordered = np.partition(values, ranks, axis=1)
    picked = [ordered[:, rank] for rank in ranks]
    return picked[0] if len(picked) == 1 else np.stack(picked)


_THIRD = np.full(3, 1 / 3, np.float32)


def brightness(colours: np.ndarray) -> np.ndarray:
    """Mean of the last axis (B, G, R): a product with (1/3, 1/3, 1/3), because numpy's own
    mean over an axis of three is some 40 times slower."""
    return np.asarray(colours @ _THIRD.astype(colours.dtype, copy=False))


def length(colours: np.ndarray) -> np.ndarray:
    """Euclidean length along the last axis (B, G, R), as `brightness` faster than numpy's."""
    return np.asarray(np.sqrt((colours * colours) @ np.ones(3, colours.dtype)))


def medians(rows: np.ndarray) -> np.ndarray:
    """The median along the last axis, as np.median(rows, axis=-1) but several times faster
    on short rows."""
    count = rows.shape[-1]
    middle = np.partition(rows, [(count - 1) // 2, count // 2], axis=-1)
    return (middle[..., (count - 1) // 2] + middle[..., count // 2]) / 2


def _pattern(light: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per hole (rows): brightness less its mean scaled to unit length, and its spread."""
    centred = light - light.mean(axis=1, keepdims=True)
    norm = np.sqrt((centred * centred).sum(axis=1, keepdims=True))
    spread = norm[:, 0] / np.sqrt(light.shape[1])
    return centred / (norm + 1e-3), spread


def _log(values: np.ndarray) -> np.ndarray:
    return np.asarray(np.log(values.astype(np.float32) + LOG_OFFSET))


@dataclass(frozen=True)
class HoleFeatures:
    """Per-hole measurements of one frame (profile hole order)."""

    ring: np.ndarray  # (N, 3) log median BGR of the board around each hole
    centre: np.ndarray  # (N, 3) log median BGR of each hole's centre
    spread: np.ndarray  # (N,) spread of brightness over each hole's centre (8-bit levels)
    ring_clipped: np.ndarray  # (N, 3) the board around the hole is overexposed in a channel
    centre_clipped: np.ndarray  # (N, 3) the hole's centre is overexposed in a channel
    ring_pattern: np.ndarray  # (N, R) the ring's brightness, less its mean, unit length
    disc_pattern: np.ndarray  # (N, D) the same of the disc
    ring_texture: np.ndarray  # (N,) log of the ring's brightness spread relative to its level
    ring_sectors: np.ndarray  # (N, SECTORS, 3) log mean BGR of each sector of the ring
    rim_sectors: np.ndarray  # (N, SECTORS, 3) the same of the rim (board right at the hole)
    rim_pattern: np.ndarray  # (N, M) the rim's brightness, less its mean, unit length
    profile: np.ndarray  # (N, 6) log brightness quartiles of disc, inner, outer band less ring

    @classmethod
    def measure(cls, samples: HoleSamples) -> HoleFeatures:
        """Robust statistics (medians, percentile spreads) of the sampled pixels."""
        # Upper quartile: the marble's own shadow and rim darken part of the ring.
        ring = _quantile(samples.ring, RING_PERCENTILE)
        # Lower than the median: a glass marble's highlight is small and very bright.
        centre = _quantile(samples.disc, DISC_PERCENTILE)
        disc_light = brightness(samples.disc)
        low, high = _quantile(disc_light, 20, 90)
        ring_light = brightness(samples.ring)
        ring_pattern, ring_spread = _pattern(ring_light)
        disc_pattern, _ = _pattern(disc_light)
        texture = np.log((ring_spread + 1.0) / (ring_light.mean(axis=1) + LOG_OFFSET))
        ring_sectors = _sector_means(samples.ring, _RING_SECTORS)
        rim_sectors = _sector_means(samples.rim, _RIM_SECTORS)
        rim_pattern, _ = _pattern(brightness(samples.rim))
        band_light = brightness(samples.band)
        parts = (disc_light, band_light[:, _BAND_INNER], band_light[:, ~_BAND_INNER])
        profile = np.column_stack([_log(quartile) for part in parts
                                   for quartile in _quantile(part, *PROFILE_PERCENTILES)])
        profile -= _log(brightness(ring))[:, None]
        return cls(_log(ring), _log(centre), high - low, ring >= CLIPPED_LEVEL,
                   centre >= CLIPPED_LEVEL, ring_pattern, disc_pattern, texture,
                   _log(ring_sectors), _log(rim_sectors), rim_pattern, profile)

    def sector_change(self, other: HoleFeatures) -> np.ndarray:
        """(10, N) how unevenly ring and rim changed since another frame: of the sectors'
        colour changes less the ring's median change (the light at the hole), the largest
        colour (chroma) change, the deepest darkening and the strongest brightening, for the
        ring, then the rim; then, for ring and rim, the `EXTENT_RANK`-th largest chroma change
        and darkening. A hand's edge changes a few sectors, one over the hole many; light
        changes them alike."""
        ring = self.ring_sectors - other.ring_sectors
        light = medians(ring.transpose(0, 2, 1))[:, None, :]
        described, extent = [], []
        for change in (ring - light, self.rim_sectors - other.rim_sectors - light):
            level = brightness(change)
            chroma = length(change - level[..., None])
            described += [chroma.max(axis=1), level.min(axis=1), level.max(axis=1)]
            extent += [np.sort(chroma, axis=1)[:, -EXTENT_RANK],
                       np.sort(level, axis=1)[:, EXTENT_RANK - 1]]
        return np.stack(described + extent)

    def pattern_match(self, other: HoleFeatures) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per hole, how well the brightness patterns of ring, disc and rim agree with
        another frame's (correlation, -1…1): the board's grain stays where it is unless
        something covers it; light changes leave it alone."""
        ring = (self.ring_pattern * other.ring_pattern).sum(axis=1)
        disc = (self.disc_pattern * other.disc_pattern).sum(axis=1)
        rim = (self.rim_pattern * other.rim_pattern).sum(axis=1)
        return ring, disc, rim

    def look_flat(self) -> np.ndarray:
        """Per hole: the centre looks like the board around it, neither a dimple nor a marble
        (a hand, a card or paper over the hole)."""
        ratio = np.abs(self.centre - self.ring)
        known = ~(self.ring_clipped | self.centre_clipped)
        flat = np.where(known, ratio < FLAT_LIMIT, True).all(axis=1) & known.any(axis=1)
        return np.asarray(flat & (self.unevenness(np.zeros_like(self.ring)) < FLAT_UNEVENNESS))

    def unevenness(self, paint: np.ndarray) -> np.ndarray:
        """Brightness spread over each hole's centre relative to the surface around it."""
        level = brightness(np.exp(self.ring - paint))
        return np.asarray(self.spread / level)

    def residuals(self, vectors: np.ndarray, means: np.ndarray) -> np.ndarray:
        """``vectors - means`` (C, N, F) where clipping allows it: a clipped ring makes the measured
        ratio an upper bound of the true one, a clipped centre a lower bound (each by up to
        `CLIP_SLACK`: what is clipped is rarely far above the clipping level), both: unknown."""
        residual = vectors - means
        clipped = np.flatnonzero((self.ring_clipped | self.centre_clipped).any(axis=1))
        if not len(clipped):
            return np.asarray(residual)
        # Only the few holes with a clipped channel need the bounds.
        colour = residual[:, clipped, :3]
        ring, centre = self.ring_clipped[clipped], self.centre_clipped[clipped]
        below = np.minimum(colour, 0) + np.maximum(colour - CLIP_SLACK, 0)
        above = np.maximum(colour, 0) + np.minimum(colour + CLIP_SLACK, 0)
        colour = np.where(ring & ~centre, below, colour)
        colour = np.where(centre & ~ring, above, colour)
        residual[:, clipped, :3] = np.where(ring & centre, 0.0, colour)
        return np.asarray(residual)

    def vectors(self, paint: np.ndarray) -> np.ndarray:
        """(N, 4) classification features given each hole's paint correction."""
        surface = self.ring - paint
        return np.column_stack([self.centre - surface, self.unevenness(paint)])
