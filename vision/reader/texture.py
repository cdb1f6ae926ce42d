"""The board's fine texture (wood grain, brushed metal) between the holes, frame against reference.

Light changes the board's brightness and colour but keeps its texture: a lamp switched on adds
white, a shadow scales the light, and both leave the pattern of the grain in place. A hand, a
sleeve or a card hides it. Around a surface grid point a small square of the full-resolution
frame is sampled (`PATCH_MM`, `PATCH_SIDE` × `PATCH_SIDE` points); its log brightness without
its mean and gradient is the point's texture, and the normalised correlation with the
reference's says how much of the grain still shows (1: all of it, about 0: none).

A point says nothing where either frame is overexposed there (`CLIPPED_LEVEL`: glare flattens
the grain) or where the reference shows too little texture to tell from the sensor's noise
(`LEAST_CONTRAST`); and nothing at all where the board's grain is not in view over most of
the board (`SurfaceTexture.in_view`: a smooth board's "texture" is the sensor's noise).

A region hides the grain when enough of its points tell (`TEXTURE_WITNESSES`) and their median
match lies below `HIDDEN_TEXTURE`: on path-traced frames the brighter regions over hands match
−0.06 to 0.08, over lamps switched on or moved 0.66 to 0.92. It shows the grain from
`SHOWN_TEXTURE` up, with few points hiding it (`LIGHT_HIDDEN_SHARE`): light, whatever its
colour did.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.locate import BoardFit
from vision.reader.features import LOG_OFFSET

PATCH_MM = 6.0  # side of the square sampled around a point
PATCH_SIDE = 5  # samples along each side of it
CLIPPED_LEVEL = 250  # a grey level this high may be overexposed: no texture to see
LEAST_CONTRAST = 0.02  # least spread of the reference's log brightness over a square (texture)
TEXTURE_WITNESSES = 8  # points of a region that must tell their texture to judge it ...
HIDDEN_TEXTURE = 0.15  # ... by their median match: below this, the grain is hidden (a thing)
SHOWN_TEXTURE = 0.6  # ... and from this up, it shows through (light) ...
LIGHT_HIDDEN_SHARE = 0.1  # ... unless more of its points than this hide it (a hand's shadow)
FADED_TEXTURE = 0.3  # a found thing extends over the points around it matching below this ...
TEXTURE_NEIGHBOURS = 3  # ... averaged over the told points of their square, this many at least
SPREAD_POINTS = 400  # told points over the board that show whether its grain is in view


def _offsets() -> np.ndarray:
    """(K, 2) the sample offsets of one square in board mm."""
    steps = (np.arange(PATCH_SIDE) - (PATCH_SIDE - 1) / 2) * PATCH_MM / (PATCH_SIDE - 1)
    xs, ys = np.meshgrid(steps, steps)
    return np.column_stack([xs.ravel(), ys.ravel()])


_OFFSETS = _offsets()
# An orthonormal basis of what light does across a square: a level and a gradient.
_LIGHT = np.linalg.qr(np.column_stack([np.ones(len(_OFFSETS)), _OFFSETS]))[0].astype(np.float32)


def grey_levels(image: np.ndarray) -> np.ndarray:
    """The grey levels of an 8-bit BGR frame (a grey frame as it is): convert a frame once
    where it is matched several times."""
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _squares(image: np.ndarray, fit: BoardFit,
             points_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(P, K) log grey level of the squares around (P, 2) board points, and (P,) whether any
    sample of a square may be overexposed."""
    if not len(points_mm):
        return np.zeros((0, len(_OFFSETS)), np.float32), np.zeros(0, bool)
    grey = grey_levels(image)
    where = (points_mm[:, None, :] + _OFFSETS[None]).reshape(-1, 2)
    pixels = fit.project(where).astype(np.float32).reshape(len(points_mm), -1, 2)
    levels = cv2.remap(grey, pixels, None, cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE).reshape(len(points_mm), -1)
    clipped = np.asarray((levels >= CLIPPED_LEVEL).any(axis=1))
    return np.log(levels.astype(np.float32) + LOG_OFFSET), clipped


def _centred(logs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each square without its level and gradient (the texture), and its spread (P,)."""
    centred = logs - (logs @ _LIGHT) @ _LIGHT.T
    return centred, np.sqrt((centred ** 2).mean(axis=1))


@dataclass(frozen=True)
class SurfaceTexture:
    """The reference's texture around every usable point of a surface grid (`SurfaceGrid`)."""

    points_mm: np.ndarray  # (M, 2)
    patterns: np.ndarray  # (M, K) the reference's squares, centred, unit length (0: untold)
    told: np.ndarray  # (M,) the reference shows texture there, unclipped
    spread: np.ndarray  # (S,) told points spread over the board (`in_view`)

    @classmethod
    def learn(cls, points_mm: np.ndarray, reference: np.ndarray,
              fit: BoardFit) -> SurfaceTexture:
        """The texture of a reference frame at (M, 2) board points, where ``fit`` puts it."""
        logs, clipped = _squares(reference, fit, points_mm)
        centred, contrast = _centred(logs)
        told = ~clipped & (contrast >= LEAST_CONTRAST)
        norm = np.sqrt((centred ** 2).sum(axis=1, keepdims=True))
        patterns = np.where(told[:, None], centred / np.maximum(norm, 1e-9), 0.0)
        indices = np.flatnonzero(told)
        every = np.linspace(0, len(indices) - 1, min(SPREAD_POINTS, len(indices))).astype(int)
        return cls(points_mm, patterns.astype(np.float32), told, indices[every])

    def in_view(self, image: np.ndarray, fit: BoardFit) -> bool:
        """Whether the board's grain shows in ``image`` at all: most of `SPREAD_POINTS` told
        points over the board still match the reference's (`SHOWN_TEXTURE`). Where the
        reference's "texture" was only its sensor noise (a smooth board), nothing matches,
        and texture tells nothing about what lies over the board."""
        match = self.match(image, fit, self.spread)
        told = match[np.isfinite(match)]
        return len(told) >= TEXTURE_WITNESSES and float(np.median(told)) >= SHOWN_TEXTURE

    def match(self, image: np.ndarray, fit: BoardFit, points: np.ndarray) -> np.ndarray:
        """(P,) how well the texture around each of ``points`` (indices into the grid's usable
        points) still matches the reference's in ``image`` (normalised correlation), NaN where
        either frame tells none."""
        logs, clipped = _squares(image, fit, self.points_mm[points])
        centred, _ = _centred(logs)
        norm = np.sqrt((centred ** 2).sum(axis=1))
        match = (centred * self.patterns[points]).sum(axis=1) / np.maximum(norm, 1e-9)
        return np.where(self.told[points] & ~clipped, match, np.nan)  # (flat: 0)


def hides_texture(match: np.ndarray) -> bool:
    """Whether the points of one region (their `SurfaceTexture.match`) show that something
    hides the board's grain there."""
    told = match[np.isfinite(match)]
    return len(told) >= TEXTURE_WITNESSES and float(np.median(told)) < HIDDEN_TEXTURE


def shows_texture(match: np.ndarray) -> bool:
    """Whether the points of one region (their `SurfaceTexture.match`) show that the board's
    grain is still in view there: light changed it, nothing lies over it. A hand with its
    shadow is one region, in which the shadow's points may be most: a few points hiding the
    grain keep it a thing (`LIGHT_HIDDEN_SHARE`)."""
    told = match[np.isfinite(match)]
    return (len(told) >= TEXTURE_WITNESSES and float(np.median(told)) >= SHOWN_TEXTURE
            and float(np.mean(told < HIDDEN_TEXTURE)) <= LIGHT_HIDDEN_SHARE)
