"""Benchmark: the refereed table's latencies, its journal, and the memory of `run`.

Fixed seeds; prints one JSON object.

- ``reading``: a stable camera reading (all holes) fed to the table until the verdict is
  published to a subscriber, over every move of self-play games (seeds 1…N, 4 players);
  ``announce`` is the announcement before it (lists the card's legal moves, lights them);
- ``led``: from announcing a card to the frame on the simulated strip (through the Animator);
- ``journal``: one event appended and synced to disk (WAL, synchronous=FULL);
- ``memory``: resident memory of ``dog-companion run`` with the simulated camera loop while
  self-play games are played through the page's HTTP API (one step every ``--step`` seconds),
  sampled every 10 s for ``--minutes`` (0: skipped).

    nice -n 19 .venv/bin/python bench/table.py [--games 3] [--minutes 10] [--step 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from companion.rules import Position  # noqa: E402
from companion.store import Journal  # noqa: E402
from companion.table import BoardMap, Table  # noqa: E402
from hw import load_profile  # noqa: E402
from tests.table.script import game_script  # noqa: E402


def summary(samples_s: list[float]) -> dict[str, float]:
    """p50, p95 and max in milliseconds."""
    ms = sorted(s * 1000 for s in samples_s)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return {"n": len(ms), "p50_ms": round(statistics.median(ms), 2), "p95_ms": round(p95, 2),
            "max_ms": round(ms[-1], 2)}


def bench_readings(games: int, folder: Path) -> dict[str, Any]:
    """Announce, then a stable reading of the result, for every move of a few games."""
    profile = load_profile("brandi-4")
    announce_s: list[float] = []
    reading_s: list[float] = []
    for seed in range(1, games + 1):
        request, steps, _ = game_script(seed)
        table = Table(profile, state_dir=folder / f"game-{seed}")
        table.attach_camera("reading", None)
        listener = table.subscribe()
        table.setup(request)
        for entry in steps:
            if entry[0] == "fold":
                table.fold(player=entry[1])
                continue
            _, player, card, position = entry
            result = Position.from_json(position)
            holes = BoardMap(profile, result).holes(result)
            started = time.perf_counter()
            table.announce(card, player=player)
            announce_s.append(time.perf_counter() - started)
            while not listener.empty():
                listener.get_nowait()
            moves = table.state()["moves"]
            started = time.perf_counter()
            table.feed(holes)
            newest = None
            while not listener.empty():
                newest = listener.get_nowait()
            if newest is not None and newest["moves"] == moves + 1:
                reading_s.append(time.perf_counter() - started)
            else:
                table.done()        # a Jack without effect waits for "done"
        table.close()
    return {"reading_to_verdict": summary(reading_s), "announce": summary(announce_s)}


def bench_leds(folder: Path) -> dict[str, Any]:
    """Announce → the frame on the simulated strip, alternating two cards."""
    from firmware_bridge.animator import Animator
    from firmware_bridge.config import LedConfig
    from firmware_bridge.strip import open_strip

    profile = load_profile("brandi-4")
    request, _, _ = game_script(1)
    shown = threading.Event()
    samples: list[float] = []
    with open_strip(LedConfig(backend="sim"), led_count=profile.led_count) as strip, \
            Animator(strip) as animator:
        strip.add_listener(lambda frame: shown.set())
        table = Table(profile, state_dir=folder / "leds", leds=animator)
        table.setup(request)
        for index in range(60):
            shown.clear()
            started = time.perf_counter()
            table.announce("A" if index % 2 else "K")
            if shown.wait(5):
                samples.append(time.perf_counter() - started)
        table.close()
    return summary(samples)


def bench_journal(folder: Path, count: int = 300) -> dict[str, Any]:
    """One event appended and synced."""
    journal = Journal.in_dir(folder / "journal")
    game = journal.new_game("bench")
    data = {"card": "7", "player": 1, "position": {"players": [{"pegs": ["T5"] * 4}] * 4}}
    samples = []
    for _ in range(count):
        started = time.perf_counter()
        journal.append(game, "announce", data)
        samples.append(time.perf_counter() - started)
    journal.close()
    return summary(samples)


class PageClient:
    """The referee's side of the HTTP API (section 5) of a running `dog-companion run`."""

    def __init__(self, base: str, pin: str) -> None:
        import http.cookiejar
        import urllib.request

        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = ""
        self.csrf = self.post("/api/login", {"pin": pin})["csrf"]

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        import urllib.request

        request = urllib.request.Request(
            self.base + path, data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        with self.opener.open(request, timeout=30) as response:
            answer: dict[str, Any] = json.loads(response.read())
            return answer


def bench_memory(minutes: float, folder: Path, step_s: float = 5.0) -> dict[str, Any]:
    """Resident memory of `dog-companion run` with the simulated camera loop while a game is
    played through the page's API, one scripted step every ``step_s`` seconds."""
    env = {**os.environ, "DOG_STATE_DIR": str(folder / "run"), "DOG_REFEREE_PIN": "1234",
           "DOG_CAMERA": "sim", "DOG_LEDS": "sim"}
    process = subprocess.Popen([str(REPO / ".venv" / "bin" / "dog-companion"), "run",
                                "--host", "127.0.0.1", "--port", "0"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    samples: list[float] = []
    steps_played = 0
    try:
        assert process.stdout is not None
        page = next(line.split()[1] for line in process.stdout if line.startswith("Page:"))
        client = PageClient(page.rstrip("/"), "1234")
        seed, script = 0, iter(())
        deadline = time.monotonic() + minutes * 60
        next_sample = time.monotonic() + 10
        while time.monotonic() < deadline and process.poll() is None:
            entry = next(script, None)
            if entry is None:
                seed += 1
                request, steps, _ = game_script(seed)
                client.post("/api/setup", request)
                script = iter(steps)
                continue
            if entry[0] == "fold":
                client.post("/api/fold", {})
            else:
                client.post("/api/cards", {"card": entry[2]})
                client.post("/api/observe", {"position": entry[3]})
            steps_played += 1
            time.sleep(step_s)
            if time.monotonic() >= next_sample:
                next_sample += 10
                status = Path(f"/proc/{process.pid}/status").read_text()
                samples.append(next(int(line.split()[1]) for line in status.splitlines()
                                    if line.startswith("VmRSS:")) / 1024)
    finally:
        process.terminate()
        process.wait(timeout=30)
    return {"minutes": minutes, "steps_played": steps_played, "games": seed,
            "samples": len(samples),
            "rss_first_mb": round(samples[0], 1) if samples else None,
            "rss_max_mb": round(max(samples), 1) if samples else None,
            "rss_last_mb": round(samples[-1], 1) if samples else None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--step", type=float, default=5.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=REPO / "build") as name:
        folder = Path(name)
        result: dict[str, Any] = bench_readings(args.games, folder)
        result["led"] = bench_leds(folder)
        result["journal_append"] = bench_journal(folder)
        if args.minutes > 0:
            result["memory"] = bench_memory(args.minutes, folder, args.step)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
