"""The camera's reading path, one frame at a time: virtual board → vision → table.

`companion.table.camera.CameraLoop` does this in its own threads for a live table.
:class:`FramePipeline` does the same steps in the caller's thread, frame by frame, so that a
test or benchmark knows exactly which frame led to which verdict: the virtual table renders a
frame, `vision.reader.BoardReader` reads it, the camera loop's
`companion.table.camera.ReadingFeed` keeps only settled readings and tells the table of
disturbed frames, and the table gets them through its public camera side (``attach_camera``,
``feed``, ``unsettled``, ``tick``), with the virtual table's clock as the time of every
reading.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.sim.virtual import VirtualTable

if TYPE_CHECKING:
    from companion.table import Table
    from vision.reader import BoardReader

STABLE_S = 0.3
"""How long a reading must stay unchanged and unhidden (as the live camera loop)."""


@dataclass
class FrameLog:
    """One processed frame: its time, whether a hand was over the board, what the table said
    after it (moves accepted, pending), whether that changed with this frame (``changed``),
    and the seconds spent rendering and reading (wall clock and this thread's CPU)."""

    timestamp: float
    hand: bool
    moves: int
    pending: str | None
    render_s: float
    read_s: float
    settled: bool
    changed: bool
    render_cpu_s: float = 0.0
    read_cpu_s: float = 0.0


@dataclass
class FramePipeline:
    """Feeds ``table`` from ``source`` one frame per :meth:`step` (see the module docstring)."""

    table: Table
    source: VirtualTable
    stable_s: float = STABLE_S
    keep_log: bool = True
    log: list[FrameLog] = field(default_factory=list)
    reader: BoardReader | None = None
    _feed: Any = None
    _last_image: Any = None

    def __post_init__(self) -> None:
        from companion.table.camera import ReadingFeed

        self._feed = ReadingFeed(self.table, self.stable_s)
        self.table.attach_camera("simulated", self.take_reference)

    def take_reference(self) -> None:
        """The newest frame becomes the reader's reference (the table's reference hook)."""
        from vision.reader import BoardReader

        if self._last_image is None:
            self._last_image = self.source.read().image
        players = self.table.state()["players"]
        colors = {player["at"]: player["color"] for player in players} or None
        self.reader = BoardReader(self.source.profile, reference=self._last_image, colors=colors)
        self.table.camera_warnings(list(self.reader.warnings), reference=True)

    def step(self) -> FrameLog:
        """Render, read and stabilize one frame, and tell the table."""
        earlier = self.table.state()
        frame = self.source.read()
        shot = self.source.last
        assert shot is not None
        self._last_image = frame.image
        started, cpu = time.perf_counter(), time.thread_time()
        settled = False
        if self.reader is not None:
            reading = self.reader.read(frame.image)
            settled = self._feed.frame(frame.timestamp, reading.holes, reading.occluded,
                                       now=frame.timestamp)
        self.table.tick(now=frame.timestamp)
        read_s = time.perf_counter() - started
        read_cpu_s = time.thread_time() - cpu
        state = self.table.state()
        changed = (state["moves"], state["pending"]) != (earlier["moves"], earlier["pending"])
        entry = FrameLog(frame.timestamp, shot.hand is not None, state["moves"],
                         state["pending"], shot.render_s, read_s, settled, changed,
                         shot.render_cpu_s, read_cpu_s)
        if self.keep_log:
            self.log.append(entry)
        return entry
