"""The path-traced renderer really renders: a tiny case through `bench/render_cycles.py`,
its frames and truth file, resuming, and the evaluator reading the folder."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from hw import load_profile
from vision.render.cycles import CyclesCase, draw_case, stands_on, start_occupancy

REPO_ROOT = Path(__file__).resolve().parents[2]


def bench(name: str):
    """A bench script as a module (as ``bench_<name>``: ``bench/vision.py`` is no `vision`)."""
    module_name = f"bench_{name}"
    spec = importlib.util.spec_from_file_location(module_name,
                                                  REPO_ROOT / "bench" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def test_case_round_trips_through_json():
    profile = load_profile("brandi-6")
    case = draw_case(profile, np.random.default_rng(3), 3, shuffled=True, hands=True,
                     things=True, lamp_change=True)
    again = CyclesCase.from_json(json.loads(json.dumps(case.to_json())))
    assert again == case
    assert case.colours(profile) != profile.default_colors
    assert case.hands and case.things and case.game_lamps


def test_a_mug_stands_on_the_holes_under_it():
    profile = load_profile("brandi-4")
    case = draw_case(profile, np.random.default_rng(5), 5, things=True)
    thing = case.things[0]
    assert stands_on(thing, thing.x, thing.y)
    assert not stands_on(thing, thing.x + 200, thing.y + 200)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    # ./test installs bpy (docs/vision-cycles.md): without it this fails, it does not skip.
    import bpy  # noqa: F401
    out = tmp_path_factory.mktemp("cycles")
    render = bench("render_cycles")
    # Case 4 of the draw has hands (every fifth case); case 5 is the 6-seat board.
    args = ["--out", str(out), "--first", "4", "--cases", "2", "--samples", "2",
            "--resolution", "160x120", "--no-denoise", "--threads", "2"]
    assert render.main(args) == 0
    return out, render, args


def test_frames_and_truth_are_written(rendered):
    out, _, _ = rendered
    for index, board in ((4, "brandi-4"), (5, "brandi-6")):
        name = f"{index:04d}"
        start = cv2.imread(str(out / f"{name}-start.png"))
        game = cv2.imread(str(out / f"{name}-game.png"))
        assert start.shape == game.shape == (120, 160, 3)
        assert start.std() > 5 and game.std() > 5  # a picture, not a blank
        truth = json.loads((out / f"{name}.json").read_text())
        profile = load_profile(board)
        assert truth["board"] == board
        assert set(truth["game"]) == set(truth["start"]) == {h.id for h in profile.holes}
        colours = tuple(truth["seat_colours"])
        assert truth["start"] == start_occupancy(profile, colours)
        marbles = sum(colour is not None for colour in truth["game"].values())
        assert marbles <= 4 * profile.seats
        assert set(truth["occluded"]) <= set(truth["touched"]) == set(truth["cover"])
        homography = np.array(truth["homography"])
        centre = homography @ [0.0, 0.0, 1.0]
        assert 0 < centre[0] / centre[2] < 160 and 0 < centre[1] / centre[2] < 120
        assert truth["case"]["width"] == 160 and truth["case"]["samples"] == 2
    hands = json.loads((out / "0004.json").read_text())
    assert hands["case"]["hands"] and hands["cover"]  # the hand covers some holes
    assert not list(out.glob(".*"))  # no temporary files left


def test_finished_cases_are_skipped(rendered):
    out, render, args = rendered
    before = {path.name: path.stat().st_mtime_ns for path in out.iterdir()}
    assert render.main(args) == 0
    assert {path.name: path.stat().st_mtime_ns for path in out.iterdir()} == before


def test_the_evaluator_reads_the_folder(rendered, capsys):
    out, _, _ = rendered
    evaluator = bench("vision_cycles")
    tally, cases = evaluator.evaluate(out)
    assert cases == 2 and tally.cases == 2
    assert tally.boards + tally.failures == 2
    evaluator.report(tally, out, breakdown=True, show_errors=3)
    printed = capsys.readouterr().out
    assert "per-hole accuracy" in printed
    assert tally.boards <= len(tally.fit_px) <= tally.cases  # each reference fit vs the truth
    assert not tally.fit_px or "reference fit against the true homography" in printed
    naive, _ = evaluator.evaluate(out, naive=True)  # the baseline reads the same folder
    assert naive.boards + naive.failures == 2 and naive.said_unknown == 0


def test_the_evaluator_reads_the_folder_as_jpeg(rendered):
    out, _, _ = rendered
    evaluator = bench("vision_cycles")
    frame = cv2.imread(str(next(out.glob("*-game.png"))))
    blocky = evaluator.compressed(frame, 50)
    assert blocky.shape == frame.shape and not np.array_equal(blocky, frame)
    tally, cases = evaluator.evaluate(out, jpeg=50)
    assert cases == 2 and tally.boards + tally.failures == 2


def test_the_occlusion_count_reads_the_folder(rendered, capsys):
    out, _, _ = rendered
    assert bench("occlusion_cycles").main(["--frames", str(out)]) == 0
    total = capsys.readouterr().out.splitlines()[-1]
    assert total.startswith("cases with a covered hole: ") and "not read: " in total


def test_the_evaluator_reads_a_fold_with_other_networks(rendered, tmp_path):
    out, _, _ = rendered
    shipped = REPO_ROOT / "vision" / "reader" / "models"
    for name in ("hole_match.npz", "hole_trust.npz"):
        (tmp_path / name).write_bytes((shipped / name).read_bytes())
    tally, cases = bench("vision_cycles").evaluate(out, first=5, below=6, models=tmp_path)
    assert cases == 1 and tally.boards + tally.failures == 1


def test_leave_one_renderer_out_reuses_networks_already_trained(tmp_path, monkeypatch):
    renderers = bench("vision_renderers")
    folder = tmp_path / "both-match-without-0"
    folder.mkdir()
    for name in ("hole_match.npz", "hole_trust.npz"):
        (folder / name).write_bytes(b"")

    def no_training(*args, **kwargs):
        raise AssertionError("networks already there were trained again")

    monkeypatch.setattr(renderers.subprocess, "run", no_training)
    assert renderers.trained(folder, tmp_path, 45, (0, 10), None, 20, reuse=True) == folder
    with pytest.raises(AssertionError):  # without reuse, or with a network missing, it trains
        renderers.trained(folder, tmp_path, 45, (0, 10), None, 20)
    (folder / "hole_trust.npz").unlink()
    with pytest.raises(AssertionError):
        renderers.trained(folder, tmp_path, 45, (0, 10), None, 20, reuse=True)


def test_the_benchmark_reads_both_renderers_draws(rendered, capsys):
    out, _, _ = rendered
    assert bench("vision").main(["--cases", "2", "--path-traced", str(out),
                                 "--path-traced-first", "5"]) == 0
    printed = capsys.readouterr().out
    assert "cases 2 (brandi-4 and brandi-6 alternating), seed 2024" in printed
    assert f"cases 1 in {out}" in printed
    with pytest.raises(SystemExit):
        bench("vision").main(["--path-traced", str(out / "missing")])
