"""Holes changed since the reference (`match.changed_holes`): their reference class is ruled out;
kennel holes whose marble stayed: the empty hole is; empty dimples still in view are empty."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from hw import BoardProfile, load_profile
from tests.vision.conftest import benchmark_case, read_in_a_stream, some_position
from vision.reader import board_reader
from vision.reader.board_reader import STAYED_DISC, UNCHANGED_DISC, BoardReader, Learned
from vision.reader.features import CLIPPED_LOG
from vision.reader.match import changed_holes
from vision.render import RenderConditions, render, start_occupancy


@pytest.mark.parametrize(("name", "material"), [("brandi-4", "wood"), ("brandi-6", "aluminium")])
def test_holes_whose_marble_came_or_went_changed_and_no_other(name: str, material: str) -> None:
    profile = load_profile(name)
    start = start_occupancy(profile)
    reference = render(profile, start, RenderConditions(material=material), seed=3).image
    later = some_position(profile, seed=4)
    # Other light than the reference: dimmer, warmer, from another side.
    light = RenderConditions(material=material, light_level=0.7, color_temperature_k=3600,
                             light_azimuth_deg=200.0)
    frame = render(profile, later, light, seed=5).image
    reader = BoardReader(profile, reference)
    reading = reader.read(frame)
    assert reading.pairs is not None and reading.evidence is not None
    assert reader.reference is not None
    changed = changed_holes(reading.features, reader.reference, reading.pairs.disc_match,
                            reading.evidence.noise)
    moved = np.array([start[hole.id] != later[hole.id] for hole in profile.holes])
    assert not (changed & ~moved).any()  # a hole that holds what it held never changed
    assert changed[moved].mean() > 0.6  # most that changed are seen to (the rest by the match)
    assert reading.holes == later


def test_the_frames_noise_raises_the_bar_for_a_change() -> None:
    profile = load_profile("brandi-4")
    reference = render(profile, start_occupancy(profile), RenderConditions(), seed=3).image
    frame = render(profile, some_position(profile, seed=4), RenderConditions(), seed=5).image
    reader = BoardReader(profile, reference)
    reading = reader.read(frame)
    assert reading.pairs is not None and reader.reference is not None
    args = (reading.features, reader.reference, reading.pairs.disc_match)
    quiet, noisy = changed_holes(*args, noise=0.0), changed_holes(*args, noise=10.0)
    assert quiet.any() and not noisy.any()


def test_a_large_colour_change_counts_whatever_the_disc_pattern() -> None:
    # Light from one side can shade a marble like the dimple it covers: the pattern matches.
    profile = load_profile("brandi-4")
    start = start_occupancy(profile)
    reference = render(profile, start, RenderConditions(), seed=3).image
    later = some_position(profile, seed=4)
    frame = render(profile, later, RenderConditions(), seed=5).image
    reader = BoardReader(profile, reference)
    reading = reader.read(frame)
    assert reader.reference is not None
    matching = np.ones(len(profile.holes))
    changed = changed_holes(reading.features, reader.reference, matching, noise=0.0)
    moved = np.array([start[hole.id] != later[hole.id] for hole in profile.holes])
    assert changed.any() and not (changed & ~moved).any()


def glared_hole():
    """A clean reference and frame of brandi-4 and the hole T20 under glare: the reference's
    features, the frame's reading, the hole's index, the reference's rings with T20's
    overexposed, and the frame's ring clipping with T20's overexposed."""
    profile = load_profile("brandi-4")
    start = start_occupancy(profile)
    reference = render(profile, start, RenderConditions(), seed=3).image
    reader = BoardReader(profile, reference)
    reading = reader.read(render(profile, start, RenderConditions(), seed=5).image)
    stored = reader.reference
    assert stored is not None and reading.pairs is not None
    hole = [h.id for h in profile.holes].index("T20")
    glared_ring = stored.ring.copy()
    glared_ring[hole] = CLIPPED_LOG + 0.1
    clipped_now = reading.features.ring_clipped.copy()
    clipped_now[hole] = True
    return stored, reading, hole, glared_ring, clipped_now


def test_a_marble_come_into_a_glared_dimple_changed_it() -> None:
    """Where glare overexposes the ring in both frames, a centre much darker than the light
    over the board explains has changed (a marble in it); a little darker, or a glare that
    left, does not count."""
    stored, reading, hole, glared_ring, clipped_now = glared_hole()
    glared = replace(stored, ring=glared_ring)

    def changed(darker: float, glare_now: bool) -> bool:
        centre = reading.features.centre.copy()
        centre[hole] = stored.centre[hole] - darker
        now = replace(reading.features, centre=centre,
                      ring_clipped=clipped_now if glare_now else reading.features.ring_clipped)
        return bool(changed_holes(now, glared, reading.pairs.disc_match, noise=0.0)[hole])

    assert changed(1.5, glare_now=True)
    assert not changed(0.5, glare_now=True)
    assert not changed(1.5, glare_now=False)


def test_white_glass_come_into_a_glared_dimple_changed_it() -> None:
    """Where glare overexposes the ring in both frames, a centre brighter than the reference's
    in every channel whose disc no longer shows the reference's pattern has changed (white
    glass in it: path-traced 0391, read empty before); not while the pattern still matches, nor
    where the reference's centre was overexposed too (its brightness then unknown)."""
    stored, reading, hole, glared_ring, clipped_now = glared_hole()

    def changed(brighter: float, disc: float, centre_clipped_before: bool = False) -> bool:
        before = stored.centre.copy()
        if centre_clipped_before:
            before[hole] = CLIPPED_LOG + 0.1
        glared = replace(stored, ring=glared_ring, centre=before)
        centre = reading.features.centre.copy()
        centre[hole] = stored.centre[hole] + brighter
        now = replace(reading.features, centre=centre, ring_clipped=clipped_now)
        matches = reading.pairs.disc_match.copy()
        matches[hole] = disc
        return bool(changed_holes(now, glared, matches, noise=0.0)[hole])

    assert changed(1.0, disc=-0.5)
    assert not changed(0.2, disc=-0.5)
    assert not changed(1.0, disc=0.9)
    assert not changed(1.0, disc=-0.5, centre_clipped_before=True)


def test_a_kennel_hole_whose_disc_shows_the_reference_pattern_still_holds_its_marble() -> None:
    """A kennel marble that stayed keeps its highlights where they were; one that left takes
    them along. Where the disc matches the reference's by `STAYED_DISC`, the empty hole is
    ruled out (path-traced 0453: black glass in a black kennel on dark aluminium, its disc
    matching 0.99, looked more like an empty dimple and was read empty)."""
    profile = load_profile("brandi-4")
    start = start_occupancy(profile)
    reference = render(profile, start, RenderConditions(), seed=3).image
    later = some_position(profile, seed=4)
    frame = render(profile, later, RenderConditions(light_level=0.8), seed=5).image
    reader = BoardReader(profile, reference)
    reading = reader.read(frame)
    assert reading.pairs is not None and reading.evidence is not None
    assert reader.prototypes is not None

    def empty_ruled_out(disc_match: np.ndarray) -> np.ndarray:
        pairs = replace(reading.pairs, disc_match=disc_match)
        return reader._ruled_out(reading.features, reader.prototypes, pairs,
                                 noise=reading.evidence.noise)[0]

    kennel = np.array([hole.kind == "kennel" for hole in profile.holes])
    stayed = kennel & np.array([later[hole.id] is not None for hole in profile.holes])
    left = kennel & ~stayed
    assert left.any() and stayed.any()
    shown = reading.pairs.disc_match >= STAYED_DISC
    assert not shown[left].any()  # a marble that left changed the disc's pattern
    ruled_out = empty_ruled_out(reading.pairs.disc_match)
    assert (ruled_out[kennel] == (stayed & shown)[kennel]).all() and ruled_out[stayed].any()
    assert not empty_ruled_out(np.full(len(reader.ids), STAYED_DISC - 0.01))[kennel].any()
    assert reading.holes == later


DOUBT = 2.0  # the doubting trust network's doubt of every hole (logits)


def _hands_and_a_doubting_trust(
        name: str, frame_seed: int,
) -> tuple[BoardProfile, np.ndarray, dict[str, str | None], np.ndarray, Learned]:
    """A board's reference, a later position and its frame with two hands over the board, and
    the shipped networks with a trust network that doubts every hole by 2 logits (as it
    doubts holes beside a hand)."""
    profile = load_profile(name)
    reference = render(profile, start_occupancy(profile), RenderConditions(), seed=3).image
    later = some_position(profile, seed=4)
    frame = render(profile, later, RenderConditions(light_level=0.8, hands=2),
                   seed=frame_seed).image
    shipped = Learned.shipped()
    assert shipped.trust is not None
    *hidden, (weights, bias) = shipped.trust.layers
    constant = (*hidden, (np.zeros_like(weights), np.zeros_like(bias)))  # every logit 0
    doubting = Learned(shipped.match, replace(shipped.trust, layers=constant, threshold=DOUBT))
    return profile, reference, later, frame, doubting


def test_an_empty_dimple_in_view_is_read_empty_whatever_the_trust_network_doubts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A hole empty in the reference, read empty by `CLEAR_EMPTY_MARGIN` and showing the
    reference's disc pattern is an empty dimple in view: path-traced, the trust network doubted
    such holes beside a hand (its shadow, its nearness) and they were "?". Here a trust network
    that doubts every hole stands for that doubt; the census settles holes in doubt away from
    the hands, not those beside them."""
    monkeypatch.setattr(board_reader, "SHADED_EMPTY_MARGIN", np.inf)  # the shadow's rule: below
    profile, reference, later, frame, doubting = _hands_and_a_doubting_trust("brandi-4", 5)
    reader = BoardReader(profile, reference, doubting)
    reading = reader.read(frame)
    assert reading.evidence is not None
    nowhere = np.zeros(len(reading.holes), bool)  # no hole taken for its empty neighbours' look
    in_view = reader._empty_in_view(reading.evidence, nowhere, DOUBT, nowhere)
    ids = list(reading.holes)
    assert in_view.sum() > len(ids) // 2
    for index in np.flatnonzero(in_view):
        assert reading.holes[ids[index]] is None and later[ids[index]] is None
        assert reading.evidence.disc_match[index] >= UNCHANGED_DISC
        assert profile.holes[index].kind != "kennel"
    monkeypatch.setattr(board_reader, "CLEAR_EMPTY_MARGIN", np.inf)
    doubted = BoardReader(profile, reference, doubting).read(frame)
    assert any(doubted.holes[ids[index]] == "?" for index in np.flatnonzero(in_view))


def test_fingers_over_a_marble_that_look_like_a_dimple_by_less_than_the_doubt_are_unknown():
    """`bench/vision.py --seed 2026 --shuffle-colours`, case 567: fingers cover a black marble
    on `T77`. The match network ranks the hole empty by 9.7 log-odds and its disc matches the
    reference's dimple (0.86), but the trust network doubts it by 13.7: an empty dimple in view
    must be read empty by more than it is doubted."""
    profile, start, frame, occupancy = benchmark_case(2026, 567)
    _, reading = read_in_a_stream(profile, start, frame)
    assert occupancy["T77"] == "black" and frame.cover["T77"] > 0.9
    assert reading.holes["T77"] == "?"
    assert reading.occluded


def test_a_hand_over_a_marble_that_looks_like_a_dimple_inside_its_region_is_unknown():
    """`bench/vision.py --seed 2037 --shuffle-colours`, case 239: a hand covers a black marble
    in home `H1.0` (0.96 of it). The match network ranks the hole empty by 14.6 log-odds and
    the hand's shading matches the reference's dimple (0.86), but the hole lies inside the
    hand's foreign region: that is no empty dimple in view, and the trust network's doubt
    stands."""
    profile, start, frame, occupancy = benchmark_case(2037, 239, shuffled=True)
    reader, reading = read_in_a_stream(profile, start, frame)
    assert reading.evidence is not None
    index = reader.ids.index("H1.0")
    assert occupancy["H1.0"] == "black" and frame.cover["H1.0"] > 0.9
    assert reading.evidence.margin[index] > board_reader.CLEAR_EMPTY_MARGIN
    assert reading.evidence.disc_match[index] >= UNCHANGED_DISC
    assert reading.evidence.reach[index] <= 0
    assert reading.holes["H1.0"] == "?"
    assert reading.occluded


def test_fingers_over_a_marble_whose_colour_was_ruled_out_are_no_empty_dimple_in_view():
    """`bench/vision.py --seed 2027`, case 585: fingers cover a black marble in home `H5.0`.
    Every colour is ruled out there, so the empty class leads by 23 log-odds, and the disc
    matches the reference's dimple (0.90); but the empty class itself scores only 1.4, below
    `EMPTY_IN_VIEW_SCORE`: that is no empty dimple in view, and the trust network's doubt
    stands."""
    profile, start, frame, occupancy = benchmark_case(2027, 585)
    reader, reading = read_in_a_stream(profile, start, frame)
    assert reading.evidence is not None
    index = reader.ids.index("H5.0")
    assert occupancy["H5.0"] == "black" and frame.cover["H5.0"] > 0.9
    assert reading.evidence.margin[index] > 20
    assert reading.evidence.scores[0, index] < board_reader.EMPTY_IN_VIEW_SCORE
    assert reading.holes["H5.0"] == "?"
    assert reading.occluded


def test_an_empty_dimple_in_a_shadow_is_read_empty_whatever_the_trust_network_doubts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A hole empty in the reference, read empty by `SHADED_EMPTY_MARGIN`, within
    `SHADED_EMPTY_DISTANCE` of the empty class and with its disc pattern still matching
    `SHADED_DISC` is an empty dimple, even where a hand's shadow changed its disc below
    `UNCHANGED_DISC` (path-traced: 0453, 0574, 0589). Without that rule the doubting trust
    network leaves those holes "?"."""
    profile, reference, later, frame, doubting = _hands_and_a_doubting_trust("brandi-6", 6)
    reader = BoardReader(profile, reference, doubting)
    reading = reader.read(frame)
    evidence = reading.evidence
    assert evidence is not None
    ids = list(reading.holes)
    nowhere = np.zeros(len(reading.holes), bool)  # the next test's rule: off
    shaded = (reader._empty_in_view(evidence, nowhere, DOUBT, nowhere)
              & (evidence.disc_match < UNCHANGED_DISC))
    assert shaded.any()
    for index in np.flatnonzero(shaded):
        assert reading.holes[ids[index]] is None and later[ids[index]] is None
        assert evidence.margin[index] >= board_reader.SHADED_EMPTY_MARGIN
        assert evidence.distance[0, index] <= board_reader.SHADED_EMPTY_DISTANCE
        assert evidence.disc_match[index] >= board_reader.SHADED_DISC
    monkeypatch.setattr(board_reader, "SHADED_EMPTY_MARGIN", np.inf)
    doubted = BoardReader(profile, reference, doubting).read(frame)
    assert all(doubted.holes[ids[index]] == "?" for index in np.flatnonzero(shaded))


def test_an_empty_dimple_that_looks_like_the_empty_holes_around_is_read_empty(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A hole empty in the reference, read empty by `SHADED_EMPTY_MARGIN`, its disc matching
    `SHADED_DISC`, that lies farther from the reference's empty class than
    `SHADED_EMPTY_DISTANCE` but looks like the holes around it that are clearly empty in this
    frame (`LIKE_EMPTY_NEIGHBOURS`) is an empty dimple in changed light (path-traced 0457: a lamp
    switched on changed a whole stretch of track alike). Here the empty-class distance is taken
    away (`SHADED_EMPTY_DISTANCE` below zero), so only the neighbours' look reads such holes, in
    a frame lit lower than the reference, half in a shadow, with hands over the board: none of
    them holds a marble."""
    monkeypatch.setattr(board_reader, "SHADED_EMPTY_DISTANCE", -np.inf)
    profile, reference, later, _, doubting = _hands_and_a_doubting_trust("brandi-6", 6)
    # The lamp lower than in the reference and a shadow over half of the board.
    light = RenderConditions(light_elevation_deg=30.0, shadow_depth=0.6, hands=2)
    frame = render(profile, later, light, seed=6).image
    reader = BoardReader(profile, reference, doubting)
    reading = reader.read(frame)
    evidence = reading.evidence
    assert evidence is not None
    assert reader.prototypes is not None
    ids = list(reading.holes)
    empty_residual = reader.prototypes.scaled_residuals(reading.features)[0]
    changed_light = reader._in_changed_light(evidence, empty_residual)
    nowhere = np.zeros(len(ids), bool)
    like_empty = (reader._empty_in_view(evidence, changed_light, DOUBT, nowhere)
                  & ~reader._empty_in_view(evidence, nowhere, DOUBT, nowhere))
    assert like_empty.any()
    for index in np.flatnonzero(like_empty):
        assert later[ids[index]] is None
        assert reading.holes[ids[index]] is None


def test_a_holes_distance_to_its_neighbours_look_counts_only_the_chosen_holes_nearby() -> None:
    """`_distance_to_neighbours`: the median look of the nearest chosen holes within
    `EMPTY_NEIGHBOUR_MM`, the hole itself left out; too few of them: infinitely far."""
    x = np.array([0.0, 25.0, 50.0, 75.0, 100.0, 125.0, 400.0])  # a row of holes, one far off
    apart = np.abs(x[:, None] - x[None])
    residual = np.zeros((len(x), 4))
    residual[3] = [3.0, 4.0, 0.0, 0.0]  # unlike the others by 5
    residual[6] = [1.0, 0.0, 0.0, 0.0]
    chosen = np.array([True, True, True, False, True, True, True])
    distance = board_reader._distance_to_neighbours(residual, chosen, apart)
    assert distance[3] == pytest.approx(5.0)  # its chosen neighbours 1, 2, 4, 5 look alike
    assert distance[2] == pytest.approx(0.0)  # hole 3 is not chosen: it does not count
    assert np.isinf(distance[6])  # nothing chosen within reach
    few = board_reader._distance_to_neighbours(residual, np.eye(len(x), dtype=bool)[1], apart)
    assert np.isinf(few).all()  # one chosen hole is too few for anyone


def test_a_strong_dimple_whose_pattern_inverted_no_longer_reads_empty() -> None:
    """A hole empty in the reference whose dimple showed a strong brightness pattern
    (`STRONG_DIMPLE`) and now shows it inverted (`INVERTED_DISC`) holds a marble: the empty
    class is ruled out there (path-traced 0543, 0593: white glass on wood ranked empty). The
    compositing renderer's dimples are too shallow for the rule; a reference with deep ones
    stands in."""
    profile = load_profile("brandi-4")
    reference = render(profile, start_occupancy(profile), RenderConditions(), seed=3).image
    reader = BoardReader(profile, reference)
    reading = reader.read(render(profile, some_position(profile, seed=4), RenderConditions(),
                                 seed=5).image)
    assert reading.pairs is not None and reading.evidence is not None
    assert reader.reference is not None
    count = len(reader.ids)
    assert not reader._inverted_dimples(np.full(count, -1.0)).any()  # shallow dimples
    shallow = reader.reference
    level = np.exp(shallow.ring).mean(axis=1)
    reader.reference = replace(shallow, spread=(board_reader.STRONG_DIMPLE + 0.01) * level)
    track = [index for index, hole in enumerate(profile.holes) if hole.kind == "track"]
    kennel = next(index for index, hole in enumerate(profile.holes) if hole.kind == "kennel")
    disc = np.ones(count)
    disc[[track[0], kennel]] = board_reader.INVERTED_DISC
    disc[track[1]] = board_reader.INVERTED_DISC + 0.05
    assert np.flatnonzero(reader._inverted_dimples(disc)).tolist() == [track[0]]
    pairs = replace(reading.pairs, disc_match=disc)
    ruled_out = reader._ruled_out(reading.features, reader.prototypes, pairs,
                                  noise=reading.evidence.noise)
    assert ruled_out[0, track[0]] and not ruled_out[0, track[1]]


def test_a_marble_ruled_out_as_changed_that_does_not_look_empty_either_is_unknown() -> None:
    """Path-traced 0604: a pale finger over a yellow kennel marble changed its look, the
    yellow class was ruled out, and the hole was read empty although the scores did not find
    it empty either (below `EMPTY_SCORE`): "?". Within `TOUCH_REACH_MM` of a foreign region
    the bar is `EMPTY_IN_VIEW_SCORE` (path-traced 0754: fingers over a green kennel marble,
    1.06). An emptied hole that looks empty is empty."""
    profile = load_profile("brandi-4")
    reader = BoardReader(profile, render(profile, start_occupancy(profile), RenderConditions(),
                                         seed=3).image)
    kennel, track = reader.ids.index("K1.0"), reader.ids.index("T5")
    holes = len(reader.ids)
    scores = np.full((5, holes), -30.0)
    scores[0] = board_reader.EMPTY_SCORE + 3.0  # every hole read empty, and looking it
    reach = np.full(holes, np.inf)  # no region anywhere
    evidence = SimpleNamespace(best=np.zeros(holes, int), scores=scores, reach=reach)
    assert not reader._emptied_unlike_empty(evidence).any()
    scores[0, [kennel, track]] = board_reader.EMPTY_SCORE - 1.0  # not found empty either
    # (T5 was empty in the reference: nothing was ruled out there)
    assert np.flatnonzero(reader._emptied_unlike_empty(evidence)).tolist() == [kennel]
    scores[0] = board_reader.EMPTY_IN_VIEW_SCORE - 1.0  # empty, but not clearly ...
    assert not reader._emptied_unlike_empty(evidence).any()
    reach[[kennel, track]] = board_reader.TOUCH_REACH_MM  # ... beside a hand
    assert np.flatnonzero(reader._emptied_unlike_empty(evidence)).tolist() == [kennel]


def test_an_empty_dimple_in_view_needs_its_own_look_only_where_no_colour_is_left() -> None:
    """`EMPTY_IN_VIEW_SCORE` is asked only where every colour a hole can hold was ruled out:
    there the margin is the ruling out's. Through a drawn camera path-traced 0757's empty holes
    scored about 1 with the black class alive behind them, and they are read empty."""
    profile = load_profile("brandi-4")
    reader = BoardReader(profile, render(profile, start_occupancy(profile), RenderConditions(),
                                         seed=3).image)
    holes = len(reader.ids)
    scores = np.full((5, holes), -30.0)
    scores[0] = board_reader.EMPTY_IN_VIEW_SCORE - 2.0  # empty, but by little of its own
    evidence = SimpleNamespace(best=np.zeros(holes, int), scores=scores,
                               margin=np.full(holes, board_reader.CLEAR_EMPTY_MARGIN + 1.0),
                               disc_match=np.full(holes, UNCHANGED_DISC),
                               distance=np.zeros((5, holes)), reach=np.full(holes, np.inf))
    nowhere, everywhere = np.zeros(holes, bool), np.ones(holes, bool)
    empty_before = np.array([hole.kind != "kennel" for hole in profile.holes])
    no_doubt = np.zeros(holes)
    assert (reader._empty_in_view(evidence, nowhere, no_doubt, nowhere) == empty_before).all()
    assert not reader._empty_in_view(evidence, nowhere, no_doubt, everywhere).any()
    scores[0] = board_reader.EMPTY_IN_VIEW_SCORE
    assert (reader._empty_in_view(evidence, nowhere, no_doubt, everywhere) == empty_before).all()


def test_a_hole_beside_a_hand_read_as_its_own_marble_by_a_small_margin_is_unknown() -> None:
    """Compositing seed 2030 (shuffled), case 145: fingers covered a quarter of kennel hole
    `K1.3` after its marble had left, and the hole was read yellow by 1.7 log-odds. A hole full
    in the reference, read as its own marble within `TOUCH_REACH_MM` of a foreign region by
    less than `KEPT_BESIDE_HAND_MARGIN`, is "?"; clearly read, or away from every region, it
    keeps its marble."""
    profile = load_profile("brandi-4")
    reader = BoardReader(profile, render(profile, start_occupancy(profile), RenderConditions(),
                                         seed=3).image)
    kennel, track = reader.ids.index("K1.0"), reader.ids.index("T5")
    holes = len(reader.ids)
    best = reader._start_classes.copy()  # every hole read as it was in the reference
    margin = np.full(holes, board_reader.KEPT_BESIDE_HAND_MARGIN - 1.0)
    reach = np.full(holes, np.inf)
    evidence = SimpleNamespace(best=best, margin=margin, reach=reach)
    assert not reader._kept_unclearly_by_hand(evidence).any()
    reach[[kennel, track]] = board_reader.TOUCH_REACH_MM  # a hand beside both
    # (T5 held no marble in the reference: there is none to keep)
    assert np.flatnonzero(reader._kept_unclearly_by_hand(evidence)).tolist() == [kennel]
    margin[:] = board_reader.KEPT_BESIDE_HAND_MARGIN
    assert not reader._kept_unclearly_by_hand(evidence).any()
