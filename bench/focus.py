"""How blurred the references of the benchmarks measure (`vision.focus.marker_blur`), and how
many of them the reader warns about (`board_reader.BLURRED_PX`).

    .venv/bin/python bench/focus.py [--seed 2024] [--cases 200]
    .venv/bin/python bench/focus.py --frames var/cycles [--blur 0 0.8 1.2 1.6 2.0]

The first reads the start frames of `bench/vision.py`'s draw (the same cases: boards
alternating, each drawn with its own blur). The second reads the path-traced cases'
start frames (`bench/render_cycles.py`), each as rendered and blurred by every `--blur`
(Gaussian σ, px, as `bench/vision_cycles.py --blur`). Prints each reference's blur in pixels
and board mm, then per blur the range and how many are warned about.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hw import load_profile
from vision.focus import marker_blur
from vision.locate import LocateError, Locator
from vision.reader.board_reader import BLURRED_PX
from vision.render import render, start_occupancy
from vision.render.cases import case_colours, draw_case


def drawn_references(seed: int, cases: int):
    """(name with the blur it was drawn with, profile, start frame) of `bench/vision.py`'s cases."""
    profiles = [load_profile("brandi-4"), load_profile("brandi-6")]
    for case in range(cases):
        profile = profiles[case % 2]
        case_seed = seed * 1000 + 2 * case
        colours = case_colours(profile, seed, case, False)
        _, reference, _ = draw_case(profile, np.random.default_rng([seed, case]), case_seed,
                                    colours=colours)
        image = render(profile, start_occupancy(profile, colours), reference,
                       seed=case_seed).image
        yield f"case {case} (drawn {reference.blur_sigma:.2f} px)", profile, image


def path_traced_references(frames: Path):
    """(name, profile, start frame) of the path-traced cases in ``frames``."""
    for truth_file in sorted(frames.glob("[0-9][0-9][0-9][0-9].json")):
        board = json.loads(truth_file.read_text())["board"]
        image = cv2.imread(str(frames / f"{truth_file.stem}-start.png"))
        yield truth_file.stem, load_profile(board), image


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--frames", type=Path, help="path-traced cases instead of the draw")
    parser.add_argument("--blur", type=float, nargs="+", default=[0.0],
                        help="blur the path-traced frames by each of these (px)")
    args = parser.parse_args()
    references = (path_traced_references(args.frames) if args.frames
                  else drawn_references(args.seed, args.cases))
    blurs = args.blur if args.frames else [0.0]
    measured: dict[float, list[float]] = {blur: [] for blur in blurs}
    for name, profile, image in references:
        row = []
        for blur in blurs:
            frame = cv2.GaussianBlur(image, (0, 0), blur) if blur else image
            try:
                found = marker_blur(frame, profile, Locator(profile).locate(frame))
            except LocateError:
                found = None
            if found is None:
                row.append("no markers measured")
                continue
            measured[blur].append(found[0])
            row.append(f"{found[0]:.2f} px ({found[1]:.2f} mm)")
        print(f"{name} {profile.name}: " + ", ".join(row), flush=True)
    for blur, values in measured.items():
        added = f"blurred by {blur} px: " if args.frames else ""
        if values:
            warned = sum(value >= BLURRED_PX for value in values)
            print(f"{added}{len(values)} references, {min(values):.2f}-{max(values):.2f} px, "
                  f"{warned} warned about (from {BLURRED_PX} px)")
        else:
            print(f"{added}no reference measured")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
