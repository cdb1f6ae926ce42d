"""Per-hole measurements: light cancels, a hand's edge and a covered grain do not."""

from __future__ import annotations

import numpy as np

from vision.reader.features import SECTORS, HoleFeatures, brightness, length, medians
from vision.reader.holes import BAND_OFFSETS, DISC_OFFSETS, RIM_OFFSETS, RING_OFFSETS, HoleSamples


def _samples(rng: np.random.Generator, holes: int = 5) -> HoleSamples:
    """Wood-like grain around empty holes: a brownish colour with brightness texture."""
    def grain(points: int) -> np.ndarray:
        level = rng.uniform(0.8, 1.2, (holes, points, 1))
        return (np.array([70.0, 110.0, 160.0]) * level).astype(np.float32)

    return HoleSamples(grain(len(DISC_OFFSETS)) * 0.5, grain(len(RING_OFFSETS)),
                       grain(len(RIM_OFFSETS)), grain(len(BAND_OFFSETS)) * 0.5)


def _scaled(samples: HoleSamples, factor: float) -> HoleSamples:
    return HoleSamples(samples.disc * factor, samples.ring * factor, samples.rim * factor,
                       samples.band * factor)


def test_brightness_is_the_mean_of_the_channels():
    colours = np.random.default_rng(1).uniform(0, 255, (4, 6, 3)).astype(np.float32)
    assert np.allclose(brightness(colours), colours.mean(axis=2), atol=1e-3)


def test_length_is_the_euclidean_norm_of_the_colour():
    colours = np.random.default_rng(5).normal(size=(4, 6, 3)).astype(np.float32)
    assert np.allclose(length(colours), np.linalg.norm(colours, axis=-1), atol=1e-5)


def test_medians_are_numpys_along_the_last_axis():
    rng = np.random.default_rng(4)
    for count in (1, 2, 5, 8, 191):
        values = rng.normal(size=(3, 4, count)).astype(np.float32)
        assert np.allclose(medians(values), np.median(values, axis=-1))


def test_dimmer_light_keeps_the_grain_and_changes_no_sector():
    samples = _samples(np.random.default_rng(2))
    reference = HoleFeatures.measure(samples)
    dimmer = HoleFeatures.measure(_scaled(samples, 0.6))
    ring, disc, rim = dimmer.pattern_match(reference)
    assert np.allclose(ring, 1, atol=1e-3) and np.allclose(disc, 1, atol=1e-3)
    assert np.allclose(rim, 1, atol=1e-3)
    assert np.abs(dimmer.sector_change(reference)).max() < 0.01
    assert np.abs(dimmer.profile - reference.profile).max() < 0.03


def test_the_profile_tells_a_milky_marble_with_a_grey_rim_from_a_dimple():
    samples = _samples(np.random.default_rng(7))  # dimples: disc and band at half the board
    marble = HoleSamples(samples.disc.copy(), samples.ring, samples.rim, samples.band.copy())
    marble.disc[0] = 200.0  # hole 0: a milky body as bright as the board ...
    outer = np.hypot(BAND_OFFSETS[:, 0], BAND_OFFSETS[:, 1]) > 6.0
    marble.band[0][~outer] = 190.0
    marble.band[0][outer] = 90.0  # ... with a grey rim
    dimple, milky = HoleFeatures.measure(samples).profile, HoleFeatures.measure(marble).profile
    assert milky.shape == (5, 6)
    assert np.allclose(dimple[:, 0], dimple[:, 4], atol=0.15)  # a dimple is dark throughout
    assert milky[0, 1] - milky[0, 5] > 0.5  # the marble is bright inside, dark at its rim
    assert np.allclose(milky[1:], dimple[1:])


def _skin_over(samples: HoleSamples, edges: dict[int, float]) -> HoleFeatures:
    """The holes' features with skin over ring and rim beyond x > edge mm, per hole."""
    covered = HoleSamples(samples.disc, samples.ring.copy(), samples.rim.copy(), samples.band)
    for pixels, offsets in ((covered.ring, RING_OFFSETS), (covered.rim, RIM_OFFSETS)):
        for hole, edge in edges.items():
            pixels[hole, offsets[:, 0] > edge] = (120, 150, 210)
    return HoleFeatures.measure(covered)


def test_a_hand_over_one_side_shows_in_its_sectors_and_pattern():
    samples = _samples(np.random.default_rng(3))
    reference = HoleFeatures.measure(samples)
    now = _skin_over(samples, {0: 5})  # hole 0 only
    chroma, _, brightest = now.sector_change(reference)[:3]
    assert chroma[0] > 0.1 and brightest[0] > 0.2
    assert np.abs(chroma[1:]).max() < 1e-4
    ring, _, rim = now.pattern_match(reference)
    assert ring[0] < 0.9 and rim[0] < 0.9 and np.allclose(ring[1:], 1, atol=1e-3)
    assert now.ring_sectors.shape == (5, SECTORS, 3)


def test_the_extent_rows_tell_a_fingertip_from_a_hand_over_half_the_hole():
    samples = _samples(np.random.default_rng(6))
    reference = HoleFeatures.measure(samples)
    # A narrow edge of hole 0 (x > 10 mm) and half of hole 1 (x > 0).
    change = _skin_over(samples, {0: 10, 1: 0}).sector_change(reference)
    assert change.shape == (10, 5)
    ring_extent, rim_extent = change[6], change[8]
    assert change[0, 0] > 0.1  # the fingertip changes a sector strongly ...
    assert ring_extent[0] < 0.05 and rim_extent[0] < 0.05  # ... but not three
    assert ring_extent[1] > 0.1 and rim_extent[1] > 0.1
    assert np.abs(change[:, 2:]).max() < 1e-4
