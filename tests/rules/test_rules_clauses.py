"""One test (at least) per clause of RULES.md, named after its section: ``test_s3_…``."""

from __future__ import annotations

import pytest

from companion.rules import (
    SCHMIDT,
    SWISS,
    Card,
    DealSequence,
    Position,
    legal_moves,
    playable,
)
from tests.rules.conftest import make

EMPTY = "K K K K"


def notations(position: Position, card: Card) -> set[str]:
    return {move.notation for move in legal_moves(position, card)}


def results(position: Position, card: Card) -> set[tuple[tuple[str, ...], ...]]:
    return {tuple(p.pegs for p in move.result.players) for move in legal_moves(position, card)}


def pegs(*rows: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(row.split()) for row in rows)


# -- 1. Material and board -------------------------------------------------------------------


def test_s1_track_has_16_fields_per_seat_position() -> None:
    assert make(["K K K T63", EMPTY, EMPTY, EMPTY]).layout.track_len == 64
    six = make(["K K K T95", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY])
    assert six.layout.track_len == 96


def test_s1_start_field_of_seat_position_p_is_16p() -> None:
    position = make(["K K K K T20", "K K K K T16*"], rules="schmidt", seats=[3, 1])
    assert position.layout.starts == (48, 16)
    assert notations(position, Card.KING) == {"K: red K→T48*", "K: red T20→T33"}


def test_s1_partners_sit_opposite() -> None:
    four = make([EMPTY] * 4)
    assert [four.partner(i) for i in range(4)] == [2, 3, 0, 1]
    six = make([EMPTY] * 6)
    assert [six.partner(i) for i in range(6)] == [3, 4, 5, 0, 1, 2]
    assert six.team_of(4) == (1, 4)


def test_s1_track_wraps_around_the_board() -> None:
    position = make(["K K K T62", "K K K T60", EMPTY, EMPTY], turn=1)
    assert notations(position, Card.SIX) == {"6: yellow T60→T2"}


# -- 2. Card effects -------------------------------------------------------------------------


def test_s2_ace_starts_or_moves_1_or_11() -> None:
    position = make(["K K K T5", EMPTY, EMPTY, EMPTY])
    assert notations(position, Card.ACE) == {"A: red K→T0*", "A: red T5→T6", "A: red T5→T16"}


def test_s2_king_starts_or_moves_13() -> None:
    position = make(["K K K T5", EMPTY, EMPTY, EMPTY])
    assert notations(position, Card.KING) == {"K: red K→T0*", "K: red T5→T18"}


def test_s2_queen_moves_12() -> None:
    assert notations(make(["K K K T5", EMPTY, EMPTY, EMPTY]), Card.QUEEN) == {"Q: red T5→T17"}


@pytest.mark.parametrize(
    ("card", "steps"),
    [(Card.TEN, 10), (Card.NINE, 9), (Card.EIGHT, 8), (Card.SIX, 6), (Card.FIVE, 5),
     (Card.THREE, 3), (Card.TWO, 2)],
)
def test_s2_number_cards_move_their_value_forward(card: Card, steps: int) -> None:
    position = make(["K K K T20", EMPTY, EMPTY, EMPTY])
    assert notations(position, card) == {f"{card}: red T20→T{20 + steps}"}


def test_s2_four_moves_4_forward_or_4_backward() -> None:
    position = make(["K K K T20", EMPTY, EMPTY, EMPTY])
    assert notations(position, Card.FOUR) == {"4: red T20→T24", "4 back: red T20→T16"}


def test_s2_joker_is_any_card_with_all_its_options() -> None:
    position = make(["K K T5 T40", "T9 K K K", EMPTY, "T44 K K K"])
    union = set()
    for card in Card:
        if card is not Card.JOKER:
            union |= results(position, card)
    assert results(position, Card.JOKER) == union
    assert "JOKER as A: red K→T0*" in notations(position, Card.JOKER)
    assert "JOKER as 4 back: red T5→T1" in notations(position, Card.JOKER)


def test_s2_only_start_cards_leave_the_kennel() -> None:
    position = make([EMPTY, EMPTY, EMPTY, EMPTY])
    for card in Card:
        expected = card in (Card.ACE, Card.KING, Card.JOKER) or card is Card.JACK
        assert playable(position, card) is expected, card


# -- 3. Starting a peg, the start field, protection -----------------------------------------


def test_s3_start_puts_a_fresh_peg_on_the_own_start_field() -> None:
    position = make(["K K K T5", EMPTY, EMPTY, EMPTY], turn=1)
    (move,) = [m for m in legal_moves(position, Card.ACE) if "K→" in m.notation]
    assert move.notation == "A: yellow K→T16*"
    assert move.result.players[1].pegs == ("K", "K", "K", "T16*")


def test_s3_fresh_peg_blocks_own_pegs() -> None:
    position = make(["K K T0* T62", EMPTY, EMPTY, EMPTY])
    assert notations(position, Card.FIVE) == {"5: red T0*→T5"}


def test_s3_fresh_peg_blocks_other_pegs_in_both_directions() -> None:
    position = make(["T62 K K K", "K K K T16*", "T14 K K K", "T18 K K K"], turn=2)
    assert "4: green T14→T18 ×blue@T18" not in notations(position, Card.FOUR)
    assert notations(position, Card.FOUR) == {"4 back: green T14→T10"}
    back = make(["T62 K K K", "K K K T16*", EMPTY, "T18 K K K"], turn=3)
    assert notations(back, Card.FOUR) == {"4: blue T18→T22"}


def test_s3_fresh_peg_cannot_be_knocked_out() -> None:
    position = make(["K K K T11", "K K K T16*", EMPTY, EMPTY])
    assert notations(position, Card.FIVE) == set()


def test_s3_fresh_peg_blocks_starting_onto_its_field() -> None:
    position = make(["K K K T0*", EMPTY, EMPTY, EMPTY])
    assert notations(position, Card.ACE) == {"A: red T0*→T1", "A: red T0*→T11"}


def test_s3_fresh_peg_blocks_own_home_entry() -> None:
    position = make(["K K T0* T62", EMPTY, EMPTY, EMPTY])
    assert notations(position, Card.THREE) == {"3: red T0*→T3"}


def test_s3_swiss_peg_that_moved_onto_its_start_is_not_protected() -> None:
    position = make(["K K K T0", "T60 K K K", EMPTY, EMPTY], turn=1)
    assert "4: yellow T60→T0 ×red@T0" in notations(position, Card.FOUR)
    assert "5: yellow T60→T1" in notations(position, Card.FIVE)


def test_s3_schmidt_every_peg_on_its_own_start_is_protected() -> None:
    position = make(["K K K T0", "T60 K K K", EMPTY, EMPTY], turn=1, rules="schmidt")
    assert notations(position, Card.FOUR) == {"4 back: yellow T60→T56"}
    assert notations(position, Card.FIVE) == set()


def test_s3_peg_on_another_players_start_is_not_protected() -> None:
    position = make(["K K K T16", "T12 K K K", EMPTY, EMPTY], turn=1, rules="schmidt")
    assert notations(position, Card.FOUR) >= {"4: yellow T12→T16 ×red@T16"}


def test_s3_starting_knocks_out_an_unprotected_peg_on_the_start_field() -> None:
    position = make(["K K K K", "T0 K K K", EMPTY, EMPTY])
    assert notations(position, Card.KING) == {"K: red K→T0* ×yellow@T0"}


def test_s3_swiss_starting_knocks_out_an_own_peg_that_moved_onto_the_start() -> None:
    position = make(["K K K T0", EMPTY, EMPTY, EMPTY])
    assert "K: red K→T0* ×red@T0" in notations(position, Card.KING)


def test_s3_schmidt_own_peg_on_start_blocks_starting() -> None:
    position = make(["K K K T0", EMPTY, EMPTY, EMPTY], rules="schmidt")
    assert notations(position, Card.KING) == {"K: red T0→T13"}


def test_s3_fresh_peg_is_written_with_a_star_under_both_rule_sets() -> None:
    for rules in ("swiss", "schmidt"):
        (move,) = legal_moves(make([EMPTY] * 4, rules=rules), Card.ACE)
        assert move.result.to_json()["players"][0]["pegs"] == ["K", "K", "K", "T0*"]


# -- 4. Moving, passing and knocking out ----------------------------------------------------


def test_s4_value_must_be_moved_exactly_and_completely() -> None:
    position = make(["H1 K K K", EMPTY, EMPTY, EMPTY])
    assert notations(position, Card.TWO) == {"2: red H1→H3"}
    assert notations(position, Card.THREE) == set()


def test_s4_passing_is_allowed_and_leaves_the_passed_peg() -> None:
    position = make(["K K K T10", "T12 K K K", EMPTY, EMPTY])
    (move,) = legal_moves(position, Card.FIVE)
    assert move.notation == "5: red T10→T15"
    assert move.result.players[1].pegs == ("K", "K", "K", "T12")


@pytest.mark.parametrize(("who", "row"), [(0, "T15 T10 K K"), (1, "T10 K K K"), (2, "T10 K K K")])
def test_s4_landing_knocks_out_any_peg_own_and_partner_included(who: int, row: str) -> None:
    rows = ["T15 K K K" if who != 0 else row, EMPTY, EMPTY, EMPTY]
    if who:
        rows[who] = "T15 K K K"
        rows[0] = row
    position = make(rows)
    victim = position.layout.colors[who]
    assert f"5: red T10→T15 ×{victim}@T15" in notations(position, Card.FIVE)


def test_s4_knocked_out_peg_returns_to_its_owners_kennel() -> None:
    position = make(["K K K T10", "T15 T40 K K", EMPTY, EMPTY])
    (move,) = legal_moves(position, Card.FIVE)
    assert move.result.players[1].pegs == ("K", "K", "K", "T40")


def test_s4_home_is_entered_forward_across_the_own_start_and_turning_in_is_a_choice() -> None:
    position = make(["K K K T62", EMPTY, EMPTY, EMPTY])
    assert notations(position, Card.FIVE) == {"5: red T62→H2", "5: red T62→T3"}


def test_s4_swiss_non_fresh_peg_on_its_start_may_turn_in_directly() -> None:
    position = make(["K K K T0", EMPTY, EMPTY, EMPTY])
    assert notations(position, Card.THREE) == {"3: red T0→H2", "3: red T0→T3"}


def test_s4_swiss_fresh_peg_may_not_turn_in() -> None:
    position = make(["K K K T0*", EMPTY, EMPTY, EMPTY])
    assert notations(position, Card.THREE) == {"3: red T0*→T3"}


def test_s4_swiss_fastest_way_home_is_start_4_back_then_forward() -> None:
    position = make(["K K K T0*", EMPTY, EMPTY, EMPTY])
    back = [m for m in legal_moves(position, Card.FOUR) if m.backward]
    assert [m.notation for m in back] == ["4 back: red T0*→T60"]
    assert "8: red T60→H3" in notations(back[0].result, Card.EIGHT)


def test_s4_schmidt_home_entry_only_from_behind() -> None:
    on_start = make(["K K K T0", EMPTY, EMPTY, EMPTY], rules="schmidt")
    assert notations(on_start, Card.THREE) == {"3: red T0→T3"}
    behind = make(["K K K T63", EMPTY, EMPTY, EMPTY], rules="schmidt")
    assert notations(behind, Card.THREE) == {"3: red T63→H1", "3: red T63→T2"}


def test_s4_no_passing_and_no_landing_inside_home() -> None:
    position = make(["H1 K K T62", EMPTY, EMPTY, EMPTY])
    assert "4: red T62→H1" not in notations(position, Card.FOUR)
    assert "5: red T62→H2" not in notations(position, Card.FIVE)
    assert notations(position, Card.THREE) == {"3: red T62→H0", "3: red T62→T1"}


def test_s4_no_moving_past_h3_and_no_backward_in_home() -> None:
    position = make(["H2 K K K", EMPTY, EMPTY, EMPTY])
    assert notations(position, Card.TWO) == set()
    assert notations(position, Card.FOUR) == set()


def test_s4_pegs_in_home_are_never_knocked_out() -> None:
    position = make(["K K K T60", "K K K K", "K K K K", "H0 K K K"], turn=0)
    for move in legal_moves(position, Card.SEVEN):
        assert move.result.players[3].pegs == ("K", "K", "K", "H0")


def test_s4_four_backward_never_enters_home() -> None:
    position = make(["K K K T2", EMPTY, EMPTY, EMPTY])
    assert notations(position, Card.FOUR) == {"4: red T2→T6", "4 back: red T2→T62"}


def test_s4_value_too_high_for_home_moves_on_along_the_track() -> None:
    position = make(["K K K T62", EMPTY, EMPTY, EMPTY])
    assert notations(position, Card.TEN) == {"10: red T62→T8"}


# -- 5. The 7 --------------------------------------------------------------------------------


def test_s5_seven_is_split_over_pegs_in_every_way() -> None:
    position = make(["K K T10 T30", EMPTY, EMPTY, EMPTY])
    assert len(legal_moves(position, Card.SEVEN)) == 8
    assert pegs("K K T13 T34", EMPTY, EMPTY, EMPTY) in results(position, Card.SEVEN)


def test_s5_all_seven_points_must_be_used() -> None:
    position = make(["H0 K K K", EMPTY, EMPTY, EMPTY])
    assert not playable(position, Card.SEVEN)
    blocked = make(["K K K T12", "T16* K K K", EMPTY, EMPTY])
    assert not playable(blocked, Card.SEVEN)


def test_s5_seven_knocks_out_every_peg_it_passes() -> None:
    position = make(["K K K T10", "T12 K K K", EMPTY, "T14 K K K"])
    assert notations(position, Card.SEVEN) == {"7: red T10→T17 ×yellow@T12 ×blue@T14"}


def test_s5_seven_knocks_out_passed_own_and_partner_pegs() -> None:
    position = make(["K K T12 T10", EMPTY, "T14 K K K", EMPTY])
    assert pegs("K K K T17", EMPTY, EMPTY, EMPTY) in results(position, Card.SEVEN)


def test_s5_protected_pegs_block_the_seven() -> None:
    position = make(["K K K T12", "T16* K K K", EMPTY, EMPTY])
    assert not playable(position, Card.SEVEN)


def test_s5_no_passing_inside_home_with_the_seven() -> None:
    position = make(["H2 K K T62", EMPTY, EMPTY, EMPTY])
    assert results(position, Card.SEVEN) == {
        pegs("K K T5 H2", EMPTY, EMPTY, EMPTY),
        pegs("K K T4 H3", EMPTY, EMPTY, EMPTY),
    }


def test_s5_split_knocks_out_only_the_pegs_a_part_actually_passes() -> None:
    position = make(["K K T10 T20", "T15 K K K", EMPTY, EMPTY])
    got = results(position, Card.SEVEN)
    assert pegs("K K T16 T21", "K K K K", EMPTY, EMPTY) in got  # T10 passes T15
    assert pegs("K K T14 T23", "K K K T15", EMPTY, EMPTY) in got  # nobody passes T15


def test_s5_the_order_of_the_parts_matters() -> None:
    """red T12→T14 first, then T10→T15 passes (and knocks out) red's own peg on T14. The other
    order is impossible: T10→T15 first knocks out the peg on T12 before it can move."""
    position = make(["K K T10 T12", EMPTY, EMPTY, EMPTY])
    moves = {m.result.players[0].pegs: m.notation for m in legal_moves(position, Card.SEVEN)}
    assert moves[("K", "K", "K", "T15")] == "7: red T12→T14, red T10→T15 ×red@T14"


def test_s5_a_peg_knocked_out_by_an_earlier_part_cannot_move_later() -> None:
    position = make(["K K T10 T12", EMPTY, EMPTY, EMPTY])
    # T10→T13 passes T12 (own, knocked out); T12 can no longer use the rest.
    got = results(position, Card.SEVEN)
    assert pegs("K K K T17", EMPTY, EMPTY, EMPTY) in got
    assert all(row[0].count("K") <= 3 for row in got)


def test_s5_a_part_may_move_inside_home() -> None:
    position = make(["H0 K K T30", EMPTY, EMPTY, EMPTY])
    assert pegs("K K T34 H3", EMPTY, EMPTY, EMPTY) in results(position, Card.SEVEN)


def test_s5_remaining_points_move_the_partners_pegs_once_all_own_pegs_are_home() -> None:
    position = make(["H1 H2 H3 T62", EMPTY, "K K K T40", EMPTY])
    got = results(position, Card.SEVEN)
    assert pegs("H0 H1 H2 H3", EMPTY, "K K K T44", EMPTY) in got
    move = next(m for m in legal_moves(position, Card.SEVEN)
                if m.result.players[2].pegs == ("K", "K", "K", "T44"))
    assert move.notation == "7: red T62→H0, green T40→T44"


def test_s5_partners_pegs_never_move_while_own_pegs_are_out() -> None:
    position = make(["H0 H1 K T61", EMPTY, "K K K T40", EMPTY])
    for row in results(position, Card.SEVEN):
        assert row[2] == ("K", "K", "K", "T40")


# -- 6. The Jack -----------------------------------------------------------------------------


def test_s6_jack_swaps_an_own_peg_with_an_opponents_or_the_partners() -> None:
    position = make(["K K K T5", "T20 K K K", "T40 K K K", EMPTY])
    assert notations(position, Card.JACK) == {"J: red T5↔yellow T20", "J: red T5↔green T40"}


def test_s6_protected_kennel_and_home_pegs_never_swap() -> None:
    position = make(["K K T0* T5", "T16* K K K", "H0 K K K", EMPTY])
    assert notations(position, Card.JACK) == {"J: no effect"}
    schmidt = make(["K K T0 T5", "T16 K K K", "T40 K K K", EMPTY], rules="schmidt")
    assert notations(schmidt, Card.JACK) == {"J: red T5↔green T40"}


def test_s6_swapped_pegs_are_not_fresh_and_schmidt_protects_a_peg_swapped_onto_its_start() -> (
    None
):
    position = make(["K K K T16", "T0 K K K", EMPTY, EMPTY], rules="schmidt")
    (move,) = legal_moves(position, Card.JACK)
    assert move.result.players[0].pegs == ("K", "K", "K", "T0")
    blocked = move.result.with_turn(1)
    assert "T0" in blocked.players[0].pegs
    assert "4 back: yellow T16→T12" in notations(blocked, Card.FOUR)
    yellow_passing = make(["K K K T0", "T62 K K K", EMPTY, EMPTY], rules="schmidt", turn=1)
    assert notations(yellow_passing, Card.THREE) == set()


def test_s6_swap_is_compulsory_when_possible() -> None:
    position = make(["K K K T5", "T20 K K K", EMPTY, EMPTY])
    assert "J: no effect" not in notations(position, Card.JACK)


def test_s6_jack_without_effect_when_every_other_peg_on_the_track_is_protected() -> None:
    position = make(["K K K T5", "T16* K K K", EMPTY, EMPTY])
    (move,) = legal_moves(position, Card.JACK)
    assert move.notation == "J: no effect"
    assert move.no_effect and move.result == position


def test_s6_jack_without_effect_when_nobody_else_is_on_the_track() -> None:
    position = make([EMPTY, EMPTY, EMPTY, EMPTY])
    assert notations(position, Card.JACK) == {"J: no effect"}


def test_s6_jack_not_playable_when_only_others_have_swappable_pegs() -> None:
    position = make(["K K K T0*", "T20 K K K", EMPTY, EMPTY])
    assert notations(position, Card.JACK) == set()


# -- 7. Turns, teams -------------------------------------------------------------------------


def test_s7_a_finished_player_plays_every_card_with_the_partners_pegs() -> None:
    position = make(["H0 H1 H2 H3", "T30 K K K", "K K K T40", EMPTY])
    assert notations(position, Card.ACE) == {
        "A: green K→T32*", "A: green T40→T41", "A: green T40→T51",
    }
    assert notations(position, Card.JACK) == {"J: green T40↔yellow T30"}
    assert notations(position, Card.FOUR) == {"4: green T40→T44", "4 back: green T40→T36"}


def test_s7_the_team_wins_when_all_its_pegs_are_home() -> None:
    position = make(["H0 H1 H2 H3", EMPTY, "H1 H2 H3 T31", EMPTY])
    assert position.finished(0) and not position.finished(2)
    assert position.winner() is None
    assert notations(position, Card.TWO) == {"2: green T31→T33", "2: green T31→H0"}
    (move,) = [m for m in legal_moves(position, Card.TWO) if m.notation.endswith("H0")]
    assert move.result.winner() == (0, 2)


def test_s7_result_keeps_the_turn() -> None:
    position = make(["K K K T5", EMPTY, EMPTY, EMPTY], turn=0)
    assert all(m.result.turn == 0 for m in legal_moves(position, Card.SEVEN))


# -- 8. 2, 3 and 5 players -------------------------------------------------------------------


def test_s8_individual_players_start_with_4_in_the_kennel_and_1_fresh_on_start() -> None:
    position = Position.initial(SCHMIDT, 6, ["red", "green", "black"], seats=[0, 2, 4])
    assert [p.pegs for p in position.players] == [
        ("K", "K", "K", "K", "T0*"), ("K", "K", "K", "K", "T32*"), ("K", "K", "K", "K", "T64*"),
    ]
    assert position.partner(0) is None and position.team_of(1) == (1,)


def test_s8_first_player_with_4_pegs_home_wins() -> None:
    position = make(["H0 H1 H2 H3 T5", "K K K K T16*"], rules="schmidt")
    assert position.finished(0)
    assert position.winner() == (0,)


def test_s8_seats_nobody_plays_stay_empty() -> None:
    position = make(["K K K K T0*", "K K K K T32*"], rules="schmidt", seats=[0, 2])
    assert position.layout.starts == (0, 32)
    assert notations(position.with_turn(1), Card.FIVE) == {"5: yellow T32*→T37"}


def test_s8_swiss_rules_are_for_teams_only() -> None:
    with pytest.raises(ValueError, match="team_game"):
        make(["K K K K T0*", "K K K K T16*", "K K K K T32*"], rules="swiss")


# -- 9. Rule set options ---------------------------------------------------------------------


def test_s9_presets() -> None:
    assert (SWISS.start_protection, SWISS.home_entry, SWISS.direction) == (
        "fresh", "not_fresh", "counter-clockwise")
    assert (SCHMIDT.start_protection, SCHMIDT.home_entry, SCHMIDT.direction) == (
        "always", "from_behind", "clockwise")
    assert SWISS.deal_sequence == SCHMIDT.deal_sequence == DealSequence((), (6, 5, 4, 3, 2))


def test_s9_single_options_can_be_overridden() -> None:
    rules = {"base": "swiss", "start_protection": "always"}
    position = make(["K K K T0", "T60 K K K", EMPTY, EMPTY], turn=1, rules=rules)
    assert notations(position, Card.FIVE) == set()
    assert position.to_json()["rules"] == rules
    assert position.rules.to_json()["home_entry"] == "not_fresh"
