"""Boards with seats nobody plays (2, 3 and 5 players, Schmidt rules) read right at rest.

Each playing seat has five marbles: four in its kennel and one on its start field in the
reference frame; the kennels of the seats nobody plays stay empty. The reader is told the
players' colours as the table tells it (`colors=`), or decides the seats itself.
"""

from __future__ import annotations

import numpy as np
import pytest

from hw import BoardProfile, load_profile
from vision.reader.board_reader import BoardReader, start_classes
from vision.render import RenderConditions, render


def schmidt_start(profile: BoardProfile, playing: dict[int, str]) -> dict[str, str | None]:
    """The playing seats' kennels full and a marble on each one's start field."""
    return {hole.id: playing[hole.seat] if hole.seat in playing
            and hole.kind in ("kennel", "track") else None for hole in profile.holes}


def moved_on(profile: BoardProfile, start: dict[str, str | None], playing: dict[int, str],
             seed: int) -> dict[str, str | None]:
    """A later position: per playing seat the start field's marble somewhere on the track,
    one kennel marble on the track, one in its home."""
    rng = np.random.default_rng(seed)
    holes = dict(start)
    free = [h.id for h in profile.holes if h.kind == "track" and h.seat is None]
    rng.shuffle(free)
    for seat, colour in playing.items():
        starting = next(h.id for h in profile.holes if h.kind == "track" and h.seat == seat)
        kennel = [h.id for h in profile.holes if h.kind == "kennel" and h.seat == seat]
        home = [h.id for h in profile.holes if h.kind == "home" and h.seat == seat]
        holes[starting] = holes[kennel[0]] = holes[kennel[1]] = None
        holes[free.pop()] = holes[free.pop()] = colour
        holes[home[int(rng.integers(len(home)))]] = colour
    return holes


CASES = [
    ("brandi-4", {0: "red", 2: "green"}, RenderConditions(), 3),
    ("brandi-4", {1: "yellow", 2: "green", 3: "blue"},
     RenderConditions(material="aluminium", light_level=0.8, color_temperature_k=3600), 4),
    ("brandi-6", {0: "red", 1: "yellow", 2: "green", 3: "blue", 4: "white"},
     RenderConditions(tilt_deg=6.0, color_temperature_k=4200), 5),
    ("brandi-6", {0: "red", 3: "blue"},
     RenderConditions(material="aluminium", light_level=1.1, yaw_deg=30.0), 6),
]


@pytest.mark.parametrize(("name", "playing", "conditions", "seed"), CASES,
                         ids=[f"{case[0]}-{len(case[1])}" for case in CASES])
def test_a_board_with_unplayed_seats_reads_right_at_rest(
        name: str, playing: dict[int, str], conditions: RenderConditions, seed: int) -> None:
    profile = load_profile(name)
    start = schmidt_start(profile, playing)
    reference = render(profile, start, conditions, seed=seed).image
    later = moved_on(profile, start, playing, seed)
    frame = render(profile, later, conditions, seed=seed + 1).image
    told = BoardReader(profile, reference, colors=playing)
    found = BoardReader(profile, reference)
    assert found.colours == playing
    for reader in (told, found):
        for image, truth in ((reference, start), (frame, later)):
            reading = reader.read(image)
            wrong = {hole: (said, truth[hole]) for hole, said in reading.holes.items()
                     if said != truth[hole]}
            assert not wrong and not reading.occluded, wrong
    assert told.learn(frame, later)  # the table learns from the accepted position
    assert told.read(frame).holes == later


def test_an_empty_start_field_is_no_marble_of_the_reference() -> None:
    """Four marbles in each playing kennel, none on the start fields (any other rules): the
    start fields are empty and the census counts four marbles."""
    profile = load_profile("brandi-4")
    playing = {0: "red", 2: "green"}
    start = {hole: colour if hole.startswith("K") else None
             for hole, colour in schmidt_start(profile, playing).items()}
    reference = render(profile, start, RenderConditions(), seed=8).image
    reader = BoardReader(profile, reference, colors=playing)
    assert reader.read(reference).holes == start
    assert reader.census is not None and list(reader.census.capacity) == [0, 4, 4]


def test_with_every_seat_playing_no_start_field_holds_a_marble() -> None:
    """A fifth marble comes only with 2, 3 or 5 players: with four a start field whose look
    lies nearer its seat's colour (a printed ring of that colour around it) stays empty."""
    profile = load_profile("brandi-4")
    holes = len(profile.holes)
    means = np.zeros((5, holes, 2))
    means[1:] = 1.0  # every colour class looks alike: (1, 1) against the plain board
    vectors = np.ones((holes, 2))  # every hole looks like a marble of its seat
    empty_vectors = np.full((holes, 2), 5.0)  # and far from the plain track's empty look
    scales = np.ones((5, holes, 2))
    kennel = [hole.kind == "kennel" for hole in profile.holes]
    for playing, expected_fields in (((0, 1, 2, 3), 0), ((0, 1, 2), 3), ((0, 2), 2)):
        start = start_classes(profile, playing, vectors, empty_vectors, np.zeros(2), means,
                              scales)
        assert (start[kennel] > 0).sum() == 4 * len(playing)
        assert (start[np.logical_not(kennel)] > 0).sum() == expected_fields
