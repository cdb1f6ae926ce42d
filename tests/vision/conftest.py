"""Fixtures for the vision tests: board profiles and rendered frames (never a real camera)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from hw import BoardProfile, load_profile

REPO_ROOT = Path(__file__).resolve().parents[2]


@cache
def rendered_start(profile_name: str, material: str = "wood"):
    """The start position under clean light, as a reference frame (cached per session)."""
    from vision.render import RenderConditions, render, start_occupancy

    profile = load_profile(profile_name)
    return render(profile, start_occupancy(profile), RenderConditions(material=material), seed=1)


def benchmark_case(seed: int, case: int, lens_k1: float = 0.0,
                   size: tuple[int, int] = (1280, 960), shuffled: bool = False):
    """Case ``case`` of the draw ``bench/vision.py --seed SEED`` makes (its board, default
    colours, or with ``shuffled`` those of ``--shuffle-colours``): (profile, start frame, game
    frame, game position); ``lens_k1`` takes both frames through a lens, ``size`` renders both
    at that (width, height)."""
    from dataclasses import replace

    from vision.render import render, start_occupancy
    from vision.render.cases import case_colours, draw_case

    profile = load_profile(("brandi-4", "brandi-6")[case % 2])
    case_seed = seed * 1000 + 2 * case
    colours = case_colours(profile, seed, case, shuffled)
    test, reference, occupancy = draw_case(profile, np.random.default_rng([seed, case]),
                                           case_seed, colours=colours)
    test, reference = (replace(c, lens_k1=lens_k1, width=size[0], height=size[1])
                       for c in (test, reference))
    start = render(profile, start_occupancy(profile, colours), reference, seed=case_seed)
    return profile, start, render(profile, occupancy, test, seed=case_seed + 1), occupancy


def some_position(profile: BoardProfile, seed: int) -> dict[str, str | None]:
    """A mid-game position: per seat a few marbles out of the kennel on track and home."""
    rng = np.random.default_rng(seed)
    occupancy: dict[str, str | None] = {hole.id: None for hole in profile.holes}
    track = [hole.id for hole in profile.holes if hole.kind == "track"]
    rng.shuffle(track)
    for seat, colour in enumerate(profile.default_colors[:profile.seats]):
        kennel = [h.id for h in profile.holes if h.kind == "kennel" and h.seat == seat]
        home = [h.id for h in profile.holes if h.kind == "home" and h.seat == seat]
        out = int(rng.integers(0, 5))
        in_home = int(rng.integers(0, out + 1))
        for hole_id in home[:in_home]:
            occupancy[hole_id] = colour
        for _ in range(out - in_home):
            occupancy[track.pop()] = colour
        for hole_id in kennel[:4 - out]:
            occupancy[hole_id] = colour
    return occupancy


def read_in_a_stream(profile, start, frame):
    """A reader learnt from the ``start`` render and its reading of the ``frame`` render, the
    start frame read first as in a stream (as `bench/vision.py` reads its cases)."""
    from vision.reader.board_reader import BoardReader

    reader = BoardReader(profile, start.image)
    reader.read(start.image)
    return reader, reader.read(frame.image)
