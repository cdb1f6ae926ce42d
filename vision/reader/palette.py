"""Colour names for the seats: what colour each kennel's marbles are, by a named palette.

The reader learns each seat's look from the reference frame; this module gives that look its
name. The white paper around the markers is the frame's white: its colour against the plain
board beside it says what the board is in white light, and the plain board beside a kennel
then gives the white there (so a shadow or a gradient across the board cancels too). The
kennel marbles' colour is divided by that white (in linear light, per channel), so the
lamp's colour and the exposure cancel, and the result is compared in CIE L*a*b* with the
palette below. The seats are named
together, each with another name (two players never share a colour), by the cheapest
assignment; the names of the board's own marble set (the profile's default colours) are
preferred by `OTHER_SET_COST`. Where the camera overexposes, a channel says only "at least
this much": each named colour is compared as the camera would show it under that white,
clipped where the camera clips (`CLIPPED_LEVEL`); and since a camera's tone curve also pales
colours before they clip, a seat whose kennel is overexposed counts only `CLIPPED_WEIGHT` as
much, so that it takes the name the clearer seats leave (a blue kennel washed out to a pale
cyan beside a white one).

`PALETTE_SRGB` is the documented palette: each named colour as an sRGB value (0…255), the
colour of a glass marble of that name on white paper in daylight. `PALETTE` holds their
L*a*b* values (D65 white), computed from it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import numpy as np

from hw import BoardProfile
from vision.locate import BoardFit

PALETTE_SRGB: dict[str, tuple[int, int, int]] = {
    "red": (200, 40, 40),
    "orange": (240, 130, 30),
    "yellow": (245, 215, 40),
    "green": (40, 170, 70),
    "blue": (30, 100, 200),
    "purple": (130, 60, 170),
    "white": (240, 240, 240),
    "black": (30, 30, 30),
}
LIGHTNESS_WEIGHT = 0.5  # L* counts half: a marble's lightness follows the exposure and its hole
OTHER_SET_COST = 20.0  # a name outside the board's own marble set costs this much more (ΔE)
SHADE_WEIGHT = 0.3  # cost of shading a named colour darker, per unit of L* taken away
EXPOSURE_STOP_COST = 8.0  # cost of exposing a named colour brighter, per doubling of its light
CLIPPED_LEVEL = 247  # 8-bit level from which the camera's channel is overexposed
CLIPPED_WEIGHT = 0.2  # how much an overexposed kennel's colour difference counts
PAPER_FROM_MM = 3.0  # the paper is sampled this far outside a marker's black square ...
PAPER_TO_MM = 6.0  # ... to this far (the printed quiet zone is 1.5 modules, 9 mm at 36 mm)
PAPER_CLIPPED = 250  # 8-bit level from which a paper sample is overexposed and not used

_SRGB_TO_XYZ = np.array([[0.4124, 0.3576, 0.1805],
                         [0.2126, 0.7152, 0.0722],
                         [0.0193, 0.1192, 0.9505]])
_D65 = np.array([0.95047, 1.0, 1.08883])


def linear(srgb: np.ndarray) -> np.ndarray:
    """sRGB values (0…1) to linear light."""
    srgb = np.asarray(srgb, np.float64)
    return np.asarray(np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4))


def lab_from_linear_rgb(rgb: np.ndarray) -> np.ndarray:
    """(…, 3) linear RGB (white = 1) to CIE L*a*b* (D65)."""
    xyz = np.asarray(rgb, np.float64) @ _SRGB_TO_XYZ.T / _D65
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]),
                     200 * (f[..., 1] - f[..., 2])], axis=-1)


def lab_from_srgb(srgb: Sequence[float]) -> np.ndarray:
    """One sRGB colour (0…255) in CIE L*a*b* (D65)."""
    return lab_from_linear_rgb(linear(np.asarray(srgb, np.float64) / 255))


PALETTE: dict[str, np.ndarray] = {name: lab_from_srgb(rgb) for name, rgb in PALETTE_SRGB.items()}
_CEILING = float(linear(np.array(CLIPPED_LEVEL / 255)))  # `CLIPPED_LEVEL` in linear light


def linear_bgr(levels: np.ndarray) -> np.ndarray:
    """Camera BGR (8-bit levels, sRGB-encoded) in linear light (0…1)."""
    return linear(np.clip(np.asarray(levels, np.float64), 0, 255) / 255)


def balanced_lab(bgr: np.ndarray, white: np.ndarray) -> np.ndarray:
    """(…, 3) linear BGR as L*a*b*, with the linear BGR `white` as white."""
    rgb = (np.asarray(bgr, np.float64) / np.maximum(white, 1e-4))[..., ::-1]
    return lab_from_linear_rgb(np.clip(rgb, 0.0, 1.5))


def difference(first: np.ndarray, second: np.ndarray) -> float:
    """How far apart two L*a*b* colours lie (ΔE, lightness weighted less)."""
    gap = np.asarray(first) - np.asarray(second)
    return float(np.sqrt((LIGHTNESS_WEIGHT * gap[0]) ** 2 + gap[1] ** 2 + gap[2] ** 2))


def distance(colour: np.ndarray, white: np.ndarray, name: str) -> float:
    """How far a linear camera BGR `colour` lies from a named colour seen under the linear BGR
    `white`, both clipped where the camera clips, compared in L*a*b* with `white` as white.

    Glass in a hole shows less light than on white paper (it refracts the dark hole behind
    it): the named colour is first shaded (all channels alike) down to the colour's brightness,
    and the lightness this takes away costs `SHADE_WEIGHT` per unit of L*. So a dark marble
    keeps its hue and saturation for its name (a dark yellow is still yellow, not black),
    while black and white, which differ in lightness only, are told apart by it. A colour
    brighter than its name is also compared with the name exposed up to its brightness and
    clipped where the camera clips, each doubling of the light costing `EXPOSURE_STOP_COST`:
    blue glass overexposed until its blue channel clips turns a pale cyan and is still nearer
    blue than white, while a colour needs many stops to clip to white."""
    named = linear(np.array(PALETTE_SRGB[name][::-1], np.float64) / 255) * white
    seen = np.minimum(colour, _CEILING)
    brightness = luminance(seen, white)
    shade = min(1.0, brightness / max(luminance(named, white), 1e-6))
    full = balanced_lab(np.minimum(named, _CEILING), white)
    shaded = balanced_lab(np.minimum(named * shade, _CEILING), white)
    seen_lab = balanced_lab(seen, white)
    near = difference(seen_lab, shaded) + SHADE_WEIGHT * float(full[0] - shaded[0])
    if shade < 1.0:
        return near
    gain = _exposure(named, white, brightness)
    exposed = balanced_lab(np.minimum(named * gain, _CEILING), white)
    return min(near, difference(seen_lab, exposed) + EXPOSURE_STOP_COST * float(np.log2(gain)))


def _exposure(named: np.ndarray, white: np.ndarray, brightness: float) -> float:
    """The gain (at least 1) that brings the linear BGR `named`, clipped where the camera
    clips, to the relative luminance `brightness` with `white` as white, or as near as
    clipping every channel allows."""
    low, high = 1.0, max(1.0, float(np.max(_CEILING / np.maximum(named, 1e-6))))
    for _ in range(30):
        middle = (low + high) / 2
        if luminance(np.minimum(named * middle, _CEILING), white) < brightness:
            low = middle
        else:
            high = middle
    return high


def luminance(bgr: np.ndarray, white: np.ndarray) -> float:
    """The relative luminance Y of a linear BGR colour with `white` as white."""
    rgb = (np.asarray(bgr, np.float64) / np.maximum(white, 1e-4))[::-1]
    return float(_SRGB_TO_XYZ[1] @ rgb)


def paper_colours(image: np.ndarray, profile: BoardProfile, fit: BoardFit) -> np.ndarray:
    """(markers, 3) the BGR colour (8-bit levels) of the white paper around each marker: the
    median of samples in a square band just outside its black square, overexposed ones left
    out while enough remain (NaN for a marker outside the picture)."""
    height, width = image.shape[:2]
    colours = np.full((len(profile.markers), 3), np.nan)
    for index, marker in enumerate(profile.markers):
        points = []
        for reach in np.linspace(PAPER_FROM_MM, PAPER_TO_MM, 3) + marker.size / 2:
            for step in np.linspace(-reach, reach, 12):
                points += [(marker.x + step, marker.y - reach), (marker.x + step, marker.y + reach),
                           (marker.x - reach, marker.y + step), (marker.x + reach, marker.y + step)]
        pixels = fit.project(np.array(points, np.float64))
        inside = ((pixels >= 0) & (pixels <= (width - 1, height - 1))).all(axis=1)
        if inside.mean() < 0.5:
            continue
        where = np.round(pixels[inside]).astype(int)
        samples = image[where[:, 1], where[:, 0]].astype(np.float64)
        clear = (samples < PAPER_CLIPPED).all(axis=1)
        colours[index] = np.median(samples[clear] if clear.sum() >= len(samples) // 4
                                   else samples, axis=0)
    return colours


def name_seats(looks: Mapping[int, tuple[np.ndarray, np.ndarray]], preferred: Sequence[str],
               clipped: Sequence[int] = (), told: Mapping[int, str] | None = None,
               ) -> dict[int, str]:
    """Each seat's colour name from its look, (linear camera BGR colour, linear BGR white
    there): the `told` names as told, the others by the cheapest assignment of distinct
    palette names (see the module's docstring); `preferred` are the board's own colours."""
    told = dict(told or {})
    seats = sorted(seat for seat in looks if seat not in told)
    names = [name for name in PALETTE if name not in told.values()]
    if not seats:
        return told
    cost = np.array([[(distance(*looks[seat], name)
                       + (0.0 if name in preferred else OTHER_SET_COST))
                      * (CLIPPED_WEIGHT if seat in clipped else 1.0) for name in names]
                     for seat in seats])
    if len(seats) > len(names):  # more seats than names left: each its nearest
        return told | {seat: names[int(row.argmin())] for seat, row in zip(seats, cost,
                                                                           strict=True)}
    choices = np.array(list(itertools.permutations(range(len(names)), len(seats))))
    totals = cost[np.arange(len(seats)), choices].sum(axis=1)
    best = choices[int(totals.argmin())]
    return told | {seat: names[int(index)] for seat, index in zip(seats, best, strict=True)}
