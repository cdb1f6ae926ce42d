"""How well the occlusion test finds hands and objects on the path-traced draw.

    .venv/bin/python bench/occlusion_cycles.py [--frames var/cycles] [--first N] [--below M]

For every finished case in the folder with a hand or an object over a hole, the reader of
`bench/vision_cycles.py` learns the start frame and then runs only the occlusion test
(`occlusion.Baseline.foreign_regions`) on the game frame. Prints per case, and in total, the
holes a hand or object covers at least `COVERED` of, how many of them lie farther than
`REACH_MM` from every foreign region found (farther than a changed ring stands for,
`occlusion.RING_REACH_MM`), the cases where no region was found at all and those whose board
was not found. The reader's trust network weighs the distance to these regions per hole
(`trust`): a hand the test does not find must be recognised in the holes' own look.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hw import load_profile
from vision.reader.board_reader import BoardReader
from vision.reader.occlusion import RING_REACH_MM, region_distance

COVERED = 0.5  # share of a hole's disc a hand or object covers to count here
REACH_MM = RING_REACH_MM


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=Path, default=Path("var/cycles"))
    parser.add_argument("--first", type=int, default=0, metavar="N")
    parser.add_argument("--below", type=int, default=10_000, metavar="M")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    cases = covered_total = missed_total = blind_cases = unread = 0
    for path in sorted(args.frames.glob("[0-9][0-9][0-9][0-9].json")):
        if not args.first <= int(path.stem) < args.below:
            continue
        truth = json.loads(path.read_text())
        profile = load_profile(truth["board"])
        ids = [hole.id for hole in profile.holes]
        covered = [ids.index(hole) for hole, share in truth["cover"].items() if share >= COVERED]
        if not covered:
            continue
        game = cv2.imread(str(args.frames / f"{path.stem}-game.png"))
        try:
            reader = BoardReader(profile, cv2.imread(str(args.frames / f"{path.stem}-start.png")))
            fit, features = reader.measure(game)
        except ValueError as error:  # the board not found (a tiny test render)
            unread += 1
            print(f"{path.stem} not read: {error}")
            continue
        assert reader.baseline is not None
        surface = reader.grid.sample(game, fit)
        region = reader.baseline.foreign_regions(surface, features.ring).region
        missed = int((region_distance(reader.grid, region)[covered] > REACH_MM).sum())
        cases += 1
        covered_total += len(covered)
        missed_total += missed
        blind_cases += not region.any()
        print(f"{path.stem} {truth['board']:<9} {truth['case']['material']:<9} covered "
              f"{len(covered):>3}, farther than {REACH_MM:g} mm from a found region {missed:>3}"
              + ("  (no region found)" if not region.any() else ""))
    print(f"cases with a covered hole: {cases}; holes covered at least {COVERED:.0%}: "
          f"{covered_total}, farther than {REACH_MM:g} mm from every found region: "
          f"{missed_total}; cases where no region was found: {blind_cases}; not read: {unread}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
