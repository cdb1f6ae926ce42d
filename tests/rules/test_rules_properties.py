"""Properties of the generator and the referee over random positions (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import Card, Position, check, legal_moves
from tests.rules.conftest import random_position

SETTINGS = settings(max_examples=80, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
SHAPES = [("swiss", 4, 4), ("schmidt", 4, 4), ("swiss", 6, 6), ("schmidt", 3, 6),
          ("schmidt", 2, 4), ("schmidt", 5, 6)]

positions = st.builds(
    lambda seed, shape: random_position(random.Random(seed), rules=shape[0], players=shape[1],
                                        board=shape[2]),
    st.integers(0, 2**32), st.sampled_from(SHAPES),
)
cards = st.sampled_from(list(Card))


@SETTINGS
@given(positions, cards)
def test_results_are_valid_positions_pegs_conserved_no_field_shared(position: Position,
                                                                    card: Card) -> None:
    for move in legal_moves(position, card):
        result = move.result
        again = Position.from_json(result.to_json())  # validates counts and collisions
        assert again == result
        assert result.turn == position.turn
        assert [len(c) for c in result.codes] == [len(c) for c in position.codes]


@SETTINGS
@given(positions, cards)
def test_distinct_results_are_listed_once(position: Position, card: Card) -> None:
    results = [move.result for move in legal_moves(position, card)]
    assert len(results) == len(set(results))


@SETTINGS
@given(positions, cards)
def test_every_listed_result_passes_check(position: Position, card: Card) -> None:
    for move in legal_moves(position, card)[:25]:
        verdict = check(position, move.result, card)
        assert verdict.legal and verdict.move is not None
        assert verdict.move.result.same_locations(move.result)


@SETTINGS
@given(positions, cards, st.integers(0, 2**32))
def test_a_result_not_listed_never_passes_check(position: Position, card: Card,
                                                seed: int) -> None:
    rng = random.Random(seed)
    listed = {move.result.codes for move in legal_moves(position, card)}
    other = random_position(rng, rules=position.rules.to_json(), players=len(position.players),
                            board=position.board)
    other = _same_layout(position, other)
    if other is None or other.codes in listed:
        return
    verdict = check(position, other, card)
    assert not verdict.legal
    assert isinstance(verdict.reason, str) and verdict.reason
    assert bool(verdict.nearest) == bool(listed)


@SETTINGS
@given(positions)
def test_joker_is_the_union_of_all_cards(position: Position) -> None:
    union = set()
    for card in Card:
        if card is not Card.JOKER:
            union |= {move.result.codes for move in legal_moves(position, card)}
    assert {move.result.codes for move in legal_moves(position, Card.JOKER)} == union


@SETTINGS
@given(positions, cards)
def test_moves_never_change_another_players_home(position: Position, card: Card) -> None:
    track_len = position.layout.track_len
    moving = position.controlled()
    for move in legal_moves(position, card):
        for player, (old, new) in enumerate(zip(position.codes, move.result.codes, strict=True)):
            if player in (moving, position.turn):
                continue
            assert [c for c in old if c >= track_len] == [c for c in new if c >= track_len]


@SETTINGS
@given(positions)
def test_position_json_round_trips(position: Position) -> None:
    assert Position.from_json(position.to_json()) == position
    assert Position.from_json(position.dumps()) == position


def _same_layout(position: Position, other: Position) -> Position | None:
    """``other``'s pegs in ``position``'s layout, if they fit (same seats)."""
    obj = position.to_json()
    for entry, player in zip(obj["players"], other.players, strict=True):
        entry["pegs"] = list(player.pegs)
    try:
        return Position.from_json(obj)
    except ValueError:
        return None


@SETTINGS
@given(st.integers(0, 2**32), st.sampled_from(["swiss", "schmidt"]))
def test_the_goal_directed_seven_finds_every_result(seed: int, rules: str) -> None:
    """check() looks for the observed result of a 7 with a pruned search: it must find each."""
    from companion.rules.moves import find_move

    position = random_position(random.Random(seed), rules=rules, on_track=0.7, in_home=0.3)
    for move in legal_moves(position, Card.SEVEN):
        fresh = Position.from_json(position.to_json())  # no cached moves
        found = find_move(fresh, Card.SEVEN, move.result)
        assert found is not None and found.result == move.result
        assert found.notation == move.notation


@SETTINGS
@given(positions, st.integers(0, 2**32))
def test_state_keys_count_the_pegs_that_differ(position: Position, seed: int) -> None:
    """Equal keys exactly for equal locations; half the differing key bits are the number of
    pegs whose locations differ (the referee ranks its nearest results by it)."""
    other = _same_layout(position, random_position(
        random.Random(seed), rules=position.rules.to_json(), players=len(position.players),
        board=position.board))
    if other is None:
        return
    differing = sum(
        sum((Counter(theirs) - Counter(mine)).values())
        for mine, theirs in zip(position.codes, other.codes, strict=True)
    )
    assert (position.key == other.key) == (position.codes == other.codes)
    assert (position.key ^ other.key).bit_count() == 2 * differing
    assert position.with_turn(0).key == position.key


@SETTINGS
@given(st.integers(0, 2**32), st.sampled_from(["swiss", "schmidt"]))
def test_check_without_and_with_the_moves_listed_agrees(seed: int, rules: str) -> None:
    """An illegal 7 is judged from the compact results of the search, or from the listed moves
    when the table listed them before: the verdicts are the same."""
    rng = random.Random(seed)
    position = random_position(rng, rules=rules, on_track=0.7, in_home=0.3)
    observed = _same_layout(position, random_position(
        rng, rules=rules, players=len(position.players), board=position.board, on_track=0.7))
    if observed is None:
        return
    compact = check(Position.from_json(position.to_json()), observed, Card.SEVEN)
    listed_first = Position.from_json(position.to_json())
    legal_moves(listed_first, Card.SEVEN)
    assert check(listed_first, observed, Card.SEVEN) == compact
