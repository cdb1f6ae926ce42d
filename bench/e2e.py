"""Benchmark: whole bot games at the simulated table, through rendered frames, vision and the
table's referee (the end-to-end path of tests/sim/test_end_to_end.py, at length).

Game ``k`` (seed ``k``) is played on brandi-4 / brandi-6 and under swiss / schmidt in turn,
by heuristic bots that cheat with probability ``--cheat``; every marble is moved by a
rendered hand, the room light drifts. Each finished game appends one JSON line to ``--out``;
a run skips the seeds already there, so it can be stopped and resumed, and ``--summary``
prints the figures over everything in the file:

- frames per second of the reading path (locate, read, stabilize, the table's judging) on
  one core, from the reading thread's CPU time, and of the renderer (frames not served from
  its cache); CPU milliseconds per frame (reading; all work of the process, rendering, bots
  and rules included);
- seconds from the hand leaving the board to the table's verdict, p50 / p95, for legal
  moves and for cheats;
- false verdicts per 1,000 moves: legal moves called illegal, illegal moves accepted;
  missed cheats (illegal moves accepted and false "cannot play" let through).

``--inject`` names cheats whole games seldom offer (default: a 7 passing a marble left
standing, passing a protected marble); each is made wherever a bot's turn allows it, up to
3 times a game (`Conductor.inject`), besides the ``--cheat`` probability.

    nice -n 19 .venv/bin/python bench/e2e.py --games 7 --out var/bench-e2e.jsonl [--inject ""]
    .venv/bin/python bench/e2e.py --summary --out var/bench-e2e.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# This folder holds bench/vision.py, which would shadow the vision package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]

CASES = (("brandi-4", "swiss"), ("brandi-6", "schmidt"), ("brandi-4", "schmidt"),
         ("brandi-6", "swiss"))


def one_core() -> None:
    """Run on one core with one thread, as the companion's reading thread does."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    import cv2

    cv2.setNumThreads(1)


def play(seed: int, cheat: float, speed: float, size: tuple[int, int],
         inject: tuple[str, ...] = ()) -> dict[str, Any]:
    """One whole game; its figures as one JSON-ready dict."""
    from companion.rules import RuleSet
    from companion.sim.bots import HeuristicBot
    from companion.sim.cheats import CheatKind
    from companion.sim.client import LocalTable
    from companion.sim.conductor import Conductor, ConductorError
    from companion.sim.pipeline import FramePipeline
    from companion.sim.virtual import VirtualTable
    from companion.table import Table
    from hw import load_profile
    from vision.render import RenderConditions

    board, rules = CASES[seed % len(CASES)]
    profile = load_profile(board)
    conditions = RenderConditions(width=size[0], height=size[1], noise_sigma=2.0,
                                  jpeg_quality=85, board_variant=seed % 6,
                                  material="aluminium" if seed % 3 == 2 else "wood")
    virtual = VirtualTable(profile, conditions=conditions, fps=5, speed=speed, seed=seed,
                           drift=0.25, drift_period_s=240.0)
    table = Table(profile, clock=lambda: virtual.now)
    pipeline = FramePipeline(table, virtual)
    bots = [HeuristicBot(seed * 10 + i) for i in range(profile.seats)]
    conductor = Conductor(LocalTable(table), virtual, bots, RuleSet.from_json(rules),
                          seed=seed, cheat=cheat, pump=pipeline.step,
                          inject=[CheatKind(kind) for kind in inject])
    cpu, wall = time.process_time(), time.perf_counter()
    error = None
    try:
        conductor.start()
        conductor.play(max_turns=2000)
    except ConductorError as failure:  # reported with the figures of the game so far
        error = str(failure)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    log = pipeline.log
    turns = conductor.turns
    moved = [t for t in turns if t.kind not in ("fold", "false_fold")]
    return {
        "seed": seed, "board": board, "rules": rules, "cheat": cheat, "speed": speed,
        "inject": list(inject),
        "size": list(size), "over": conductor.over, "error": error, "turns": len(turns),
        "moves": len(moved),
        "legal": sum(t.kind == "play" for t in moved),
        "cheats": {kind: sum(t.kind == kind for t in turns)
                   for kind in sorted({t.kind for t in turns} - {"play", "fold"})},
        "legal_called_illegal": sum(t.false_illegal for t in turns if t.kind == "play"),
        "illegal_accepted": sum(t.caught is False for t in moved if t.kind != "play"),
        "false_fold_accepted": sum(t.caught is False for t in turns if t.kind == "false_fold"),
        "cheat_codes": [[t.kind, (t.verdict or {}).get("code")] for t in moved
                        if t.kind != "play"],
        "latency_legal": [round(t.judged - t.hand_left, 3) for t in moved
                          if t.kind == "play" and t.judged is not None
                          and t.hand_left is not None],
        "latency_illegal": [round(t.judged - t.hand_left, 3) for t in moved
                            if t.kind != "play" and t.judged is not None
                            and t.hand_left is not None],
        "frames": len(log), "hand_frames": sum(e.hand for e in log),
        "rendered": sum(e.render_s > 0 for e in log),
        "read_s": round(sum(e.read_s for e in log), 3),
        "render_s": round(sum(e.render_s for e in log), 3),
        "read_cpu_s": round(sum(e.read_cpu_s for e in log), 3),
        "render_cpu_s": round(sum(e.render_cpu_s for e in log), 3),
        "changed_under_hand": sum(e.changed and e.hand for e in log),
        "cpu_s": round(cpu, 2), "wall_s": round(wall, 2),
    }


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures over all games of the file."""
    moves = sum(g["moves"] for g in games)
    frames = sum(g["frames"] for g in games)
    read_cpu = sum(g.get("read_cpu_s", 0.0) for g in games)
    render_cpu = sum(g.get("render_cpu_s", 0.0) for g in games)
    read_s = sum(g["read_s"] for g in games)
    rendered = sum(g["rendered"] for g in games)
    legal = [v for g in games for v in g["latency_legal"]]
    illegal = [v for g in games for v in g["latency_illegal"]]
    cheats: dict[str, int] = {}
    for game in games:
        for kind, count in game["cheats"].items():
            cheats[kind] = cheats.get(kind, 0) + count
    per_k = 1000 / moves if moves else 0.0
    return {
        "games": len(games), "seeds": [g["seed"] for g in games],
        "all_over": all(g["over"] for g in games),
        "errors": [[g["seed"], g["error"]] for g in games if g.get("error")], "moves": moves,
        "legal_moves": sum(g["legal"] for g in games), "cheats": cheats,
        "frames": frames, "hand_frames": sum(g["hand_frames"] for g in games),
        "reading_frames_per_s_cpu": round(frames / read_cpu, 1) if read_cpu else None,
        "reading_cpu_ms_per_frame": round(1000 * read_cpu / frames, 1) if frames else None,
        "reading_wall_ms_per_frame": round(1000 * read_s / frames, 1) if frames else None,
        "render_frames_per_s_cpu": round(rendered / render_cpu, 1) if render_cpu else None,
        "rendered_frames": rendered,
        "process_cpu_ms_per_frame": round(1000 * sum(g["cpu_s"] for g in games) / frames, 1)
        if frames else None,
        "latency_legal_p50_p95_s": [percentile(legal, 0.5), percentile(legal, 0.95)],
        "latency_illegal_p50_p95_s": [percentile(illegal, 0.5), percentile(illegal, 0.95)],
        "legal_called_illegal_per_1000": round(
            per_k * sum(g["legal_called_illegal"] for g in games), 2),
        "illegal_accepted_per_1000": round(
            per_k * sum(g["illegal_accepted"] for g in games), 2),
        "missed_cheats": sum(g["illegal_accepted"] + g["false_fold_accepted"] for g in games),
        "changed_under_hand": sum(g["changed_under_hand"] for g in games),
        "median_frames_per_move": round(statistics.median(
            [g["frames"] / max(g["moves"], 1) for g in games]), 1) if games else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=7, help="seeds 0 … N-1 (default 7)")
    parser.add_argument("--cheat", type=float, default=0.1)
    parser.add_argument("--speed", type=float, default=2.0,
                        help="hand speed (1: a calm player; default 2)")
    parser.add_argument("--size", default="640x480", help="frame size (default 640x480)")
    parser.add_argument("--out", type=Path, default=Path("var/bench-e2e.jsonl"))
    parser.add_argument("--inject", default="passed_left_standing,passed_protected",
                        help="cheat kinds made wherever possible, comma-separated ('' none)")
    parser.add_argument("--summary", action="store_true", help="only print the figures")
    args = parser.parse_args()
    from companion.sim.cheats import CheatKind

    kinds = {kind.value for kind in CheatKind}
    unknown = [kind for kind in args.inject.split(",") if kind and kind not in kinds]
    if unknown:
        parser.error(f"--inject: {unknown[0]!r} is not a cheat kind ({', '.join(sorted(kinds))})")
    done: list[dict[str, Any]] = []
    if args.out.exists():
        done = [json.loads(line) for line in args.out.read_text().splitlines() if line]
    if not args.summary:
        one_core()
        width, height = (int(v) for v in args.size.lower().split("x"))
        have = {g["seed"] for g in done}
        for seed in range(args.games):
            if seed in have:
                continue
            inject = tuple(kind for kind in args.inject.split(",") if kind)
            result = play(seed, args.cheat, args.speed, (width, height), inject)
            args.out.parent.mkdir(parents=True, exist_ok=True)
            with args.out.open("a") as out:
                out.write(json.dumps(result) + "\n")
            done.append(result)
            print(f"seed {seed}: {result['moves']} moves, {result['frames']} frames, "
                  f"{result['wall_s']:.0f} s", file=sys.stderr, flush=True)
    print(json.dumps(summary(done), indent=1))


if __name__ == "__main__":
    main()
