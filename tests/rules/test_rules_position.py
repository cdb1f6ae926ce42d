"""``dog-position/1`` parsing and writing (INTERFACES.md section 1), cards, rule sets."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.rules import (
    ALM_DOG_DEALS,
    SCHMIDT,
    SWISS,
    Card,
    CardError,
    DealSequence,
    Position,
    PositionError,
    RuleSet,
    parse_card,
)

EXAMPLE: dict[str, Any] = {
    "format": "dog-position/1",
    "rules": "swiss",
    "board": 4,
    "players": [
        {"color": "red", "pegs": ["K", "K", "T0*", "H1"]},
        {"color": "yellow", "pegs": ["T7", "T19", "K", "K"]},
        {"color": "green", "pegs": ["K", "K", "K", "K"]},
        {"color": "blue", "pegs": ["T33", "K", "H0", "H3"]},
    ],
    "turn": 0,
}


def changed(**changes: Any) -> dict[str, Any]:
    obj = json.loads(json.dumps(EXAMPLE))
    obj.update(changes)
    return obj


def with_pegs(player: int, pegs: list[str]) -> dict[str, Any]:
    obj = changed()
    obj["players"][player]["pegs"] = pegs
    return obj


def test_the_interfaces_example_parses_and_round_trips() -> None:
    position = Position.from_json(EXAMPLE)
    assert position.players[0].pegs == ("K", "K", "T0*", "H1")
    assert position.turn == 0 and position.board == 4 and position.rules == SWISS
    again = Position.from_json(position.to_json())
    assert again == position
    assert Position.from_json(json.dumps(EXAMPLE)) == position
    assert Position.from_json(position.dumps()) == position


def test_peg_order_does_not_matter() -> None:
    a = Position.from_json(EXAMPLE)
    b = Position.from_json(with_pegs(1, ["K", "T19", "K", "T7"]))
    assert a == b and hash(a) == hash(b) and a.same_locations(b)


def test_fresh_counts_when_comparing() -> None:
    a = Position.from_json(EXAMPLE)
    b = Position.from_json(with_pegs(0, ["K", "K", "T0", "H1"]))
    assert a != b


def test_turn_counts_for_equality_but_not_for_same_locations() -> None:
    a = Position.from_json(EXAMPLE)
    b = a.with_turn(2)
    assert a != b and a.same_locations(b)


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        (with_pegs(1, ["T7", "T19", "T99", "K"]),
         'players[1].pegs[2]: "T99" is off the 64-field track'),
        (with_pegs(1, ["T7", "T33", "K", "K"]),
         'players[3].pegs[0]: "T33" is already taken by players[1].pegs[1] (yellow)'),
        (with_pegs(1, ["T7", "T18*", "K", "K"]),
         'players[1].pegs[1]: "T18*": only a peg on its own start field T16 can be fresh (*)'),
        (with_pegs(0, ["K", "K", "T0*", "H4"]),
         'players[0].pegs[3]: "H4" is not a home field (H0 … H3)'),
        (with_pegs(0, ["K", "K", "H1", "H1"]), 'players[0].pegs[3]: "H1" is already taken'),
        (with_pegs(0, ["K", "K", "T0*"]), "players[0].pegs: "),
        (with_pegs(0, ["K", "K", "T0*", "t5"]), 'players[0].pegs[3]: "t5" is not a location'),
        (with_pegs(0, ["K", "K", "T0*", 5]), "players[0].pegs[3]: 5 is not a location"),
        (with_pegs(0, ["K", "K", "T0*", "T05"]), 'players[0].pegs[3]: "T05" is not a location'),
        (changed(rules={"base": "swiss", "start": "x"}), 'rules: unknown key "start"'),
        (changed(rules={"base": "swiss", "home_entry": "never"}),
         'rules.home_entry: "never" is not "not_fresh" or "from_behind"'),
        (changed(rules="brandi"), 'rules: "brandi" is not "swiss" or "schmidt"'),
        (changed(rules={"base": "x"}), 'rules.base: "x" is not'),
        (changed(colour="red"), "colour: unknown key at the top level"),
        (changed(format="dog-position/2"), 'format: "dog-position/2" is not "dog-position/1"'),
        (changed(board=5), "board: 5 is not 4 or 6"),
        (changed(turn=4), "turn: 4 is not a player index 0…3"),
        (changed(turn=True), "turn: true is not a player index"),
        (changed(teams=[[0, 1], [2]]), "teams: "),
        (changed(teams=[[0, 1, 2, 3]]), "teams of two partners"),
    ],
)
def test_invalid_positions_are_rejected_naming_key_and_value(obj: Any, message: str) -> None:
    with pytest.raises(PositionError) as error:
        Position.from_json(obj)
    assert message in str(error.value)
    assert isinstance(error.value, ValueError)


def test_missing_keys_and_bad_players_are_rejected() -> None:
    obj = changed()
    del obj["board"]
    with pytest.raises(PositionError, match="board: missing"):
        Position.from_json(obj)
    obj = changed()
    obj["players"][2] = {"color": "yellow", "pegs": ["K"] * 4}
    with pytest.raises(PositionError, match=r'players\[2\]\.color: "yellow" is taken'):
        Position.from_json(obj)
    obj = changed()
    obj["players"][2]["hat"] = 1
    with pytest.raises(PositionError, match=r"players\[2\]\.hat: unknown key"):
        Position.from_json(obj)
    with pytest.raises(PositionError, match="not valid JSON"):
        Position.from_json("{nope")
    with pytest.raises(PositionError, match=r"players\[1\]\.at: 0 is taken"):
        Position.from_json(changed(players=[
            {"color": "red", "pegs": ["K"] * 5}, {"color": "blue", "pegs": ["K"] * 5, "at": 0}],
            rules="schmidt"))


def test_peg_count_is_4_in_the_team_game_and_5_with_2_3_or_5_players() -> None:
    three = {"rules": "schmidt", "board": 6, "turn": 0, "players": [
        {"color": c, "pegs": ["K"] * 5} for c in ("red", "green", "blue")]}
    assert Position.from_json(three).layout.pegs_per_player == 5
    three["players"][0]["pegs"] = ["K"] * 4  # type: ignore[index]
    with pytest.raises(PositionError, match=r"players\[0\]\.pegs: .* each player has 5"):
        Position.from_json(three)


def test_rules_object_overrides_single_options() -> None:
    position = Position.from_json(changed(rules={"base": "swiss", "start_protection": "always"}))
    assert position.rules.start_protection == "always"
    assert position.rules.home_entry == "not_fresh"
    assert position.to_json()["rules"] == {"base": "swiss", "start_protection": "always"}
    full = Position.from_json(changed(rules={"base": "swiss", "start_protection": "always",
                                             "home_entry": "from_behind",
                                             "direction": "clockwise",
                                             "team_game": "teams_or_individual"}))
    assert full.rules == SCHMIDT and full.to_json()["rules"] == "schmidt"


def test_ruleset_json_round_trip() -> None:
    for rules in (SWISS, SCHMIDT, RuleSet(deal_sequence=DealSequence((), (6, 5, 4, 3, 2, 5))),
                  RuleSet(deal_sequence=ALM_DOG_DEALS, base="schmidt")):
        again = RuleSet.from_json(rules.to_json())
        assert again == rules
        assert again.to_json() == rules.to_json()
    assert RuleSet.from_json("schmidt") is SCHMIDT


def test_deal_sequence_a_list_is_the_cycle_an_object_adds_a_first_part() -> None:
    plain = RuleSet.from_json({"base": "swiss", "deal_sequence": [6, 5, 4, 3, 2]})
    assert plain == SWISS and plain.to_json()["deal_sequence"] == [6, 5, 4, 3, 2]
    same = RuleSet.from_json({"base": "swiss", "deal_sequence": {"cycle": [6, 5, 4, 3, 2]}})
    assert same == SWISS
    alm = {"base": "swiss", "deal_sequence": {"first": [6], "cycle": [5, 4, 3, 2]}}
    position = Position.from_json(changed(rules=alm))
    assert position.rules.deal_sequence == ALM_DOG_DEALS
    assert position.to_json()["rules"] == alm
    assert [ALM_DOG_DEALS.cards(n) for n in range(1, 12)] == [6, 5, 4, 3, 2, 5, 4, 3, 2, 5, 4]
    assert [SWISS.deal_sequence.cards(n) for n in range(1, 8)] == [6, 5, 4, 3, 2, 6, 5]


@pytest.mark.parametrize(
    ("deal_sequence", "message"),
    [
        ([], "rules.deal_sequence: [] is empty"),
        ([6, "5"], 'rules.deal_sequence[1]: "5" is not a card count (1 to 13)'),
        ([6, 0], "rules.deal_sequence[1]: 0 is not a card count"),
        ([14], "rules.deal_sequence[0]: 14 is not a card count"),
        ([True], "rules.deal_sequence[0]: true is not a card count"),
        ("6,5", 'rules.deal_sequence: "6,5" is not a list of card counts or {"first"'),
        ({"first": [6]}, "rules.deal_sequence.cycle: missing"),
        ({"first": [6], "cycle": []}, "rules.deal_sequence.cycle: [] is empty"),
        ({"first": 6, "cycle": [5]}, "rules.deal_sequence.first: 6 is not a list"),
        ({"first": [6], "cycle": [5, 2.5]}, "rules.deal_sequence.cycle[1]: 2.5 is not a card"),
        ({"cycle": [5], "then": [2]}, 'rules.deal_sequence: unknown key "then" (value [2])'),
    ],
)
def test_bad_deal_sequences_are_rejected_naming_key_and_value(
    deal_sequence: Any, message: str
) -> None:
    with pytest.raises(PositionError) as error:
        Position.from_json(changed(rules={"base": "swiss", "deal_sequence": deal_sequence}))
    assert message in str(error.value)


def test_explicit_teams_and_seats() -> None:
    position = Position.from_json(changed(teams=[[0, 1], [2, 3]]))
    assert position.partner(0) == 1 and position.team_of(3) == (2, 3)
    assert position.to_json()["teams"] == [[0, 1], [2, 3]]
    default = Position.from_json(changed(teams=[[1, 3], [0, 2]]))
    assert "teams" not in default.to_json() and default == Position.from_json(EXAMPLE)
    seated = Position.from_json({"rules": "schmidt", "board": 6, "turn": 1, "players": [
        {"color": "red", "pegs": ["K", "K", "K", "K", "T32*"], "at": 2},
        {"color": "blue", "pegs": ["K", "K", "K", "K", "K"], "at": 5}]})
    assert [p.seat for p in seated.players] == [2, 5]
    assert seated.to_json()["players"][0]["at"] == 2


def test_initial_positions() -> None:
    team = Position.initial(SWISS, 4, ["red", "yellow", "green", "blue"])
    assert all(p.pegs == ("K",) * 4 for p in team.players) and team.turn == 0
    assert Position.initial("schmidt", 4, ["red", "blue"], seats=[0, 2], turn=1).players[1] == (
        "blue", 2, ("K", "K", "K", "K", "T32*"))


@pytest.mark.parametrize(
    ("text", "card"),
    [("A", Card.ACE), ("a", Card.ACE), ("1/11", Card.ACE), ("13", Card.KING), ("k", Card.KING),
     ("12", Card.QUEEN), ("q", Card.QUEEN), ("swap", Card.JACK), ("J", Card.JACK),
     ("10", Card.TEN), ("2", Card.TWO), ("?", Card.JOKER), ("joker", Card.JOKER),
     (" 7 ", Card.SEVEN)],
)
def test_card_names_and_schmidt_aliases(text: str, card: Card) -> None:
    assert parse_card(text) is card


def test_card_canonical_names_and_errors() -> None:
    assert [str(card) for card in Card] == [
        "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "JOKER"]
    with pytest.raises(CardError, match='"14" is not a Dog card'):
        parse_card("14")


def test_deep_and_huge_values_are_refused_with_a_short_message() -> None:
    from companion.rules import Position, PositionError
    from companion.rules.errors import excerpt

    deep: list[object] = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(PositionError, match="nested more than 32 levels deep"):
        Position.from_json({"format": deep})
    assert len(excerpt(deep)) <= 60 and len(excerpt("x" * 1_000_000)) == 60
    assert excerpt({"a": [1, "b"]}) == '{"a": [1, "b"]}'
