"""Benchmark of the board reader on rendered frames (fixed seed, both boards, all conditions).

    .venv/bin/python bench/vision.py [--cases 600] [--seed 2024] [--breakdown] [--cold] [--jobs N]
        [--empty-seats K] [--shuffle-colours] [--reader naive] [--models DIR] [--lens-k1 K]
        [--jitter SEED] [--size WxH] [--path-traced DIR [--path-traced-first N]]

Each case: a random realistic game position, a test frame under random conditions (a third with
hands or cards over the board) and a reference frame of the start position under a related
condition (same board, material, camera and lamps, so the same board glare; the light level and
colour drift). Prints per-hole accuracy, the share of boards read fully correct (also when a
hole whose marble a hand only touches may be "?", and with the board's `occluded` flag right
too), holes under a hand reported as a definite wrong colour, and milliseconds per frame for
locate + read on one core (over all frames and by board: brandi-6 has half again as many holes
as brandi-4 and more surface points, so the median over both lies between theirs and moves with
the machine): in a stream (the reader has just
read the frame before, here the reference frame itself: the camera's steady state), or with
`--cold` a reader's first frame right after rendering, which has flushed the CPU caches (the
same readings). `--breakdown` adds the errors by condition and by kind. `--jobs` runs cases in
parallel processes (same results; the times are then not one-core figures). `--empty-seats K`
leaves K random seats of every case unplayed (their kennels empty in the reference, their
marbles off the board). `--shuffle-colours` deals the marble colours to the seats in another
order in every third case (players pick their colours; the kennels' paint stays): the reader
must name each seat's colour from what its kennel shows. The shuffle draws from a generator of
its own, so every case is otherwise the one the same seed draws without the option.
`--reader naive` reads the same cases with the baseline of `bench/naive_reader.py`; `--models
DIR` with the networks `vision.reader.train --out DIR` wrote instead of the shipped ones.
`--lens-k1 K` takes both frames of every case through a lens of radial distortion K
(`vision.lens`; a wide lens' barrel is about -0.1), the cases otherwise the same.
`--jitter SEED` takes both frames of every case through another camera drawn per case from SEED
(`vision.render.jitter`: more blur, the game frame's exposure, tone and white balance off the
reference's, noise, JPEG), on top of the renderer's own.
`--size WxH` renders both frames of every case at that size instead of 1280x960 (`1640x1232`:
the camera module's other mode), the cases otherwise the same.
`--path-traced DIR` then reads the other renderer's draw too, the path-traced cases
`bench/render_cycles.py` wrote to DIR (`--path-traced-first N`: those numbered N and later), with
the same reader, networks and lens, and prints its figures (`bench/vision_cycles.py`) after
this draw's.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

# One core: also for numpy's BLAS (set before numpy loads; its threads only slow small arrays).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/: naive_reader, vision_cycles
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import vision_cycles
from naive_reader import NaiveReader

from hw import BoardProfile, load_profile
from vision.reader.board_reader import BoardReader, Learned
from vision.render import RenderConditions, random_conditions, render, start_occupancy
from vision.render.cases import case_colours, draw_case
from vision.render.jitter import jittered

KINDS = ("visible", "false ?", "empty>col", "col>empty", "col>col", "hidden", "hidden wrong")


def condition_bins(profile: BoardProfile, test: RenderConditions,
                   reference: RenderConditions) -> dict[str, str]:
    """The case's conditions, each cut into a few named bins."""
    def cut(value: float, edges: tuple[float, ...], names: tuple[str, ...]) -> str:
        return names[int(np.searchsorted(edges, value))]

    drift = abs(test.color_temperature_k - reference.color_temperature_k)
    ratio = test.light_level / reference.light_level
    return {
        "board": profile.name,
        "material": test.material,
        "light": cut(test.light_level, (0.55, 0.9), ("dim <0.55", "mid", "bright >0.9")),
        "level drift": cut(abs(np.log(ratio)), (0.1, 0.2), ("<10%", "10-20%", ">20%")),
        "colour drift": cut(drift, (250, 500), ("<250K", "250-500K", ">500K")),
        "glare spots": str(test.board_glare_spots),
        "jpeg": "none" if test.jpeg_quality is None else cut(
            test.jpeg_quality, (60, 80), ("q45-59", "q60-79", "q80-95")),
        "noise": cut(test.noise_sigma, (2.0, 3.5), ("<2", "2-3.5", ">3.5")),
        "blur": cut(test.blur_sigma, (0.5, 1.0), ("<0.5", "0.5-1", ">1")),
        "shadow": "yes" if test.shadow_depth > 0 else "no",
        "hands/cards": f"{test.hands}h{test.cards}c",
        "tilt": cut(test.tilt_deg, (8, 14), ("<8", "8-14", ">14")),
    }


@dataclass
class Tally:
    """Running totals of the benchmark."""

    holes: int = 0
    correct: int = 0
    unknown_visible: int = 0
    boards: int = 0
    boards_correct: int = 0
    boards_correct_edges_unknown: int = 0  # ... when holes the hand touches may be "?"
    boards_correct_flag_right: int = 0  # ... with the `occluded` flag right too
    hidden: int = 0
    hidden_wrong: int = 0
    hidden_unknown: int = 0
    failures: int = 0
    unknown: int = 0  # holes reported "?" ...
    unknown_touched: int = 0  # ... of them where a hand or card covers part of the marble
    flagged: int = 0  # boards reported occluded ...
    flagged_touched: int = 0  # ... of them with a hand or card over part of a hole
    touched_boards: int = 0  # boards with a hand or card over part of a hole
    seconds: dict[str, list[float]] = field(default_factory=dict)  # board -> per frame
    errors: list[str] = field(default_factory=list)
    # (condition, bin) -> [cases, boards correct, *KINDS counts]
    bins: dict[tuple[str, str], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0] * (2 + len(KINDS))))

    def merge(self, other: Tally) -> None:
        """Add another tally's counts to this one."""
        for name in ("holes", "correct", "unknown_visible", "boards", "boards_correct",
                     "boards_correct_edges_unknown", "boards_correct_flag_right", "hidden",
                     "hidden_wrong", "hidden_unknown", "failures", "unknown", "unknown_touched",
                     "flagged", "flagged_touched", "touched_boards"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for board, seconds in other.seconds.items():
            self.seconds.setdefault(board, []).extend(seconds)
        self.errors += other.errors
        for key, counts in other.bins.items():
            mine = self.bins[key]
            for index, count in enumerate(counts):
                mine[index] += count


def without(occupancy: dict[str, str | None], colours: set[str]) -> dict[str, str | None]:
    """The occupancy with the marbles of these colours taken off the board."""
    return {hole: None if colour in colours else colour for hole, colour in occupancy.items()}


def run_case(profile: BoardProfile, test: RenderConditions, reference: RenderConditions,
             occupancy: dict[str, str | None], seed: int, tally: Tally, cold: bool,
             absent: set[str], colours: Sequence[str], naive: bool = False,
             learned: Learned | None = None, jitter: int | None = None) -> None:
    occupancy = without(occupancy, absent)
    start = render(profile, without(start_occupancy(profile, colours), absent), reference,
                   seed=seed)
    frame = render(profile, occupancy, test, seed=seed + 1)
    start_image, image = start.image, frame.image
    if jitter is not None:
        start_image, image = jittered(start_image, image, np.random.default_rng([jitter, seed]))
    try:
        reader = (NaiveReader(profile, start_image) if naive else
                  BoardReader(profile, start_image, learned))
        if not cold:
            reader.read(start_image)  # the frame before, as in a stream
        began = time.perf_counter()
        reading = reader.read(image)
        tally.seconds.setdefault(profile.name, []).append(time.perf_counter() - began)
    except ValueError as error:
        tally.failures += 1
        tally.errors.append(f"seed {seed}: {error}")
        return
    all_right = edges_right = True
    kinds = dict.fromkeys(KINDS, 0)
    touched = bool(frame.touched)
    if touched and not reading.occluded:
        cover = ", ".join(f"{hole} {frame.cover[hole]:.2f}" for hole in sorted(
            frame.touched, key=lambda hole: -frame.cover[hole])[:4])
        tally.errors.append(f"seed {seed} {test.material}: occluded missed ({test.hands} hands, "
                            f"{test.cards} cards; cover {cover})")
    if reading.occluded and not touched:
        unknown = sorted(hole for hole, said in reading.holes.items() if said == "?")
        tally.errors.append(f"seed {seed} {test.material}: occluded with nothing over a hole "
                            f"({test.hands} hands, {test.cards} cards; '?' {unknown[:4]})")
    tally.touched_boards += touched
    tally.flagged += reading.occluded
    tally.flagged_touched += reading.occluded and touched
    for hole_id, truth in occupancy.items():
        said = reading.holes[hole_id]
        tally.unknown += said == "?"
        tally.unknown_touched += said == "?" and hole_id in frame.touched
        if hole_id in frame.occluded:
            tally.hidden += 1
            kinds["hidden"] += 1
            tally.hidden_unknown += said == "?"
            if said not in ("?", truth):
                tally.hidden_wrong += 1
                kinds["hidden wrong"] += 1
                tally.errors.append(f"seed {seed}: {hole_id} under a hand: {said} for {truth}")
            continue
        tally.holes += 1
        kinds["visible"] += 1
        tally.correct += said == truth
        tally.unknown_visible += said == "?"
        if said != truth:
            all_right = False
            edges_right &= said == "?" and hole_id in frame.touched
            kind = ("false ?" if said == "?" else "empty>col" if truth is None
                    else "col>empty" if said is None else "col>col")
            kinds[kind] += 1
            tally.errors.append(f"seed {seed} {test.material}: {hole_id} {said} for {truth}")
    tally.boards += 1
    tally.boards_correct += all_right
    tally.boards_correct_edges_unknown += edges_right
    tally.boards_correct_flag_right += all_right and reading.occluded == touched
    for key in condition_bins(profile, test, reference).items():
        counts = tally.bins[key]
        counts[0] += 1
        counts[1] += all_right
        for index, kind in enumerate(KINDS):
            counts[2 + index] += kinds[kind]


def run_cases(seed: int, cases: range, cold: bool = False, empty_seats: int = 0,
              shuffle: bool = False, naive: bool = False, models: Path | None = None,
              lens_k1: float = 0.0, jitter: int | None = None,
              size: tuple[int, int] | None = None) -> Tally:
    """Run some of the benchmark's cases (every case draws from its own generator)."""
    cv2.setNumThreads(1)
    profiles = [load_profile("brandi-4"), load_profile("brandi-6")]
    learned = Learned.load(models) if models else None
    tally = Tally()
    for case in cases:
        rng = np.random.default_rng([seed, case])
        profile = profiles[case % 2]
        case_seed = seed * 1000 + 2 * case
        colours = case_colours(profile, seed, case, shuffle)
        test, reference, occupancy = draw_case(profile, rng, case_seed, colours=colours)
        if lens_k1:
            test, reference = (replace(c, lens_k1=lens_k1) for c in (test, reference))
        if size:
            test, reference = (replace(c, width=size[0], height=size[1])
                               for c in (test, reference))
        absent = {colours[int(seat)]
                  for seat in rng.choice(profile.seats, empty_seats, replace=False)}
        run_case(profile, test, reference, occupancy, case_seed, tally, cold, absent, colours,
                 naive, learned, jitter)
    tally.bins = dict(tally.bins)  # picklable
    return tally


DRIFT_LEVEL = 0.25  # a drift game's light ends at this share of its start ...
DRIFT_KELVIN = 3500.0  # ... this much warmer or colder ...
DRIFT_GRADIENT = 0.5  # ... with this much more gradient across the board ...
DRIFT_AZIMUTH_DEG = 180.0  # ... the lamp this far round ...
DRIFT_SHADOW = 0.5  # ... and a soft shadow across the board this deep
DRIFT_HANDS_EVERY = 4  # every this many frames a hand is over the board (never learnt)


def drift_step(profile: BoardProfile, occupancy: dict[str, str | None],
               seat_of: dict[str, int], rng: np.random.Generator) -> dict[str, str | None]:
    """The position after one move of a random marble: out of its kennel onto the track,
    along the track, or from the track into its home (with every marble home, out of it)."""
    kinds = {hole.id: (hole.kind, hole.seat) for hole in profile.holes}
    marbles = [hole for hole, colour in occupancy.items() if colour is not None
               and kinds[hole][0] != "home"]
    # every marble home: the game starts over from the homes (the light keeps drifting)
    marbles = marbles or [hole for hole, colour in occupancy.items() if colour is not None]
    start = str(rng.choice(marbles))
    colour = occupancy[start]
    assert colour is not None
    free_track = [hole for hole, (kind, _) in kinds.items()
                  if kind == "track" and occupancy[hole] is None]
    free_home = [hole for hole, (kind, seat) in kinds.items()
                 if kind == "home" and seat == seat_of[colour] and occupancy[hole] is None]
    goal = (str(rng.choice(free_home)) if kinds[start][0] == "track" and free_home
            and rng.random() < 0.3 else str(rng.choice(free_track)))
    return occupancy | {start: None, goal: colour}


def drift_conditions(start: RenderConditions, share: float, warmer: bool,
                     hands: bool) -> RenderConditions:
    """The start's conditions ``share`` (0…1) of the way through the evening's drift."""
    kelvin = start.color_temperature_k + (-1 if warmer else 1) * DRIFT_KELVIN * share
    return replace(
        start, hands=int(hands), cards=0,
        light_level=start.light_level * DRIFT_LEVEL ** share,
        color_temperature_k=float(np.clip(kelvin, 2000, 8000)),
        gradient=start.gradient + DRIFT_GRADIENT * share,
        gradient_angle_deg=start.gradient_angle_deg + 45 * share,
        light_azimuth_deg=start.light_azimuth_deg + DRIFT_AZIMUTH_DEG * share,
        shadow_depth=DRIFT_SHADOW * share, shadow_softness_mm=120.0)


def drift_game(seed: int, frames: int) -> dict[str, list[int]]:
    """One game per board: ``frames`` positions under light drifting from the reference's
    (`drift_conditions`), read by a reader that keeps its reference and by one that learns
    from every frame with the truth (as the table does after each accepted position; frames
    with a hand are refused by the reader). Per reader: [visible holes, right, boards,
    boards right, frames learnt], and the same over the last third of the game."""
    cv2.setNumThreads(1)
    totals: dict[str, list[int]] = {}
    for board_index, name in enumerate(("brandi-4", "brandi-6")):
        profile = load_profile(name)
        rng = np.random.default_rng([seed, board_index])
        start = replace(random_conditions(rng, hands=False), board_glare_spots=0,
                        light_level=float(rng.uniform(0.8, 1.3)))
        warmer = start.color_temperature_k > 4500
        occupancy = start_occupancy(profile)
        seat_of = {colour: seat for seat, colour in enumerate(profile.default_colors)}
        reference = render(profile, occupancy, start, seed=seed).image
        readers = {"static": BoardReader(profile, reference),
                   "learning": BoardReader(profile, reference)}
        for step in range(frames):
            occupancy = drift_step(profile, occupancy, seat_of, rng)
            hands = step % DRIFT_HANDS_EVERY == DRIFT_HANDS_EVERY - 1
            frame = render(profile, occupancy,
                           drift_conditions(start, (step + 1) / frames, warmer, hands),
                           seed=seed + step + 1)
            for kind, reader in readers.items():
                reading = reader.read(frame.image)
                visible = [hole for hole in occupancy if hole not in frame.occluded]
                right = sum(reading.holes[hole] == occupancy[hole] for hole in visible)
                learnt = kind == "learning" and reader.learn(frame.image, occupancy)
                for part in ("all", "last third") if 3 * step >= 2 * frames else ("all",):
                    tally = totals.setdefault(f"{kind} {part}", [0] * 5)
                    tally[0] += len(visible)
                    tally[1] += right
                    tally[2] += 1
                    tally[3] += right == len(visible)
                    tally[4] += learnt
    return totals


def print_drift_game(seed: int, frames: int) -> None:
    """`drift_game`'s figures."""
    print(f"drift game: {frames} frames per board (brandi-4, brandi-6), seed {seed}; light to "
          f"{DRIFT_LEVEL:.0%}, {DRIFT_KELVIN:.0f} K, gradient +{DRIFT_GRADIENT}, lamp "
          f"+{DRIFT_AZIMUTH_DEG:.0f} deg, a shadow {DRIFT_SHADOW}; a hand in every "
          f"{DRIFT_HANDS_EVERY}th frame")
    for key, (holes, right, boards, boards_right, learnt) in drift_game(seed, frames).items():
        print(f"  {key:<20} holes {right / max(holes, 1):.3%} of {holes}, boards "
              f"{boards_right / max(boards, 1):.1%} of {boards}"
              + (f", frames learnt {learnt}" if key.startswith("learning") else ""))


def print_breakdown(tally: Tally) -> None:
    """Errors by condition bin and kind (rates over visible holes / cases)."""
    print("breakdown (per bin: cases, boards fully correct, visible holes, errors by kind)")
    header = f"  {'condition':<12} {'bin':<12} {'cases':>5} {'boards ok':>9} {'visible':>7}"
    print(header + "".join(f" {kind:>9}" for kind in KINDS[1:]) + "  err/hole")
    for key in sorted(tally.bins):
        cases, right, visible, *errors = tally.bins[key]
        wrong = sum(errors[:4])
        print(f"  {key[0]:<12} {key[1]:<12} {cases:>5} {right / max(cases, 1):>9.1%} "
              f"{visible:>7}" + "".join(f" {count:>9}" for count in errors)
              + f"  {wrong / max(visible, 1):.3%}")


def frame_size(text: str) -> tuple[int, int]:
    """`WxH` (e.g. `1640x1232`) as (width, height)."""
    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit() and int(width) >= 320 and int(height) >= 240):
        raise argparse.ArgumentTypeError(f"{text!r} is no size like 1640x1232 (at least 320x240)")
    return int(width), int(height)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=600)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--show-errors", type=int, default=10)
    parser.add_argument("--breakdown", action="store_true",
                        help="errors by condition (material, light, glare, JPEG, ...) and kind")
    parser.add_argument("--cold", action="store_true",
                        help="time a reader's first frame instead of a frame in a stream")
    parser.add_argument("--empty-seats", type=int, default=0, metavar="K",
                        help="seats nobody plays in every case (chosen at random)")
    parser.add_argument("--shuffle-colours", action="store_true",
                        help="every third case: the seats' colours dealt in another order")
    parser.add_argument("--jobs", type=int, default=1,
                        help="parallel processes (times are then not one-core figures)")
    parser.add_argument("--reader", choices=("companion", "naive"), default="companion",
                        help="naive: the baseline reader of bench/naive_reader.py")
    parser.add_argument("--models", type=Path, metavar="DIR",
                        help="read with the networks vision.reader.train wrote to DIR")
    parser.add_argument("--lens-k1", type=float, default=0.0, metavar="K",
                        help="a lens of this radial distortion (vision.lens; -0.1: a strong "
                        "barrel) takes both frames of every case")
    parser.add_argument("--jitter", type=int, metavar="SEED",
                        help="another camera, drawn per case from SEED, takes both frames of "
                        "every case (vision.render.jitter)")
    parser.add_argument("--size", type=frame_size, metavar="WxH",
                        help="both frames of every case at this size instead of 1280x960")
    parser.add_argument("--drift-game", type=int, default=0, metavar="N",
                        help="instead: a game of N frames per board under drifting light, read "
                        "with the reference kept and with learning from accepted positions")
    parser.add_argument("--path-traced", type=Path, metavar="DIR",
                        help="also read the path-traced cases bench/render_cycles.py wrote to DIR")
    parser.add_argument("--path-traced-first", type=int, default=0, metavar="N",
                        help="of those, only the cases numbered N and later")
    args = parser.parse_args(argv)
    if args.path_traced and not args.path_traced.is_dir():
        parser.error(f"--path-traced: {args.path_traced} is not a folder")
    if args.drift_game:
        print_drift_game(args.seed, args.drift_game)
        return 0
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            parts = pool.map(run_cases, [args.seed] * args.jobs,
                             [range(job, args.cases, args.jobs) for job in range(args.jobs)],
                             [args.cold] * args.jobs, [args.empty_seats] * args.jobs,
                             [args.shuffle_colours] * args.jobs,
                             [args.reader == "naive"] * args.jobs, [args.models] * args.jobs,
                             [args.lens_k1] * args.jobs, [args.jitter] * args.jobs,
                             [args.size] * args.jobs)
            tally = Tally()
            for part in parts:
                tally.merge(part)
    else:
        tally = run_cases(args.seed, range(args.cases), args.cold, args.empty_seats,
                          args.shuffle_colours, args.reader == "naive", args.models,
                          args.lens_k1, args.jitter, args.size)
    ms = np.concatenate([[], *tally.seconds.values()]) * 1000
    print(f"cases {args.cases} (brandi-4 and brandi-6 alternating), seed {args.seed}, "
          f"seats nobody plays per case {args.empty_seats}"
          + (", seat colours shuffled in every third case" if args.shuffle_colours else "")
          + (", naive reader" if args.reader == "naive" else "")
          + (f", lens distortion k1 {args.lens_k1}" if args.lens_k1 else "")
          + (f", another camera per case (jitter seed {args.jitter})"
             if args.jitter is not None else "")
          + (f", frames {args.size[0]}x{args.size[1]}" if args.size else ""))
    print(f"per-hole accuracy (visible holes): {tally.correct / max(tally.holes, 1):.5%} "
          f"of {tally.holes}; visible holes reported '?': {tally.unknown_visible}")
    print(f"boards fully correct: {tally.boards_correct / max(tally.boards, 1):.2%} "
          f"of {tally.boards}; frames not read at all: {tally.failures}")
    print(f"boards fully correct if holes whose marble a hand or card touches (less than "
          f"under it) may be '?': "
          f"{tally.boards_correct_edges_unknown / max(tally.boards, 1):.2%}")
    print(f"boards fully correct with the 'occluded' flag right too: "
          f"{tally.boards_correct_flag_right / max(tally.boards, 1):.2%}")
    print(f"holes under hands: {tally.hidden}, reported '?': {tally.hidden_unknown}, "
          f"definite wrong colour: {tally.hidden_wrong}")
    print(f"'?' precision (a hand or card over part of the hole): "
          f"{tally.unknown_touched / max(tally.unknown, 1):.4f} of {tally.unknown}; recall (holes "
          f"under hands reported '?'): {tally.hidden_unknown / max(tally.hidden, 1):.4f}")
    print(f"'occluded' precision (a hand or card over part of a hole): "
          f"{tally.flagged_touched / max(tally.flagged, 1):.4f} of {tally.flagged} boards; "
          f"recall: {tally.flagged_touched / max(tally.touched_boards, 1):.4f} of "
          f"{tally.touched_boards}")
    if len(ms):
        when = "a reader's first frame" if args.cold else "in a stream"
        print(f"locate + read ms per frame (1 core, {when}): median {np.median(ms):.2f}, "
              f"p90 {np.percentile(ms, 90):.2f}, max {ms.max():.2f}; median by board: "
              + ", ".join(f"{board} {np.median(seconds) * 1000:.2f}"
                          for board, seconds in sorted(tally.seconds.items())))
    if args.breakdown:
        print_breakdown(tally)
    for line in tally.errors[:args.show_errors]:
        print("  ", line)
    if args.path_traced:
        cycles, _ = vision_cycles.evaluate(args.path_traced, args.reader == "naive",
                                           args.path_traced_first, args.models,
                                           lens_k1=args.lens_k1, jitter=args.jitter)
        print()
        vision_cycles.report(cycles, args.path_traced, args.breakdown, args.show_errors)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
