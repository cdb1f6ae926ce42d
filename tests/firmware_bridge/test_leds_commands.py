"""`dog-companion leds test | show | off`, run in-process through argparse."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from firmware_bridge import cli, strip
from firmware_bridge.strip import LedStrip


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="dog-companion leds")
    cli.configure(parser)
    args = parser.parse_args(list(argv))
    return args.handler(args)


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[LedStrip]:
    """Every strip the commands open."""
    strips: list[LedStrip] = []
    real_open = strip.open_strip

    def recording_open(*args, **kwargs):
        strips.append(real_open(*args, **kwargs))
        return strips[-1]

    monkeypatch.setattr(strip, "open_strip", recording_open)
    return strips


def test_walks_every_led_and_names_its_hole(opened, capsys) -> None:
    assert run("test", "--board", "brandi-4", "--delay", "0", "--backend", "sim") == 0
    out, err = capsys.readouterr()
    lines = [line for line in out.splitlines() if line.startswith("LED")]
    assert len(lines) == 80
    assert lines[0].split() == ["LED", "0", "T0"]
    assert lines[64].split() == ["LED", "64", "H0.0"]
    assert "no LED strip in use" in err
    *_, last_lit, dark, closing = opened[0].history
    assert [i for i, c in enumerate(last_lit.colors) if c != (0, 0, 0)] == [79]
    assert set(dark.output) == set(closing.output) == {(0, 0, 0)}


def test_show_lights_the_holes(opened, capsys) -> None:
    assert run("show", "T5", "H0.2", "--color", "green", "--backend", "sim") == 0
    shown = [f for f in opened[0].history if any(c != (0, 0, 0) for c in f.colors)]
    assert {i for i, c in enumerate(shown[-1].colors) if c != (0, 0, 0)} == {5, 66}
    assert opened[0].closed
    out, err = capsys.readouterr()
    assert "T5 → LED 5 green" in out
    assert "no LED strip in use" in err


def test_show_on_the_six_seat_board(opened) -> None:
    assert run("show", "T95", "--board", "brandi-6", "--backend", "sim") == 0
    assert opened[0].count == 120


def test_show_skips_a_kennel_hole_with_a_note(opened, capsys) -> None:
    assert run("show", "K0.1", "T1", "--backend", "sim") == 0
    assert "K0.1 has no LED" in capsys.readouterr().err


def test_unknown_hole_is_one_line_and_opens_nothing(opened, capsys) -> None:
    assert run("show", "T5", "X9", "--backend", "sim") == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == ["dog-companion leds: error: unknown hole 'X9' on brandi-4"]
    assert opened == []


@pytest.mark.parametrize("argv", [
    ("show", "T1", "--color", "mauve"),
    ("off", "--board", "brandi-9"),
])
def test_bad_input_exits_2(argv, capsys) -> None:
    assert run(*argv) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_bad_environment_exits_2(monkeypatch, capsys) -> None:
    monkeypatch.setenv("DOG_LED_ORDER", "BGR")
    assert run("off") == 2
    assert "BGR" in capsys.readouterr().err


def test_off_blanks(opened, capsys) -> None:
    assert run("off", "--backend", "none") == 0
    assert "80 LEDs off (none)" in capsys.readouterr().out


def test_unavailable_backend_exits_1(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.setattr(strip, "MODEL_PATH", tmp_path / "no-model")
    assert run("off", "--backend", "pi5") == 1
    assert "needs a Raspberry Pi 5" in capsys.readouterr().err


def test_module_imports_only_the_standard_library() -> None:
    code = ("import sys; before = set(sys.modules); import firmware_bridge.cli; "
            "print(sorted(m for m in set(sys.modules) - before "
            "if not m.startswith('firmware_bridge')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    loaded = eval(result.stdout)
    assert not [m for m in loaded if m.split(".")[0] not in sys.stdlib_module_names]
