"""Marbles named by their colour, not by their seat: shuffled kennels, the table's setup."""

from __future__ import annotations

import numpy as np
import pytest

from hw import load_profile
from vision.reader.board_reader import BoardReader, ReadError
from vision.render import RenderConditions, render, start_occupancy
from vision.render.cases import draw_case, game_position, shuffled_colours

SHUFFLED = {"brandi-4": ("blue", "green", "red", "yellow"),
            "brandi-6": ("white", "blue", "black", "red", "yellow", "green")}


@pytest.mark.parametrize("name", ["brandi-4", "brandi-6"])
@pytest.mark.parametrize("cond", [
    RenderConditions(light_level=0.8),
    RenderConditions(material="aluminium", light_level=0.55, color_temperature_k=3000,
                     tilt_deg=12, yaw_deg=40, noise_sigma=2.5),
    RenderConditions(light_level=1.1, color_temperature_k=6200, shadow_depth=0.45,
                     shadow_angle_deg=30, gradient=0.3, board_glare_spots=2),
], ids=["clean", "warm-dim-aluminium", "cold-shadow-glare"])
def test_shuffled_kennels_are_named_by_their_colour(name, cond):
    profile = load_profile(name)
    colours = SHUFFLED[name]
    start = render(profile, start_occupancy(profile, colours), cond, seed=3)
    reader = BoardReader(profile, start.image)
    assert reader.colours == dict(enumerate(colours))
    occupancy = game_position(profile, np.random.default_rng(5), colours)
    frame = render(profile, occupancy, cond, seed=4)
    reading = reader.read(frame.image)
    wrong = {hole: said for hole, said in reading.holes.items() if said not in (occupancy[hole],
                                                                                 "?")}
    assert wrong == {}
    assert list(reading.holes.values()).count("?") <= 1


@pytest.mark.slow
@pytest.mark.parametrize("name", ["brandi-4", "brandi-6"])
def test_random_shuffled_references_name_every_seat(name):
    """Benchmark-like references (random light, camera, board) with the colours dealt anew."""
    profile = load_profile(name)
    wrong = []
    for case in range(12):
        rng = np.random.default_rng([31, case])
        colours = shuffled_colours(profile, rng)
        _, reference, _ = draw_case(profile, rng, 31000 + case, colours=colours)
        start = render(profile, start_occupancy(profile, colours), reference, seed=case)
        got = BoardReader(profile, start.image).colours
        wrong += [(case, seat) for seat, colour in enumerate(colours) if got.get(seat) != colour]
    assert wrong == []


def test_the_tables_setup_names_the_colours_and_the_seats(brandi4):
    colours = SHUFFLED["brandi-4"]
    start = render(brandi4, start_occupancy(brandi4, colours), RenderConditions(), seed=2)
    told = {0: "navy", 1: "lime", 3: "gold"}  # seat 2 plays no game: its marbles are no class
    reader = BoardReader(brandi4, start.image, colors=told)
    assert reader.seats == (0, 1, 3) and reader.colours == told
    reading = reader.read(start.image)
    for hole in brandi4.holes:
        if hole.kind == "kennel" and hole.seat != 2:
            assert reading.holes[hole.id] == told[hole.seat]
    # A sequence by seat works alike; None: nobody plays there.
    assert BoardReader(brandi4, start.image, colors=("navy", "lime", None, "gold")).colours == (
        told)
    # Seats told as well: a seat without a colour is named by its kennel.
    both = BoardReader(brandi4, start.image, seats=[0, 1, 2, 3], colors={0: "navy"})
    assert both.colours == {0: "navy", 1: "green", 2: "red", 3: "yellow"}


@pytest.mark.parametrize(("colors", "seats", "message"), [
    ({0: "red", 1: "red"}, None, "a colour is named twice"),
    ({7: "red"}, None, "seat 7: board brandi-4 has seats 0 to 3"),
    ({0: ""}, None, "seat 0: '' is no colour name"),
    ({0: "red", 2: "blue"}, [0, 1], "seat 2 has a colour but does not play"),
    ({}, None, "no seat has a colour"),
])
def test_a_wrong_setup_is_refused_naming_the_entry(brandi4, colors, seats, message):
    with pytest.raises(ReadError, match=message):
        BoardReader(brandi4, colors=colors, seats=seats)


def test_without_a_reference_the_told_names_replace_the_default_ones(brandi4):
    reader = BoardReader(brandi4, colors=("red", "yellow", "green", "blue"))
    assert reader.colours == {0: "red", 1: "yellow", 2: "green", 3: "blue"}
    assert BoardReader(brandi4).colours == dict(enumerate(brandi4.default_colors))


def test_overexposed_blue_glass_beside_empty_seats_is_blue():
    """Seed 2024 case 41 of `bench/vision.py --empty-seats 2`: aluminium at light 1.4, blue glass
    clipped to a pale cyan, white and yellow free; it was named white."""
    profile = load_profile("brandi-6")
    rng = np.random.default_rng([2024, 41])
    _, reference, _ = draw_case(profile, rng, 2024082)
    empty = {int(seat) for seat in rng.choice(profile.seats, 2, replace=False)}
    start = start_occupancy(profile)
    start.update({hole.id: None for hole in profile.holes if hole.seat in empty})
    named = BoardReader(profile, render(profile, start, reference, seed=2024082).image).colours
    assert named == {0: "red", 2: "green", 3: "blue", 5: "black"}
