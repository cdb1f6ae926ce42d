"""The LEDs go dark when the process ends: normally, on SIGTERM, with a chained handler."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

LIGHT_UP = """
import signal, sys, time
from firmware_bridge.config import LedConfig
from firmware_bridge.strip import open_strip

{before}
strip = open_strip(LedConfig(backend="sim", gamma=1.0), led_count=3)
strip.add_listener(lambda shown: print("frame", shown.output, flush=True))
strip.set_frame({{0: (255, 0, 0), 2: (0, 0, 255)}})
strip.show()
print("ready", flush=True)
{after}
"""


def run(before: str = "", after: str = "time.sleep(30)", terminate: bool = True):
    script = textwrap.dedent(LIGHT_UP.format(before=before, after=after))
    process = subprocess.Popen([sys.executable, "-c", script], cwd=REPO, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    lines = []
    while not lines or lines[-1] not in ("ready", ""):
        lines.append(process.stdout.readline().strip())
    if terminate:
        process.send_signal(signal.SIGTERM)
    lines += process.stdout.read().splitlines()  # through the same buffer as readline
    err = process.stderr.read()
    return process.wait(timeout=20), lines, err


DARK = "frame ((0, 0, 0), (0, 0, 0), (0, 0, 0))"


def test_sigterm_blanks_then_dies_of_sigterm() -> None:
    code, lines, err = run()
    assert code == -signal.SIGTERM, err
    assert lines[-1] == DARK


def test_sigterm_blanks_then_calls_the_previous_handler() -> None:
    before = ("signal.signal(signal.SIGTERM, "
              "lambda signum, frame: (print('previous handler', flush=True), sys.exit(3)))")
    code, lines, err = run(before=before)
    assert code == 3, err
    assert lines[-2:] == [DARK, "previous handler"]


def test_normal_exit_blanks() -> None:
    code, lines, err = run(after="", terminate=False)
    assert code == 0, err
    assert lines[-1] == DARK
