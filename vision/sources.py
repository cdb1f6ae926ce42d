"""Frame sources: where camera frames come from, behind one small interface.

A source is chosen by a spec string, the way gpiozero chooses its pin factory:

==================  ===================================================================
``picamera2``       the Raspberry Pi camera (``picamera2:1`` for the second one)
``usb:0``           an OpenCV ``VideoCapture`` device (USB webcam) by index
``rtsp://…``        a network stream (also ``http://``, ``https://``)
a path              one image, a folder of images (sorted by name) or a video file
``sim``             frames pushed into the source (or produced by a callable), e.g. by the
                    simulator
==================  ===================================================================

``DOG_CAMERA`` in the environment overrides the default spec. Every source
returns BGR ``uint8`` images in a :class:`Frame` with a timestamp in seconds; ``read()``
raises :class:`EndOfSource` when a finite source is exhausted and :class:`SourceError`
(naming the source) when the camera or file cannot be used.
"""

from __future__ import annotations

import importlib
import os
import queue
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import numpy as np

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})
JPEG_END = b"\xff\xd9"  # the marker that ends a JPEG's image data
JPEG_TRAILER = 4096  # bytes some cameras write after it
ENV_VARIABLE = "DOG_CAMERA"
FRAME_SIZES = ((1280, 960), (1640, 1232))  # what a camera is asked for, smallest first
# Pixels per millimetre of board a frame should give. 6-seat boards at 1280 x 960 (1.05 px/mm)
# were read wrong more often than at 1640 x 1232 (1.35) on the path-traced draw: 20 of 66
# boards against 4 of 22 (docs/vision.md).
MIN_PX_PER_MM = 1.25
MARGIN_MM = 25.0  # picture beyond each edge of the board (hw/camera-mount.md)


class SourceError(RuntimeError):
    """A frame source cannot be opened or read; the message names the source."""


class EndOfSource(Exception):
    """A finite source (file, folder, closed simulator feed) has no more frames."""


@dataclass(frozen=True)
class Frame:
    """One camera frame: a BGR uint8 image and when it was taken (seconds)."""

    image: np.ndarray
    timestamp: float


@dataclass(frozen=True)
class CameraSettings:
    """What matters at a table: size, frame rate, and locked exposure/white balance.

    With ``lock_exposure`` the camera runs automatic exposure and white balance for
    ``warmup_s`` seconds, reads the values they settled on and then fixes them, so that a
    hand or a sleeve entering the picture does not shift the colours of the marbles. With
    ``focus_once`` a camera that can focus (Camera Module 3) focuses once when it starts and
    then keeps its lens where it is: a lens that refocused whenever a hand came over the board
    would blur the frames unlike the reference, which the reader takes for something there.
    """

    width: int = 1280
    height: int = 960
    fps: float = 10.0
    lock_exposure: bool = True
    warmup_s: float = 1.5
    focus_once: bool = True


def frame_size_for(board_mm: tuple[float, float]) -> tuple[int, int]:
    """The smallest of `FRAME_SIZES` whose short side spans the board and its margins at
    `MIN_PX_PER_MM` or more (the largest when none does)."""
    covered = max(board_mm) + 2 * MARGIN_MM
    for width, height in FRAME_SIZES:
        if min(width, height) / covered >= MIN_PX_PER_MM:
            return width, height
    return FRAME_SIZES[-1]


class FrameSource(ABC):
    """A stream of frames; use as a context manager or call :meth:`close`."""

    name: str = "source"

    @abstractmethod
    def read(self) -> Frame:
        """The next frame; `EndOfSource` at the end, `SourceError` on failure."""

    def close(self) -> None:  # noqa: B027 - sources without resources need nothing
        """Release the camera or file."""

    def __iter__(self) -> Iterator[Frame]:
        while True:
            try:
                yield self.read()
            except EndOfSource:
                return

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def read_image(path: str | Path) -> np.ndarray:
    """Read one image file as BGR uint8; `SourceError` naming the file if that fails, if a
    JPEG was cut off (OpenCV would fill its missing part with grey) or if the picture is
    greyscale (no marble's colour shows; a blank frame of one grey is left to the locator,
    which finds no markers in it)."""
    import cv2

    file = Path(path)
    if not file.is_file():
        raise SourceError(f"{path}: no such file")
    data = file.read_bytes()
    if not data:
        raise SourceError(f"{path}: an empty file")
    if data.startswith(b"\xff\xd8") and JPEG_END not in data.rstrip(b"\0")[-JPEG_TRAILER:]:
        raise SourceError(f"{path}: a JPEG cut off before its end")
    # (decoded from the bytes read above; turned as its EXIF orientation says, as imread does)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise SourceError(f"{path}: not a readable image")
    if _greyscale(image):
        raise SourceError(f"{path}: a greyscale picture: the marbles' colours do not show")
    return image


def _greyscale(image: np.ndarray) -> bool:
    """Whether a BGR picture that is not of one grey has the same value in every channel."""
    blue = image[..., 0]
    return bool(np.array_equal(blue, image[..., 1]) and np.array_equal(blue, image[..., 2])
                and blue.min() < blue.max())


class StillImageSource(FrameSource):
    """Image files shown one after the other, ``interval`` seconds apart."""

    def __init__(self, paths: list[Path], name: str, interval: float = 0.5) -> None:
        if not paths:
            raise SourceError(f"{name}: no images found")
        self.name = name
        self._paths = list(paths)
        self._interval = interval
        self._index = 0

    def read(self) -> Frame:
        if self._index >= len(self._paths):
            raise EndOfSource(self.name)
        path = self._paths[self._index]
        frame = Frame(read_image(path), self._index * self._interval)
        self._index += 1
        return frame


class CaptureSource(FrameSource):
    """OpenCV ``VideoCapture``: a USB camera index, a stream URL or a video file."""

    def __init__(self, target: int | str, settings: CameraSettings | None = None,
                 *, live: bool = True) -> None:
        import cv2

        self.name = f"usb:{target}" if isinstance(target, int) else str(target)
        self._live = live
        self._capture = cv2.VideoCapture(target)
        if not self._capture.isOpened():
            self._capture.release()
            raise SourceError(f"{self.name}: cannot open (camera unplugged, wrong index, "
                              "unreachable stream or unreadable video file?)")
        if live and settings is not None:
            self._apply(settings)

    def _apply(self, settings: CameraSettings) -> None:
        import cv2

        capture = self._capture
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, settings.width)
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, settings.height)
        capture.set(cv2.CAP_PROP_FPS, settings.fps)
        if not settings.lock_exposure:
            return
        deadline = time.monotonic() + settings.warmup_s
        while time.monotonic() < deadline:
            capture.read()
        # Best effort: V4L2 takes 1 for manual exposure; drivers that refuse keep auto.
        exposure = capture.get(cv2.CAP_PROP_EXPOSURE)
        temperature = capture.get(cv2.CAP_PROP_WB_TEMPERATURE)
        capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)
        capture.set(cv2.CAP_PROP_EXPOSURE, exposure)
        capture.set(cv2.CAP_PROP_AUTO_WB, 0)
        if temperature > 0:
            capture.set(cv2.CAP_PROP_WB_TEMPERATURE, temperature)

    def read(self) -> Frame:
        import cv2

        ok, image = self._capture.read()
        if not ok or image is None:
            if self._live:
                raise SourceError(f"{self.name}: no frame (camera unplugged or stream lost?)")
            raise EndOfSource(self.name)
        if self._live:
            stamp = time.monotonic()
        else:
            stamp = self._capture.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
        return Frame(image, stamp)

    def close(self) -> None:
        self._capture.release()


class Picamera2Source(FrameSource):
    """The Raspberry Pi camera through picamera2 (Raspberry Pi OS: ``apt install
    python3-picamera2``; it is not installable with pip)."""

    def __init__(self, camera_num: int = 0, settings: CameraSettings | None = None) -> None:
        self.name = f"picamera2:{camera_num}"
        self.settings = settings or CameraSettings()
        try:
            picamera2 = importlib.import_module("picamera2")
        except ImportError:
            raise SourceError(f"{self.name}: the picamera2 library is missing; on Raspberry Pi "
                              "OS install it with `sudo apt install python3-picamera2` (it "
                              "cannot come from pip), or choose another source") from None
        cameras = picamera2.Picamera2.global_camera_info()
        if camera_num >= len(cameras):
            raise SourceError(f"{self.name}: no such camera ({len(cameras)} detected; check "
                              "the ribbon cable and `rpicam-hello --list-cameras`)")
        try:
            self._camera = picamera2.Picamera2(camera_num)
            self._start()
        except Exception as error:  # libcamera reports failures as assorted exceptions
            raise SourceError(f"{self.name}: cannot start the camera ({error})") from error

    def _start(self) -> None:
        camera, settings = self._camera, self.settings
        frame_us = int(1_000_000 / settings.fps)
        config = camera.create_video_configuration(
            main={"size": (settings.width, settings.height), "format": "RGB888"},
            controls={"FrameDurationLimits": (frame_us, frame_us)})
        camera.configure(config)
        camera.start()
        if settings.focus_once and "AfMode" in camera.camera_controls:
            # One cycle leaves autofocus in its "Auto" mode, in which the lens moves only
            # when triggered again (a failed cycle leaves it where the search ended).
            camera.autofocus_cycle()
        if settings.lock_exposure:
            time.sleep(settings.warmup_s)
            settled = camera.capture_metadata()
            camera.set_controls({
                "AeEnable": False, "AwbEnable": False,
                "ExposureTime": settled["ExposureTime"],
                "AnalogueGain": settled["AnalogueGain"],
                "ColourGains": tuple(settled["ColourGains"]),
            })

    def read(self) -> Frame:
        try:
            image = self._camera.capture_array("main")
        except Exception as error:
            raise SourceError(f"{self.name}: capture failed ({error})") from error
        # picamera2's "RGB888" is laid out B, G, R in memory: what OpenCV expects.
        return Frame(np.ascontiguousarray(image[:, :, :3]), time.monotonic())

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()


class SimulatedSource(FrameSource):
    """Frames pushed in by the simulator, or produced on demand by ``produce(timestamp)``.

    ``produce`` returns a BGR image, or None to end the stream. Pushed frames come out in
    order; ``read`` waits up to ``timeout`` seconds for one.
    """

    def __init__(self, produce: Callable[[float], np.ndarray | None] | None = None,
                 *, timeout: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.name = "sim"
        self._produce = produce
        self._timeout = timeout
        self._clock = clock
        self._frames: queue.Queue[Frame | None] = queue.Queue()
        self._closed = False

    def push(self, image: np.ndarray, timestamp: float | None = None) -> None:
        """Queue one frame; its timestamp defaults to now."""
        stamp = self._clock() if timestamp is None else timestamp
        self._frames.put(Frame(image, stamp))

    def read(self) -> Frame:
        if self._closed:
            raise EndOfSource(self.name)
        if self._produce is not None and self._frames.empty():
            stamp = self._clock()
            image = self._produce(stamp)
            if image is None:
                raise EndOfSource(self.name)
            return Frame(image, stamp)
        try:
            frame = self._frames.get(timeout=self._timeout)
        except queue.Empty:
            raise SourceError(f"{self.name}: no frame pushed within {self._timeout} s") from None
        if frame is None:
            raise EndOfSource(self.name)
        return frame

    def close(self) -> None:
        self._closed = True
        self._frames.put(None)


def default_spec() -> str:
    """``$DOG_CAMERA`` if set, else ``picamera2`` where installed, else ``sim``."""
    if os.environ.get(ENV_VARIABLE):
        return os.environ[ENV_VARIABLE]
    try:
        importlib.import_module("picamera2")
    except ImportError:
        return "sim"
    return "picamera2"


def open_source(spec: str | None = None, settings: CameraSettings | None = None,
                *, interval: float = 0.5) -> FrameSource:
    """Open the frame source a spec string names (see the module docstring).

    ``interval`` spaces the timestamps of still images. Raises `SourceError` for an
    unknown spec, a missing file or a camera that cannot be opened.
    """
    spec = default_spec() if spec is None else spec.strip()
    settings = settings or CameraSettings()
    if spec == "sim":
        return SimulatedSource()
    if spec == "picamera2" or spec.startswith("picamera2:"):
        return Picamera2Source(_index(spec, "picamera2", default=0), settings)
    if spec.startswith("usb:"):
        return CaptureSource(_index(spec, "usb", default=0), settings)
    if "://" in spec:
        return CaptureSource(spec, settings)
    return _open_path(Path(spec), interval)


def _index(spec: str, prefix: str, default: int) -> int:
    text = spec[len(prefix) + 1:]
    if not text:
        return default
    if not text.isdigit():
        raise SourceError(f"{spec}: expected {prefix}:<number>")
    return int(text)


def _open_path(path: Path, interval: float) -> FrameSource:
    if path.is_dir():
        images = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        return StillImageSource(images, str(path), interval)
    if not path.is_file():
        raise SourceError(f"{path}: no such file, folder or camera spec "
                          "(picamera2, usb:N, URL, sim)")
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return StillImageSource([path], str(path), interval)
    return CaptureSource(str(path), live=False)
