"""Frame sources: files, folders, videos, the simulator feed and a faked picamera2."""

from __future__ import annotations

import sys
import types
from typing import ClassVar

import cv2
import numpy as np
import pytest

from hw import load_profile
from vision.sources import (
    CameraSettings,
    EndOfSource,
    Picamera2Source,
    SimulatedSource,
    SourceError,
    frame_size_for,
    open_source,
    read_image,
)


def test_frames_are_as_large_as_the_board_needs():
    # 1280 x 960 gives a 6-seat board (860 mm) 1.05 px/mm, where it reads worse.
    assert frame_size_for(load_profile("brandi-4").board_mm) == (1280, 960)
    assert frame_size_for(load_profile("brandi-6").board_mm) == (1640, 1232)
    assert frame_size_for((2000.0, 2000.0)) == (1640, 1232)


def _image(value: int, size: tuple[int, int] = (64, 48)) -> np.ndarray:
    return np.full((size[1], size[0], 3), value, np.uint8)


def test_single_image_gives_one_frame_then_ends(tmp_path):
    path = tmp_path / "board.png"
    cv2.imwrite(str(path), _image(90))
    with open_source(str(path)) as source:
        frames = list(source)
    assert len(frames) == 1
    assert frames[0].image.shape == (48, 64, 3) and frames[0].image[0, 0, 0] == 90
    assert frames[0].timestamp == 0.0


def test_folder_yields_images_in_name_order_spaced_in_time(tmp_path):
    for name, value in (("b.png", 20), ("a.png", 10), ("c.jpg", 30), ("notes.txt", 0)):
        if name.endswith("txt"):
            (tmp_path / name).write_text("not an image")
        else:
            cv2.imwrite(str(tmp_path / name), _image(value))
    with open_source(str(tmp_path), interval=0.25) as source:
        frames = list(source)
    assert [int(f.image[0, 0, 0]) for f in frames][:2] == [10, 20]
    assert len(frames) == 3
    assert [f.timestamp for f in frames] == [0.0, 0.25, 0.5]


def test_video_file_frames_with_increasing_timestamps(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    assert writer.isOpened()
    for value in range(0, 250, 50):
        writer.write(_image(value))
    writer.release()
    with open_source(str(path)) as source:
        frames = list(source)
    assert len(frames) == 5
    stamps = [f.timestamp for f in frames]
    assert stamps == sorted(stamps) and stamps[-1] > stamps[0]
    assert abs(int(frames[2].image[10, 10, 1]) - 100) < 10


def test_missing_file_names_the_source(tmp_path):
    missing = tmp_path / "nothing.png"
    with pytest.raises(SourceError, match=r"nothing\.png"):
        open_source(str(missing))


def test_unreadable_image_is_a_source_error(tmp_path):
    path = tmp_path / "broken.png"
    path.write_text("this is no PNG")
    with open_source(str(path)) as source, pytest.raises(SourceError, match=r"broken\.png"):
        source.read()


def test_a_jpeg_cut_off_is_a_source_error_not_a_half_grey_frame(tmp_path):
    frame = np.random.default_rng(1).integers(0, 255, (96, 128, 3), np.uint8)
    whole = cv2.imencode(".jpg", frame)[1].tobytes()
    complete, cut = tmp_path / "whole.jpg", tmp_path / "cut.jpg"
    complete.write_bytes(whole + b"camera trailer" + bytes(100))
    cut.write_bytes(whole[:len(whole) // 2])
    assert read_image(complete).shape == frame.shape
    with pytest.raises(SourceError, match=r"cut\.jpg: a JPEG cut off"):
        read_image(cut)


def test_an_empty_file_and_a_greyscale_picture_are_source_errors(tmp_path):
    empty, grey, flat = tmp_path / "empty.png", tmp_path / "grey.png", tmp_path / "flat.png"
    empty.write_bytes(b"")
    cv2.imwrite(str(grey), np.random.default_rng(2).integers(0, 255, (96, 128), np.uint8))
    cv2.imwrite(str(flat), np.full((96, 128, 3), 128, np.uint8))
    with pytest.raises(SourceError, match=r"empty\.png: an empty file"):
        read_image(empty)
    with pytest.raises(SourceError, match=r"grey\.png: a greyscale picture"):
        read_image(grey)
    assert read_image(flat).shape == (96, 128, 3)  # one grey: the locator says what is wrong


def test_folder_without_images_is_a_source_error(tmp_path):
    with pytest.raises(SourceError, match="no images"):
        open_source(str(tmp_path))


@pytest.mark.parametrize("spec", ["usb:x", "picamera2:first"])
def test_malformed_specs_are_refused(spec):
    with pytest.raises(SourceError, match=spec.split(":")[0]):
        open_source(spec)


def test_unplugged_usb_camera_names_the_source():
    with pytest.raises(SourceError, match="usb:63"):
        open_source("usb:63")


def test_simulated_source_returns_pushed_frames_in_order():
    source = SimulatedSource(timeout=0.01)
    source.push(_image(1), 0.0)
    source.push(_image(2), 0.1)
    assert [int(source.read().image[0, 0, 0]) for _ in range(2)] == [1, 2]
    with pytest.raises(SourceError, match="no frame pushed"):
        source.read()
    source.close()
    with pytest.raises(EndOfSource):
        source.read()


def test_simulated_source_with_a_producer_ends_when_it_returns_none():
    clock = iter([0.0, 0.1, 0.2, 0.3])
    images = iter([_image(5), _image(6), None])
    with SimulatedSource(lambda t: next(images), clock=lambda: next(clock)) as source:
        frames = list(source)
    assert [f.timestamp for f in frames] == [0.0, 0.1]


def test_sim_spec_opens_a_simulated_source():
    assert isinstance(open_source("sim"), SimulatedSource)


class FakePicamera2:
    """Just enough of picamera2.Picamera2 to follow what the source asks of it."""

    cameras: ClassVar[list[dict]] = [{"Model": "imx708", "Num": 0}]
    instances: ClassVar[list[FakePicamera2]] = []
    camera_controls: ClassVar[dict[str, tuple]] = {"AfMode": (0, 2, 0),
                                                   "ExposureTime": (1, 100000, None)}

    def __init__(self, camera_num: int = 0) -> None:
        self.camera_num = camera_num
        self.calls: list[tuple] = []
        FakePicamera2.instances.append(self)

    def autofocus_cycle(self) -> bool:
        self.calls.append(("autofocus_cycle",))
        return True

    @classmethod
    def global_camera_info(cls) -> list[dict]:
        return cls.cameras

    def create_video_configuration(self, main: dict, controls: dict) -> dict:
        self.calls.append(("create_video_configuration", main, controls))
        return {"main": main, "controls": controls}

    def configure(self, config: dict) -> None:
        self.calls.append(("configure", config))

    def start(self) -> None:
        self.calls.append(("start",))

    def capture_metadata(self) -> dict:
        return {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": [1.6, 1.9]}

    def set_controls(self, controls: dict) -> None:
        self.calls.append(("set_controls", controls))

    def capture_array(self, stream: str) -> np.ndarray:
        size = self.calls[0][1]["size"]
        return np.full((size[1], size[0], 3), 77, np.uint8)

    def stop(self) -> None:
        self.calls.append(("stop",))

    def close(self) -> None:
        self.calls.append(("close",))


@pytest.fixture
def fake_picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    FakePicamera2.instances = []
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return FakePicamera2


def test_picamera2_locks_exposure_and_white_balance_after_warm_up(fake_picamera2):
    settings = CameraSettings(width=320, height=240, fps=5, warmup_s=0.0)
    with Picamera2Source(0, settings) as source:
        frame = source.read()
    camera = fake_picamera2.instances[0]
    _, main, controls = camera.calls[0]
    assert main == {"size": (320, 240), "format": "RGB888"}
    assert controls == {"FrameDurationLimits": (200000, 200000)}
    locked = next(call[1] for call in camera.calls if call[0] == "set_controls")
    assert locked == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000,
                      "AnalogueGain": 2.5, "ColourGains": (1.6, 1.9)}
    assert frame.image.shape == (240, 320, 3)
    assert camera.calls[-2:] == [("stop",), ("close",)]


def test_picamera2_focuses_once_when_it_starts_and_keeps_the_lens_there(fake_picamera2):
    Picamera2Source(0, CameraSettings(warmup_s=0.0)).close()
    calls = [call[0] for call in fake_picamera2.instances[0].calls]
    assert calls.count("autofocus_cycle") == 1
    assert calls.index("start") < calls.index("autofocus_cycle") < calls.index("set_controls")
    # No continuous autofocus is asked for: the lens stays where the one cycle put it.
    assert not any("AfMode" in call[1] for call in fake_picamera2.instances[0].calls
                   if call[0] == "set_controls")


def test_picamera2_without_autofocus_or_told_not_to_focus_does_not(fake_picamera2,
                                                                   monkeypatch):
    Picamera2Source(0, CameraSettings(warmup_s=0.0, focus_once=False)).close()
    monkeypatch.setattr(fake_picamera2, "camera_controls", {"ExposureTime": (1, 100000, None)})
    Picamera2Source(0, CameraSettings(warmup_s=0.0)).close()  # a fixed-focus camera
    for camera in fake_picamera2.instances:
        assert ("autofocus_cycle",) not in camera.calls


def test_picamera2_without_lock_keeps_automatic_exposure(fake_picamera2):
    Picamera2Source(0, CameraSettings(lock_exposure=False)).close()
    assert not any(c[0] == "set_controls" for c in fake_picamera2.instances[0].calls)


def test_picamera2_spec_and_missing_camera(fake_picamera2, monkeypatch):
    source = open_source("picamera2", CameraSettings(warmup_s=0.0))
    assert isinstance(source, Picamera2Source) and source.name == "picamera2:0"
    source.close()
    monkeypatch.setattr(fake_picamera2, "cameras", [])
    with pytest.raises(SourceError, match="picamera2:0: no such camera"):
        open_source("picamera2")


def test_picamera2_library_missing_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(SourceError, match="apt install python3-picamera2"):
        open_source("picamera2:1")
