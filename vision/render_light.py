"""Room light and camera response: exposure, white balance, gradients, shadows, glare, sensor."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

CAMERA_BALANCED_FOR_K = 5000.0  # the white balance the camera assumes
WHITE_BALANCE_RESIDUAL = 0.5  # share of the lamp's tint that auto white balance leaves in
_FIELD_STEP = 8  # the light field is evaluated every this many pixels, then interpolated
_EFFECTIVE_WAVELENGTHS_NM = (465.0, 545.0, 610.0)  # B, G, R


@dataclass(frozen=True)
class Glare:
    """A soft specular reflection of a lamp on the board's surface, in board mm."""

    x: float
    y: float
    radius_mm: float
    strength: float


@dataclass(frozen=True)
class Lighting:
    """Everything about the room light and the camera's response, for one frame.

    `gradient` is the relative brightness change from the board's centre to its edge along
    `gradient_angle_deg`; the shadow darkens by `shadow_depth` the side of a soft line, at
    signed distance `shadow_offset_mm` from the centre, that `shadow_angle_deg` points to.
    """

    level: float
    kelvin: float
    gradient: float
    gradient_angle_deg: float
    shadow_depth: float
    shadow_angle_deg: float
    shadow_offset_mm: float
    shadow_softness_mm: float
    vignetting: float
    glare: tuple[Glare, ...]


def white_balance_gains(kelvin: float) -> np.ndarray:
    """BGR gains of a lamp of `kelvin` seen by a camera balanced for `CAMERA_BALANCED_FOR_K`.

    Planck's law at one effective wavelength per channel, normalised to green, with only
    `WHITE_BALANCE_RESIDUAL` of the tint left after the camera's auto white balance.
    """
    def planck(wavelength_nm: float, temperature: float) -> float:
        metres = wavelength_nm * 1e-9
        return 1.0 / (metres ** 5 * (math.exp(1.4388e-2 / (metres * temperature)) - 1))

    ratios = np.array([planck(w, kelvin) / planck(w, CAMERA_BALANCED_FOR_K)
                       for w in _EFFECTIVE_WAVELENGTHS_NM])
    ratios /= ratios[1]
    return (ratios ** WHITE_BALANCE_RESIDUAL).astype(np.float32)


def light_field(lighting: Lighting, image_to_board: np.ndarray, board_half_mm: float,
                size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Per-pixel illumination gain and additive glare (in 8-bit levels) for an image `size`.

    Evaluated on a coarse grid of image pixels mapped onto the board plane, then interpolated.
    """
    width, height = size
    cols = np.arange(0, width + _FIELD_STEP, _FIELD_STEP, dtype=np.float64)
    rows = np.arange(0, height + _FIELD_STEP, _FIELD_STEP, dtype=np.float64)
    gx, gy = np.meshgrid(cols, rows)
    pixels = np.stack([gx.ravel(), gy.ravel(), np.ones(gx.size)], axis=1)
    board = pixels @ image_to_board.T
    bx, by = (board[:, 0] / board[:, 2]).reshape(gx.shape), (board[:, 1] / board[:, 2]).reshape(
        gx.shape)
    gain = _gradient(lighting, bx, by, board_half_mm) * _shadow(lighting, bx, by)
    gain *= _vignetting(lighting, gx, gy, width, height)
    glare = sum((_glare_spot(spot, bx, by) for spot in lighting.glare), np.zeros_like(bx))
    return _upsample(gain, size), _upsample(glare, size)


def _gradient(lighting: Lighting, bx: np.ndarray, by: np.ndarray, half: float) -> np.ndarray:
    angle = math.radians(lighting.gradient_angle_deg)
    along = (bx * math.cos(angle) + by * math.sin(angle)) / half
    return 1 + lighting.gradient * np.clip(along, -1.5, 1.5)


def _shadow(lighting: Lighting, bx: np.ndarray, by: np.ndarray) -> np.ndarray:
    angle = math.radians(lighting.shadow_angle_deg)
    depth_into = bx * math.cos(angle) + by * math.sin(angle) - lighting.shadow_offset_mm
    inside = 1 / (1 + np.exp(-depth_into / max(lighting.shadow_softness_mm / 4, 1e-3)))
    return 1 - lighting.shadow_depth * inside


def _vignetting(lighting: Lighting, gx: np.ndarray, gy: np.ndarray, width: int,
                height: int) -> np.ndarray:
    r2 = ((gx - width / 2) ** 2 + (gy - height / 2) ** 2) / ((width / 2) ** 2 + (height / 2) ** 2)
    return 1 - lighting.vignetting * r2


def _glare_spot(spot: Glare, bx: np.ndarray, by: np.ndarray) -> np.ndarray:
    d2 = ((bx - spot.x) ** 2 + (by - spot.y) ** 2) / spot.radius_mm ** 2
    return spot.strength * (np.exp(-d2 * 1.5) * 0.6 + np.exp(-d2 * 6) * 0.8)


def _upsample(field: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Stretch a coarse field (one sample every `_FIELD_STEP` px from 0) over the full image."""
    width, height = size
    rows, cols = field.shape
    full = cv2.resize(field.astype(np.float32), ((cols - 1) * _FIELD_STEP + 1,
                                                 (rows - 1) * _FIELD_STEP + 1),
                      interpolation=cv2.INTER_LINEAR)
    return full[:height, :width]


def expose(scene: np.ndarray, lighting: Lighting, gain: np.ndarray,
           glare: np.ndarray) -> np.ndarray:
    """The float32 sensor image: scene lit by the field, tinted by the lamp, scaled by exposure."""
    tint = white_balance_gains(lighting.kelvin) * lighting.level
    lit = scene.astype(np.float32) * gain[..., None] + glare[..., None]
    return lit * tint


def develop(sensor: np.ndarray, rng: np.random.Generator, *, noise_sigma: float, level: float,
            blur_sigma: float, jpeg_quality: int | None) -> np.ndarray:
    """Blur, add sensor noise (stronger in dim light), quantise to uint8 and JPEG round-trip."""
    if blur_sigma > 0:
        sensor = cv2.GaussianBlur(sensor, (0, 0), blur_sigma)
    if noise_sigma > 0:
        sigma = noise_sigma / max(level, 0.2) ** 0.5
        sensor = sensor + rng.standard_normal(sensor.shape, dtype=np.float32) * sigma
    image = np.clip(sensor, 0, 255).astype(np.uint8)
    if jpeg_quality is None:
        return image
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR)
