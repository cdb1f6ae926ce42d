"""A lamp switched off after the reference (`vision.render.relight`)."""

from __future__ import annotations

import numpy as np

from vision.render.relight import DEPTH, LampOff


def test_a_drawn_lamp_stays_within_the_limits() -> None:
    for seed in range(50):
        lamp = LampOff.draw(np.random.default_rng(seed))
        assert 0 <= lamp.angle < 2 * np.pi and lamp.width > 0
        assert 0 < max(lamp.loss) <= DEPTH[1]


def test_the_light_is_gone_beyond_the_ramp_and_untouched_before_it() -> None:
    grey = np.full((40, 100, 3), 200, np.uint8)
    lamp = LampOff(angle=0.0, start=0.3, width=0.3, loss=(0.1, 0.6, 0.99))  # a warm lamp
    relit = lamp.apply(grey).astype(int)
    assert (relit[:, :30] == 200).all()  # left of the ramp: as it was
    assert tuple(relit[20, -1]) == (180, 80, 2)  # right of it: mostly the red is gone (BGR)
    assert (np.diff(relit[20, :, 2]) <= 0).all()  # and it fades out in between
