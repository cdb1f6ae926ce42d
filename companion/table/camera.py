"""The live camera loop: source → locate → read → stabilize → table, in its own threads.

A grabber thread reads the source as fast as it delivers and keeps only the newest frame; the
reading thread takes the newest frame whenever it is free, so a slow reading drops frames and
never queues them. A source that fails or delivers nothing for ``lost_after_s`` is reported
to the table as lost (manual entry carries on); the grabber tries to reopen it, and the
first frame that comes again reports it back.

The frame source is any `vision.sources.FrameSource`: a camera, or for a table without one
:func:`rendered_source`, which renders the table's own position (the simulator plugs its
virtual table in the same way).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any

from companion.table.session import Table

if TYPE_CHECKING:
    import numpy as np

    from vision.sources import Frame, FrameSource

log = logging.getLogger(__name__)

LOST_AFTER_S = 2.0
REOPEN_EVERY_S = 2.0
STABLE_S = 0.3
SIM_SIZE = (640, 480)
SIM_FPS = 2.0


class CameraLoop:
    """Feeds ``table`` from ``source`` until closed; a context manager.

    ``reopen`` makes a new source after a failure (None: wait for the same one).
    ``reader_factory(reference_image or None)`` makes the board reader (default:
    `vision.reader.BoardReader` of the table's profile).
    """

    def __init__(self, table: Table, source: FrameSource, *, simulated: bool = False,
                 reopen: Callable[[], FrameSource] | None = None,
                 reader_factory: Callable[[Any], Any] | None = None,
                 stable_s: float = STABLE_S, lost_after_s: float = LOST_AFTER_S,
                 reopen_every_s: float = REOPEN_EVERY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.table = table
        self.source = source
        self.status = "simulated" if simulated else "reading"
        self._reopen = reopen
        self._reader_factory = reader_factory or self._board_reader
        self._feed = ReadingFeed(table, stable_s)
        self._lost_after_s = lost_after_s
        self._reopen_every_s = reopen_every_s
        self._clock = clock
        self._lock = threading.Lock()
        self._newest: Frame | None = None
        self._got_frame = threading.Event()
        self._stop = threading.Event()
        self._fresh_start = threading.Event()
        self._reader: Any = None
        self._reader_busy = threading.Lock()  # one reading, learning or relearning at a time
        self._last_frame: Frame | None = None
        self._last_reading: tuple[Frame, Any, Any] | None = None   # frame, reader, reading
        self._last_frame_at = clock()
        self._threads: list[threading.Thread] = []
        self.frames_read = 0
        self.frames_dropped = 0
        self.readings = 0

    # -- public ---------------------------------------------------------------------------

    def start(self) -> CameraLoop:
        """Start the grabber and the reading thread."""
        self.table.attach_camera(self.status, self.take_reference, self.latest_jpeg,
                                 self.latest_image, self.relearn)
        for name, target in (("camera-grab", self._grab), ("camera-read", self._read_loop)):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def close(self) -> None:
        """Stop both threads and close the source."""
        self._stop.set()
        self._got_frame.set()
        self.source.close()     # wakes a grabber waiting for a frame
        for thread in self._threads:
            thread.join(timeout=5)

    def __enter__(self) -> CameraLoop:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def take_reference(self) -> None:
        """The newest frame becomes the reader's reference (every marble in its kennel)."""
        with self._lock:
            frame = self._last_frame or self._newest
        if frame is None:
            raise RuntimeError("no camera frame has arrived yet")
        reader = self._reader_factory(frame.image)
        with self._lock:
            self._reader = reader
        self.table.camera_warnings(list(getattr(reader, "warnings", ())), reference=True)

    def relearn(self) -> None:
        """The reader learns the light anew from the newest frame read, as showing the board
        the table holds (`BoardReader.relearn`; kennels arranged as the frame reads them).
        RuntimeError before a frame or a reference, or when the reader refuses."""
        with self._lock:
            read, reader = self._last_reading, self._reader
        relearn = getattr(reader, "relearn", None)
        if read is None or relearn is None or getattr(reader, "reference", None) is None:
            raise RuntimeError("the camera has no reference or no frame with the board yet")
        frame, _, reading = read
        truth = _arranged(self.table.profile, self.table.believed_holes(), reading.holes)
        from vision.reader.board_reader import ReadError

        with self._reader_busy:
            try:
                learnt = relearn(frame.image, truth)
            except ReadError as error:
                raise RuntimeError(str(error)) from None
        if not learnt:
            raise RuntimeError("no hole holds what it held in the reference")

    def latest_jpeg(self) -> bytes | None:
        """The newest frame as JPEG (for a dispute's snapshot), or None."""
        with self._lock:
            frame = self._last_frame
        if frame is None:
            return None
        return _jpeg(frame.image)

    def latest_image(self, overlay: bool) -> bytes | None:
        """The newest frame read as JPEG; with ``overlay`` its reading drawn over it (the
        markers, every hole and its colour: `vision.debug.draw_reading`) when the board was
        found in it. None before the first frame."""
        with self._lock:
            frame, read = self._last_frame, self._last_reading
        if frame is None:
            return None
        if overlay and read is not None and read[0] is frame:
            from vision.debug import draw_reading

            return _jpeg(draw_reading(frame.image, read[1], read[2]))
        return _jpeg(frame.image)

    # -- threads --------------------------------------------------------------------------

    def _grab(self) -> None:
        from vision.sources import EndOfSource, SourceError

        while not self._stop.is_set():
            try:
                frame = self.source.read()
            except (SourceError, EndOfSource, OSError) as error:
                if self._stop.is_set():
                    return
                self.table.camera_lost(str(error) or type(error).__name__)
                self._fresh_start.set()
                self._wait_and_reopen()
                continue
            with self._lock:
                if self._newest is not None:
                    self.frames_dropped += 1
                self._newest = frame
                self._last_frame_at = self._clock()
            self.table.camera_back(self.status)
            self._got_frame.set()

    def _wait_and_reopen(self) -> None:
        if self._stop.wait(self._reopen_every_s) or self._reopen is None:
            return
        from vision.sources import SourceError

        try:
            fresh = self._reopen()
        except SourceError as error:
            log.info("camera: still away (%s)", error)
            return
        old, self.source = self.source, fresh
        old.close()

    def _read_loop(self) -> None:
        while not self._stop.is_set():
            arrived = self._got_frame.wait(timeout=0.5)
            if self._stop.is_set():
                return
            if not arrived:
                self._check_silence()
                self.table.tick()
                continue
            self._got_frame.clear()
            with self._lock:
                frame, self._newest = self._newest, None
            if frame is None:
                continue
            self._read(frame)
            self.table.tick()

    def _check_silence(self) -> None:
        with self._lock:
            silent = self._clock() - self._last_frame_at
        if silent >= self._lost_after_s:
            self.table.camera_lost(f"no frame for {silent:.0f} s")
            self._fresh_start.set()

    def _read(self, frame: Frame) -> None:
        from vision.locate import LocateError
        from vision.reader.board_reader import ReadError
        with self._lock:
            self._last_frame = frame
            reader = self._reader
        if self._fresh_start.is_set():     # back after a loss: the settled board again
            self._fresh_start.clear()
            self._feed = ReadingFeed(self.table, self._feed.stable_s)
        if reader is None:
            reader = self._reader_factory(None)
            with self._lock:
                self._reader = reader
        try:
            with self._reader_busy:
                reading = reader.read(frame.image)
        except (LocateError, ReadError) as error:  # no board, or a frame unlike the reference
            with self._lock:
                self._last_reading = None
            self.table.camera_warnings([f"the board is not found in the picture: {error}"],
                                       codes=[{"code": "board_not_found",
                                               "args": {"why": str(error)}}])
            return
        self.frames_read += 1
        with self._lock:
            self._last_reading = (frame, reader, reading)
        self.table.camera_warnings(list(getattr(reader, "warnings", ())))
        if self._feed.frame(frame.timestamp, reading.holes, reading.occluded):
            self.readings += 1
            self._learn(reader, frame, reading.holes)

    def _learn(self, reader: Any, frame: Frame, holes: Mapping[str, str | None]) -> None:
        """A settled reading the table holds as its board (the accepted position; kennels
        compared as the colours in them) teaches the reader this frame's light
        (`BoardReader.learn`, which refuses a frame with anything over the board); a reader
        without a reference frame has nothing to learn into."""
        learn = getattr(reader, "learn", None)
        if (learn is None or getattr(reader, "reference", None) is None
                or not _same_board(self.table.profile, holes, self.table.believed_holes())):
            return
        from vision.reader.board_reader import ReadError

        try:
            with self._reader_busy:
                learn(frame.image, dict(holes))
        except ReadError as error:
            log.info("camera: not learnt from the accepted position (%s)", error)

    def _board_reader(self, reference: np.ndarray | None) -> Any:
        """The reader; once a game is set up it is told which seats play."""
        from vision.reader import BoardReader

        players = self.table.state()["players"]
        colors = {player["at"]: player["color"] for player in players} or None
        return BoardReader(self.table.profile, reference=reference, colors=colors)


class ReadingFeed:
    """Between the reader and the table: per frame's reading, the settled board goes to
    ``table.feed`` (`vision.stabilize.Stabilizer`, ``stable_s``), and a disturbed frame (a
    hand, motion, an unreadable hole) tells the table at once (``table.unsettled``), so that
    nothing is judged while a hand is over the board; the board settling again after a
    disturbance is fed again, even when it did not change, and restarts the settle clock."""

    def __init__(self, table: Table, stable_s: float = STABLE_S) -> None:
        from vision.stabilize import Stabilizer

        self.table = table
        self.stable_s = stable_s
        self._stabilizer = Stabilizer(stable_s)
        self._disturbed = False

    def frame(self, timestamp: float, holes: Mapping[str, str | None], occluded: bool = False,
              motion: bool = False, now: float | None = None) -> bool:
        """One frame's reading (``timestamp``: the frame's time); True when a settled board
        went to the table (``now``: its time on the table's clock, None: the table's now)."""
        from vision.stabilize import Observation

        disturbed = occluded or motion or any(value == "?" for value in holes.values())
        if disturbed and not self._disturbed:
            self._stabilizer.emitted = None     # the same board settling again counts
            self.table.unsettled(now=now)
        self._disturbed = disturbed
        settled = self._stabilizer.update(Observation(timestamp, holes, occluded=occluded,
                                                      motion=motion))
        if settled is None:
            return False
        self.table.feed(settled, now=now)
        return True


def _same_board(profile: Any, reading: Mapping[str, str | None],
                believed: Mapping[str, str | None]) -> bool:
    """Whether a reading shows the believed board: track and home holes alike, each kennel
    holding the same colours (which of its holes does not matter)."""
    kennels: dict[int, list[list[str]]] = {}
    for hole in profile.holes:
        if hole.kind == "kennel":
            pair = kennels.setdefault(hole.seat, [[], []])
            pair[0].append(reading.get(hole.id) or "")
            pair[1].append(believed.get(hole.id) or "")
        elif reading.get(hole.id) != believed.get(hole.id):
            return False
    return all(sorted(seen) == sorted(held) for seen, held in kennels.values())


def _arranged(profile: Any, believed: Mapping[str, str | None],
              read: Mapping[str, str | None]) -> dict[str, str | None]:
    """The believed board with each kennel's marbles in the holes where the frame shows
    something (their colour first, then ``"?"``, then the others): the table knows which
    marbles a kennel holds, not in which of its holes."""
    holes = dict(believed)
    kennels: dict[int, list[str]] = {}
    for hole in profile.holes:
        if hole.kind == "kennel":
            kennels.setdefault(hole.seat, []).append(hole.id)
    for ids in kennels.values():
        marbles = sorted(colour for hole_id in ids if (colour := believed.get(hole_id)))
        ranked = sorted(ids, key=lambda hole_id: (read.get(hole_id) not in marbles,
                                                  read.get(hole_id) != "?"))
        for place, hole_id in enumerate(ranked):
            holes[hole_id] = marbles[place] if place < len(marbles) else None
    return holes


def _jpeg(image: np.ndarray) -> bytes | None:
    import cv2

    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return bytes(data.tobytes()) if ok else None


def rendered_source(table: Table, size: tuple[int, int] = SIM_SIZE,
                    fps: float = SIM_FPS) -> FrameSource:
    """A `SimulatedSource` whose frames are renderings of the table's board as the table
    believes it (a table without a camera), ``fps`` frames a second."""
    from vision.render import RenderConditions, render
    from vision.sources import SimulatedSource

    conditions = RenderConditions(width=size[0], height=size[1])
    cache: dict[str, Any] = {}
    period = 1.0 / fps
    next_at = [time.monotonic()]

    def produce(stamp: float) -> np.ndarray | None:
        delay = next_at[0] - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        next_at[0] = max(next_at[0] + period, time.monotonic())
        holes = table.believed_holes()
        key = tuple(sorted((k, v or "") for k, v in holes.items()))
        if cache.get("key") != key:
            cache["key"] = key
            cache["image"] = render(table.profile, holes, conditions).image
        image: np.ndarray = cache["image"]
        return image

    return SimulatedSource(produce)


def open_camera(spec: str, table: Table, size: tuple[int, int] | None,
                fps: float) -> FrameSource:
    """The frame source of a camera spec; ``sim`` renders the table's own board. Without a
    ``size`` the frames are as large as the board needs (`vision.sources.frame_size_for`)."""
    if spec == "sim":
        return rendered_source(table)
    from vision.sources import CameraSettings, frame_size_for, open_source

    width, height = size or frame_size_for(table.profile.board_mm)
    return open_source(spec, CameraSettings(width=width, height=height, fps=fps))
