"""Benchmark of the board reader on the path-traced draw that `bench/render_cycles.py` stored.

    .venv/bin/python bench/vision_cycles.py [--frames var/cycles] [--breakdown]
        [--show-errors 10] [--reader naive] [--first N] [--below M] [--models DIR] [--lens-k1 K]
        [--cover-marker ID] [--jpeg Q] [--blur SIGMA] [--jitter SEED]

For every finished case in the folder: `BoardReader(profile, start frame)` (what `dog-companion
vision read GAME --board B --reference START` runs) reads the start frame once (as in a stream) and
then the game frame. Prints the figures of `bench/vision.py`: per-hole accuracy over the holes no
hand or object hides, boards fully correct (also when holes a hand only touches may be "?", and
with the `occluded` flag right too), holes under a hand or object read as a definite wrong value,
and locate + read milliseconds per game frame on one core; and the `"?"` precision (holes said "?"
that a hand or object touches) and recall (holes under one said "?"), and the same for the board's
`occluded` flag (owed where a hand or object covers any part of a hole), and how far the reader's
fit of the reference (`Locator.locate`, and `Locator.refine` where a marker is missing) puts the
holes from where the renderer's true homography does (per case the worst hole). `--breakdown` adds
the figures by condition (board, material, shuffled seat colours, hands, objects, lamps changed,
window, LEDs, resolution). `--reader naive` reads with the baseline of `bench/naive_reader.py`
instead. `--first N` reads only the cases from number N on (those rendered after the reader was
last tuned: held out), `--below M` only those numbered below M. `--lens-k1 K` bends both frames of
every case through a lens of radial distortion K (`vision.lens`; the rendered, developed 8-bit
frames, so their noise and JPEG blocks are bent too). `--cover-marker ID` paints a skin-coloured
patch over that marker in both frames (as a hand on it would), so that the reader fits the board
through the other three and sharpens that fit on the holes (`Locator.refine`). `--jpeg Q` reads
both frames as a JPEG of quality Q decodes (an MJPEG camera, a photo saved as JPEG). `--blur SIGMA`
blurs both frames (Gaussian, px: a camera out of focus). `--jitter SEED` reads every case as
another camera takes it (`vision.render.jitter`: blur, the game frame's exposure, tone and white
balance off the reference's, noise, JPEG), drawn per case from SEED. `--models DIR` reads with
networks `vision.reader.train --out DIR` wrote instead of the shipped ones (a fold of path-traced
cases its `--cycles-leave-out` kept out of training: `--first` and `--below` read just that fold).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/: naive_reader
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from naive_reader import NaiveReader

from hw import BoardProfile, load_profile
from vision.lens import Lens
from vision.locate import marker_corners_mm
from vision.reader.board_reader import BoardReader, Learned
from vision.render.jitter import jittered

KINDS = ("false ?", "empty>col", "col>empty", "col>col")


def conditions(truth: dict) -> dict[str, str]:
    """The case's conditions, each as a short name."""
    case = truth["case"]
    return {
        "board": truth["board"],
        "material": case["material"],
        "seat colours": "shuffled" if case["seat_colours"] else "default",
        "hands": str(len(case["hands"])),
        "objects": ",".join(t["kind"] for t in case["things"]) or "none",
        "lamps": f"{len(case['lamps'])}" + (" changed" if case["game_lamps"] else ""),
        "window": "yes" if any(lamp["kind"] == "window" for lamp in case["lamps"]) else "no",
        "leds": "lit" if case["leds"] else "off",
        "resolution": f"{case['width']}x{case['height']}",
        "exposure": "locked" if case["locked_exposure"] else "auto",
    }


class Tally:
    """Running totals of the benchmark."""

    def __init__(self) -> None:
        self.cases = self.failures = 0
        self.holes = self.correct = 0
        self.boards = self.boards_correct = self.boards_edges = self.boards_correct_flag_right = 0
        self.hidden = self.hidden_unknown = self.hidden_wrong = 0
        self.said_unknown = self.said_unknown_touched = 0
        self.flag = {"tp": 0, "fp": 0, "fn": 0}
        self.kinds = dict.fromkeys(KINDS, 0)
        self.ms: list[float] = []
        self.fit_px: list[tuple[float, str]] = []  # per case: the fit's worst hole error, name
        self.errors: list[str] = []
        self.bins: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])

    def add(self, name: str, truth: dict, reading, ms: float) -> None:
        """Count one read game frame against its truth."""
        game, cover = truth["game"], truth["cover"]
        occluded = set(truth["occluded"])
        all_right = edges_right = True
        wrong = visible = 0
        for hole_id, right in game.items():
            said = reading.holes[hole_id]
            if said == "?":
                self.said_unknown += 1
                self.said_unknown_touched += hole_id in cover
            if hole_id in occluded:
                self.hidden += 1
                self.hidden_unknown += said == "?"
                if said not in ("?", right):
                    self.hidden_wrong += 1
                    self.errors.append(f"{name}: {hole_id} under a hand: {said} for {right}")
                continue
            self.holes += 1
            visible += 1
            self.correct += said == right
            if said != right:
                wrong += 1
                all_right = False
                edges_right &= said == "?" and hole_id in cover
                kind = ("false ?" if said == "?" else "empty>col" if right is None
                        else "col>empty" if said is None else "col>col")
                self.kinds[kind] += 1
                self.errors.append(f"{name}: {hole_id} {said} for {right}")
        self.boards += 1
        self.boards_correct += all_right
        self.boards_edges += edges_right
        # The flag is owed wherever a hand or object covers any part of a hole (as in
        # `bench/vision.py`), not only where it hides a tenth of one.
        owed = bool(truth["touched"])
        key = ("tp" if owed else "fp") if reading.occluded else ("fn" if owed else None)
        if key:
            self.flag[key] += 1
        self.boards_correct_flag_right += all_right and key in (None, "tp")
        if key == "fp":
            hands = len(truth["case"]["hands"])
            things = [f"{hands} hand" + "s" * (hands > 1)] if hands else []
            things += [thing["kind"] for thing in truth["case"]["things"]]
            self.errors.append(f"{name}: occluded with nothing over a hole"
                               + (f" ({', '.join(things)} in the picture)" if things else ""))
        elif key == "fn":
            self.errors.append(f"{name}: occluded missed")
        self.ms.append(ms)
        for item in conditions(truth).items():
            counts = self.bins[item]
            counts[0] += 1
            counts[1] += all_right
            counts[2] += visible
            counts[3] += wrong


def fit_error(fit, profile, truth: dict) -> float:
    """The largest distance (px) between where ``fit`` and the renderer's true homography put
    a hole of the board."""
    holes = np.array([(hole.x, hole.y) for hole in profile.holes], np.float64)
    true_px = cv2.perspectiveTransform(holes.reshape(-1, 1, 2),
                                       np.array(truth["homography"])).reshape(-1, 2)
    return float(np.linalg.norm(fit.project(holes) - true_px, axis=1).max())


def ratio(part: int, whole: int) -> str:
    return f"{part / whole:.4f}" if whole else "n/a"


def evaluate(frames: Path, naive: bool = False, first: int = 0,
             models: Path | None = None, below: int = 10_000,
             lens_k1: float = 0.0, covered: int | None = None,
             jpeg: int | None = None, blur: float = 0.0,
             jitter: int | None = None) -> tuple[Tally, int]:
    """Read every finished case in `frames` numbered from `first` to below `below` (with the
    naive reader if `naive`, with the networks in `models` if given, both frames bent by a lens
    of distortion `lens_k1` if not 0, marker `covered` painted over in both if given, both
    frames JPEG-compressed at quality `jpeg` if given, blurred by `blur` px, through a camera
    drawn from `jitter` if given); returns the tally and the number of cases."""
    learned = Learned.load(models) if models else None
    cv2.setNumThreads(1)
    tally = Tally()
    names = sorted(path.stem for path in frames.glob("[0-9][0-9][0-9][0-9].json")
                   if first <= int(path.stem) < below)
    profiles = {}
    for name in names:
        truth = json.loads((frames / f"{name}.json").read_text())
        start = cv2.imread(str(frames / f"{name}-start.png"))
        game = cv2.imread(str(frames / f"{name}-game.png"))
        if lens_k1:
            lens = Lens(lens_k1, (start.shape[1], start.shape[0]))
            start, game = lens.distort_image(start), lens.distort_image(game)
        profile = profiles.setdefault(truth["board"], load_profile(truth["board"]))
        if covered is not None:
            start, game = (cover_marker(frame, profile, truth, covered) for frame in (start, game))
        if jpeg is not None:
            start, game = (compressed(frame, jpeg) for frame in (start, game))
        if blur:
            start, game = (cv2.GaussianBlur(frame, (0, 0), blur) for frame in (start, game))
        if jitter is not None:
            start, game = jittered(start, game, np.random.default_rng([jitter, int(name)]))
        tally.cases += 1
        try:
            reader = NaiveReader(profile, start) if naive else BoardReader(profile, start, learned)
            reader.read(start)  # the frame before, as in a stream
            if not naive and not lens_k1:
                tally.fit_px.append((fit_error(reader.locator.last_fit, profile, truth), name))
            began = time.perf_counter()
            reading = reader.read(game)
            ms = (time.perf_counter() - began) * 1000
        except ValueError as error:
            tally.failures += 1
            tally.errors.append(f"{name}: not read: {error}")
            continue
        tally.add(name, truth, reading, ms)
    return tally, len(names)


def compressed(image: np.ndarray, quality: int) -> np.ndarray:
    """The frame as a JPEG of this quality decodes (4:2:0 chroma, as cameras write)."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def cover_marker(image: np.ndarray, profile: BoardProfile, truth: dict,
                 marker_id: int) -> np.ndarray:
    """The frame with a flat skin-coloured patch over a marker and its white border."""
    markers = marker_corners_mm(profile)
    if marker_id not in markers:
        raise SystemExit(f"--cover-marker: board {profile.name} has markers {sorted(markers)}, "
                         f"not {marker_id}")
    corners = markers[marker_id]
    centre = corners.mean(axis=0)
    patch = cv2.perspectiveTransform(((corners - centre) * 1.6 + centre).reshape(-1, 1, 2),
                                     np.array(truth["homography"]))
    covered = image.copy()
    cv2.fillConvexPoly(covered, np.round(patch.reshape(-1, 2)).astype(np.int32), (120, 150, 210))
    return covered


def report(tally: Tally, frames: Path, breakdown: bool, show_errors: int) -> None:
    """Print the figures."""
    print(f"cases {tally.cases} in {frames}; frames not read at all: {tally.failures}")
    print(f"per-hole accuracy (holes no hand or object hides): "
          f"{tally.correct / max(tally.holes, 1):.4%} of {tally.holes}; errors by kind: "
          + ", ".join(f"{kind} {count}" for kind, count in tally.kinds.items()))
    print(f"boards fully correct: {tally.boards_correct / max(tally.boards, 1):.2%} of "
          f"{tally.boards}; if holes a hand or object only touches may be '?': "
          f"{tally.boards_edges / max(tally.boards, 1):.2%}; with the 'occluded' flag right "
          f"too: {tally.boards_correct_flag_right / max(tally.boards, 1):.2%}")
    print(f"holes under a hand or object: {tally.hidden}, said '?': {tally.hidden_unknown}, "
          f"definite wrong value: {tally.hidden_wrong}")
    print(f"'?' precision (said '?' where a hand or object touches): "
          f"{ratio(tally.said_unknown_touched, tally.said_unknown)} of {tally.said_unknown}; "
          f"recall (under a hand or object said '?'): "
          f"{ratio(tally.hidden_unknown, tally.hidden)} of {tally.hidden}")
    flag = tally.flag
    print(f"'occluded' flag precision {ratio(flag['tp'], flag['tp'] + flag['fp'])}, recall "
          f"{ratio(flag['tp'], flag['tp'] + flag['fn'])} (boards with a hand or object over part "
          f"of a hole: {flag['tp'] + flag['fn']})")
    if tally.ms:
        ms = np.array(tally.ms)
        print(f"locate + read ms per game frame (1 core, in a stream): median "
              f"{np.median(ms):.1f}, p90 {np.percentile(ms, 90):.1f}, max {ms.max():.1f}")
    if tally.fit_px:
        worst, name = max(tally.fit_px)
        print(f"reference fit against the true homography, worst hole per case: median "
              f"{np.median([px for px, _ in tally.fit_px]):.2f} px, max {worst:.2f} px ({name})")
    if breakdown:
        print("breakdown: condition, value, cases, boards fully correct, visible holes, "
              "wrong visible holes")
        for (condition, value), (cases, right, visible, wrong) in sorted(tally.bins.items()):
            print(f"  {condition:<12} {value:<16} {cases:>4} {right / cases:>7.1%} "
                  f"{visible:>6} {wrong:>5}")
    for line in tally.errors[:show_errors]:
        print("  ", line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=Path, default=Path("var/cycles"))
    parser.add_argument("--breakdown", action="store_true")
    parser.add_argument("--show-errors", type=int, default=10)
    parser.add_argument("--reader", choices=("companion", "naive"), default="companion")
    parser.add_argument("--below", type=int, default=10_000, metavar="M",
                        help="only the cases numbered below M")
    parser.add_argument("--models", type=Path, metavar="DIR",
                        help="read with the networks vision.reader.train wrote to DIR")
    parser.add_argument("--first", type=int, default=0, metavar="N",
                        help="read only cases N and later (e.g. those held out of tuning)")
    parser.add_argument("--lens-k1", type=float, default=0.0, metavar="K",
                        help="bend both frames of every case by a lens of this radial "
                        "distortion (vision.lens) before reading them")
    parser.add_argument("--cover-marker", type=int, metavar="ID",
                        help="paint over this marker in both frames of every case")
    parser.add_argument("--jpeg", type=int, metavar="Q",
                        help="compress both frames of every case as JPEG of quality Q")
    parser.add_argument("--blur", type=float, default=0.0, metavar="SIGMA",
                        help="blur both frames of every case (Gaussian sigma, px)")
    parser.add_argument("--jitter", type=int, metavar="SEED",
                        help="read every case as a camera drawn from SEED takes it "
                        "(vision.render.jitter)")
    args = parser.parse_args()
    if not args.frames.is_dir():
        print(f"--frames: {args.frames} is not a folder", file=sys.stderr)
        return 2
    tally, _ = evaluate(args.frames, args.reader == "naive", args.first, args.models, args.below,
                        args.lens_k1, args.cover_marker, args.jpeg, args.blur, args.jitter)
    report(tally, args.frames, args.breakdown, args.show_errors)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
