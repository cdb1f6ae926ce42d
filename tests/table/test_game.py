"""Whole games, from setup to the winner, through the real table, rules and journal."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from companion.rules.record import Play
from companion.table import Table
from hw import load_profile
from tests.table.script import drive, game_script, play_script, signatures


@pytest.mark.parametrize(("players", "board", "rules", "seed"), [
    (4, 4, "swiss", 1),
    (3, 4, "schmidt", 2),
    (2, 4, "schmidt", 3),
    (4, 6, "schmidt", 4),
    (6, 6, "swiss", 5),
])
def test_a_scripted_game_runs_to_its_winner(tmp_path: Path, players: int, board: int,
                                            rules: str, seed: int) -> None:
    request, steps, game = game_script(seed, players, board, rules)
    table = Table(load_profile(f"brandi-{board}"), state_dir=tmp_path)
    table.attach_camera("reading", None)
    table.setup(request)
    drive(table, steps, camera_every=3)
    state = table.state()
    assert state["phase"] == "over"
    assert state["winners"] == list(game.winners or ())
    plays = [event for event in game.events if isinstance(event, Play)]
    assert [move["notation"] for move in table.history()] == [p.notation for p in plays]
    assert [move["position"]["players"] for move in table.history()] == [
        p.position.to_json()["players"] for p in plays]
    table.close()
    again = Table(load_profile(f"brandi-{board}"), state_dir=tmp_path)
    assert again.state()["winners"] == state["winners"]
    assert again.history() == table.history()


CRASH_STEPS = 149
KILLS = 50


def journal_rows(state_dir: Path) -> int:
    """How many events the journal in `state_dir` holds now (0 before it exists)."""
    path = state_dir / "journal.sqlite"
    if not path.exists():
        return 0
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        try:
            return int(db.execute("SELECT count(*) FROM events").fetchone()[0])
        except sqlite3.OperationalError:     # the child is creating it
            return 0


@pytest.mark.slow
def test_killed_at_random_moments_the_journal_keeps_every_move_once(tmp_path: Path) -> None:
    """SIGKILL the scripted game's process at random moments, restart it each time: in the
    end the journal's accepted moves are exactly the script's, none lost, none doubled.

    The children are forked from this process (so a restart costs no interpreter start);
    each opens the journal, resumes where it stands and plays on until it is killed."""
    rng = random.Random(24)
    profile = load_profile("brandi-4")
    request, steps, _ = game_script(seed=7)
    steps = steps[:CRASH_STEPS]
    moments = signatures(profile, request, steps)
    context = multiprocessing.get_context("fork")
    # Each life is killed a random number of journal events after it resumed (at a random
    # moment within a few milliseconds of that event), so the kills are spread over the game
    # however fast the machine is, and all of them together cover about a third of it.
    whole = tmp_path / "whole"
    child = context.Process(target=play_script, args=(whole, profile, request, steps, moments))
    child.start()
    child.join(timeout=120)
    assert child.exitcode == 0
    reach = max(2, round(0.5 * journal_rows(whole) / KILLS))
    kills = 0
    progress: list[int] = []
    while kills < KILLS:
        target = journal_rows(tmp_path) + rng.randint(1, reach)
        child = context.Process(target=play_script,
                                args=(tmp_path, profile, request, steps, moments))
        child.start()
        while child.is_alive() and journal_rows(tmp_path) < target:
            time.sleep(0.001)
        time.sleep(rng.uniform(0.0, 0.002))
        if not child.is_alive():
            child.join()
            assert child.exitcode == 0
            pytest.fail(f"the script finished after {kills} kills: make it longer")
        os.kill(child.pid or 0, signal.SIGKILL)
        child.join()
        kills += 1
        table = Table(profile, state_dir=tmp_path)
        progress.append(len(table.history()))
        table.close()
    child = context.Process(target=play_script, args=(tmp_path, profile, request, steps,
                                                      moments))
    child.start()
    child.join(timeout=120)
    assert child.exitcode == 0
    table = Table(profile, state_dir=tmp_path)
    expected = [entry[3]["players"] for entry in steps if entry[0] == "play"]
    assert [move["position"]["players"] for move in table.history()] == expected
    assert progress[-1] < len(expected)      # the last kill still interrupted the game
