"""Train the reader's learned parts (`match`, `trust`) on rendered frames.

    .venv/bin/python -m vision.reader.train [--cases 4000] [--seeds 7 8 9] [--wide-drift 9]
        [--hand-seeds 11] [--shuffled-seeds 21] [--jitter-seeds 23] [--relit-seeds 25]
        [--jobs 2]
        [--data /tmp/reader-data.pkl]
        [--keep-match | --keep-trust]
        [--match-seeds 7 9 11] [--trust-seeds 3 7 1 2] [--calibration-seeds 13 14]
        [--cycles var/cycles [--cycles-below N] [--cycles-leave-out FIRST END]
         [--cycles-weight W] [--cycles-jitter K]] [--fine-tune] [--out DIR]

Renders benchmark-like cases (`vision.render.cases.draw_case`, as `bench/vision.py` draws
them, a third with hands or cards) with seeds of their own (the benchmark uses 2024: keep them
apart), `--cases` per seed; for the `--wide-drift` seeds the reference's light lies farther
from the game frame's than the benchmark draws it, in the cases of the `--hand-seeds` every
frame has hands or cards, in those of the `--shuffled-seeds` every third case's seat colours
are dealt in another order (as players pick them), in those of the `--jitter-seeds` both
frames are taken through another camera drawn per case (`vision.render.jitter`), in those of
the `--relit-seeds` a lamp was switched off after the reference (`vision.render.relight`): the
reader relearns the light from another position's frame in it (`BoardReader.relearn`, as the
table has it do) before it reads the game frame. Reads them
raw (Gaussian ranking, every hole reported), keeping per hole the evidence of both networks and
the truth. `--data` keeps these, so that training can be repeated without rendering (seeds
missing in it are rendered and added, each kept as soon as its cases are read: a stopped run
resumes with the next seed).
Four fifths of the cases train, the other fifth says how well that went:

1. the match network learns, per (class, hole) pair, whether the class is the hole's
   (`--match-seeds`: one per seed, their mean logit is the match network);
2. the trust network learns, per hole, whether the best class may be reported (the match
   network's, less the classes the reader's hue and changed-hole checks rule out,
   `ruled_out_of`, as the reader ranks them): it is right and less than `LABEL_COVER` of
   the hole's marble is covered by a hand or card
   (a marble a hand only partly covers is no error when read right; learning to see hands
   from the holes well under one, not only from the few where the class goes wrong, is what
   keeps definite wrong colours from hidden holes). Networks trained alike from different
   random starts differ about as much as a new input does: `--trust-seeds` trains one per
   seed, and their mean logit (`Network.mean_of`) is the trust network. Its threshold is the
   one with the fewest errors on the held-out fifth, each case read as the reader does
   (threshold and `board_reader.blind_at_region`, then `census`), when a definite wrong
   colour under a hand costs `--hidden-cost` ordinary errors (a visible hole wrong or "?").
   The cases of the `--calibration-seeds` are all held out: more of them make that choice
   steadier (it turns on the few wrong colours under hands a network lets pass).

`--cycles DIR` adds the path-traced cases `bench/render_cycles.py` wrote to DIR (read as
`bench/vision_cycles.py` reads them; `--seeds` with no seed: those alone), a fifth of them held out
like the rendered ones, each learnt from `--cycles-weight` times; `--cycles-below` and
`--cycles-leave-out` keep cases out for testing. `--cycles-jitter K` also reads each of them K
times as other cameras take it (`vision.render.jitter`: blur, exposure, tone, white balance, noise,
JPEG); those readings count once each, and are held out with their case. `--fine-tune` trains on
from the shipped networks' weights (a few passes at a small step) instead of from random ones.
`bench/vision_renderers.py` uses these for the leave-one-renderer-out figures.

`--keep-match` keeps the shipped match network and trains the trust network only;
`--keep-trust` keeps the shipped trust network (and its threshold) and trains the match network
only, printing the held-out errors the two make together.

Writes ``vision/reader/models/hole_match.npz`` and ``hole_trust.npz`` (numpy, fixed seed);
``vision/reader/models/README.md`` keeps the commands that made the shipped ones.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import pickle
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

# One core: also for numpy's BLAS (set before numpy loads; its threads only slow small arrays).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np

from hw import BoardProfile, load_profile
from vision.reader import match, trust
from vision.reader.board_reader import BoardReader, Learned, blind_at_region, nothing_over_holes
from vision.reader.census import UNKNOWN, Census
from vision.reader.hue import RULED_OUT_COST, without_ruled_out
from vision.reader.network import MODELS, Network
from vision.render import RenderConditions, render, start_occupancy
from vision.render.cases import case_colours, draw_case, game_position
from vision.render.jitter import jittered
from vision.render.relight import LampOff

Record = dict[str, Any]  # one case's raw reading and truth (`collect`)
HIDDEN = (32, 32)
LABEL_COVER = 0.5  # the trust network may pass a right class under this share of cover
FINE_TUNE_EPOCHS = 10  # --fine-tune: this many passes over the cases ...
FINE_TUNE_RATE = 3e-4  # ... at this step (a tenth of a fresh network's)


def wider_drift(test: RenderConditions, reference: RenderConditions,
                rng: np.random.Generator) -> RenderConditions:
    """The reference frame's light drawn farther from the game frame's than the benchmark
    does: level ×0.5–1.6, colour temperature ±1 800 K (daylight at the start, lamps later)."""
    return replace(
        reference,
        light_level=float(np.clip(test.light_level * rng.uniform(0.5, 1.6), 0.3, 1.4)),
        color_temperature_k=float(np.clip(test.color_temperature_k + rng.uniform(-1800, 1800),
                                          2700, 6500)))


def collect(seed: int, cases: range, wide: bool = False, hands: bool = False,
            shuffled: bool = False, jitter: bool = False, relit: bool = False) -> list[Record]:
    """Per case: both evidences of a raw reading, the truth's class index per hole (-1: not
    a learnt class), which holes are under a hand and how much of each is covered; `wide`:
    with `wider_drift`; `hands`: every case with hands or cards; `shuffled`: every third
    case's seat colours dealt in another order (`shuffled_colours`); `jitter`: both frames
    through another camera (`jittered`); `relit`: the game frame after a lamp went off
    (`LampOff`), read after relearning the light from `relit_accepted`."""
    cv2.setNumThreads(1)
    profiles = [load_profile("brandi-4"), load_profile("brandi-6")]
    records = []
    for case in cases:
        rng = np.random.default_rng([seed, case])
        profile = profiles[case % 2]
        case_seed = seed * 1000 + 2 * case
        colours = case_colours(profile, seed, case, shuffled)
        test, reference, occupancy = draw_case(profile, rng, case_seed, hands or None, colours)
        if wide:
            reference = wider_drift(test, reference, rng)
        start = render(profile, start_occupancy(profile, colours), reference, seed=case_seed)
        frame = render(profile, occupancy, test, seed=case_seed + 1)
        start_image, image = start.image, frame.image
        if jitter:
            camera = np.random.default_rng([seed, case, 5])
            start_image, image = jittered(start_image, image, camera)
        try:
            reader = BoardReader(profile, start_image, Learned(None, None))
            if relit:
                lamp = LampOff.draw(np.random.default_rng([seed, case, 7]))
                accepted, accepted_image = relit_accepted(profile, test, seed, case, colours)
                image = lamp.apply(image)
                if not reader.relearn(lamp.apply(accepted_image), accepted):
                    continue
            reading = reader.read(image)
        except ValueError:
            continue
        assert reader.prototypes is not None
        names = reader.prototypes.names
        truth = [names.index(occupancy[h]) if occupancy[h] in names else -1 for h in reader.ids]
        records.append({"seed": seed, "wide": wide, "case": case, "jittered": jitter,
                        "relit": relit,
                        "pairs": reading.pairs,
                        "evidence": reading.evidence, "census": reader.census,
                        "truth": np.array(truth),
                        "under": np.array([h in frame.occluded for h in reader.ids]),
                        "cover": np.array([frame.cover.get(h, 0.0) for h in reader.ids])})
    return records


def relit_accepted(profile: BoardProfile, test: RenderConditions, seed: int, case: int,
                   colours: Sequence[str]) -> tuple[dict[str, str | None], np.ndarray]:
    """Another position of a case's game (drawn from ``[seed, case, 6]``) and its frame in the
    game frame's light with nothing over the board: the accepted position the light is
    relearnt from."""
    position = game_position(profile, np.random.default_rng([seed, case, 6]), colours)
    quiet = replace(test, hands=0, cards=0)
    return position, render(profile, position, quiet, seed=seed * 1000 + 2 * case + 7).image


def collect_cycles(folder: Path, below: int, left_out: range = range(0),
                   jitter: int = 0) -> list[Record]:
    """`collect`'s records of the path-traced cases in `folder` (`bench/render_cycles.py`)
    numbered below `below` and not in `left_out`, each read as `bench/vision_cycles.py` reads
    it (the start frame once, then the game frame), and `jitter` times more through cameras
    `vision.render.jitter` draws (``jittered`` True); a record's seed is the draw's,
    ``renderer`` says "cycles"."""
    cv2.setNumThreads(1)
    profiles: dict[str, Any] = {}
    records = []
    for path in sorted(folder.glob("[0-9][0-9][0-9][0-9].json")):
        if int(path.stem) >= below or int(path.stem) in left_out:
            continue
        truth = json.loads(path.read_text())
        profile = profiles.setdefault(truth["board"], load_profile(truth["board"]))
        start = cv2.imread(str(folder / f"{path.stem}-start.png"))
        game = cv2.imread(str(folder / f"{path.stem}-game.png"))
        if start is None or game is None:
            continue  # a case still being written
        cameras = [(start, game)] + [
            jittered(start, game, np.random.default_rng([truth["index"], copy]))
            for copy in range(jitter)]
        for copy, (reference, frame) in enumerate(cameras):
            try:
                reader = BoardReader(profile, reference, Learned(None, None))
                reader.read(reference)
                reading = reader.read(frame)
            except ValueError:
                continue
            assert reader.prototypes is not None
            names = reader.prototypes.names
            game_truth = truth["game"]
            records.append({
                "seed": truth["draw_seed"], "renderer": "cycles", "wide": False,
                "case": truth["index"], "jittered": copy > 0, "pairs": reading.pairs,
                "evidence": reading.evidence, "census": reader.census,
                "truth": np.array([names.index(game_truth[h]) if game_truth[h] in names
                                   else -1 for h in reader.ids]),
                "under": np.array([h in truth["occluded"] for h in reader.ids]),
                "cover": np.array([truth["cover"].get(h, 0.0) for h in reader.ids])})
    return records


def _keep(records: list[Record], path: Path) -> None:
    """Write the readings to `path` whole or not at all (a run stopped while writing leaves
    the seeds kept before)."""
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(pickle.dumps(records, protocol=5))
    os.replace(partial, path)


def ruled_out_of(evidence: trust.HoleEvidence) -> np.ndarray:
    """(C, N) the classes the reader's hue and changed-hole checks ruled out at each hole of a
    raw reading (`BoardReader._ruled_out`), recovered from its evidence: a raw reading's scores
    are the Gaussian ones (-distance² / 2) less `RULED_OUT_COST` for each ruled-out class
    (`hue.without_ruled_out`). Exact for the colours; the empty hole also loses the cost where
    the best Gaussian class was a ruled-out colour, and there it is taken as not ruled out."""
    gauss = -0.5 * evidence.distance ** 2
    out = gauss - evidence.scores > RULED_OUT_COST / 2
    best = gauss.argmax(axis=0)
    out[0] &= ~(out[best, np.arange(best.size)] & (best > 0))
    return np.asarray(out)


def reader_scores(matcher: Network, record: Record) -> np.ndarray:
    """(C, N) a record's class scores as the reader ranks them: the match network's, less the
    cost of the classes its checks rule out (`ruled_out_of`)."""
    return without_ruled_out(match.class_scores(matcher, record["pairs"]),
                             ruled_out_of(record["evidence"]))


def train(inputs: tuple[str, ...], rows: np.ndarray, yes: np.ndarray, weight: np.ndarray,
          seed: int, epochs: int = 30, batch: int = 2048, rate: float = 3e-3,
          start: Network | None = None) -> Network:
    """Fit a network by weighted logistic loss with Adam (cosine-decayed step), from random
    weights or from those of `start` (the same function, rescaled to these rows' scaling)."""
    rng = np.random.default_rng(seed)
    mean = rows.mean(axis=0)
    scale = rows.std(axis=0) + 1e-6
    x = ((rows - mean) / scale).astype(np.float32)
    y = yes.astype(np.float32)
    params = []
    if start is None:
        for n_in, n_out in itertools.pairwise((x.shape[1], *HIDDEN, 1)):
            params += [rng.normal(0, np.sqrt(2 / n_in), (n_in, n_out)).astype(np.float32),
                       np.zeros(n_out, np.float32)]
    else:
        first, *rest = start.folded
        params += [(first[0] * scale[:, None]).astype(np.float32),
                   (first[1] + mean @ first[0]).astype(np.float32)]
        for weights, bias in rest:
            params += [weights.astype(np.float32).copy(), bias.astype(np.float32).copy()]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        step_size = rate * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
        for first_row in range(0, len(x), batch):
            pick = order[first_row:first_row + batch]
            grads = _gradients(params, x[pick], y[pick], weight[pick])
            step += 1
            for index, (grad, (m, v)) in enumerate(zip(grads, moments, strict=True)):
                m[...] = 0.9 * m + 0.1 * grad
                v[...] = 0.999 * v + 0.001 * grad * grad
                params[index] -= step_size * (m / (1 - 0.9 ** step)) / (
                    np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    layers = tuple((params[i], params[i + 1]) for i in range(0, len(params), 2))
    return Network(inputs, mean.astype(np.float32), scale.astype(np.float32), layers)


def _gradients(params: list[np.ndarray], x: np.ndarray, y: np.ndarray,
               weight: np.ndarray) -> list[np.ndarray]:
    """Gradients of the mean weighted logistic loss (ReLU hidden layers)."""
    activations = [x]
    for i in range(0, len(params) - 2, 2):
        activations.append(np.maximum(activations[-1] @ params[i] + params[i + 1], 0.0))
    logit = (activations[-1] @ params[-2] + params[-1])[:, 0]
    with np.errstate(over="ignore"):  # a very confident "no": exp overflows, the sigmoid is 0
        delta = ((1 / (1 + np.exp(-logit)) - y) * weight / weight.sum())[:, None]
    grads: list[np.ndarray] = []
    for i in range(len(params) - 2, -1, -2):
        grads[:0] = [activations[i // 2].T @ delta, delta.sum(axis=0)]
        if i:
            delta = (delta @ params[i].T) * (activations[i // 2] > 0)
    return grads


def cost(counts: dict[str, int], hidden_cost: float) -> float:
    """What a reading's errors cost: a visible hole wrong or "?" 1, a definite wrong class
    under a hand `hidden_cost`."""
    return counts["false ?"] + counts["wrong"] + hidden_cost * counts["hidden wrong"]


def errors(cases: list[Record], threshold: float) -> dict[str, int]:
    """The errors of cases (each with the match network's ``scores``, the trust network's
    ``logits``) read as the reader reads: holes below the threshold (or blind at a hand,
    `blind_at_region`) are "?", then the census settles the counts."""
    counts = dict.fromkeys(("false ?", "wrong", "hidden wrong"), 0)
    for case in cases:
        scores, under, evidence = case["scores"], case["under"], case["evidence"]
        hidden = (case["logits"] < threshold) | blind_at_region(evidence)
        labels = np.where(hidden, UNKNOWN, scores.argmax(axis=0))
        labels = case["census"].settle(scores, labels, evidence.reach,
                                       nothing_over_holes(evidence))
        wrong = (labels != UNKNOWN) & (labels != case["truth"])
        counts["false ?"] += int(((labels == UNKNOWN) & ~under).sum())
        counts["wrong"] += int((wrong & ~under).sum())
        counts["hidden wrong"] += int((wrong & under).sum())
    return counts


def choose_threshold(cases: list[Record], hidden_cost: float) -> tuple[float, dict[str, int]]:
    """The threshold with the least `cost` of its `errors` over cases."""
    logits = np.concatenate([case["logits"] for case in cases])
    best: tuple[float, float, dict[str, int]] | None = None
    for threshold in np.quantile(logits, np.linspace(0.0, 0.1, 201)):
        counts = errors(cases, threshold)
        spent = cost(counts, hidden_cost)
        if best is None or spent < best[0]:
            best = (spent, float(threshold), counts)
    assert best is not None
    return best[1], best[2]


def fit(inputs: tuple[str, ...], rows: np.ndarray, yes: np.ndarray, weight: np.ndarray,
        seed: int, start: Network | None) -> Network:
    """`train` from random weights, or on from `start` for `FINE_TUNE_EPOCHS` at
    `FINE_TUNE_RATE`."""
    if start is None:
        return train(inputs, rows, yes, weight, seed)
    return train(inputs, rows, yes, weight, seed, FINE_TUNE_EPOCHS, rate=FINE_TUNE_RATE,
                 start=start)


def train_trust(learning: list[Record], matcher: Network, seeds: list[int],
                report: Callable[[Network, str], Network],
                start: Network | None = None) -> Network:
    """The mean of trust networks trained, one per seed, on the learning cases as the reader
    ranks their classes (`reader_scores`; with several seeds, `report` judges each alone);
    from `start`'s weights if given."""
    evidences = [replace(r["evidence"], scores=reader_scores(matcher, r)) for r in learning]
    rows = np.concatenate([e.matrix() for e in evidences])
    right = np.concatenate([e.best == r["truth"] for e, r in zip(evidences, learning,
                                                                 strict=True)])
    under = np.concatenate([r["under"] for r in learning])
    passable = right & (np.concatenate([r["cover"] for r in learning]) < LABEL_COVER)
    del evidences
    weight = np.where(under & ~right, 10.0, 1.0).astype(np.float32)
    trusters = []
    for seed in seeds:
        trusters.append(fit(trust.INPUTS, rows, passable, weight, seed, start))
        if len(seeds) > 1:
            report(trusters[-1], f"trust seed {seed} alone")
    return Network.mean_of(trusters)


def _current(record: Record) -> bool:
    """Whether a kept reading has the evidence today's networks are trained on."""
    return "cover" in record and all(
        {f.name for f in fields(kind)} == set(vars(record[key]))
        for key, kind in (("pairs", match.PairEvidence), ("evidence", trust.HoleEvidence),
                          ("census", Census)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=4000, help="cases per seed")
    parser.add_argument("--seeds", type=int, nargs="*", default=[7, 8, 9],
                        help="seeds of rendered cases (none: path-traced cases only)")
    parser.add_argument("--cycles", type=Path, metavar="DIR",
                        help="also learn from the path-traced cases in DIR (render_cycles.py)")
    parser.add_argument("--cycles-below", type=int, default=10_000, metavar="N",
                        help="only the path-traced cases numbered below N (the rest: held out "
                             "for bench/vision_cycles.py --first N)")
    parser.add_argument("--cycles-leave-out", type=int, nargs=2, metavar=("FIRST", "END"),
                        help="nor the path-traced cases FIRST to END-1 (a fold to test on: "
                             "bench/vision_cycles.py --first FIRST --below END)")
    parser.add_argument("--cycles-jitter", type=int, default=0, metavar="K",
                        help="also read each path-traced case K times as other cameras take "
                             "it (vision.render.jitter)")
    parser.add_argument("--cycles-weight", type=int, default=1, metavar="W",
                        help="each path-traced case learnt from counts W times")
    parser.add_argument("--wide-drift", type=int, nargs="*", default=[9], metavar="SEED",
                        help="seeds whose reference light drifts farther (wider_drift)")
    parser.add_argument("--hand-seeds", type=int, nargs="*", default=[], metavar="SEED",
                        help="seeds whose cases all have hands or cards over the board")
    parser.add_argument("--shuffled-seeds", type=int, nargs="*", default=[], metavar="SEED",
                        help="seeds where every third case's seat colours are shuffled")
    parser.add_argument("--jitter-seeds", type=int, nargs="*", default=[], metavar="SEED",
                        help="seeds whose cases are taken through another camera drawn per case "
                             "(vision.render.jitter)")
    parser.add_argument("--relit-seeds", type=int, nargs="*", default=[], metavar="SEED",
                        help="seeds whose game frames are read after a lamp went off and the "
                             "light was relearnt (vision.render.relight)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--data", type=Path, help="raw readings: loaded if it exists, else kept")
    parser.add_argument("--hidden-cost", type=float, default=50.0)
    parser.add_argument("--out", type=Path, default=MODELS)
    keep = parser.add_mutually_exclusive_group()
    keep.add_argument("--keep-match", action="store_true",
                      help="keep the shipped match network, train the trust network only")
    keep.add_argument("--keep-trust", action="store_true",
                      help="keep the shipped trust network, train the match network only")
    parser.add_argument("--fine-tune", action="store_true",
                        help="train on from the shipped networks' weights (FINE_TUNE_EPOCHS at "
                             "FINE_TUNE_RATE) instead of from random ones")
    parser.add_argument("--calibration-seeds", type=int, nargs="*", default=[], metavar="SEED",
                        help="seeds whose cases are all held out (only judge, never learnt)")
    parser.add_argument("--match-seeds", type=int, nargs="+", metavar="SEED",
                        help="train a match network from each seed and ship their mean "
                             "(default: the first of --seeds)")
    parser.add_argument("--trust-seeds", type=int, nargs="+", metavar="SEED",
                        help="train a trust network from each seed and ship their mean "
                             "(default: the first of --seeds)")
    args = parser.parse_args()
    seeds_read = args.seeds + [s for s in args.calibration_seeds if s not in args.seeds]
    if 2024 in seeds_read:
        parser.error("seed 2024 is the benchmark's: train on other cases")
    records = pickle.loads(args.data.read_bytes()) if args.data and args.data.exists() else []
    if records and not _current(records[0]):
        parser.error(f"{args.data} holds readings of an older reader (other evidence): "
                     "delete it to render again")
    missing = [seed for seed in seeds_read if seed not in {r["seed"] for r in records}]
    if missing:
        with ProcessPoolExecutor(args.jobs) as pool:
            jobs = [(seed, range(j, args.cases, args.jobs), seed in args.wide_drift,
                     seed in args.hand_seeds, seed in args.shuffled_seeds,
                     seed in args.jitter_seeds, seed in args.relit_seeds)
                    for seed in missing for j in range(args.jobs)]
            for done, part in enumerate(pool.map(collect, *zip(*jobs, strict=True)), 1):
                records += part
                if args.data and done % args.jobs == 0:  # a seed is complete: keep it
                    _keep(records, args.data)
                    print(f"seed {jobs[done - 1][0]} read and kept in {args.data}", flush=True)
    records = [r for r in records if r["seed"] in seeds_read]
    if args.cycles:
        records += collect_cycles(args.cycles, args.cycles_below,
                                  range(*args.cycles_leave_out or (0, 0)), args.cycles_jitter)
    if not records:
        parser.error("no cases to learn from: name --seeds or --cycles")
    records.sort(key=lambda r: (r.get("renderer", "own"), r["seed"], r["case"]))
    calibrating = set(args.calibration_seeds)
    held_out: list[Record] = []
    learning: list[Record] = []
    for record in records:
        held = record["case"] % 5 == 0 or record["seed"] in calibrating
        plain_cycles = record.get("renderer") == "cycles" and not record.get("jittered")
        copies = args.cycles_weight if plain_cycles else 1
        (held_out if held else learning).extend([record] if held else [record] * copies)
    print(f"{len(records)} cases read ({len(learning)} to learn from, {len(held_out)} held out)"
          + (f"; each path-traced case learnt {args.cycles_weight} times"
             if args.cycles and args.cycles_weight > 1 else ""))

    if args.keep_match:
        matcher = Network.load(MODELS / "hole_match.npz", match.INPUTS)
    else:
        rows = np.concatenate([r["pairs"].matrix() for r in learning])
        yes = np.concatenate([(np.arange(len(r["pairs"].means))[:, None] == r["truth"][None])
                              .ravel() for r in learning])
        seeds = args.match_seeds or args.seeds[:1] or [1]
        start = Network.load(MODELS / "hole_match.npz", match.INPUTS) if args.fine_tune else None
        matcher = Network.mean_of([fit(match.INPUTS, rows, yes, np.ones(len(rows), np.float32),
                                       seed, start) for seed in seeds])
        del rows, yes
    for name, part in (("learning", learning), ("held out", held_out)):
        gauss = net = total = 0
        for r in part:
            visible = ~r["under"]
            gauss += (r["evidence"].distance.argmin(axis=0) == r["truth"])[visible].sum()
            best = reader_scores(matcher, r).argmax(axis=0)
            net += (best == r["truth"])[visible].sum()
            total += visible.sum()
        print(f"best class wrong on visible holes, {name}: Gaussian {total - gauss}, "
              f"match network {total - net} of {total}")

    held_rows = []
    for record in held_out:
        record["scores"] = reader_scores(matcher, record)
        held_rows.append(replace(record["evidence"], scores=record["scores"]).matrix())
    visible = sum(int((~r["under"]).sum()) for r in held_out)
    hidden = sum(int(r["under"].sum()) for r in held_out)

    def report(truster: Network, name: str, threshold: float | None = None) -> Network:
        """The network with the given threshold, or else the one of least held-out cost,
        and its held-out figures printed."""
        for record, held_row in zip(held_out, held_rows, strict=True):
            record["logits"] = truster.logits(held_row)
        if threshold is None:
            threshold, counts = choose_threshold(held_out, args.hidden_cost)
        else:
            counts = errors(held_out, threshold)
        print(f"held out, {name}: threshold {threshold:.3f}: {counts} of {visible} visible, "
              f"{hidden} under hands (cost {cost(counts, args.hidden_cost):g})", flush=True)
        return replace(truster, threshold=threshold)

    if args.keep_trust:
        shipped = Network.load(MODELS / "hole_trust.npz", trust.INPUTS)
        truster = report(shipped, "shipped trust network", shipped.threshold)
    else:
        seeds = args.trust_seeds or args.seeds[:1] or [1]
        name = "trust seed" + ("s " if len(seeds) > 1 else " ") + " ".join(map(str, seeds))
        start = Network.load(MODELS / "hole_trust.npz", trust.INPUTS) if args.fine_tune else None
        truster = report(train_trust(learning, matcher, seeds, report, start), name)
    matcher.save(args.out / "hole_match.npz")
    truster.save(args.out / "hole_trust.npz")
    print(f"wrote {args.out / 'hole_match.npz'} and {args.out / 'hole_trust.npz'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
