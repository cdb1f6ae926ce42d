"""The reason catalogue: every code the engine uses has a German and an English sentence."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from companion.rules import CATALOGUE, reason_text

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "companion" / "rules"

_BY = {"by_color": "red", "by_from": "T10", "by_to": "T15"}
_WHY = [{"code": "blocked_by_protected", "args": {"at": "T10", "color": "yellow",
                                                  "field": "T16*"}}]
EXAMPLES: dict[str, dict[str, Any]] = {
    "game_over": {"mover_color": "red"},
    "not_playable": {"card": "10", "mover_color": "red", "why": _WHY},
    "seven_not_playable": {"owner_color": "red", "mover_color": "red", "why": [
        {"code": "home_no_room", "args": {"at": "H2", "room": 1}}]},
    "jack_not_playable": {"color": "red"},
    "no_peg_can_move": {},
    "start_blocked": {"start": "T0", "color": "red", "field": "T0*"},
    "all_in_kennel": {"color": "red"},
    "home_no_room": {"at": "H2", "room": 1},
    "blocked_by_protected": {"at": "T10", "color": "yellow", "field": "T16*"},
    "jack_must_swap": {"example": "J: red T5↔yellow T20"},
    "nothing_moved": {"card": "5", "example": "5: red T20→T25"},
    "no_legal_move": {"card": "7", "example": "7: red T3→T10"},
    "wrong_distance": {"color": "red", "from": "T20", "to": "T26", "steps": 6, "card": "5",
                       "wanted": [5]},
    "wrong_distance_backward": {"color": "red", "from": "T0*", "to": "T61", "steps": 3,
                                "card": "4"},
    "no_forward_way": {"color": "red", "from": "H2", "to": "H1", "card": "7"},
    "four_backward_into_home": {"color": "red", "from": "T2", "to": "H1"},
    "several_pegs_moved": {"count": 2, "moves": [
        {"color": "red", "from": "T3", "to": "T5"}, {"color": "red", "from": "T20", "to": "T23"}]},
    "moved_without_cause": {"color": "red", "from": "T3", "to": "T5"},
    "start_wrong_card": {"color": "red", "card": "5"},
    "start_wrong_field": {"color": "red", "to": "T3", "start": "T0"},
    "start_onto_protected": {"color": "red", "field": "T0*"},
    "landed_on_left_standing": {"color": "yellow", "field": "T15", **_BY},
    "passed_left_standing": {"color": "blue", "field": "T12", **_BY},
    "passed_knocked_out": {"color": "yellow", "field": "T12", **_BY},
    "kennel_without_cause": {"color": "yellow", "field": "T30"},
    "knocked_out_earlier": {"color": "red", "field": "T12"},
    "protected_passed": {"color": "yellow", "field": "T16*", "by_color": "red",
                         "by_from": "T10", "by_to": "T20"},
    "protected_landed_on": {"color": "yellow", "field": "T16*", "by_color": "red",
                            "by_from": "T10", "by_to": "T16"},
    "home_entry_from_behind": {"color": "red", "from": "T0", "by_color": "red",
                               "by_from": "T0", "by_to": "H1"},
    "home_entry_fresh": {"color": "red", "field": "T0*", "by_color": "red", "by_from": "T0*",
                         "by_to": "H1"},
    "home_passed": {"color": "red", "field": "H1", "by_color": "red", "by_from": "T62",
                    "by_to": "H2"},
    "home_field_taken": {"color": "red", "field": "H1", "by_color": "red", "by_from": "T62",
                         "by_to": "H1"},
    "seven_wrong_total": {"total": 6, "moves": [{"color": "red", "from": "T3", "to": "T9"}]},
    "fresh_mark_lost": {"color": "red", "field": "T0*", "observed": "T0"},
    "fresh_mark_added": {"color": "red", "field": "T0", "observed": "T0*"},
    "partner_seven_too_early": {"color": "green", "mover_color": "red"},
    "partner_too_early": {"color": "green", "mover_color": "red", "moves": [
        {"color": "green", "from": "T12", "to": "T17"}]},
    "other_player_moved": {"color": "yellow", "card": "5", "owner_color": "red",
                           "mover_color": "red",
                           "moves": [{"color": "yellow", "from": "T12", "to": "T17"}]},
    "not_a_swap": {"card": "J", "owner_color": "red", "mover_color": "red"},
    "jack_wrong_partner": {"color": "yellow", "field": "T20", "other_color": "blue",
                           "other_field": "T40", "owner_color": "red", "mover_color": "red"},
    "swap_protected": {"color": "yellow", "field": "T16*"},
    "swap_kennel_or_home": {"color": "red", "field": "H1"},
}
"""One example argument set per code, for the catalogue test and the table in docs/rules.md."""


def codes_in_engine() -> set[str]:
    """Every reason code the engine's source constructs: ``Reason("code", …)``."""
    pattern = re.compile(r'Reason[(,]\s*"([a-z_]+)"')
    return {
        code for path in ENGINE.glob("*.py") for code in pattern.findall(path.read_text())
    }


def test_every_code_the_engine_uses_is_in_the_catalogue() -> None:
    used = codes_in_engine()
    assert len(used) > 30
    assert used <= set(CATALOGUE), sorted(used - set(CATALOGUE))
    assert set(CATALOGUE) <= used, sorted(set(CATALOGUE) - used)


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_every_code_renders_in_both_languages(code: str) -> None:
    args = EXAMPLES[code]
    english = reason_text(code, args, "en")
    german = reason_text(code, args, "de")
    assert english and german and english != german
    for text in (english, german):
        assert "{" not in text and "}" not in text and "§" not in text


def test_codes_are_snake_case_and_rules_are_anchors() -> None:
    for code, entry in CATALOGUE.items():
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", code)
        assert entry.rule is None or re.fullmatch(r"[a-z]+(-[a-z]+)*", entry.rule)


def test_colours_and_cards_are_translated() -> None:
    args = EXAMPLES["wrong_distance"]
    assert reason_text("wrong_distance", args, "de") == (
        "Rot zog T20→T26: das sind 6 Felder vorwärts, aber die 5 zieht genau 5")
    assert reason_text("start_wrong_card", {"color": "black", "card": "JOKER"}, "de") == (
        "Schwarz hat mit dem Joker eine Kugel ins Spiel gebracht, aber nur Ass, König und"
        " Joker bringen eine Kugel aus dem Zwinger auf ihr Startfeld")
    assert reason_text("protected_passed", EXAMPLES["protected_passed"], "en") == (
        "yellow's fresh peg on T16 blocks: it cannot be passed, it is protected on its own"
        " start field (red T10→T20)")


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="language 'fr'"):
        reason_text("game_over", {"mover_color": "red"}, "fr")


def test_every_rule_anchor_is_in_the_rulebook() -> None:
    rulebook = (REPO / "docs" / "rulebook.md").read_text(encoding="utf-8")
    anchors = set(re.findall(r'<a id="([a-z-]+)"></a>', rulebook))
    assert {entry.rule for entry in CATALOGUE.values()} - {None} <= anchors


def test_docs_list_every_code_with_its_sentences_in_both_languages() -> None:
    docs = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    for code in CATALOGUE:
        row = next((line for line in docs.splitlines() if line.startswith(f"| `{code}` |")), "")
        assert row, f"docs/rules.md has no row for {code}"
        assert reason_text(code, EXAMPLES[code], "en") in row
        assert reason_text(code, EXAMPLES[code], "de") in row


def test_the_docs_link_no_file_outside_the_repository() -> None:
    for name in ("rules.md", "game-record.md", "rulebook.md"):
        text = (REPO / "docs" / name).read_text(encoding="utf-8")
        assert "../shared" not in text and "RULES.md" not in text, name
