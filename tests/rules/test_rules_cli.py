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
    assert json.loads(out) == {"card": "Q", "playable": False, "moves": []}


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
