"""How often the reader names a seat's colour wrong from a start-of-game frame.

    .venv/bin/python bench/seat_names.py [--seeds 98 99 100 101 102] [--cases 500] [--jobs 2]

Each case renders (the own renderer) the start position of one board, alternating brandi-4 and
brandi-6, in the reference light of `bench/vision.py`'s cases: in half the cases the board's
colours are dealt to the seats in another order, on the 4-seat board a third of the cases give
one seat white or black marbles, and up to two seats of brandi-6 (one of brandi-4) are left
empty. `BoardReader(profile, frame).colours` must name exactly the playing seats, each with its
marbles' colour. Prints every case named wrong and the count per seed.
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hw import BoardProfile, load_profile
from vision.reader.board_reader import BoardReader
from vision.render import render
from vision.render.cases import draw_case


def deal(profile: BoardProfile, rng: np.random.Generator) -> tuple[list[str], set[int]]:
    """The case's colour per seat and the seats nobody plays."""
    colours = list(profile.default_colors[:profile.seats])
    if rng.random() < 0.5:
        rng.shuffle(colours)
    if profile.seats == 4 and rng.random() < 0.3:
        colours[int(rng.integers(4))] = str(rng.choice(["white", "black"]))
    empty = int(rng.integers(0, 3 if profile.seats == 6 else 2))
    return colours, {int(seat) for seat in rng.choice(profile.seats, empty, replace=False)}


def name_case(seed: int, case: int) -> list[str]:
    """What the reader names wrong in one case (empty: every seat right)."""
    cv2.setNumThreads(1)
    rng = np.random.default_rng([seed, case, 77])
    profile = load_profile(("brandi-4", "brandi-6")[case % 2])
    colours, empty = deal(profile, rng)
    _, reference, _ = draw_case(profile, rng, seed * 1000 + case)
    start = {hole.id: colours[hole.seat] if hole.kind == "kennel" and hole.seat is not None
             and hole.seat not in empty else None for hole in profile.holes}
    frame = render(profile, start, reference, seed=seed * 1000 + case)
    try:
        named = BoardReader(profile, frame.image).colours
    except ValueError as error:
        return [f"not read: {error}"]
    truth = {seat: colours[seat] for seat in range(profile.seats) if seat not in empty}
    where = f"{profile.name}, {reference.material}, light {reference.light_level:.2f}"
    return [f"seat {seat}: {named.get(seat, 'not playing')} for {truth.get(seat, 'not playing')}"
            f" ({where})" for seat in sorted(set(named) | set(truth))
            if named.get(seat) != truth.get(seat)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[98, 99, 100, 101, 102])
    parser.add_argument("--cases", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    total = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for seed in args.seeds:
            cases = range(args.cases)
            wrong = 0
            for case, errors in zip(cases, pool.map(name_case, [seed] * len(cases), cases),
                                    strict=True):
                wrong += bool(errors)
                for error in errors:
                    print(f"seed {seed} case {case}: {error}")
            print(f"seed {seed}: {wrong} of {len(cases)} references with a seat named wrong")
            total += wrong
    print(f"all seeds: {total} of {len(args.seeds) * args.cases}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
