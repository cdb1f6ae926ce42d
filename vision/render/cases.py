"""Random benchmark cases: a game position, the game frame's conditions and the reference's.

One case is what `bench/vision.py` reads and `vision.reader.train` learns from:

    test, reference, occupancy = draw_case(profile, rng, seed)

`test` is the game frame (a third with hands or cards), `reference` the start-of-game frame of
the same table (same board, camera and lamps; light level and colour drifted), `occupancy` a
mid-game position. Every value comes from `rng`, so a case is fixed by its generator's seed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from vision.render import RenderConditions, random_conditions

if TYPE_CHECKING:
    from collections.abc import Sequence

    from hw import BoardProfile

__all__ = ["case_colours", "draw_case", "game_position", "related_conditions", "shuffled_colours"]


def game_position(profile: BoardProfile, rng: np.random.Generator,
                  colours: Sequence[str] | None = None) -> dict[str, str | None]:
    """A realistic mid-game occupancy: each seat's four marbles in kennel, track or home;
    `colours` names each seat's marbles (default: the profile's default colours)."""
    colours = tuple(colours) if colours is not None else profile.default_colors
    occupancy: dict[str, str | None] = {hole.id: None for hole in profile.holes}
    free_track = [h.id for h in profile.holes if h.kind == "track"]
    rng.shuffle(free_track)
    for seat in range(profile.seats):
        colour = colours[seat]
        kennel = [h.id for h in profile.holes if h.kind == "kennel" and h.seat == seat]
        home = [h.id for h in profile.holes if h.kind == "home" and h.seat == seat]
        on_track = int(rng.integers(0, 5))
        in_home = int(rng.integers(0, 5 - on_track))
        for hole_id in rng.choice(home, in_home, replace=False):
            occupancy[str(hole_id)] = colour
        for _ in range(on_track):
            occupancy[free_track.pop()] = colour
        for hole_id in kennel[:4 - on_track - in_home]:
            occupancy[hole_id] = colour
    return occupancy


def related_conditions(test: RenderConditions, rng: np.random.Generator) -> RenderConditions:
    """The start-of-game frame: same board, camera and lamps (so the same glare spots on the
    board), no hands; the light level and colour somewhat different, the shadow kept or not."""
    return replace(
        test, hands=0, cards=0,
        light_level=float(np.clip(test.light_level * rng.uniform(0.75, 1.3), 0.3, 1.4)),
        color_temperature_k=float(np.clip(test.color_temperature_k + rng.uniform(-700, 700),
                                          2700, 6500)),
        shadow_depth=test.shadow_depth if rng.random() < 0.5 else 0.0,
    )


def draw_case(profile: BoardProfile, rng: np.random.Generator, seed: int,
              hands: bool | None = None, colours: Sequence[str] | None = None,
              ) -> tuple[RenderConditions, RenderConditions, dict[str, str | None]]:
    """One case's conditions (test frame, reference frame) and game position; `hands` as in
    `random_conditions`, `colours` as in `game_position`."""
    test = replace(random_conditions(rng, hands=hands), glare_seed=seed)  # this table's lamps
    reference = related_conditions(test, rng)
    return test, reference, game_position(profile, rng, colours)


def case_colours(profile: BoardProfile, seed: int, case: int,
                 shuffled: bool) -> Sequence[str]:
    """The seat colours of case ``case`` of a draw with ``seed``: the profile's defaults, or,
    ``shuffled``, in every third case those `shuffled_colours` deals (the benchmark's
    ``--shuffle-colours``)."""
    if shuffled and case % 3 == 2:
        return shuffled_colours(profile, np.random.default_rng([seed, case, 3]))
    return profile.default_colors


def shuffled_colours(profile: BoardProfile, rng: np.random.Generator) -> tuple[str, ...]:
    """The profile's default colours dealt to the seats in a random order other than the
    default one (players pick their colours; the kennels' paint stays)."""
    colours = list(profile.default_colors[:profile.seats])
    if len(set(colours)) < 2:
        return tuple(colours)
    while True:
        order = [colours[int(i)] for i in rng.permutation(len(colours))]
        if order != colours:
            return tuple(order)
