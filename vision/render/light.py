"""Room light and camera response: exposure, white balance, gradients, shadows, glare, sensor."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

CAMERA_BALANCED_FOR_K = 5000.0  # the white balance the camera assumes
WHITE_BALANCE_RESIDUAL = 0.5  # share of the lamp's tint that auto white balance leaves in
_FIELD_STEP = 4  # the light field is evaluated every this many pixels, then interpolated
_EFFECTIVE_WAVELENGTHS_NM = (465.0, 545.0, 610.0)  # B, G, R
_NOISE_FIELDS = 3  # cached noise fields per image size; frames use random windows of them
_NOISE_MARGIN = 48


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
                size: tuple[int, int],
                shading: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """Per-pixel BGR light and additive glare (8-bit levels; None without glare spots).

    The light holds the lamp's tint and the exposure, the gradient, the soft shadow, vignetting
    and `shading`, an optional extra light factor at a quarter of the image resolution. Both are
    evaluated on a coarse grid of image pixels mapped onto the board plane, then interpolated.
    """
    width, height = size
    gx, gy = np.meshgrid(np.arange(0, width + _FIELD_STEP, _FIELD_STEP, dtype=np.float64),
                         np.arange(0, height + _FIELD_STEP, _FIELD_STEP, dtype=np.float64))
    board = np.stack([gx, gy, np.ones_like(gx)], axis=-1) @ image_to_board.T
    bx, by = board[..., 0] / board[..., 2], board[..., 1] / board[..., 2]
    gain = _gradient(lighting, bx, by, board_half_mm) * _shadow(lighting, bx, by)
    gain *= _vignetting(lighting, gx, gy, width, height)
    if shading is not None:
        gain *= cv2.resize(shading, gain.shape[::-1], interpolation=cv2.INTER_LINEAR)
    tint = white_balance_gains(lighting.kelvin) * lighting.level
    light = _upsample(gain[..., None] * tint, size)
    if not lighting.glare:
        return light, None
    glare = sum((_glare_spot(spot, bx, by) for spot in lighting.glare), np.zeros_like(bx))
    return light, _upsample(glare[..., None] * tint, size)


def _gradient(lighting: Lighting, bx: np.ndarray, by: np.ndarray, half: float) -> np.ndarray:
    angle = math.radians(lighting.gradient_angle_deg)
    along = (bx * math.cos(angle) + by * math.sin(angle)) / half
    return 1 + lighting.gradient * np.clip(along, -1.5, 1.5)


def _shadow(lighting: Lighting, bx: np.ndarray, by: np.ndarray) -> np.ndarray:
    angle = math.radians(lighting.shadow_angle_deg)
    depth_into = bx * math.cos(angle) + by * math.sin(angle) - lighting.shadow_offset_mm
    # A sigmoid; capping its exponent (no overflow) changes no shadow value in float64.
    width = max(lighting.shadow_softness_mm / 4, 1e-3)
    inside = 1 / (1 + np.exp(np.minimum(-depth_into / width, 50.0)))
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
    rows, cols = field.shape[:2]
    full = cv2.resize(field.astype(np.float32), ((cols - 1) * _FIELD_STEP + 1,
                                                 (rows - 1) * _FIELD_STEP + 1),
                      interpolation=cv2.INTER_LINEAR)
    return full[:height, :width]


def develop(frame: np.ndarray, light: np.ndarray, glare: np.ndarray | None,
            rng: np.random.Generator, *, level: float, noise_sigma: float, blur_sigma: float,
            jpeg_quality: int | None) -> np.ndarray:
    """The camera's uint8 picture of a scene under `light` (see `light_field`): optics blur,
    additive glare, sensor noise (stronger in dim light, exposure `level`), JPEG round trip."""
    if blur_sigma > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), blur_sigma)
    sensor = cv2.multiply(frame, light, dtype=cv2.CV_32F)
    if glare is not None:
        sensor = cv2.add(sensor, glare)
    if noise_sigma > 0:
        sigma = noise_sigma / max(level, 0.2) ** 0.5
        image = cv2.addWeighted(sensor, 1.0, _noise(rng, frame.shape), sigma, 0.0,
                                dtype=cv2.CV_8U)
    else:
        image = cv2.convertScaleAbs(sensor)
    if jpeg_quality is None:
        return image
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    if decoded is None:
        raise RuntimeError("JPEG decoding failed")
    return np.asarray(decoded)


def _noise(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Unit Gaussian noise of `shape`: a random window of a larger cached field."""
    field = _noise_field(shape[0] + _NOISE_MARGIN, shape[1] + _NOISE_MARGIN,
                         int(rng.integers(_NOISE_FIELDS)))
    dy, dx = (int(v) for v in rng.integers(0, _NOISE_MARGIN, 2))
    return field[dy:dy + shape[0], dx:dx + shape[1]]


@lru_cache(maxsize=2 * _NOISE_FIELDS)
def _noise_field(height: int, width: int, index: int) -> np.ndarray:
    field = np.random.default_rng([height, width, index]).standard_normal(
        (height, width, 3), dtype=np.float32)
    field.flags.writeable = False
    return field
