"""The reader's learned parts: shipped networks, their inputs, raw reading, retraining."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import cv2
import numpy as np
import pytest

from tests.vision.conftest import REPO_ROOT, rendered_start, some_position
from vision.reader import match, train, trust
from vision.reader.board_reader import BoardReader, Learned
from vision.reader.network import MODELS, Network
from vision.render import OCCLUDED_SHARE, RenderConditions, render


def test_shipped_networks_take_the_readers_inputs():
    learned = Learned.shipped()
    assert learned.match is not None and learned.match.inputs == match.INPUTS
    assert learned.trust is not None and learned.trust.inputs == trust.INPUTS


def test_a_network_trained_on_other_inputs_is_refused(tmp_path):
    network = Network.load(MODELS / "hole_trust.npz", trust.INPUTS)
    network.save(tmp_path / "trust.npz")
    with pytest.raises(ValueError, match="trained on inputs"):
        Network.load(tmp_path / "trust.npz", trust.INPUTS[:-1])


def test_saved_network_gives_the_same_logits(tmp_path):
    rng = np.random.default_rng(1)
    network = Network(("a", "b"), np.zeros(2, np.float32), np.ones(2, np.float32),
                      ((rng.normal(size=(2, 4)).astype(np.float32), np.zeros(4, np.float32)),
                       (rng.normal(size=(4, 1)).astype(np.float32), np.ones(1, np.float32))),
                      threshold=0.5)
    network.save(tmp_path / "n.npz")
    loaded = Network.load(tmp_path / "n.npz", ("a", "b"))
    rows = rng.normal(size=(5, 2)).astype(np.float32)
    assert np.allclose(loaded.logits(rows), network.logits(rows))
    assert loaded.threshold == 0.5


def test_mean_of_networks_gives_their_mean_logit(tmp_path):
    rng = np.random.default_rng(2)

    def random_network() -> Network:
        shapes = ((3, 5), (5, 5), (5, 1))
        layers = tuple((rng.normal(size=s).astype(np.float32),
                        rng.normal(size=s[1]).astype(np.float32)) for s in shapes)
        return Network(("a", "b", "c"), rng.normal(size=3).astype(np.float32),
                       rng.uniform(0.5, 2, 3).astype(np.float32), layers)

    members = [random_network() for _ in range(3)]
    Network.mean_of(members, threshold=0.7).save(tmp_path / "mean.npz")
    mean = Network.load(tmp_path / "mean.npz", ("a", "b", "c"))
    rows = rng.normal(size=(20, 3)).astype(np.float32)
    expected = np.mean([member.logits(rows) for member in members], axis=0)
    assert np.allclose(mean.logits(rows), expected, atol=1e-5) and mean.threshold == 0.7


def test_evidence_rows_match_the_input_names(brandi6):
    occupancy = some_position(brandi6, seed=4)
    frame = render(brandi6, occupancy, RenderConditions(hands=1), seed=9)
    reading = BoardReader(brandi6, rendered_start("brandi-6").image).read(frame.image)
    assert reading.pairs is not None and reading.evidence is not None
    classes = len(reading.pairs.means)
    assert reading.pairs.matrix().shape == (classes * len(occupancy), len(match.INPUTS))
    assert reading.evidence.matrix().shape == (len(occupancy), len(trust.INPUTS))
    assert np.isfinite(reading.evidence.matrix()).all()


def test_raw_reading_reports_every_holes_best_class(brandi4):
    occupancy = some_position(brandi4, seed=2)
    frame = render(brandi4, occupancy, RenderConditions(hands=2), seed=3)
    raw = BoardReader(brandi4, rendered_start("brandi-4").image, Learned(None, None))
    reading = raw.read(frame.image)
    assert "?" not in reading.holes.values()
    assert tuple(reading.holes.values()) == reading.best


@pytest.mark.slow
def test_training_runs_end_to_end_and_writes_loadable_networks(tmp_path):
    command = [sys.executable, "-m", "vision.reader.train", "--cases", "10", "--jobs", "1",
               "--data", str(tmp_path / "data.pkl"), "--seeds", "9"]
    result = subprocess.run([*command, "--out", str(tmp_path / "both"),
                             "--match-seeds", "1", "2"],
                            capture_output=True, text=True, timeout=300, cwd=REPO_ROOT)
    assert result.returncode == 0, result.stderr
    assert "held out, trust seed 9: threshold" in result.stdout
    assert f"seed 9 read and kept in {tmp_path / 'data.pkl'}" in result.stdout
    assert not (tmp_path / "data.pkl.partial").exists()  # written whole, then put in place
    matcher = Network.load(tmp_path / "both" / "hole_match.npz", match.INPUTS)
    assert matcher.layers[0][0].shape[1] == 64  # two of 32 units side by side
    Network.load(tmp_path / "both" / "hole_trust.npz", trust.INPUTS)
    # Again from the kept readings plus a seed of cases with hands, all held out to choose the
    # threshold on: the shipped match network, trust from two seeds.
    result = subprocess.run([*command, "--calibration-seeds", "12", "--hand-seeds", "12",
                             "--out", str(tmp_path / "trust"), "--keep-match",
                             "--trust-seeds", "1", "2"],
                            capture_output=True, text=True, timeout=300, cwd=REPO_ROOT)
    assert result.returncode == 0, result.stderr
    assert "20 cases read (8 to learn from, 12 held out)" in result.stdout
    assert "seed 12 read and kept" in result.stdout and "seed 9 read" not in result.stdout
    assert all(f"held out, {name}: threshold" in result.stdout
               for name in ("trust seed 1 alone", "trust seed 2 alone", "trust seeds 1 2"))
    records = pickle.loads((tmp_path / "data.pkl").read_bytes())
    assert all(record["under"].any() for record in records if record["seed"] == 12)
    assert all(np.array_equal(record["cover"] >= OCCLUDED_SHARE, record["under"])
               for record in records)
    kept = Network.load(tmp_path / "trust" / "hole_match.npz", match.INPUTS)
    shipped = Network.load(MODELS / "hole_match.npz", match.INPUTS)
    for (kept_w, kept_b), (shipped_w, shipped_b) in zip(kept.layers, shipped.layers, strict=True):
        assert np.array_equal(kept_w, shipped_w) and np.array_equal(kept_b, shipped_b)
    Network.load(tmp_path / "trust" / "hole_trust.npz", trust.INPUTS)
    # The match network only: the shipped trust network is kept with its threshold.
    result = subprocess.run([*command, "--out", str(tmp_path / "match"), "--keep-trust"],
                            capture_output=True, text=True, timeout=300, cwd=REPO_ROOT)
    assert result.returncode == 0, result.stderr
    shipped = Network.load(MODELS / "hole_trust.npz", trust.INPUTS)
    assert f"held out, shipped trust network: threshold {shipped.threshold:.3f}" in result.stdout
    kept = Network.load(tmp_path / "match" / "hole_trust.npz", trust.INPUTS)
    assert kept.threshold == shipped.threshold
    for (kept_w, _), (shipped_w, _) in zip(kept.layers, shipped.layers, strict=True):
        assert np.array_equal(kept_w, shipped_w)
    # Readings kept by an older reader (an evidence field missing) are refused, not misread.
    object.__delattr__(records[0]["evidence"], "levels")
    (tmp_path / "data.pkl").write_bytes(pickle.dumps(records))
    result = subprocess.run([*command, "--out", str(tmp_path / "stale")], capture_output=True,
                            text=True, timeout=300, cwd=REPO_ROOT)
    assert result.returncode == 2 and "older reader" in result.stderr


def test_fine_tuning_starts_from_the_given_networks_function():
    rng = np.random.default_rng(3)
    start = Network.load(MODELS / "hole_match.npz", match.INPUTS)
    rows = rng.normal(size=(50, len(match.INPUTS))).astype(np.float32) * 3 + 1
    untouched = train.train(match.INPUTS, rows, np.zeros(50, bool), np.ones(50, np.float32),
                            seed=1, epochs=0, start=start)
    assert np.allclose(untouched.logits(rows), start.logits(rows), rtol=1e-4, atol=1e-3)


def write_path_traced_case(folder, profile, index: int) -> None:
    """A case in `bench/render_cycles.py`'s layout, from the own renderer."""
    occupancy = some_position(profile, seed=index)
    frame = render(profile, occupancy, RenderConditions(hands=1), seed=index)
    name = f"{index:04d}"
    cv2.imwrite(str(folder / f"{name}-start.png"), rendered_start(profile.name).image)
    cv2.imwrite(str(folder / f"{name}-game.png"), frame.image)
    (folder / f"{name}.json").write_text(json.dumps({
        "index": index, "draw_seed": 2027, "board": profile.name, "game": occupancy,
        "occluded": sorted(frame.occluded), "cover": frame.cover}))


def test_path_traced_cases_read_as_training_records(tmp_path, brandi4):
    write_path_traced_case(tmp_path, brandi4, 5)
    (record,) = train.collect_cycles(tmp_path, below=6)
    assert record["renderer"] == "cycles" and record["seed"] == 2027 and record["case"] == 5
    assert len(record["truth"]) == len(brandi4.holes) == len(record["under"])
    assert (record["truth"] >= 0).all()  # every hole: empty or a kennel's colour
    assert train.collect_cycles(tmp_path, below=5) == []


def test_each_path_traced_case_is_read_again_through_other_cameras(tmp_path, brandi4):
    """`--cycles-jitter K`: the plain reading and K more through drawn cameras, all with the
    case's truth (held out or learnt from together), each camera its own."""
    write_path_traced_case(tmp_path, brandi4, 5)
    plain, *others = train.collect_cycles(tmp_path, below=6, jitter=2)
    assert len(others) == 2 and not plain["jittered"] and all(r["jittered"] for r in others)
    assert all(r["case"] == 5 and np.array_equal(r["truth"], plain["truth"]) for r in others)
    looks = [r["evidence"].centre_delta for r in (plain, *others)]
    assert not np.allclose(looks[1], looks[0]) and not np.allclose(looks[2], looks[1])


@pytest.mark.slow
def test_fine_tuning_on_path_traced_cases_only(tmp_path, brandi4):
    for index in (0, 1):  # case 0 is held out, case 1 learnt from
        write_path_traced_case(tmp_path, brandi4, index)
    result = subprocess.run(
        [sys.executable, "-m", "vision.reader.train", "--seeds", "--cycles", str(tmp_path),
         "--cycles-weight", "3", "--fine-tune", "--out", str(tmp_path / "tuned")],
        capture_output=True, text=True, timeout=300, cwd=REPO_ROOT)
    assert result.returncode == 0, result.stderr
    assert ("2 cases read (3 to learn from, 1 held out); each path-traced case learnt 3 times"
            in result.stdout)
    Network.load(tmp_path / "tuned" / "hole_match.npz", match.INPUTS)
    Network.load(tmp_path / "tuned" / "hole_trust.npz", trust.INPUTS)


def test_shuffled_seeds_deal_every_third_cases_colours_in_another_order():
    # A class is a seat's colour: with the colours dealt otherwise, its learnt look changes.
    (plain,) = train.collect(9, range(2, 3))
    (shuffled,) = train.collect(9, range(2, 3), shuffled=True)
    assert not np.allclose(plain["pairs"].means, shuffled["pairs"].means, atol=1.0)
    (first, _) = train.collect(9, range(0, 2), shuffled=True)  # cases 0 and 1: default colours
    assert np.allclose(first["pairs"].means, train.collect(9, range(0, 1))[0]["pairs"].means)


def test_jitter_seeds_read_each_case_through_another_camera():
    # The same case and truth, both frames taken through a drawn camera: another look.
    (plain,) = train.collect(9, range(2, 3))
    (jittered,) = train.collect(9, range(2, 3), jitter=True)
    assert jittered["jittered"] and not plain["jittered"]
    assert np.array_equal(plain["truth"], jittered["truth"])
    assert not np.allclose(plain["evidence"].centre_delta, jittered["evidence"].centre_delta)


def test_ruled_out_classes_are_recovered_from_a_raw_reading(monkeypatch):
    # Training ranks the classes as the reader does: the match network's scores less the
    # classes the hue and changed-hole checks ruled out, which a raw reading's scores show.
    from vision.reader import board_reader
    apply, seen = board_reader.without_ruled_out, []

    def keep(scores, out):
        seen.append(out.copy())
        return apply(scores, out)

    monkeypatch.setattr(board_reader, "without_ruled_out", keep)
    records = train.collect(9, range(0, 4), hands=True)
    assert len(seen) == len(records) == 4
    ruled = 0
    for record, out in zip(records, seen, strict=True):
        recovered = train.ruled_out_of(record["evidence"])
        assert (recovered[1:] == out[1:]).all()
        gauss_best = record["evidence"].distance.argmin(axis=0)
        clear = ~(out[gauss_best, np.arange(gauss_best.size)] & (gauss_best > 0))
        assert (recovered[0][clear] == out[0][clear]).all()
        ruled += int(out.sum())
    assert ruled > 0


def test_relit_seeds_read_the_game_after_relearning_the_light_of_a_lamp_switched_off():
    # The same case and truth, the game frame darker over part of the board and read after
    # the reader relearnt that light from another position's frame in it.
    (plain,) = train.collect(9, range(2, 3))
    (relit,) = train.collect(9, range(2, 3), relit=True)
    assert relit["relit"] and not plain["relit"]
    assert np.array_equal(plain["truth"], relit["truth"])
    assert not np.allclose(plain["evidence"].centre_delta, relit["evidence"].centre_delta)
