"""Another camera for frames already made: blur, exposure, white balance, noise and JPEG.

The path-traced frames (`bench/render_cycles.py`) take hours to render and come out sharp, clean
and exposed alike. A real camera differs from frame to frame and from the renderer: focus,
exposure and white balance drift, the sensor adds noise, the stream is JPEG. `jittered` draws
such a camera for a pair of frames (the reference and the game frame of one case), so that
the networks learn from, and the benchmark reads, more than the renderer's one camera.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

BLUR_SIGMA_PX = 1.3  # the most blur (Gaussian sigma, px): as `random_conditions` draws it
EXTRA_BLUR_PX = 0.6  # the game frame this much blurrier or sharper than the reference at most
EXPOSURE_STOPS = 0.4  # the game frame's exposure this many stops off the reference at most
GAMMA_SPREAD = 0.1  # its tone curve's exponent 1 ± this
WHITE_BALANCE = 0.08  # each channel's gain 1 ± this
NOISE_LEVELS = 4.0  # the most sensor noise (8-bit levels, Gaussian sigma)
JPEG_QUALITY = (60, 95)  # the JPEG quality's range


@dataclass(frozen=True)
class Jitter:
    """One drawn camera: ``blur`` (sigma px) of each frame, the game frame's ``gain`` (linear),
    ``gamma`` exponent and ``balance`` (B, G, R gains), ``noise`` (8-bit levels) and
    ``quality`` (JPEG) of both."""

    blur: tuple[float, float]
    gain: float
    gamma: float
    balance: tuple[float, float, float]
    noise: float
    quality: int

    @classmethod
    def draw(cls, rng: np.random.Generator) -> Jitter:
        """A random camera within the module's limits."""
        base = float(rng.uniform(0.0, BLUR_SIGMA_PX))
        game = float(np.clip(base + rng.uniform(-EXTRA_BLUR_PX, EXTRA_BLUR_PX), 0.0,
                             BLUR_SIGMA_PX))
        balance = rng.uniform(1 - WHITE_BALANCE, 1 + WHITE_BALANCE, 3)
        return cls(blur=(base, game),
                   gain=float(2 ** rng.uniform(-EXPOSURE_STOPS, EXPOSURE_STOPS)),
                   gamma=float(rng.uniform(1 - GAMMA_SPREAD, 1 + GAMMA_SPREAD)),
                   balance=(float(balance[0]), float(balance[1]), float(balance[2])),
                   noise=float(rng.uniform(0.0, NOISE_LEVELS)),
                   quality=int(rng.integers(JPEG_QUALITY[0], JPEG_QUALITY[1] + 1)))

    def apply(self, start: np.ndarray, game: np.ndarray,
              rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Both BGR 8-bit frames as this camera takes them (the reference keeps its exposure
        and white balance: only the game frame's drift from it counts)."""
        return (self._develop(start, self.blur[0], False, rng),
                self._develop(game, self.blur[1], True, rng))

    def _develop(self, frame: np.ndarray, blur: float, drifted: bool,
                 rng: np.random.Generator) -> np.ndarray:
        image = frame.astype(np.float32) / 255.0
        if blur > 0.05:
            image = np.asarray(cv2.GaussianBlur(image, (0, 0), blur), np.float32)
        if drifted:
            image = np.clip(image * self.gain * np.array(self.balance, np.float32), 0, 1)
            image = image ** self.gamma
        image = image * 255.0 + rng.normal(0.0, self.noise, image.shape).astype(np.float32)
        developed = np.clip(image + 0.5, 0, 255).astype(np.uint8)
        ok, data = cv2.imencode(".jpg", developed, [cv2.IMWRITE_JPEG_QUALITY, self.quality])
        assert ok
        return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR))


def jittered(start: np.ndarray, game: np.ndarray,
             rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A case's reference and game frame as a randomly drawn camera (`Jitter.draw`) takes
    them."""
    return Jitter.draw(rng).apply(start, game, rng)
