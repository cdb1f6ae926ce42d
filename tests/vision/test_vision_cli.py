"""`dog-companion vision read | watch | markers`: the JSON contract, exit codes, files."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.dom.minidom

import cv2
import numpy as np
import pytest

from companion.cli import main
from tests.vision.conftest import REPO_ROOT, rendered_start, some_position
from vision.render import RenderConditions, render, start_occupancy


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    """A reference photo and a mid-game photo of brandi-4 as files."""
    from hw import load_profile

    folder = tmp_path_factory.mktemp("photos")
    profile = load_profile("brandi-4")
    occupancy = some_position(profile, seed=4)
    cv2.imwrite(str(folder / "start.png"), rendered_start("brandi-4").image)
    frame = render(profile, occupancy, RenderConditions(light_level=0.8), seed=9)
    cv2.imwrite(str(folder / "game.jpg"), frame.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return folder, occupancy


def test_read_prints_every_hole_and_exits_0(photos, capsys):
    folder, occupancy = photos
    code = main(["vision", "read", str(folder / "game.jpg"), "--board", "brandi-4",
                 "--reference", str(folder / "start.png")])
    out = capsys.readouterr().out
    assert code == 0
    result = json.loads(out)
    assert list(result) == ["holes", "occluded", "confidence"]
    assert result["holes"] == occupancy
    assert result["occluded"] is False and 0.0 <= result["confidence"] <= 1.0


def test_read_accepts_a_profile_path_and_works_without_reference(photos, capsys):
    folder, occupancy = photos
    path = REPO_ROOT / "hw" / "boards" / "brandi-4.json"
    assert main(["vision", "read", str(folder / "game.jpg"), "--board", str(path)]) == 0
    holes = json.loads(capsys.readouterr().out)["holes"]
    assert set(holes) == set(occupancy)
    assert set(holes.values()) <= {None, "?", "red", "yellow", "green", "blue"}


def test_debug_writes_a_png_of_the_reading(photos, tmp_path, capsys):
    folder, _ = photos
    debug = tmp_path / "debug.png"
    assert main(["vision", "read", str(folder / "game.jpg"), "--board", "brandi-4",
                 "--reference", str(folder / "start.png"), "--debug", str(debug)]) == 0
    image = cv2.imread(str(debug))
    assert image is not None and image.shape == (960, 1280, 3)


@pytest.mark.parametrize(("args", "message"), [
    (["missing.png", "--board", "brandi-4"], "missing.png"),
    (["{game}", "--board", "brandi-9"], "brandi-9"),
    (["{game}", "--board", "brandi-4", "--reference", "nope.png"], "nope.png"),
    (["{blank}", "--board", "brandi-4"], "markers"),
    (["{game}", "--board", "brandi-4", "--reference", "{blank}"], "--reference"),
    (["{game}", "--board", "brandi-4", "--seats", "red,purple"], "'purple' is no seat"),
    (["{game}", "--board", "brandi-4", "--seats", "4"], "'4' is no seat"),
    (["{game}", "--board", "brandi-4", "--seats", "red,0"], "named twice"),
    (["{game}", "--board", "brandi-4", "--colors", "red,red"], "--colors red,red: red, red: "
                                                               "a colour is named twice"),
    (["{game}", "--board", "brandi-4", "--colors", "a,b,c,d,e"], "5 colours for the 4 seats"),
    (["{game}", "--board", "brandi-4", "--seats", "0", "--colors", "red,blue"],
     "seat 1 has a colour but does not play"),
])
def test_bad_input_is_one_line_on_stderr_and_exit_2(photos, tmp_path, capsys, args, message):
    folder, _ = photos
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, np.uint8))
    args = [a.format(game=folder / "game.jpg", blank=blank) for a in args]
    assert main(["vision", "read", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1 and message in captured.err


def test_read_with_the_seats_told_by_colour_or_number(photos, capsys):
    folder, occupancy = photos
    for seats in ("red,yellow,green,blue", "0, 1,2,3"):
        assert main(["vision", "read", str(folder / "game.jpg"), "--board", "brandi-4",
                     "--reference", str(folder / "start.png"), "--seats", seats]) == 0
        assert json.loads(capsys.readouterr().out)["holes"] == occupancy


def test_read_with_the_colours_told_per_seat(photos, capsys):
    folder, occupancy = photos
    assert main(["vision", "read", str(folder / "game.jpg"), "--board", "brandi-4",
                 "--reference", str(folder / "start.png"), "--colors",
                 "Crimson,-,lime,navy"]) == 0
    holes = json.loads(capsys.readouterr().out)["holes"]
    renamed = {"red": "crimson", "green": "lime", "blue": "navy"}
    for hole, truth in occupancy.items():
        if truth != "yellow":  # seat 1 plays no game: its marbles are no game marbles
            assert holes[hole] == renamed.get(truth, truth)


def test_warnings_about_the_reference_go_to_stderr(tmp_path, capsys):
    from hw import load_profile

    profile = load_profile("brandi-6")
    bright = RenderConditions(material="aluminium", light_level=1.3)
    start = render(profile, start_occupancy(profile), bright, seed=1).image
    cv2.imwrite(str(tmp_path / "start.png"), start)
    code = main(["vision", "read", str(tmp_path / "start.png"), "--board", "brandi-6",
                 "--reference", str(tmp_path / "start.png")])
    captured = capsys.readouterr()
    assert code == 0 and set(json.loads(captured.out)) == {"holes", "occluded", "confidence"}
    warnings = captured.err.splitlines()
    assert len(warnings) == 2 and all(line.startswith("warning: --reference ") for line in warnings)
    assert "the white kennel is overexposed" in warnings[0]


def test_a_frame_unlike_a_lens_reference_is_one_line_and_exit_2(tmp_path, capsys):
    from hw import load_profile

    profile = load_profile("brandi-4")
    wide = RenderConditions(lens_k1=-0.1)
    cv2.imwrite(str(tmp_path / "start.png"),
                render(profile, start_occupancy(profile), wide, seed=1).image)
    cv2.imwrite(str(tmp_path / "game.png"), render(
        profile, start_occupancy(profile), RenderConditions(lens_k1=-0.1, width=1640,
                                                            height=1232), seed=2).image)
    assert main(["vision", "read", str(tmp_path / "game.png"), "--board", "brandi-4",
                 "--reference", str(tmp_path / "start.png")]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "1640x1232 px but the reference 1280x960" in error


def test_watch_prints_one_line_per_stable_reading(photos, tmp_path, capsys):
    folder, occupancy = photos
    frames = tmp_path / "frames"
    frames.mkdir()
    for index in range(4):
        (frames / f"{index}.jpg").write_bytes((folder / "game.jpg").read_bytes())
    assert main(["vision", "watch", str(frames), "--board", "brandi-4",
                 "--reference", str(folder / "start.png"), "--stable-ms", "300"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["holes"] == occupancy


def test_watch_with_an_unknown_source_exits_2(capsys):
    assert main(["vision", "watch", "nowhere/at/all", "--board", "brandi-4"]) == 2
    assert "nowhere/at/all" in capsys.readouterr().err


def test_markers_writes_an_svg_sheet(tmp_path, capsys):
    out = tmp_path / "sheet.svg"
    assert main(["vision", "markers", "--board", "brandi-6", "--out", str(out)]) == 0
    assert json.loads(capsys.readouterr().out) == {"pages": [str(out)]}
    document = xml.dom.minidom.parse(str(out))
    assert document.documentElement.getAttribute("width") == "210.0mm"


def test_importing_the_cli_loads_no_opencv():
    code = "import sys, vision.cli; print('cv2' in sys.modules, 'numpy' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=REPO_ROOT, check=True)
    assert result.stdout.split() == ["False", "False"]
