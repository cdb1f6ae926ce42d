"""Pixels around each hole: where to look and what the board and the hole's content look like.

For every hole the sampler takes sets of points in board millimetres: a *disc* over the
hole's centre (where a marble shows), a *band* around the disc out to a marble's edge (a
marble's rim and shadow, a dimple's side), a *rim* of board right beside the hole and a *ring*
of board surface farther out. All holes are sampled with one ``cv2.remap`` call, so the cost
hardly depends on the camera's resolution. Marbles stand above the board: disc and band are
sampled on the plane of the marble's centre, found from the board homography (parallax grows
toward the edge of the picture).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from hw import BoardProfile
from vision.locate import BoardFit

MARBLE_CENTRE_HEIGHT_MM = 3.9  # a 16 mm glass marble resting on the rim of a 14 mm hole
DISC_RADIUS_MM = 3.5
RING_MM = (12.0, 14.0)
RIM_MM = (9.0, 11.5)  # the board right around the hole, where a hand's edge shows first
BAND_MM = (4.0, 8.0)  # around the disc out to a marble's edge: its rim and shadow, a dimple's side
BAND_STEP_MM = 1.0
DISC_STEP_MM = 0.7
RING_STEP_MM = 1.0
DEFAULT_FOCAL = 0.85  # focal length / larger image side when the view is too straight to tell


def _offsets(inner: float, outer: float, step: float) -> np.ndarray:
    """Grid points (mm), ``step`` apart, with inner <= r <= outer around the origin."""
    span = np.arange(-outer, outer + 1e-9, step)
    xx, yy = np.meshgrid(span, span)
    r = np.hypot(xx, yy)
    keep = (r >= inner) & (r <= outer)
    return np.stack([xx[keep], yy[keep]], axis=1)


DISC_OFFSETS = _offsets(0.0, DISC_RADIUS_MM, DISC_STEP_MM)
RING_OFFSETS = _offsets(*RING_MM, RING_STEP_MM)
RIM_OFFSETS = _offsets(*RIM_MM, RING_STEP_MM)
BAND_OFFSETS = _offsets(*BAND_MM, BAND_STEP_MM)


def raised_homography(homography: np.ndarray, image_size: tuple[int, int],
                      height_mm: float) -> np.ndarray:
    """Homography of the plane ``height_mm`` above the board, from the board's own.

    Assumes square pixels and the principal point at the image centre; the focal length is
    recovered from the homography when the camera is tilted enough to tell, else assumed.
    """
    width, height = image_size
    centre = np.array([[1, 0, -(width - 1) / 2], [0, 1, -(height - 1) / 2], [0, 0, 1]])
    a = centre @ homography
    a1, a2 = a[:, 0], a[:, 1]
    # Orthogonal, equally long rotation columns: two equations linear in 1/f^2.
    p = np.array([a1[0] * a2[0] + a1[1] * a2[1], a1[0] ** 2 + a1[1] ** 2 - a2[0] ** 2 - a2[1] ** 2])
    q = np.array([a1[2] * a2[2], a1[2] ** 2 - a2[2] ** 2])
    inverse_f2 = -(p @ q) / (p @ p) if p @ p > 0 else 0.0
    scale = max(width, height)
    focal = DEFAULT_FOCAL * scale
    if inverse_f2 > 0:
        estimate = inverse_f2 ** -0.5
        if 0.15 * scale < estimate < 5 * scale:
            focal = estimate
    k = np.diag([focal, focal, 1.0])
    columns = np.linalg.solve(k, a)  # = lambda [r1 r2 t]
    scale_factor = np.linalg.norm(columns[:, 0]) * np.sign(columns[2, 2])  # board in front
    r1 = columns[:, 0] / scale_factor
    r2 = columns[:, 1] / np.linalg.norm(columns[:, 1]) * np.sign(scale_factor)
    up = np.cross(r1, r2)
    if up[2] > 0:  # board "up" must point toward the camera (a mirrored image flips it)
        up = -up
    raised = a.copy()
    raised[:, 2] += scale_factor * height_mm * (k @ up)
    return np.asarray(np.linalg.inv(centre) @ raised)


@dataclass(frozen=True)
class HoleSamples:
    """Pixels of every hole of one frame: ``disc`` (N, D, 3), ``ring`` (N, R, 3), ``rim``
    (N, M, 3) and ``band`` (N, B, 3) float32."""

    disc: np.ndarray
    ring: np.ndarray
    rim: np.ndarray
    band: np.ndarray


class HoleSampler:
    """Samples the disc, ring, rim and band of every hole of a profile, in profile order."""

    def __init__(self, profile: BoardProfile) -> None:
        self.profile = profile
        self.centres = np.array([(hole.x, hole.y) for hole in profile.holes])
        self._disc_mm = (self.centres[:, None, :] + DISC_OFFSETS[None]).reshape(-1, 2)
        self._ring_mm = (self.centres[:, None, :] + RING_OFFSETS[None]).reshape(-1, 2)
        self._rim_mm = (self.centres[:, None, :] + RIM_OFFSETS[None]).reshape(-1, 2)
        self._band_mm = (self.centres[:, None, :] + BAND_OFFSETS[None]).reshape(-1, 2)
        self._pixels_of: tuple[tuple[object, ...], np.ndarray] | None = None

    def sample(self, image: np.ndarray, fit: BoardFit) -> HoleSamples:
        """Sample one BGR frame where ``fit`` puts the board."""
        height, width = image.shape[:2]
        points = self._pixels(fit, (width, height))
        pixels = cv2.remap(image, points, None, cv2.INTER_LINEAR,  # type: ignore[call-overload, unused-ignore]
                           borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        disc, ring = len(DISC_OFFSETS), len(DISC_OFFSETS) + len(RING_OFFSETS)
        rim = ring + len(RIM_OFFSETS)
        return HoleSamples(pixels[:, :disc], pixels[:, disc:ring], pixels[:, ring:rim],
                           pixels[:, rim:])

    def _pixels(self, fit: BoardFit, image_size: tuple[int, int]) -> np.ndarray:
        """(N, D + R + M + B, 2) float32 pixel positions of every hole's disc, ring, rim and
        band; kept while the fit stays the same (the locator keeps its fit while nothing
        moves)."""
        key = (fit.homography.tobytes(), fit.lens, image_size)
        cached = self._pixels_of
        if cached is not None and cached[0] == key:
            return cached[1]
        marble = raised_homography(fit.homography, image_size, MARBLE_CENTRE_HEIGHT_MM)
        count = len(self.centres)
        disc_px = fit.bend(_project(marble, self._disc_mm)).reshape(count, -1, 2)
        ring_px = fit.project(self._ring_mm).reshape(count, -1, 2)
        rim_px = fit.project(self._rim_mm).reshape(count, -1, 2)
        band_px = fit.bend(_project(marble, self._band_mm)).reshape(count, -1, 2)
        points = np.concatenate([disc_px, ring_px, rim_px, band_px], axis=1).astype(np.float32)
        self._pixels_of = (key, points)
        return points


def _project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2), homography).reshape(-1, 2)
