"""The camera loop names marbles by the players' colours and teaches the reader each accepted
position, on rendered frames with shuffled seat colours under light that drifts move by move,
and learns the light anew when the referee says a lamp was switched."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.table import Table, TableError
from companion.table.camera import CameraLoop, _arranged, _same_board
from hw import BoardProfile
from tests.table.test_camera_loop import wait_for
from vision.reader.board_reader import BoardReader
from vision.render import RenderConditions, render
from vision.sources import SimulatedSource

START = RenderConditions(width=640, height=480, light_level=1.1, color_temperature_k=5200)
SHUFFLED = ("blue", "red", "yellow", "green")   # seat 0 plays blue, seat 1 red, ...


class Frames(SimulatedSource):
    """A simulated camera whose frames come half a second apart."""

    def __init__(self) -> None:
        super().__init__(timeout=30)
        self.stamp = 0.0

    def show(self, loop: CameraLoop, image: Any, frames: int = 2) -> None:
        """Push ``image`` ``frames`` times, each once the loop has read the one before."""
        for _ in range(frames):
            read = loop.frames_read
            self.stamp += 0.5
            self.push(image, self.stamp)
            wait_for(lambda read=read: loop.frames_read > read, "a frame")


def shaded_lamp_switched_off(image: Any) -> Any:
    """The frame with a lamp switched off that lit the board beyond a shade's sharp edge, 40 %
    of the width from the left: there darker and bluer. (Light that changes gently the reader
    follows by itself.)"""
    beyond = (np.arange(image.shape[1]) > 0.4 * image.shape[1])[None, :, None]
    keep = 1 - 0.75 * beyond * np.array([0.3, 0.7, 1.0])  # BGR: the lamp's light is mostly red
    return np.clip(image * keep, 0, 255).astype(np.uint8)


def _setup() -> dict[str, Any]:
    return {"rules": "swiss", "board": 4, "first_dealer": 0,
            "players": [{"name": f"P{seat}", "color": colour, "at": seat}
                        for seat, colour in enumerate(SHUFFLED)]}


def _evening(step: int) -> RenderConditions:
    """The light after ``step`` moves: dimmer, warmer, more uneven."""
    return replace(START, light_level=START.light_level * 0.78 ** step,
                   color_temperature_k=START.color_temperature_k - 500 * step,
                   gradient=0.08 * step)


@pytest.mark.slow
def test_accepted_positions_teach_the_reader_the_players_colours_in_drifting_light(
        profile4: BoardProfile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    learnt: list[tuple[BoardReader, bool]] = []
    original = BoardReader.learn

    def spy(reader: BoardReader, image: Any, holes: Any) -> bool:
        result = original(reader, image, holes)
        learnt.append((reader, result))
        return result

    monkeypatch.setattr(BoardReader, "learn", spy)
    table = Table(profile4, state_dir=tmp_path)
    table.setup(_setup())
    source = Frames()

    def show(holes: dict[str, str | None], conditions: RenderConditions,
             frames: int = 2) -> None:
        source.show(loop, render(profile4, holes, conditions).image, frames)

    with CameraLoop(table, source, simulated=True) as loop:
        start = table.believed_holes()
        assert start["K0.0"] == "blue" and start["K1.0"] == "red"
        show(start, START, frames=1)
        table.take_reference()
        show(start, START)
        for move, seat in enumerate((1, 2, 3, 0), start=1):
            table.announce("A")
            holes = table.believed_holes()
            holes.update({f"K{seat}.0": None, f"T{16 * seat}": SHUFFLED[seat]})
            show(holes, _evening(move))
            wait_for(lambda move=move: table.state()["moves"] == move, f"move {move}")
            assert table.state()["holes"][f"T{16 * seat}"] == SHUFFLED[seat]
    readers = {id(reader) for reader, _ in learnt}
    assert len(readers) == 1
    reader = learnt[0][0]
    assert reader.colours == dict(enumerate(SHUFFLED))
    assert sum(result for _, result in learnt) >= 4   # every accepted move was learnt


def test_a_reading_is_the_believed_board_whichever_kennel_hole_holds_a_marble(
        profile4: BoardProfile) -> None:
    believed = {hole.id: None for hole in profile4.holes} | {"K0.0": "red", "T5": "red"}
    assert _same_board(profile4, believed | {"K0.0": None, "K0.3": "red"}, believed)
    assert not _same_board(profile4, believed | {"T5": None, "T6": "red"}, believed)
    assert not _same_board(profile4, believed | {"K0.0": "blue"}, believed)


def test_a_lamp_switched_off_mid_game_is_learnt_anew_when_the_referee_asks(
        profile4: BoardProfile, tmp_path: Path) -> None:
    table = Table(profile4, state_dir=tmp_path)
    table.setup(_setup())
    source = Frames()

    def show(image: Any, frames: int = 2) -> None:
        source.show(loop, image, frames)

    with CameraLoop(table, source, simulated=True) as loop:
        with pytest.raises(TableError, match="no reference"):
            table.relearn_light()
        start = table.believed_holes()
        show(render(profile4, start, START).image, frames=1)
        table.take_reference()
        settled = loop.readings
        show(shaded_lamp_switched_off(render(profile4, start, START).image), frames=3)
        assert loop.readings == settled            # never settles: no move would be judged
        table.relearn_light()
        table.announce("A")
        moved = start | {"K1.0": None, "T16": "red"}
        show(shaded_lamp_switched_off(render(profile4, moved, START).image))
        wait_for(lambda: table.state()["moves"] == 1, "the move in the new light")


def test_relearning_takes_the_kennel_holes_the_frame_shows_full(profile4: BoardProfile) -> None:
    believed = {hole.id: None for hole in profile4.holes} | {"K0.0": "red", "K0.1": "red"}
    read = believed | {"K0.0": None, "K0.1": "?", "K0.3": "red"}
    truth = _arranged(profile4, believed, read)
    assert [truth[f"K0.{i}"] for i in range(4)] == [None, "red", None, "red"]
