"""The `dog-companion` command line: sub-commands, help, errors, lazy imports."""

from __future__ import annotations

import subprocess
import sys

import pytest

from companion.cli import COMMANDS, main

SUBCOMMANDS = ["run", "demo", "games", "rules", "vision", "leds", "version"]
"""The sub-commands the architecture promises; each one in `COMMANDS` has its help tested."""


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args],
                          capture_output=True, text=True, timeout=60)


def test_help_lists_every_subcommand() -> None:
    result = run_cli("--help")
    assert result.returncode == 0
    for name in COMMANDS:
        assert f"    {name} " in result.stdout
    assert set(SUBCOMMANDS) <= set(COMMANDS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_subcommand_has_help(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([name, "--help"])
    assert exit_info.value.code == 0
    assert "usage: dog-companion " + name in capsys.readouterr().out


@pytest.mark.parametrize("args", [["--bogus"], ["version", "--bogus"], ["no-such-command"],
                                  ["rules", "no-such-sub-command"]])
def test_unknown_arguments_give_one_line_and_exit_2(args: list[str]) -> None:
    result = run_cli(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "error:" in result.stderr


def test_command_without_sub_command_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["leds"])
    assert exit_info.value.code == 2
    assert "needs a sub-command" in capsys.readouterr().err


def test_version_prints_the_version() -> None:
    result = run_cli("version")
    assert result.returncode == 0
    assert result.stdout.startswith("dog-companion 0.")


@pytest.mark.parametrize("args", [["version"], ["rules", "--help"]])
def test_light_commands_load_neither_opencv_nor_flask(args: list[str]) -> None:
    probe = ("import sys, runpy; sys.argv = ['dog-companion', *sys.argv[1:]]\n"
             "from companion.cli import main\n"
             "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
             "heavy = sorted(m for m in ('cv2', 'flask', 'numpy') if m in sys.modules)\n"
             "print('HEAVY', heavy)")
    result = subprocess.run([sys.executable, "-c", probe, *args],
                            capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in result.stdout, result.stdout + result.stderr


def test_output_into_a_closed_pipe_ends_without_a_traceback() -> None:
    # `dog-companion … | head`: the reader goes away before the command writes.
    process = subprocess.Popen([sys.executable, "-m", "companion", "version"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    assert process.wait(timeout=60) == 141
    assert process.stderr.read() == ""
    process.stderr.close()
