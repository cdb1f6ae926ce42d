"""Render the path-traced validation draw (Blender Cycles) into a folder outside git.

The validation draw (200 cases, both boards, wood and aluminium, shuffled seat colours in a
third, hands in a fifth, a mug or phone in a sixth, lamps changed in a third, 1640x1232 in a
quarter; several hours on two cores) is made by

    nice -n 19 nohup .venv/bin/python bench/render_cycles.py --cases 200 --seed 2027 \\
        --out var/cycles --threads 2 >> var/cycles.log 2>&1 &

Case NNNN is fixed by the seed and its number alone. Each finished case is three files, each
written atomically: `NNNN-start.png` (the start position, every marble in its kennel),
`NNNN-game.png` (the game position, same camera and table) and last `NNNN.json` (the truth:
every hole's colour or null in both frames, the holes a hand or object covers with the share
of the marble's circle covered, the board-to-pixel homography, the case's conditions, render
seconds). A case whose JSON exists is skipped, so an interrupted run resumes where it stopped;
`bench/vision_cycles.py` reads the folder. Needs Blender's `bpy` module (see
docs/vision-cycles.md); the process lowers its own priority to nice 19.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hw import load_profile
from vision.render.cycles import RESOLUTIONS, draw_case, render_pair

BOARDS = ("brandi-4", "brandi-6")


def case_of(index: int, seed: int, samples: int,
            resolution: tuple[int, int] | None = None, denoise: bool = True):  # -> CyclesCase
    """Case `index` of the draw: its board, the mix of conditions, the rest from its seed
    (`resolution` overrides the draw's, for quick looks and tests)."""
    profile = load_profile(BOARDS[index % 2])
    rng = np.random.default_rng([seed, index])
    turn = index // 2
    case = draw_case(
        profile, rng, seed * 1000 + index, samples=samples,
        shuffled=index % 3 == 2, hands=index % 5 == 4, things=index % 6 == 3,
        material="aluminium" if turn % 5 in (1, 3) else "wood",
        resolution=RESOLUTIONS[1] if turn % 4 == 3 else RESOLUTIONS[0])
    if resolution is not None:
        case = replace(case, width=resolution[0], height=resolution[1])
    return replace(case, denoise=denoise)


def resolution_arg(text: str) -> tuple[int, int]:
    """`WxH` as two integers."""
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--resolution: {text!r} is not WIDTHxHEIGHT") from None
    if not (16 <= width <= 8192 and 16 <= height <= 8192):
        raise argparse.ArgumentTypeError(f"--resolution: {text!r} is out of range")
    return width, height


def write_atomic(path: Path, write) -> None:  # write(tmp_path)
    """Write through a temporary file beside `path`, then move it into place."""
    tmp = path.with_name(f".{path.stem}.tmp{path.suffix}")
    write(tmp)
    os.replace(tmp, path)


def render_case(out: Path, index: int, seed: int, samples: int, threads: int,
                resolution: tuple[int, int] | None = None, denoise: bool = True) -> dict:
    """Render case `index` into `out`; returns its truth (with the seconds it took)."""
    case = case_of(index, seed, samples, resolution, denoise)
    pair = render_pair(case, threads=threads)
    name = f"{index:04d}"

    def png(image: np.ndarray):
        def write(tmp: Path) -> None:
            if not cv2.imwrite(str(tmp), image):
                raise OSError(f"could not write {tmp}")
        return write

    write_atomic(out / f"{name}-start.png", png(pair.start))
    write_atomic(out / f"{name}-game.png", png(pair.game))
    truth = {"index": index, "draw_seed": seed, **pair.truth}
    write_atomic(out / f"{name}.json",
                 lambda tmp: tmp.write_text(json.dumps(truth, indent=1) + "\n"))
    return truth


def done(out: Path, index: int) -> bool:
    """Whether case `index` is finished in `out`."""
    name = f"{index:04d}"
    return all((out / f"{name}{tail}").exists() for tail in (".json", "-start.png", "-game.png"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="first case number")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--out", type=Path, default=Path("var/cycles"))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--samples", type=int, default=32)
    parser.add_argument("--resolution", type=resolution_arg, default=None, metavar="WxH",
                        help="render every case at this size instead of the draw's")
    parser.add_argument("--no-denoise", action="store_true")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    todo = [i for i in range(args.first, args.first + args.cases) if not done(args.out, i)]
    print(f"{args.cases - len(todo)} of {args.cases} cases already in {args.out}; "
          f"rendering {len(todo)}", flush=True)
    for index in todo:
        truth = render_case(args.out, index, args.seed, args.samples, args.threads,
                            args.resolution, not args.no_denoise)
        case = truth["case"]
        print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} case {index:04d} ({truth['board']}, "
              f"{case['width']}x{case['height']}, {case['samples']} samples): "
              f"{truth['seconds']:.0f} s, {truth['cpu_seconds']:.0f} s CPU", flush=True)
    return 0


if __name__ == "__main__":
    os.nice(max(0, 19 - os.nice(0)))
    raise SystemExit(main())
