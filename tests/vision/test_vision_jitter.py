"""Another camera for rendered frames (`vision.render.jitter`)."""

from __future__ import annotations

import cv2
import numpy as np

from hw import load_profile
from vision.render import RenderConditions, render, start_occupancy
from vision.render import jitter as jitter_module
from vision.render.jitter import Jitter, jittered


def _frame() -> np.ndarray:
    profile = load_profile("brandi-4")
    return render(profile, start_occupancy(profile), RenderConditions(width=640, height=480),
                  seed=1).image


def test_a_drawn_camera_stays_within_the_limits() -> None:
    rng = np.random.default_rng(0)
    for _ in range(200):
        camera = Jitter.draw(rng)
        assert min(camera.blur) >= 0.0 and max(camera.blur) <= jitter_module.BLUR_SIGMA_PX
        assert abs(camera.blur[1] - camera.blur[0]) <= jitter_module.EXTRA_BLUR_PX
        assert abs(np.log2(camera.gain)) <= jitter_module.EXPOSURE_STOPS
        assert abs(camera.gamma - 1) <= jitter_module.GAMMA_SPREAD
        assert all(abs(gain - 1) <= jitter_module.WHITE_BALANCE for gain in camera.balance)
        assert 0.0 <= camera.noise <= jitter_module.NOISE_LEVELS
        low, high = jitter_module.JPEG_QUALITY
        assert low <= camera.quality <= high


def test_the_same_seed_takes_the_same_frames_and_only_the_game_frame_drifts() -> None:
    frame = _frame()
    first = jittered(frame, frame, np.random.default_rng(3))
    again = jittered(frame, frame, np.random.default_rng(3))
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    for taken in first:
        assert taken.shape == frame.shape and taken.dtype == np.uint8
    # Exposure two thirds of a stop down, nothing else: the reference keeps its light.
    darker = Jitter(blur=(0.0, 0.0), gain=0.63, gamma=1.0, balance=(1.0, 1.0, 1.0), noise=0.0,
                    quality=95)
    start, game = darker.apply(frame, frame, np.random.default_rng(0))
    assert abs(float(start.mean()) - float(frame.mean())) < 1.0
    assert float(game.mean()) < 0.7 * float(frame.mean())


def test_blur_softens_the_frame() -> None:
    frame = _frame()
    soft = Jitter(blur=(1.3, 1.3), gain=1.0, gamma=1.0, balance=(1.0, 1.0, 1.0), noise=0.0,
                  quality=95)
    start, _ = soft.apply(frame, frame, np.random.default_rng(0))

    def detail(image: np.ndarray) -> float:
        return float(cv2.Laplacian(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.CV_32F).var())

    assert detail(start) < 0.5 * detail(frame)


def test_the_compositing_benchmark_reads_its_cases_through_another_camera(monkeypatch) -> None:
    from tests.vision.test_vision_cycles import bench

    benchmark = bench("vision")
    taken = []

    def recorded(start, game, rng):
        taken.append((start, game))
        return jittered(start, game, rng)

    monkeypatch.setattr(benchmark, "jittered", recorded)
    plain = benchmark.run_cases(2024, range(4, 5))
    assert not taken
    through = benchmark.run_cases(2024, range(4, 5), jitter=1)
    assert len(taken) == 1 and taken[0][0].shape == taken[0][1].shape
    assert plain.boards == through.boards == 1
    assert through.holes == plain.holes  # the same case, the same holes in view
