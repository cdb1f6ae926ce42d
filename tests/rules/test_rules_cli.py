"""``dog-companion rules moves|check|show`` (INTERFACES.md section 3)."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.commands import rules as command
from tests.rules.conftest import make

REPO = Path(__file__).resolve().parents[2]
BEFORE = make(["K K T3 T20", "T21 K K K", "K K K K", "T22 K K K"]).dumps()
AFTER_LEGAL = make(["K K T8 T22", "K K K K", "K K K K", "K K K K"]).dumps()
AFTER_ILLEGAL = make(["K K T3 T27", "K K K K", "K K K K", "T22 K K K"]).dumps()


def run(argv: list[str], capsys: pytest.CaptureFixture[str],
        stdin: str | None = None, monkeypatch: pytest.MonkeyPatch | None = None,
        ) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="rules")
    command.configure(parser)
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    args = parser.parse_args(argv)
    code = args.handler(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_moves_prints_every_legal_move(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["moves", BEFORE, "--card", "5"], capsys)
    assert code == 0
    obj = json.loads(out)
    assert obj["card"] == "5" and obj["playable"] is True
    assert [m["notation"] for m in obj["moves"]] == ["5: red T3→T8", "5: red T20→T25"]
    assert obj["moves"][0]["result"]["turn"] == 0


def test_moves_card_not_playable_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    position = make(["K K K K", "T5 K K K", "K K K K", "K K K K"]).dumps()
    code, out, _ = run(["moves", position, "--card", "Q"], capsys)
    assert code == 1
    assert json.loads(out) == {
        "card": "Q", "playable": False, "moves": [], "code": "not_playable", "rule": "zugzwang",
        "reason": "the Q cannot be played by red: all of red's pegs are in the kennel, and only"
                  " the A, the K and the Joker start a peg"}
    code, out, _ = run(["moves", position, "--card", "Q", "--language", "de"], capsys)
    assert json.loads(out)["reason"].startswith("Die Dame kann von Rot nicht gespielt werden")


def test_moves_reads_files_and_stdin(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    file = tmp_path / "p.json"
    file.write_text(BEFORE)
    assert run(["moves", str(file), "--card", "swap"], capsys)[0] == 0
    code, out, _ = run(["moves", "-", "--card", "?"], capsys, stdin=BEFORE,
                       monkeypatch=monkeypatch)
    assert code == 0 and json.loads(out)["card"] == "JOKER"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["moves", "{", "--card", "5"], "POSITION: position: not valid JSON"),
        (["moves", "/no/such/file.json", "--card", "5"], "neither JSON nor an existing file"),
        (["moves", BEFORE, "--card", "14"], '--card: "14" is not a Dog card'),
        (["moves", BEFORE.replace('"T21"', '"T99"'), "--card", "5"],
         'POSITION: players[1].pegs[3]: "T99" is off the 64-field track'),
        (["check", BEFORE, make(["K K K K"] * 4, rules="schmidt").dumps(), "--card", "5"],
         "after.rules"),
        (["check", "-", "-", "--card", "5"], "cannot both be read from stdin"),
        (["show", '{"board": 4}'], "POSITION: "),
    ],
)
def test_bad_input_exits_2_with_one_line(argv: list[str], message: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_check_legal_and_illegal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", BEFORE, AFTER_LEGAL, "--card", "7"], capsys)
    assert code == 0
    assert json.loads(out) == {
        "legal": True, "move": "7: red T3→T8, red T20→T22 ×yellow@T21 ×blue@T22"}
    code, out, _ = run(["check", BEFORE, AFTER_ILLEGAL, "--card", "7"], capsys)
    verdict: dict[str, Any] = json.loads(out)
    assert code == 1 and verdict["legal"] is False
    assert verdict["reason"].startswith("blue at T22 was passed by the 7")
    assert verdict["code"] == "passed_left_standing" and verdict["rule"] == "seven"
    assert verdict["args"]["color"] == "blue" and verdict["args"]["field"] == "T22"
    assert set(verdict["nearest"][0]) == {"notation", "result", "differences"}


def test_check_speaks_german_on_request(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", BEFORE, AFTER_ILLEGAL, "--card", "7", "--language", "de"],
                       capsys)
    verdict: dict[str, Any] = json.loads(out)
    assert code == 1 and verdict["code"] == "passed_left_standing"
    assert verdict["reason"].startswith("Blau auf T22 wurde von der 7 überholt")


def test_show_draws_the_position(capsys: pytest.CaptureFixture[str]) -> None:
    position = make(["K K T0* H1", "T20 K K K", "K K K K", "K K K K"], turn=1).dumps()
    code, out, _ = run(["show", position], capsys)
    assert code == 0
    assert "turn: yellow" in out
    row0 = next(line for line in out.splitlines() if line.strip().startswith("0 T0"))
    assert "R*" in row0 and "red" in row0 and "· R · ·" in row0


def test_the_top_level_command_runs_rules() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "rules", "moves", BEFORE, "--card", "SWAP"],
        cwd=REPO, capture_output=True, text=True, encoding="utf-8", timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["card"] == "J"
    bad = subprocess.run(
        [sys.executable, "-m", "companion", "rules", "check", BEFORE, AFTER_ILLEGAL, "--card",
         "7"], cwd=REPO, capture_output=True, text=True, encoding="utf-8", timeout=60,
        check=False,
    )
    assert bad.returncode == 1 and json.loads(bad.stdout)["legal"] is False


def test_rules_commands_import_nothing_heavy() -> None:
    code = ("import sys, companion.commands.rules as r, companion.rules;"
            "print(sorted(m for m in ('cv2','numpy','flask') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]"


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _with(path: tuple[Any, ...], value: Any, text: str = "") -> str:
    """BEFORE with ``value`` put at ``path`` (keys and list indexes) and the placeholder
    ``"@"`` in it replaced by the JSON ``text`` (too deep for ``json.dumps``)."""
    obj = json.loads(BEFORE)
    target = obj
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(obj).replace('"@"', text)


HOSTILE = {
    "nested 100000 deep": "[" * 100_000 + "]" * 100_000,
    "a peg 990 deep": _with(("players", 1, "pegs", 2), "@", _nested(990)),
    "rules 990 deep": _with(("rules",), {"base": "swiss", "deal_sequence": "@"}, _nested(990)),
    "an unknown key 990 deep": _with(("extra",), "@", _nested(990)),
    "a 1 MB colour": _with(("players", 0, "color"), "x" * 1_000_000),
    "a 1 MB peg": _with(("players", 0, "pegs", 0), "T" + "9" * 1_000_000),
    "a 1 MB turn": _with(("turn",), "x" * 1_000_000),
    "a 1 MB key": _with(("x" * 1_000_000,), 1),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("subcommand", ["moves", "check", "show"])
def test_hostile_input_is_one_short_line_and_exit_2(
    name: str, subcommand: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "position.json"
    path.write_text(HOSTILE[name], encoding="utf-8")
    argv = {
        "moves": ["moves", str(path), "--card", "7"],
        "check": ["check", BEFORE, str(path), "--card", "7"],
        "show": ["show", str(path)],
    }[subcommand]
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"dog-companion rules {subcommand}: error: ")
    assert err.count("\n") == 1 and len(err) <= command.MESSAGE_LENGTH + 60


def test_the_deep_file_of_the_issue_is_refused_by_the_real_command(tmp_path: Path) -> None:
    path = tmp_path / "d.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "companion", "rules", "show", str(path)],
        cwd=REPO, capture_output=True, text=True, encoding="utf-8", timeout=60, check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "dog-companion rules show: error: POSITION: position: nested more than 32 levels deep\n"
    )


def test_a_huge_card_name_is_quoted_short(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["moves", BEFORE, "--card", "x" * 100_000], capsys)
    assert code == 2 and err.count("\n") == 1 and len(err) < 200
