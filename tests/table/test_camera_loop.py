"""The live loop: rendered frames of the simulated table through the real reader."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.table import Table
from companion.table.camera import CameraLoop
from hw import BoardProfile
from tests.table.conftest import setup_request
from vision.reader.board_reader import BoardReader
from vision.render import RenderConditions, render
from vision.sources import SimulatedSource

SIZE = RenderConditions(width=640, height=480)


def wait_for(condition: Callable[[], bool], what: str, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout_s} s for {what}")
        time.sleep(0.02)


class Feed:
    """Pushes rendered frames one at a time, each after the loop has read the last."""

    def __init__(self, profile: BoardProfile, source: SimulatedSource) -> None:
        self.profile = profile
        self.source = source
        self.stamp = 0.0
        self.loop: CameraLoop | None = None

    def show(self, holes: dict[str, str | None], frames: int = 2) -> None:
        image = render(self.profile, holes, SIZE).image
        loop = self.loop
        assert loop is not None
        for _ in range(frames):
            read = loop.frames_read
            self.stamp += 0.5
            self.source.push(image, self.stamp)
            wait_for(lambda read=read: loop.frames_read > read, "a frame")


@pytest.mark.slow
def test_the_loop_reads_rendered_frames_into_moves(profile4: BoardProfile,
                                                   tmp_path: Path) -> None:
    table = Table(profile4, state_dir=tmp_path)
    table.setup(setup_request())
    source = SimulatedSource(timeout=30)
    feed = Feed(profile4, source)
    with CameraLoop(table, source, simulated=True) as loop:
        feed.loop = loop
        feed.show(table.believed_holes(), frames=1)
        table.take_reference()
        assert table.state()["camera"]["reference"] is True
        feed.show(table.believed_holes())
        table.announce("A")
        holes = table.believed_holes()
        holes.update({"K1.0": None, "T16": "yellow"})
        feed.show(holes)
        wait_for(lambda: table.state()["moves"] == 1, "the move")
        state = table.state()
        assert state["position"]["players"][1]["pegs"] == ["K", "K", "K", "T16*"]
        assert state["camera"]["status"] == "simulated" and state["holes"]["T16"] == "yellow"
        bumped = dict(holes, T16=None, T17="yellow")
        feed.show(bumped)
        assert table.state()["disturbed"] == ["T16", "T17"]


@pytest.mark.slow
def test_a_camera_that_disappears_mid_turn_is_reported_and_comes_back(
        profile4: BoardProfile, tmp_path: Path) -> None:
    table = Table(profile4, state_dir=tmp_path)
    table.setup(setup_request())
    source = SimulatedSource(timeout=0.3)
    feed = Feed(profile4, source)
    with CameraLoop(table, source, simulated=True, reopen_every_s=0.05) as loop:
        feed.loop = loop
        feed.show(table.believed_holes(), frames=1)
        table.take_reference()
        table.announce("A")
        wait_for(lambda: table.state()["camera"]["status"] == "lost", "the camera lost")
        state = table.state()
        assert state["announced"] == {"card": "A", "player": 1}
        assert state["camera"]["warnings"][0].startswith("camera lost")
        position = state["position"]
        position["players"][1]["pegs"] = ["K", "K", "K", "T16*"]
        assert table.observe(position=position)["moves"] == 1     # manual entry carries on
        feed.show(table.believed_holes())
        wait_for(lambda: table.state()["camera"]["status"] == "simulated", "the camera back")
        assert table.state()["moves"] == 1


def test_a_silent_camera_is_reported_lost(profile4: BoardProfile, tmp_path: Path) -> None:
    from tests.table.conftest import Clock

    clock = Clock()
    table = Table(profile4, state_dir=tmp_path)
    source = SimulatedSource(timeout=60)
    with CameraLoop(table, source, lost_after_s=2.0, clock=clock):
        assert table.state()["camera"]["status"] == "reading"
        clock.now += 2.5
        wait_for(lambda: table.state()["camera"]["status"] == "lost", "the camera lost")
        assert "no frame for 2 s" in table.state()["camera"]["warnings"][0]


def test_a_frame_without_the_board_is_a_warning_in_words(profile4: BoardProfile,
                                                         tmp_path: Path) -> None:
    import numpy as np

    table = Table(profile4, state_dir=tmp_path)
    source = SimulatedSource(timeout=60)
    with CameraLoop(table, source, simulated=True):
        source.push(np.zeros((480, 640, 3), np.uint8), 0.0)
        wait_for(lambda: bool(table.state()["camera"]["warning_codes"]), "a warning")
        camera = table.state()["camera"]
        assert camera["warning_codes"][0]["code"] == "board_not_found"
        assert camera["warnings"][0].startswith("the board is not found in the picture")


def test_a_frame_unlike_the_reference_is_a_warning_not_a_crash(profile4: BoardProfile,
                                                               tmp_path: Path) -> None:
    # The reference came through a wide lens (1280 x 960); a frame of another size cannot be
    # straightened with it: the loop says so and goes on.
    import numpy as np

    from vision.reader.board_reader import BoardReader
    from vision.render import start_occupancy

    lens = RenderConditions(lens_k1=-0.1)
    start = render(profile4, start_occupancy(profile4), lens, seed=5).image
    table = Table(profile4, state_dir=tmp_path)
    source = SimulatedSource(timeout=60)
    with CameraLoop(table, source, simulated=True,
                    reader_factory=lambda _: BoardReader(profile4, start)):
        source.push(np.zeros((480, 640, 3), np.uint8), 0.0)
        wait_for(lambda: bool(table.state()["camera"]["warning_codes"]), "a warning")
        camera = table.state()["camera"]
        assert camera["warning_codes"][0]["code"] == "board_not_found"
        assert "640x480 px but the reference 1280x960" in camera["warnings"][0]


@pytest.mark.slow
def test_before_a_reference_the_reader_is_not_asked_to_learn(
        profile4: BoardProfile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    asked: list[object] = []
    monkeypatch.setattr(BoardReader, "learn",
                        lambda reader, image, holes: asked.append(holes) or False)
    table = Table(profile4, state_dir=tmp_path)
    table.setup(setup_request())
    source = SimulatedSource(timeout=30)
    feed = Feed(profile4, source)
    with caplog.at_level(logging.INFO), CameraLoop(table, source, simulated=True) as loop:
        feed.loop = loop
        feed.show(table.believed_holes(), frames=3)
        assert loop.readings >= 1  # a settled reading of the board the table holds
    assert asked == [] and "not learnt" not in caplog.text
