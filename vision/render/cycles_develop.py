"""A camera's processing of a path-traced frame: from linear light to an 8-bit BGR photo.

Auto exposure puts the board's median brightness at mid grey (shifted by the case's exposure
bias), auto white balance pulls the board's average toward grey by the case's strength (a
camera leaves part of a lamp's tint), then the sRGB curve with a soft shoulder, sensor noise and
optionally JPEG compression follow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from vision.render.cycles_case import CyclesCase

MID_GREY = 0.22  # linear level the board's median is exposed to (before the bias)
SHOULDER = 0.8  # linear level above which highlights roll off instead of clipping


def exposure_of(linear: np.ndarray, board: np.ndarray, case: CyclesCase) -> np.ndarray:
    """Per-channel gains (R, G, B) the camera chooses for this frame: exposure and balance."""
    pixels = linear[..., :3][board].astype(np.float64)
    pixels = pixels[pixels.sum(axis=1) > 1e-6]
    if len(pixels) == 0:
        return np.ones(3)
    luminance = pixels @ np.array([0.2126, 0.7152, 0.0722])
    bright = luminance <= np.percentile(luminance, 98)  # highlights do not set the balance
    mean = pixels[bright].mean(axis=0)
    balance = (mean.mean() / np.maximum(mean, 1e-9)) ** case.awb_strength
    level = MID_GREY * 2 ** case.exposure_ev / max(float(np.median(luminance)), 1e-9)
    return np.asarray(balance * level)


def develop(linear: np.ndarray, gains: np.ndarray, case: CyclesCase,
            rng: np.random.Generator) -> np.ndarray:
    """The 8-bit BGR photo of a linear RGB frame."""
    exposed = linear[..., :3] * gains.astype(np.float32)
    over = exposed > SHOULDER
    room = 1 - SHOULDER
    exposed[over] = SHOULDER + room * (1 - np.exp(-(exposed[over] - SHOULDER) / room))
    encoded = np.where(exposed <= 0.0031308, 12.92 * exposed,
                       1.055 * np.power(np.maximum(exposed, 0.0031308), 1 / 2.4) - 0.055)
    levels = encoded * 255 + rng.normal(0, case.noise, encoded.shape)
    image: np.ndarray = np.clip(np.round(levels), 0, 255).astype(np.uint8)[..., ::-1].copy()
    if case.jpeg_quality is not None:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, case.jpeg_quality])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            image = decoded
    return image
