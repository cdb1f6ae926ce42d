"""The referee's check (RULES.md section 10): verdicts, reasons and nearest legal results."""

from __future__ import annotations

import pytest

from companion.rules import Card, PositionError, check, legal_moves
from tests.rules.conftest import make

EMPTY = "K K K K"


def test_s10_a_legal_result_is_named_by_its_move() -> None:
    before = make(["K K T3 T20", "T21 K K K", EMPTY, "T22 K K K"])
    after = make(["K K T8 T22", EMPTY, EMPTY, EMPTY], turn=1)
    verdict = check(before, after, Card.SEVEN)
    assert verdict.legal
    assert verdict.move is not None
    assert verdict.move.notation == "7: red T3→T8, red T20→T22 ×yellow@T21 ×blue@T22"
    assert verdict.to_json() == {"legal": True, "move": verdict.move.notation}


def test_s10_joker_verdict_names_the_card_it_acted_as() -> None:
    before = make(["K K K T3", EMPTY, EMPTY, EMPTY])
    verdict = check(before, make(["K K K T8", EMPTY, EMPTY, EMPTY]), Card.JOKER)
    assert verdict.legal and verdict.move is not None
    assert verdict.move.notation == "JOKER as 5: red T3→T8"


def test_s10_wrong_distance() -> None:
    before = make(["K K T3 T20", EMPTY, EMPTY, EMPTY])
    verdict = check(before, make(["K K T3 T26", EMPTY, EMPTY, EMPTY]), Card.FIVE)
    assert not verdict.legal
    assert verdict.reason == (
        "red moved T20→T26: that is 6 fields forward, but the 5 moves exactly 5"
    )
    assert verdict.nearest[0].move.notation == "5: red T20→T25"
    assert verdict.nearest[0].differences == ("red: T26 observed, T25 expected",)


def test_s10_a_four_backward_one_field_short_is_named_backward() -> None:
    before = make(["K K K T0*", EMPTY, EMPTY, EMPTY])
    verdict = check(before, make(["K K K T61", EMPTY, EMPTY, EMPTY]), Card.FOUR)
    assert not verdict.legal and verdict.code == "wrong_distance_backward"
    assert verdict.reason == (
        "red moved T0*→T61: that is 3 fields backward, but the 4 moves backward exactly 4"
    )
    assert verdict.text("de") == (
        "Rot zog T0*→T61: das sind 3 Felder rückwärts, aber die 4 zieht rückwärts genau 4"
    )
    assert verdict.nearest[0].move.notation == "4 back: red T0*→T60"


def test_s10_s5_peg_passed_by_the_seven_left_standing() -> None:
    before = make(["K K T3 T20", EMPTY, EMPTY, "T22 K K K"])
    verdict = check(before, make(["K K T3 T27", EMPTY, EMPTY, "T22 K K K"]), Card.SEVEN)
    assert verdict.reason is not None
    assert verdict.reason.startswith("blue at T22 was passed by the 7 and must go back to its"
                                     " kennel")
    assert verdict.nearest[0].differences == ("blue: T22 observed, K expected",)
    as_json = verdict.to_json()
    assert as_json["legal"] is False
    assert as_json["nearest"][0]["notation"] == "7: red T20→T27 ×blue@T22"


def test_s10_s4_landed_on_peg_put_aside_instead_of_into_its_kennel() -> None:
    before = make(["K K K T10", "T15 K K K", EMPTY, EMPTY])
    verdict = check(before, make(["K K K T15", "T16 K K K", EMPTY, EMPTY]), Card.FIVE)
    assert verdict.reason is not None
    assert verdict.reason.startswith("yellow at T15 was landed on and must go back to its kennel")


def test_s10_s4_only_the_seven_knocks_out_passed_pegs() -> None:
    before = make(["K K K T10", "T12 K K K", EMPTY, EMPTY])
    verdict = check(before, make(["K K K T15", EMPTY, EMPTY, EMPTY]), Card.FIVE)
    assert verdict.reason == (
        "yellow at T12 was only passed and must stay: only the 7 knocks out the pegs it passes"
        " (red T10→T15)"
    )
    assert verdict.code == "passed_knocked_out" and verdict.rule == "passing"
    assert verdict.args == {"color": "yellow", "field": "T12", "by_color": "red",
                            "by_from": "T10", "by_to": "T15"}


def test_s10_s3_passing_a_protected_peg() -> None:
    before = make(["K K K T10", "T16* K K K", EMPTY, EMPTY])
    verdict = check(before, make(["K K K T20", "T16* K K K", EMPTY, EMPTY]), Card.TEN)
    assert verdict.reason is not None
    assert verdict.reason == (
        "the 10 cannot be played by red: T10 is blocked by yellow's fresh peg on T16, which"
        " cannot be passed"
    )
    assert not verdict.playable and verdict.nearest == ()


def test_s10_s3_passing_a_protected_peg_with_a_playable_card() -> None:
    before = make(["K K T40 T10", "T16* K K K", EMPTY, EMPTY])
    verdict = check(before, make(["K K T40 T17", "T16* K K K", EMPTY, EMPTY]), Card.SEVEN)
    assert verdict.reason is not None
    assert "yellow's fresh peg on T16 blocks: it cannot be passed" in verdict.reason
    assert verdict.nearest


def test_s10_s4_fresh_peg_entering_home_swiss() -> None:
    before = make(["K K K T0*", EMPTY, EMPTY, EMPTY])
    verdict = check(before, make(["K K K H2", EMPTY, EMPTY, EMPTY]), Card.THREE)
    assert verdict.reason == (
        "red's fresh peg on T0 may not enter its home before it has moved: the start must be"
        " touched twice (home_entry not_fresh)"
    )


def test_s10_s4_entering_home_from_the_start_field_schmidt() -> None:
    before = make(["K K K T0", EMPTY, EMPTY, EMPTY], rules="schmidt")
    verdict = check(before, make(["K K K H2", EMPTY, EMPTY, EMPTY], rules="schmidt"), Card.THREE)
    assert verdict.reason is not None
    assert "must come from behind" in verdict.reason and "T0" in verdict.reason


def test_s10_s4_passing_inside_home() -> None:
    before = make(["K K H1 T62", EMPTY, EMPTY, EMPTY])
    verdict = check(before, make(["K K H1 H2", EMPTY, EMPTY, EMPTY]), Card.FIVE)
    assert verdict.reason == "red's peg on H1 cannot be passed inside the home (red T62→H2)"


def test_s10_s4_four_backward_into_home() -> None:
    before = make(["K K K T2", EMPTY, EMPTY, EMPTY])
    verdict = check(before, make(["K K K H1", EMPTY, EMPTY, EMPTY]), Card.FOUR)
    assert verdict.reason is not None
    assert "a 4 backward never enters the home" in verdict.reason


def test_s10_s6_wrong_jack_partner() -> None:
    before = make(["K K K T5", "T20 K K K", EMPTY, "T40 K K K"])
    verdict = check(before, make(["K K K T5", "T40 K K K", EMPTY, "T20 K K K"]), Card.JACK)
    assert verdict.reason is not None
    assert verdict.reason.startswith("wrong Jack partner: yellow at T20 and blue at T40")


def test_s10_s6_swapping_a_protected_peg() -> None:
    before = make(["K K K T5", "T16* K K K", EMPTY, "T40 K K K"])
    verdict = check(before, make(["K K K T16", "T5 K K K", EMPTY, "T40 K K K"]), Card.JACK)
    assert verdict.reason is not None
    assert "protected" in verdict.reason and "T16" in verdict.reason


def test_s10_s6_jack_not_swapped_although_possible() -> None:
    before = make(["K K K T5", "T20 K K K", EMPTY, EMPTY])
    verdict = check(before, before, Card.JACK)
    assert verdict.reason is not None
    assert verdict.reason.startswith("nothing moved, but a swap is possible (J: red T5↔yellow T20)")


def test_s10_s6_jack_without_effect_is_legal() -> None:
    before = make(["K K K T5", "T16* K K K", EMPTY, EMPTY])
    verdict = check(before, before.with_turn(1), Card.JACK)
    assert verdict.legal and verdict.move is not None
    assert verdict.move.notation == "J: no effect"


def test_s10_card_that_cannot_be_played_at_all() -> None:
    before = make([EMPTY, "T20 K K K", EMPTY, EMPTY])
    verdict = check(before, make(["K K K T5", "T20 K K K", EMPTY, EMPTY]), Card.FIVE)
    assert not verdict.legal and not verdict.playable
    assert verdict.nearest == ()
    assert verdict.reason is not None
    assert "the 5 cannot be played by red" in verdict.reason
    assert "only the A, the K and the Joker start a peg" in verdict.reason


def test_s10_pegs_of_another_player_moved() -> None:
    before = make(["K K K T5", "T20 K K K", EMPTY, EMPTY])
    verdict = check(before, make(["K K K T5", "T25 K K K", EMPTY, EMPTY]), Card.FIVE)
    assert verdict.reason == (
        "yellow's peg moved (yellow T20→T25), but the 5 moves only red's own pegs"
    )


def test_s10_partner_pegs_moved_too_early() -> None:
    before = make(["K K K T5", EMPTY, "T20 K K K", EMPTY])
    verdict = check(before, make(["K K K T5", EMPTY, "T25 K K K", EMPTY]), Card.FIVE)
    assert verdict.reason is not None
    assert "only once all own pegs are home" in verdict.reason


def test_s10_start_with_a_card_that_cannot_start() -> None:
    before = make(["K K K T30", EMPTY, EMPTY, EMPTY])
    verdict = check(before, make(["K K T0* T30", EMPTY, EMPTY, EMPTY]), Card.FIVE)
    assert verdict.reason == (
        "red started a peg with the 5, but only the A, the K and the Joker move a peg from the"
        " kennel onto its start field"
    )


def test_s10_seven_not_fully_used() -> None:
    before = make(["K K T3 T20", EMPTY, EMPTY, EMPTY])
    verdict = check(before, make(["K K T5 T24", EMPTY, EMPTY, EMPTY]), Card.SEVEN)
    assert verdict.reason is not None
    assert verdict.reason.startswith("the parts of the 7 add up to 6 fields")


def test_s10_several_pegs_moved_with_one_card() -> None:
    before = make(["K K T3 T20", EMPTY, EMPTY, EMPTY])
    verdict = check(before, make(["K K T5 T23", EMPTY, EMPTY, EMPTY]), Card.FIVE)
    assert verdict.reason is not None
    assert "only the 7 may be split over several pegs" in verdict.reason


def test_s10_nearest_results_are_sorted_best_first() -> None:
    before = make(["K K T3 T20", EMPTY, EMPTY, EMPTY])
    verdict = check(before, make(["K K T3 T28", EMPTY, EMPTY, EMPTY]), Card.SEVEN)
    assert not verdict.legal
    assert verdict.nearest[0].differences == ("red: T28 observed, T27 expected",)
    counts = [len(n.differences) for n in verdict.nearest]
    assert counts == sorted(counts)


def test_s10_positions_of_different_games_are_refused() -> None:
    before = make(["K K K T5", EMPTY, EMPTY, EMPTY])
    with pytest.raises(PositionError, match="rules"):
        check(before, make(["K K K T5", EMPTY, EMPTY, EMPTY], rules="schmidt"), Card.FIVE)
    with pytest.raises(PositionError, match="board"):
        check(before, make(["K K K T5", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY]), Card.FIVE)
    with pytest.raises(PositionError, match=r"after\.players\[1\]\.at"):
        check(before, make(["K K K T5", EMPTY, EMPTY, EMPTY], seats=[0, 3, 2, 1]), Card.FIVE)


def test_s10_the_turn_of_the_observed_position_is_ignored() -> None:
    before = make(["K K K T3", EMPTY, EMPTY, EMPTY])
    (move,) = legal_moves(before, Card.FIVE)
    assert check(before, move.result.with_turn(2), Card.FIVE).legal


# -- the likeliest mistake (the examples of the reasons' issue) --------------------------------

RED_GREEN = ["T10 T20 K K", EMPTY, "T12 K K K", EMPTY]
"""Red to move; red and green are partners; green's peg stands two fields ahead of red's."""


@pytest.mark.parametrize(("card", "after"), [
    (Card.SEVEN, ["T12 T25 K K", EMPTY, "T13 K K K", EMPTY]),
    (Card.TWO, ["T12 T20 K K", EMPTY, "T13 K K K", EMPTY]),
    (Card.JOKER, ["T12 T20 K K", EMPTY, "T13 K K K", EMPTY]),
])
def test_a_landed_on_partner_pushed_aside_is_named_with_the_peg_that_landed(
    card: Card, after: list[str]
) -> None:
    verdict = check(make(RED_GREEN), make(after), card)
    assert verdict.code == "landed_on_left_standing" and verdict.rule == "knocking-out"
    assert verdict.args == {"color": "green", "field": "T12", "by_color": "red",
                            "by_from": "T10", "by_to": "T12"}
    assert verdict.reason == (
        "green at T12 was landed on and must go back to its kennel: a peg landing on an"
        " occupied field knocks out its occupant (red T10→T12)")


def test_a_seven_moving_home_pegs_up_in_turn_is_not_a_home_pass() -> None:
    before = make(["T0* H1 H2 K", "T2 K K K", EMPTY, EMPTY])
    verdict = check(before, make(["T5 H2 H3 K", "T2 K K K", EMPTY, EMPTY]), Card.SEVEN)
    assert verdict.code == "passed_left_standing"
    assert verdict.args == {"color": "yellow", "field": "T2", "by_color": "red",
                            "by_from": "T0*", "by_to": "T5"}


def test_a_home_peg_moved_backward_by_a_seven_is_named() -> None:
    verdict = check(make(["T10 H2 K K", EMPTY, EMPTY, EMPTY]),
                    make(["T16 H1 K K", EMPTY, EMPTY, EMPTY]), Card.SEVEN)
    assert verdict.code == "no_forward_way"
    assert verdict.reason == "red moved H2→H1: no forward way leads there with the 7"


@pytest.mark.parametrize(("card", "moved"), [(Card.SEVEN, "T17"), (Card.SIX, "T16")])
def test_a_fresh_peg_that_lost_its_mark_is_still_fresh(card: Card, moved: str) -> None:
    six = [EMPTY] * 5
    before = make(["T0* T10 K K", *six])
    verdict = check(before, make([f"T0 {moved} K K", *six]), card)
    assert verdict.code == "fresh_mark_lost"
    assert verdict.args == {"color": "red", "field": "T0*", "observed": "T0"}
    assert "fields" not in (verdict.reason or "")


def test_the_reason_speaks_german() -> None:
    verdict = check(make(RED_GREEN), make(["T12 T25 K K", EMPTY, "T13 K K K", EMPTY]),
                    Card.SEVEN)
    assert verdict.text("de") == (
        "Grün auf T12 wurde getroffen und muss zurück in ihren Zwinger: wer auf einem"
        " besetzten Feld landet, schlägt die Kugel dort (Rot T10→T12)")
    assert verdict.to_json("de")["reason"] == verdict.text("de")
    assert check(make(RED_GREEN), make(RED_GREEN), Card.TWO).code == "nothing_moved"


def test_a_legal_verdict_has_no_code() -> None:
    verdict = check(make(RED_GREEN), make(["T12 T20 K K", EMPTY, "K K K K", EMPTY]), Card.TWO)
    assert verdict.legal and verdict.code is None and verdict.rule is None
    assert verdict.args == {} and verdict.text("de") is None


def test_the_reason_a_card_cannot_be_played() -> None:
    from companion.rules import reason_text, unplayable_reason

    position = make(["K K K K", "T5 K K K", EMPTY, EMPTY])
    assert unplayable_reason(position, Card.ACE) is None
    why = unplayable_reason(position, Card.QUEEN)
    assert why is not None and why.code == "not_playable"
    assert reason_text(why.code, why.args, "de") == (
        "Die Dame kann von Rot nicht gespielt werden: alle Kugeln von Rot sind im Zwinger, und"
        " nur Ass, König und Joker bringen eine Kugel ins Spiel")
