"""A Joker announced as one card: only that card's targets and results are shown, the move is
still judged as a Joker."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.table import Table, TableError
from hw import BoardProfile
from tests.table.conftest import moved, setup_request


def one_marble_out(table: Table) -> dict[str, Any]:
    """A game where the player to move (2, green) has one marble on T40."""
    state = table.setup(setup_request())
    state = table.override(moved(state["position"], 2, ["K", "K", "K", "T40"]))
    assert state["position"]["turn"] == 2
    return state


def test_a_joker_without_as_shows_every_card(table: Table) -> None:
    one_marble_out(table)
    state = table.announce("JOKER")
    assert state["announced"] == {"card": "JOKER", "player": 2}
    assert "T45" in state["targets"] and "T47" in state["targets"]
    notations = {move["notation"] for move in table.legal_results()}
    assert "JOKER as 5: green T40→T45" in notations and len(notations) > 2


def test_a_joker_as_five_shows_only_the_five(table: Table) -> None:
    one_marble_out(table)
    state = table.announce("JOKER", joker_as="5")
    assert state["announced"] == {"card": "JOKER", "player": 2, "as": "5"}
    assert state["targets"] == ["T45"]
    assert [move["notation"] for move in table.legal_results()] == ["JOKER as 5: green T40→T45"]


def test_the_move_is_still_judged_as_a_joker(table: Table) -> None:
    before = one_marble_out(table)["position"]
    table.announce("JOKER", joker_as="7")
    state = table.observe(position=moved(before, 2, ["K", "K", "K", "T45"]))
    assert state["verdict"]["legal"] is True and state["moves"] == 2
    assert state["verdict"]["move"] == "JOKER as 5: green T40→T45"


def test_as_is_kept_in_the_journal(profile4: BoardProfile, tmp_path: Path,
                                   table: Table) -> None:
    one_marble_out(table)
    table.announce("JOKER", joker_as="ace")
    table.close()
    again = Table(profile4, state_dir=tmp_path)
    try:
        state = again.state()
        assert state["announced"] == {"card": "JOKER", "player": 2, "as": "A"}
        assert sorted(move["notation"] for move in again.legal_results()) == [
            "JOKER as A: green K→T32*", "JOKER as A: green T40→T41",
            "JOKER as A: green T40→T51"]
    finally:
        again.close()


@pytest.mark.parametrize(("card", "joker_as", "fragment"), [
    ("JOKER", "JOKER", "not for a Joker"),
    ("JOKER", "11x", "is not a Dog card"),
    ("5", "7", "only a Joker"),
])
def test_bad_as_is_refused_naming_it(table: Table, card: str, joker_as: str,
                                     fragment: str) -> None:
    one_marble_out(table)
    with pytest.raises(TableError) as error:
        table.announce(card, joker_as=joker_as)
    assert error.value.status == 400
    assert str(error.value).startswith("as: ") and fragment in str(error.value)
    assert table.state()["announced"] is None
