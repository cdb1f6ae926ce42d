"""Leave-one-renderer-out figures of the reader's networks: train on one renderer's frames,
read the other's.

    .venv/bin/python bench/vision_renderers.py --own-data var/models/own.pkl --own-seeds 7 11
        [--own-wide-drift 7] [--own-hand-seeds 11 14] [--own-shuffled-seeds 21]
        [--own-calibration-seeds 14] [--own-cases 1500]
        [--frames var/cycles] [--below 45] [--fold-size 10] [--weight 20] [--work var/models]
        [--draw-cases 600] [--jobs 2] [--both-keeps-trust] [--reuse]

The path-traced cases numbered below `--below` (`bench/render_cycles.py`'s folder) are cut into
folds of `--fold-size` consecutive cases. Networks are trained by `vision.reader.train` into
`--work`, and each path-traced fold is read by networks that never saw it:

- **own → path-traced**: the shipped networks, trained on the own renderer only;
- **path-traced only**: networks trained from random weights on the other folds;
- **both**: the shipped networks trained on (`--fine-tune`) with the own renderer's cases of
  `--own-seeds` (`--own-cases` each, the reference's light drifting farther in the
  `--own-wide-drift` seeds, all with hands in the `--own-hand-seeds`, every third case's
  colours shuffled in the `--own-shuffled-seeds`, the
  `--own-calibration-seeds` only to choose the threshold on; readings kept in `--own-data` as
  `train --data` keeps them, rendered if missing) and the other folds, each path-traced case
  counted `--weight` times. With `--both-keeps-trust` only the match network is trained on
  (`--keep-trust`): the shipped trust network and its threshold stay.

The fold figures are summed over the folds. Then the networks trained on all path-traced cases
below `--below` (alone, and with the own cases) read `bench/vision.py`'s draw (seed 2024,
`--draw-cases`): **path-traced → own** and **both → own**; the shipped networks' figures on that
draw are in `docs/vision.md#benchmark`. `--reuse` keeps networks already in `--work` (a
stopped run resumes; delete them after changing the cases or options).
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def evaluator():
    """`bench/vision_cycles.py` as a module."""
    spec = importlib.util.spec_from_file_location("vision_cycles", ROOT / "bench" /
                                                  "vision_cycles.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["vision_cycles"] = module
    spec.loader.exec_module(module)
    return module


def trained(out: Path, frames: Path, below: int, left_out: tuple[int, int] | None,
            own: argparse.Namespace | None, weight: int, reuse: bool = False) -> Path:
    """Networks trained on the path-traced cases below `below` but `left_out`, with `own`'s
    cases (fine-tuning the shipped networks; only the match network with
    ``own.both_keeps_trust``) or alone (from random weights), in `out`; with `reuse`, those
    already there."""
    if reuse and all((out / name).exists() for name in ("hole_match.npz", "hole_trust.npz")):
        return out
    command = [sys.executable, "-m", "vision.reader.train", "--cycles", str(frames),
               "--cycles-below", str(below), "--out", str(out)]
    if left_out:
        command += ["--cycles-leave-out", *map(str, left_out)]
    if own:
        command += ["--seeds", *map(str, own.own_seeds), "--data", str(own.own_data),
                    "--cases", str(own.own_cases), "--wide-drift", *map(str, own.own_wide_drift),
                    "--hand-seeds", *map(str, own.own_hand_seeds),
                    "--shuffled-seeds", *map(str, own.own_shuffled_seeds),
                    "--calibration-seeds", *map(str, own.own_calibration_seeds),
                    "--fine-tune", "--cycles-weight", str(weight)]
        if own.both_keeps_trust:
            command += ["--keep-trust"]
    else:
        command += ["--seeds", "--match-seeds", "7", "9", "11", "--trust-seeds", "3", "7", "1",
                    "2"]
    subprocess.run(command, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    return out


def summary(tally) -> str:
    """A fold tally's figures in one line."""
    return (f"holes {tally.correct / max(tally.holes, 1):.4%} of {tally.holes} "
            f"({tally.kinds['false ?']} '?', {tally.holes - tally.correct - tally.kinds['false ?']}"
            f" wrong), boards {tally.boards_correct} of {tally.boards}, under hands "
            f"{tally.hidden_wrong} wrong of {tally.hidden}, '?' precision "
            f"{tally.said_unknown_touched}/{tally.said_unknown}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=Path, default=ROOT / "var" / "cycles")
    parser.add_argument("--below", type=int, default=45)
    parser.add_argument("--fold-size", type=int, default=10)
    parser.add_argument("--weight", type=int, default=20)
    parser.add_argument("--own-data", type=Path, required=True)
    parser.add_argument("--own-seeds", type=int, nargs="+", required=True)
    parser.add_argument("--own-wide-drift", type=int, nargs="*", default=[])
    parser.add_argument("--own-hand-seeds", type=int, nargs="*", default=[])
    parser.add_argument("--own-shuffled-seeds", type=int, nargs="*", default=[])
    parser.add_argument("--own-calibration-seeds", type=int, nargs="*", default=[])
    parser.add_argument("--own-cases", type=int, default=1500)
    parser.add_argument("--work", type=Path, default=ROOT / "var" / "models")
    parser.add_argument("--draw-cases", type=int, default=600)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--both-keeps-trust", action="store_true",
                        help="train only the match network on both renderers")
    parser.add_argument("--reuse", action="store_true",
                        help="keep networks already in --work")
    args = parser.parse_args()
    both = "both-match" if args.both_keeps_trust else "both"
    cycles = evaluator()
    totals = {name: cycles.Tally() for name in ("own -> path-traced", "path-traced only", "both")}
    for first in range(0, args.below, args.fold_size):
        fold = (first, min(first + args.fold_size, args.below))
        models = {"own -> path-traced": None,
                  "path-traced only": trained(args.work / f"cycles-without-{first}", args.frames,
                                              args.below, fold, None, args.weight, args.reuse),
                  "both": trained(args.work / f"{both}-without-{first}", args.frames,
                                  args.below, fold, args, args.weight, args.reuse)}
        for name, folder in models.items():
            tally, _ = cycles.evaluate(args.frames, first=fold[0], below=fold[1], models=folder)
            print(f"fold {fold[0]}-{fold[1] - 1}, {name}: {summary(tally)}", flush=True)
            for key, value in vars(tally).items():
                total = getattr(totals[name], key)
                if isinstance(value, int):
                    setattr(totals[name], key, total + value)
                elif isinstance(value, dict) and key in ("kinds", "flag"):
                    for item, count in value.items():
                        total[item] += count
    for name, tally in totals.items():
        print(f"all folds, {name}: {summary(tally)}")
    for name, own in (("path-traced -> own", None), ("both -> own", args)):
        folder = trained(args.work / (both if own else "path-traced"), args.frames, args.below,
                         None, own, args.weight, args.reuse)
        print(f"{name} ({folder}):", flush=True)
        subprocess.run([sys.executable, "bench/vision.py", "--jobs", str(args.jobs), "--cases",
                        str(args.draw_cases), "--models", str(folder), "--show-errors", "0"],
                       check=True, cwd=ROOT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
