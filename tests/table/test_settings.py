"""Settings (LED brightness, night mode, settle time), the exchange reminder only with
partners, the reader's warnings as codes, and the camera image."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from companion.table import Table, TableError
from companion.table.camera import CameraLoop
from companion.table.warning_codes import warning_codes
from firmware_bridge.animator import Animator
from firmware_bridge.backends.sim import SimStrip
from firmware_bridge.config import LedConfig
from hw import BoardProfile
from tests.table.conftest import setup_request
from tests.table.test_camera_loop import SIZE, Feed, wait_for
from vision.reader.warning import board_overexposed, kennel_overexposed
from vision.sources import SimulatedSource


def strip_for(profile: BoardProfile) -> SimStrip:
    return SimStrip(LedConfig(backend="sim", count=profile.led_count))


def test_settings_change_the_strip_and_survive_a_restart(profile4: BoardProfile,
                                                         tmp_path: Path) -> None:
    strip = strip_for(profile4)
    table = Table(profile4, state_dir=tmp_path, leds=Animator(strip), settle_s=1.5)
    assert table.state()["settings"] == {"brightness": 1.0, "night": False, "settle_s": 1.5}
    version = table.state()["version"]
    state = table.change_settings({"brightness": 0.4, "night": True, "settle_s": 3})
    assert state["settings"] == {"brightness": 0.4, "night": True, "settle_s": 3.0}
    assert state["version"] == version + 1
    assert (strip.brightness, strip.night, table.settle_s) == (0.4, True, 3.0)
    table.close()
    again_strip = strip_for(profile4)
    again = Table(profile4, state_dir=tmp_path, leds=Animator(again_strip), settle_s=1.5)
    assert again.state()["settings"] == {"brightness": 0.4, "night": True, "settle_s": 3.0}
    assert (again_strip.brightness, again_strip.night, again.settle_s) == (0.4, True, 3.0)
    again.change_settings({"night": False})
    assert json.loads((tmp_path / "settings.json").read_text())["night"] is False


def test_a_changed_brightness_redraws_a_still_scene(profile4: BoardProfile,
                                                    tmp_path: Path) -> None:
    strip = strip_for(profile4)
    animator = Animator(strip)
    table = Table(profile4, state_dir=tmp_path, leds=animator)
    table.setup(setup_request())
    animator.step(0.0)
    bright = max(max(pixel) for pixel in strip.pixels)
    table.change_settings({"brightness": 0.2})
    animator.step(0.0)
    assert 0 < max(max(pixel) for pixel in strip.pixels) < bright


@pytest.mark.parametrize(("changes", "words"), [
    ({}, "give at least one of brightness, night, settle_s"),
    ({"brightness": 1.5}, "'brightness' must be between 0 and 1"),
    ({"brightness": "high"}, "'brightness' must be a number"),
    ({"brightness": True}, "'brightness' must be a number"),
    ({"night": 1}, "'night' must be true or false"),
    ({"settle_s": 0}, "'settle_s' must be between 0.2 and 10 seconds"),
    ({"settle_s": float("nan")}, "'settle_s' must be a number"),
    ({"colour": "red"}, "unknown key 'colour'"),
])
def test_bad_settings_are_refused_naming_the_key(profile4: BoardProfile, tmp_path: Path,
                                                 changes: dict[str, object], words: str) -> None:
    table = Table(profile4, state_dir=tmp_path)
    before = table.state()
    with pytest.raises(TableError, match=words) as refused:
        table.change_settings({"night": True, **changes} if changes else changes)
    assert refused.value.status == 400
    assert table.state() == before and not (tmp_path / "settings.json").exists()


def test_a_damaged_settings_file_gives_the_defaults(profile4: BoardProfile,
                                                    tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text('{"brightness": 7, "night": true}')
    assert Table(profile4, state_dir=tmp_path).state()["settings"]["night"] is False
    (tmp_path / "settings.json").write_text("not json")
    assert Table(profile4, state_dir=tmp_path, settle_s=2.0).settle_s == 2.0


def test_the_exchange_reminder_is_only_for_partners(profile4: BoardProfile,
                                                    profile6: BoardProfile) -> None:
    teams = Table(profile4)
    assert teams.setup(setup_request(4))["exchange"] is True
    assert teams.end_exchange()["exchange"] is False
    with pytest.raises(TableError, match="no partner exchange") as refused:
        teams.end_exchange()
    assert refused.value.status == 409
    for count in (2, 3, 5):
        alone = Table(profile6 if count == 5 else profile4)
        state = alone.setup(setup_request(count, board=6 if count == 5 else 4,
                                          rules="schmidt"))
        assert state["exchange"] is False and state["teams"] == []
        with pytest.raises(TableError, match="only a team game"):
            alone.end_exchange()
        assert alone.announce("A")["announced"] is not None


def test_reader_warnings_become_codes() -> None:
    texts = [kennel_overexposed("white"), board_overexposed(0.35), "something new",
             "the red kennel is overexposed: a sentence without its code"]
    assert warning_codes(texts) == [
        {"code": "kennel_overexposed", "args": {"color": "white"}},
        {"code": "board_overexposed", "args": {"share": "35%"}},
        {"code": "reader_warning", "args": {"text": "something new"}},
        {"code": "reader_warning",
         "args": {"text": "the red kennel is overexposed: a sentence without its code"}}]


def test_the_table_gives_the_warnings_codes(profile4: BoardProfile) -> None:
    table = Table(profile4)
    warning = kennel_overexposed("red")
    table.camera_warnings([warning], reference=True)
    camera = table.state()["camera"]
    assert camera["warning_codes"] == [{"code": "kennel_overexposed",
                                        "args": {"color": "red"}}]
    assert camera["warnings"] == [warning.text]
    assert json.loads(json.dumps(camera["warnings"])) == [warning.text]


def test_no_camera_image_without_a_camera(profile4: BoardProfile) -> None:
    with pytest.raises(TableError, match="no camera") as refused:
        Table(profile4).camera_image(overlay=True)
    assert refused.value.status == 404


def test_the_camera_image_with_and_without_the_reading(profile4: BoardProfile,
                                                       tmp_path: Path) -> None:
    import cv2

    table = Table(profile4, state_dir=tmp_path)
    table.setup(setup_request())
    source = SimulatedSource(timeout=30)
    feed = Feed(profile4, source)
    with CameraLoop(table, source, simulated=True) as loop:
        with pytest.raises(TableError, match="not delivered a frame") as refused:
            table.camera_image()
        assert refused.value.status == 409
        feed.loop = loop
        feed.show(table.believed_holes(), frames=1)
        plain = cv2.imdecode(np.frombuffer(table.camera_image(), np.uint8), cv2.IMREAD_COLOR)
        drawn = cv2.imdecode(np.frombuffer(table.camera_image(overlay=True), np.uint8),
                             cv2.IMREAD_COLOR)
        assert plain.shape == drawn.shape == (SIZE.height, SIZE.width, 3)
        marker_green = (drawn[:, :, 1] > 200) & (drawn[:, :, 0] < 60) & (drawn[:, :, 2] < 60)
        plain_green = (plain[:, :, 1] > 200) & (plain[:, :, 0] < 60) & (plain[:, :, 2] < 60)
        assert marker_green.sum() > plain_green.sum() + 100   # the markers outlined in green
        source.push(np.zeros((SIZE.height, SIZE.width, 3), np.uint8), 99.0)
        wait_for(lambda: bool(table.state()["camera"]["warning_codes"]), "the board lost")
        dark = cv2.imdecode(np.frombuffer(table.camera_image(overlay=True), np.uint8),
                            cv2.IMREAD_COLOR)
        assert int(dark.max()) < 40      # no board found: the frame as it is
