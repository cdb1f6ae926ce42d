"""A lamp switched off after the reference frame, for frames already made.

Mid-game someone switches off the lamp that lit part of the board: from then on that part is
darker and of another colour, much more than the light drifts through an evening. The referee
then has the reader learn the light again from the position the table holds (the page's
*Learn the light again*, `BoardReader.relearn`), and it reads on in the new light. `LampOff`
draws such a change: a ramp across the frame, in any direction, beyond which a share of each
channel's light is gone (a warm lamp takes mostly red with it, daylight mostly blue). The
networks learn from frames relearnt and read in it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

DEPTH = (0.5, 0.99)  # the share of the strongest channel's light lost where the lamp lit alone
WARM_SHARE = 0.7  # this share of the lamps drawn are warm (incandescent), the rest daylight
FADE_START = (0.2, 0.6)  # where across the frame the lamp's light begins to fade out
FADE_WIDTH = (0.2, 0.5)  # and over what share of the frame it fades


@dataclass(frozen=True)
class LampOff:
    """One lamp switched off: its light fades out along ``angle`` (radians, from the frame's
    +x axis toward +y), from ``start`` over ``width`` (shares of the frame's extent that way),
    beyond which ``loss`` (B, G, R shares) of the light is gone."""

    angle: float
    start: float
    width: float
    loss: tuple[float, float, float]

    @classmethod
    def draw(cls, rng: np.random.Generator) -> LampOff:
        """A random lamp within the module's limits."""
        depth = rng.uniform(*DEPTH)
        if rng.uniform() < WARM_SHARE:  # red goes most, blue least
            tint = (rng.uniform(0.05, 0.4), rng.uniform(0.4, 0.8), 1.0)
        else:  # blue goes most
            tint = (1.0, rng.uniform(0.6, 0.9), rng.uniform(0.3, 0.7))
        return cls(angle=float(rng.uniform(0, 2 * np.pi)), start=float(rng.uniform(*FADE_START)),
                   width=float(rng.uniform(*FADE_WIDTH)),
                   loss=(float(depth * tint[0]), float(depth * tint[1]), float(depth * tint[2])))

    def apply(self, image: np.ndarray) -> np.ndarray:
        """The BGR 8-bit frame in the light left after the lamp went off."""
        height, width = image.shape[:2]
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        along = xs * np.cos(self.angle) + ys * np.sin(self.angle)
        low, high = along.min(), along.max()
        share = (along - low) / max(high - low, 1.0)
        ramp = np.clip((share - self.start) / self.width, 0.0, 1.0)[..., None]
        keep = 1.0 - ramp * np.array(self.loss, np.float32)
        return np.asarray(np.clip(image * keep + 0.5, 0, 255).astype(np.uint8))
