"""`dog-companion games`: list, show, export, import of the journal's games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.table import Table
from hw import load_profile
from tests.table.conftest import moved, setup_request


@pytest.fixture
def journal_dir(tmp_path: Path) -> Path:
    table = Table(load_profile("brandi-4"), state_dir=tmp_path)
    state = table.setup(setup_request())
    table.announce("A")
    table.observe(position=moved(state["position"], 1, ["K", "K", "K", "T16*"]))
    table.fold()
    table.close()
    return tmp_path


def games(capsys: pytest.CaptureFixture[str], folder: Path, *args: str) -> tuple[int, str, str]:
    code = main(["games", "--state-dir", str(folder), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_show_export_and_import_round_trip(journal_dir: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = games(capsys, journal_dir, "list")
    assert code == 0 and [g["id"] for g in json.loads(out)] == [1]
    code, out, _ = games(capsys, journal_dir, "show", "1")
    shown = json.loads(out)
    assert code == 0 and shown["moves"] == ["A: yellow K→T16*"] and shown["phase"] == "play"
    code, out, _ = games(capsys, journal_dir, "export", "1")
    lines = out.splitlines()
    assert code == 0 and json.loads(lines[0])["format"] == "dog-record/1"
    assert [json.loads(line)["event"] for line in lines[1:]] == ["deal", "exchange", "play",
                                                                 "fold"]
    record = tmp_path / "game.jsonl"
    record.write_text(out, encoding="utf-8")
    code, out, _ = games(capsys, journal_dir, "import", str(record))
    assert code == 0 and json.loads(out) == {"imported": 2, "lines": 5}
    code, out, _ = games(capsys, journal_dir, "export", "2")
    assert out.splitlines() == lines
    code, out, _ = games(capsys, journal_dir, "show", "2")
    assert json.loads(out)["moves"] == ["A: yellow K→T16*"]
    again = Table(load_profile("brandi-4"), state_dir=journal_dir)
    assert again.state()["moves"] == 1      # the imported game did not become the table's


def test_a_game_with_overrides_exports_and_imports(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    table = Table(load_profile("brandi-4"), state_dir=tmp_path)
    state = table.setup(setup_request())
    table.announce("A")
    table.observe(position=moved(state["position"], 1, ["K", "K", "K", "T20"]))  # illegal
    table.override()                                      # accepted as played
    state = table.override(moved(table.state()["position"], 2, ["K", "K", "K", "T32*"]))
    assert state["moves"] == 2
    table.close()
    code, out, _ = games(capsys, tmp_path, "export", "1")
    events = [json.loads(line) for line in out.splitlines()[1:]]
    assert code == 0 and [e["event"] for e in events] == ["deal", "exchange", "ruling",
                                                          "ruling"]
    assert events[2]["card"] == "A" and "card" not in events[3]
    record = tmp_path / "game.jsonl"
    record.write_text(out, encoding="utf-8")
    code, out, err = games(capsys, tmp_path, "import", str(record))
    assert code == 0, err
    code, again, _ = games(capsys, tmp_path, "export", "2")
    assert again == record.read_text(encoding="utf-8")
    code, out, _ = games(capsys, tmp_path, "show", "2")
    assert json.loads(out)["moves"] == ["set by the referee"] * 2


@pytest.mark.parametrize(("content", "message"), [
    (b'{"format": "chess-pgn"}\n', "line 1: header: format must be 'dog-record/1'"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "line 1: not UTF-8 text"),
    (b"", "empty file"),
])
def test_a_foreign_file_is_refused_with_line_and_reason(
        journal_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        content: bytes, message: str) -> None:
    path = tmp_path / "foreign"
    path.write_bytes(content)
    code, out, err = games(capsys, journal_dir, "import", str(path))
    assert code == 2 and out == "" and message in err and "Traceback" not in err


def test_a_corrupt_record_is_refused_at_its_line(journal_dir: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = games(capsys, journal_dir, "export", "1")
    lines = out.splitlines()
    play = json.loads(lines[3])
    play["player"] = 3
    lines[3] = json.dumps(play)
    path = tmp_path / "corrupt.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = games(capsys, journal_dir, "import", str(path))
    assert code == 2 and "line 4:" in err
    _, out, _ = games(capsys, journal_dir, "list")
    assert len(json.loads(out)) == 1        # nothing was kept


def test_an_unknown_game_is_one_line(journal_dir: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = games(capsys, journal_dir, "show", "9")
    assert code == 2 and err.strip() == ("dog-companion games: there is no game 9 in the "
                                         "journal (see 'games list')")
