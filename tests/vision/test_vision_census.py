"""The marble census: per-hole decisions checked against each seat's marble count."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.conftest import rendered_start
from vision.reader.board_reader import BoardReader
from vision.reader.census import (
    AMBIGUOUS,
    AT_REGION_MM,
    MANY_DOUBTS_COST,
    MAX_COST,
    MAX_DOUBT,
    SEEN_REACH_MM,
    UNKNOWN,
    Census,
)
from vision.render import RenderConditions, render, start_occupancy

NO_HAND = np.inf
# Classes: 0 empty, 1 red, 2 blue; two marbles each in these small boards.
TWO_EACH = Census(np.array([0, 2, 2]))


def scores_for(*best: int, confident: float = 12.0) -> np.ndarray:
    """(3, N) logits: each hole prefers its class by `confident` log-odds."""
    scores = np.zeros((3, len(best)))
    scores[list(best), np.arange(len(best))] = confident
    return scores


def test_a_colour_with_more_holes_than_marbles_hides_the_least_convinced():
    scores = scores_for(1, 1, 1, 2, 0)
    scores[1, 1], scores[2, 1] = 3.0, 1.0  # hole 1 is red, but barely; else blue
    a_hand_about = np.full(5, 200.0)  # the count is not made exact then
    settled = TWO_EACH.settle(scores, scores.argmax(axis=0), a_hand_about, False)
    assert settled.tolist() == [1, UNKNOWN, 1, 2, 0]


def test_a_surplus_hole_that_else_looks_empty_stays_in_doubt_even_away_from_hands():
    # Reading such a hole empty when no hand is found near it would be wrong where a hand
    # the occlusion test missed covers it (a marble under a hand read empty).
    scores = scores_for(1, 1, 1, 1, 2, 0)
    scores[0, 1] = scores[0, 3] = 10.0  # holes 1 and 3: red, barely before empty
    reach = np.array([200.0, 200.0, 200.0, AT_REGION_MM, 200.0, 200.0])  # a hand at hole 3
    settled = TWO_EACH.settle(scores, scores.argmax(axis=0), reach, False)
    assert settled.tolist() == [1, UNKNOWN, 1, UNKNOWN, 2, 0]


def test_the_one_hole_in_doubt_holds_the_marble_nobody_else_shows():
    scores = scores_for(1, 1, 2, 0, 0)  # blue's second marble is missing ...
    scores[2, 3] = 9.0  # ... hole 3 looks a little more empty than blue, so it was doubted
    labels = np.array([1, 1, 2, UNKNOWN, 0])
    assert TWO_EACH.settle(scores, labels, np.full(5, NO_HAND), True).tolist() == [1, 1, 2, 2, 0]


def test_a_marble_read_as_empty_is_found_when_the_count_says_so():
    scores = scores_for(1, 1, 2, 0, 0)
    scores[2, 4] = 6.0  # the likeliest empty hole to be the missing blue
    labels = scores.argmax(axis=0)
    assert TWO_EACH.settle(scores, labels, np.full(5, NO_HAND), True).tolist() == [1, 1, 2, 0, 2]


def test_the_count_does_not_guess_between_two_equally_likely_homes_of_a_missing_marble():
    # Seed 2024638 (black marbles in a very dark frame): a kennel marble read empty, and the
    # count put the missing black into an empty track hole that looked a little blacker.
    scores = scores_for(1, 1, 2, 0, 0)
    scores[2, 3], scores[2, 4] = 6.0, 6.0 + AMBIGUOUS - 0.1  # either could be the second blue
    labels = scores.argmax(axis=0)
    settled = TWO_EACH.settle(scores, labels, np.full(5, NO_HAND), True)
    assert settled.tolist() == [1, 1, 2, UNKNOWN, UNKNOWN]
    scores[2, 4] = 6.0 + AMBIGUOUS + 0.1  # hole 4 clearly the likelier
    settled = TWO_EACH.settle(scores, labels, np.full(5, NO_HAND), True)
    assert settled.tolist() == [1, 1, 2, 0, 2]


def test_a_colour_read_too_often_keeps_the_holes_it_is_unsure_of_in_doubt():
    scores = scores_for(1, 1, 1, 2, 2)
    scores[0, 1], scores[0, 2] = 11.0, 11.5  # holes 1 and 2: red, barely before empty
    settled = TWO_EACH.settle(scores, scores.argmax(axis=0), np.full(5, NO_HAND), True)
    assert settled.tolist() == [1, UNKNOWN, UNKNOWN, 2, 2]


def test_a_colour_read_twice_too_often_gives_way_to_the_missing_one():
    scores = scores_for(1, 1, 1, 2, 0)
    scores[2, 2] = 10.0  # hole 2: red, blue a close second
    labels = scores.argmax(axis=0)
    assert TWO_EACH.settle(scores, labels, np.full(5, NO_HAND), True).tolist() == [1, 1, 2, 2, 0]


def test_a_marble_off_the_board_is_not_invented():
    # Blue's second marble is missing and no hole looks anything like blue.
    scores = scores_for(1, 1, 2, 0, 0, confident=30.0)
    labels = scores.argmax(axis=0)
    settled = TWO_EACH.settle(scores, labels, np.full(5, NO_HAND), True)
    assert settled.tolist() == labels.tolist()
    assert MAX_COST < 30.0


def test_with_a_hand_on_the_board_doubt_is_not_resolved_by_the_count():
    scores = scores_for(1, 1, 2, 0, 0)
    scores[2, 3] = 9.0
    labels = np.array([1, 1, 2, UNKNOWN, 0])
    reach = np.array([200.0, 200.0, 200.0, 60.0, 80.0])  # a hand somewhere
    assert TWO_EACH.settle(scores, labels, reach, False).tolist() == labels.tolist()


def test_stray_regions_off_the_holes_in_doubt_leave_the_count_to_resolve_them():
    scores = scores_for(1, 1, 2, 0, 0)
    scores[2, 3] = 9.0
    labels = np.array([1, 1, 2, UNKNOWN, 0])
    strays = np.array([5.0, 40.0, 200.0, 60.0, 80.0])  # no hand: a glint beside hole 0
    assert TWO_EACH.settle(scores, labels, strays, True).tolist() == [1, 1, 2, 2, 0]


def test_a_hole_in_doubt_at_a_stray_region_is_not_resolved_by_the_count():
    scores = scores_for(1, 1, 2, 0, 0)
    scores[2, 3] = 9.0
    labels = np.array([1, 1, 2, UNKNOWN, 0])
    strays = np.array([200.0, 200.0, 200.0, AT_REGION_MM, 80.0])
    assert TWO_EACH.settle(scores, labels, strays, True).tolist() == labels.tolist()


def test_two_holes_in_doubt_hold_the_two_marbles_nobody_else_shows():
    scores = scores_for(1, 2, 0, 0, 0)  # red's and blue's second marbles are missing
    scores[1, 2] = scores[2, 3] = 9.0  # holes 2 and 3 look a little like them
    labels = np.array([1, 2, UNKNOWN, UNKNOWN, 0])
    assert MAX_DOUBT == 2
    assert TWO_EACH.settle(scores, labels, np.full(5, NO_HAND), True).tolist() == [1, 2, 1, 2, 0]


def test_more_holes_in_doubt_are_not_resolved_by_the_count_at_a_cost():
    scores = scores_for(1, 2, 0, 0, 0)
    scores[1, 2] = scores[2, 3] = 9.0  # 3 log-odds less like red and blue than empty
    assert MANY_DOUBTS_COST < 3.0
    labels = np.array([1, 2, UNKNOWN, UNKNOWN, UNKNOWN])
    assert TWO_EACH.settle(scores, labels, np.full(5, NO_HAND), True).tolist() == labels.tolist()


def test_more_holes_in_doubt_each_looking_like_what_the_count_misses_hold_it():
    # Path-traced 0407: a white kennel under glare in the reference; three white marbles on
    # the track were doubted, each looking most like white, the three whites nobody else showed.
    # Here: three holes in doubt, the missing red and blue each the best class of one.
    scores = scores_for(1, 0, 2, 0, 0)
    scores[0, 1], scores[1, 1] = 9.0, 10.0  # hole 1: a little more red than empty
    scores[0, 3], scores[2, 3] = 9.0, 10.0  # hole 3: a little more blue than empty
    scores[0, 4], scores[1, 4] = 10.0, 3.0  # hole 4: empty
    labels = np.array([1, UNKNOWN, 2, UNKNOWN, UNKNOWN])
    assert MAX_DOUBT < 3
    settled = TWO_EACH.settle(scores, labels, np.full(5, NO_HAND), True)
    assert settled.tolist() == [1, 1, 2, 2, 0]
    # Not when a hand or card is about: a missed hand there is what makes so many doubts.
    with_hand = TWO_EACH.settle(scores, labels, np.full(5, NO_HAND), False)
    assert with_hand.tolist() == labels.tolist()


def test_more_holes_in_doubt_take_what_the_count_misses_where_it_costs_little():
    # Path-traced 0833: three white marbles on the track doubted, two looking most like
    # white, the third 0.6 log-odds more like an empty hole. Here: red's and blue's second
    # marbles are missing; hole 1 looks a little more red than empty, hole 3 a little more
    # empty than blue, hole 4 is empty.
    scores = scores_for(1, 0, 2, 0, 0)
    scores[0, 1], scores[1, 1] = 9.0, 10.0
    scores[0, 3], scores[2, 3] = 10.0, 10.0 - 0.6
    scores[0, 4], scores[1, 4] = 10.0, 3.0
    labels = np.array([1, UNKNOWN, 2, UNKNOWN, UNKNOWN])
    assert MANY_DOUBTS_COST >= 0.6
    settled = TWO_EACH.settle(scores, labels, np.full(5, NO_HAND), True)
    assert settled.tolist() == [1, 1, 2, 2, 0]


def test_every_marble_seen_clears_doubt_away_from_hands_but_not_at_them():
    scores = scores_for(1, 1, 2, 2, 0, 0)
    labels = np.array([1, 1, 2, 2, UNKNOWN, UNKNOWN])
    reach = np.array([90.0, 90.0, 90.0, 90.0, 30.0, AT_REGION_MM])
    assert TWO_EACH.settle(scores, labels, reach, False).tolist() == [1, 1, 2, 2, 0, UNKNOWN]


def test_the_count_never_gives_a_hole_a_colour_it_cannot_hold():
    # Hole 2 is a home hole of red's seat: red or empty only. It looks like nothing it can
    # hold (a blue marble put there against the rules), red barely before the impossible blue
    # (`vision.reader.match.IMPOSSIBLE_SCORE`); blue is one marble short, red one too many.
    possible = np.array([[True] * 5, [True] * 5, [True, True, False, True, True]])
    census = Census(np.array([0, 2, 2]), possible)
    scores = scores_for(1, 1, 1, 2, 0)
    scores[:, 2] = (-33.0, -27.0, -30.0)
    labels = scores.argmax(axis=0)
    settled = census.settle(scores, labels, np.full(5, NO_HAND), True)
    assert settled.tolist() == [1, 1, UNKNOWN, 2, 0]  # not blue: one red too many, so "?"


def test_a_kennel_hole_in_doubt_is_empty_once_its_seats_marbles_are_all_seen():
    # Holes 0-3 on the track, 4 a kennel hole of red's seat, 5 one of blue's (each holds its
    # own seat's marbles only). A blue marble is missing (under the hand at hole 3?): the
    # blue kennel hole may hold it, the red one may not.
    possible = np.array([[True] * 6, [True] * 4 + [True, False], [True] * 4 + [False, True]])
    census = Census(np.array([0, 2, 2]), possible)
    scores = scores_for(1, 1, 2, 0, 0, 0)
    labels = np.array([1, 1, 2, UNKNOWN, UNKNOWN, UNKNOWN])
    reach = np.array([90.0, 90.0, 90.0, AT_REGION_MM, 90.0, 90.0])
    assert census.settle(scores, labels, reach, False).tolist() == [1, 1, 2, UNKNOWN, 0, UNKNOWN]
    # Without knowing what each hole can hold, a missing marble could be in either.
    assert TWO_EACH.settle(scores, labels, reach, False).tolist() == labels.tolist()


def test_a_kennel_hole_at_a_hand_is_empty_once_its_seats_marbles_are_all_seen():
    # Path-traced 0582: red's whole kennel emptied while the lamps changed; the occlusion test
    # took the new light over the kennel for a thing, so its holes lay at a region. Every red
    # marble is seen on the track: the red kennel holes, which look empty, are empty. The
    # blue one, whose marble is missing, and a red one that looks red stay in doubt.
    possible = np.array([[True] * 7, [True] * 4 + [True, True, False],
                         [True] * 4 + [False, False, True]])
    census = Census(np.array([0, 2, 2]), possible)
    scores = scores_for(1, 1, 2, 0, 0, 1, 0)
    labels = np.array([1, 1, 2, 0, UNKNOWN, UNKNOWN, UNKNOWN])
    reach = np.array([90.0, 90.0, 90.0, 90.0, 0.0, 0.0, 0.0])
    settled = census.settle(scores, labels, reach, False)
    assert settled.tolist() == [1, 1, 2, 0, 0, UNKNOWN, UNKNOWN]
    # A track hole at the hand may hold any colour: it stays in doubt. So does every hole at
    # a stray region, which may be all that shows of a hand the occlusion test missed.
    assert TWO_EACH.settle(scores, labels, reach, False).tolist() == labels.tolist()
    assert census.settle(scores, labels, reach, True).tolist() == labels.tolist()


def test_with_a_hand_over_the_holes_only_marbles_seen_away_from_it_clear_a_hole():
    # Path-traced 0604: fingers beside the hand's region read as a red marble (hole 1, 14 mm
    # from it) "saw" the last red, and the count cleared the red kennel hole under the same
    # hand (hole 3, in doubt 14 mm from the region), which held it.
    possible = np.array([[True] * 4, [True] * 4, [True, True, True, False]])
    census = Census(np.array([0, 2, 2]), possible)
    scores = scores_for(1, 1, 2, 0)
    labels = np.array([1, 1, 2, UNKNOWN])
    near = np.array([90.0, SEEN_REACH_MM - 6, 90.0, SEEN_REACH_MM - 6])
    assert census.settle(scores, labels, near, False).tolist() == labels.tolist()
    away = np.array([90.0, SEEN_REACH_MM + 1, 90.0, SEEN_REACH_MM - 6])
    assert census.settle(scores, labels, away, False).tolist() == [1, 1, 2, 0]
    # With nothing over the holes every marble read counts.
    assert census.settle(scores, labels, near, True).tolist() == [1, 1, 2, 0]


def test_with_the_seats_a_guess_doubt_is_not_resolved_by_the_count():
    guessed = Census(np.array([0, 2, 2]), counted=False)
    scores = scores_for(1, 1, 2, 2, 0, 0)
    labels = np.array([1, 1, 2, 2, UNKNOWN, UNKNOWN])
    assert guessed.settle(scores, labels, np.full(6, 90.0), False).tolist() == labels.tolist()
    scores = scores_for(1, 1, 2, 0, 0)
    scores[2, 3] = 9.0
    labels = np.array([1, 1, 2, UNKNOWN, 0])
    assert guessed.settle(scores, labels, np.full(5, NO_HAND), True).tolist() == labels.tolist()
    too_many = scores_for(1, 1, 1, 2, 0)  # a colour read too often is still held back
    assert UNKNOWN in guessed.settle(too_many, too_many.argmax(axis=0), np.full(5, 200.0), False)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_census_never_exceeds_a_count_nor_resolves_a_hole_at_a_hand(data):
    """... and with a hand or card about, it only hides holes or reads them empty; a hole in
    doubt at a foreign region stays in doubt, unless it holds one colour only, all of whose
    marbles are seen elsewhere, and looks empty; it never gives a hole a colour it cannot
    hold."""
    holes = data.draw(st.integers(1, 12))
    scores = np.array(data.draw(st.lists(st.floats(-20, 20), min_size=3 * holes,
                                         max_size=3 * holes))).reshape(3, holes)
    doubt = np.array(data.draw(st.lists(st.booleans(), min_size=holes, max_size=holes)))
    reach = np.array(data.draw(st.lists(st.sampled_from([0.0, 5.0, 30.0, 200.0, np.inf]),
                                        min_size=holes, max_size=holes)))
    labels = np.where(doubt, UNKNOWN, scores.argmax(axis=0))
    # Which colours each hole can hold (any hole can be empty), or any, as TWO_EACH has it.
    holdable = data.draw(st.none() | st.lists(st.booleans(), min_size=2 * holes,
                                              max_size=2 * holes))
    possible = None if holdable is None else np.vstack(
        [np.ones(holes, bool), np.reshape(holdable, (2, holes))])
    nothing_over = data.draw(st.booleans())
    settled = Census(TWO_EACH.capacity, possible).settle(scores, labels, reach, nothing_over)
    assert all((settled == colour).sum() <= 2 for colour in (1, 2))
    at_hand = doubt & (reach <= AT_REGION_MM)
    emptied = at_hand & (settled != UNKNOWN)
    assert not (nothing_over and emptied.any())  # a stray may be all that shows of a hand
    assert (settled[emptied] == 0).all()
    assert (scores[0, emptied] >= scores[:, emptied].max(axis=0) - 1e-9).all()  # looks empty
    for hole in np.flatnonzero(emptied):
        assert possible is not None and possible[1:, hole].sum() == 1
        colour = int(np.flatnonzero(possible[1:, hole])[0]) + 1
        assert (settled == colour).sum() == 2  # all its marbles seen elsewhere
    given_now = np.flatnonzero((settled != labels) & (settled != UNKNOWN))
    assert possible is None or possible[settled[given_now], given_now].all()
    if not nothing_over:
        changed = settled != labels
        assert np.isin(settled[changed], (UNKNOWN, 0)).all()
        assert np.isin(settled[changed & (reach <= AT_REGION_MM)], (UNKNOWN, 0)).all()


def test_the_reader_counts_the_kennels_of_the_seats_that_play(brandi6):
    every_seat = BoardReader(brandi6, rendered_start("brandi-6").image).census
    assert every_seat is not None
    assert every_seat.capacity.tolist() == [0, 4, 4, 4, 4, 4, 4]
    four_play = {hole: (None if hole.startswith(("K4.", "K5.")) else colour)
                 for hole, colour in start_occupancy(brandi6).items()}
    frame = render(brandi6, four_play, RenderConditions(), seed=1)
    fewer = BoardReader(brandi6, frame.image).census
    assert fewer is not None and fewer.capacity.tolist() == [0, 4, 4, 4, 4]
    assert every_seat.counted and fewer.counted


def test_an_overexposed_kennel_taken_for_unplayed_makes_the_seats_a_guess_unless_told(brandi6):
    # Under this much light the white kennel looks like bare board: its seat seems unplayed.
    # (At 1.5 its glass still shows enough by both kinds of evidence together, `seats.plays`.)
    glaring = RenderConditions(material="aluminium", light_level=1.7)
    reference = render(brandi6, start_occupancy(brandi6), glaring, seed=1).image
    guessed = BoardReader(brandi6, reference)
    assert 4 not in guessed.prototypes.seats
    assert guessed.census is not None and not guessed.census.counted
    told = BoardReader(brandi6, reference, seats=range(6)).census
    assert told is not None and told.counted


def test_an_overexposed_kennel_whose_marbles_still_show_keeps_the_count(brandi6):
    bright = RenderConditions(material="aluminium", light_level=1.3)
    reference = render(brandi6, start_occupancy(brandi6), bright, seed=1).image
    reader = BoardReader(brandi6, reference)
    assert "kennel_overexposed" in {warning.code for warning in reader.warnings}
    assert reader.prototypes.seats == tuple(range(6))
    assert reader.census is not None and reader.census.counted


def _three_blue(runner_up: float, empty: float, last: int = 0) -> np.ndarray:
    """Scores of three holes read blue (two marbles; the weakest, hole 2, with these red and
    empty scores), one red, `last`, and three holes in doubt (more than the count resolves)."""
    scores = scores_for(2, 2, 2, 1, last, 0, 0, 0, confident=20.0)
    scores[:, 2] = (empty, runner_up, 7.0)
    return scores


def _settled(scores: np.ndarray, reach: float = 200.0, nothing_over: bool = True) -> list[int]:
    labels = scores.argmax(axis=0)
    labels[5:] = UNKNOWN
    reach_now = np.full(labels.size, reach)
    reach_now[5:] = AT_REGION_MM  # the holes in doubt stay so (a stray region there)
    return TWO_EACH.settle(scores, labels, reach_now, nothing_over).tolist()


def test_a_surplus_colour_gives_way_to_a_clear_runner_up_with_marbles_unseen():
    # Path-traced 0179: six marbles read blue where four are seen for sure, two of them with
    # black a clear second, and hands the occlusion test missed leave other holes in doubt.
    assert _settled(_three_blue(2.0, -10.0)) == [2, 2, 1, 1, 0] + [UNKNOWN] * 3


def test_a_surplus_hole_keeps_its_doubt_where_the_runner_up_is_unclear_or_full():
    assert _settled(_three_blue(2.0, -4.0))[2] == UNKNOWN  # empty too close behind red
    assert _settled(_three_blue(-2.0, -20.0))[2] == UNKNOWN  # red too far behind blue
    assert _settled(_three_blue(2.0, -10.0, last=1))[2] == UNKNOWN  # both reds are seen
    assert _settled(_three_blue(2.0, -10.0), reach=AT_REGION_MM)[2] == UNKNOWN
    assert _settled(_three_blue(2.0, -10.0), nothing_over=False)[2] == UNKNOWN
