"""Backend choice by Pi model, and the ws281x and pi5 backends against faked libraries.

The real rpi_ws281x is never imported here: off a Pi it crashes the interpreter at exit.
"""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.config import BACKENDS, LedConfig
from firmware_bridge.strip import (
    BACKEND_CLASSES,
    LedBackendError,
    LedStrip,
    backend_class,
    backend_for_model,
    choose_backend,
    open_strip,
)
from tests.firmware_bridge import fakes


@pytest.fixture
def model_file(tmp_path: Path):
    def write(model: str | None) -> Path:
        path = tmp_path / "model"
        if model is not None:
            path.write_bytes(model.encode() + b"\x00")
        return path

    return write


@pytest.fixture
def ws281x(monkeypatch: pytest.MonkeyPatch):
    module = fakes.fake_rpi_ws281x()
    monkeypatch.setitem(sys.modules, "rpi_ws281x", module)
    return module


@pytest.fixture
def pi5neo(monkeypatch: pytest.MonkeyPatch):
    module = fakes.fake_pi5neo()
    monkeypatch.setitem(sys.modules, "pi5neo", module)
    return module


@pytest.fixture
def no_hardware_libraries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rpi_ws281x", None)
    monkeypatch.setitem(sys.modules, "pi5neo", None)


@pytest.fixture
def spi_device(tmp_path: Path) -> str:
    device = tmp_path / "spidev0.0"
    device.touch()
    return str(device)


@pytest.mark.parametrize(("model", "backend"), [
    ("Raspberry Pi 5 Model B Rev 1.0", "pi5"),
    ("Raspberry Pi 500 Rev 1.0", "pi5"),
    ("Raspberry Pi Compute Module 5 Rev 1.0", "pi5"),
    ("Raspberry Pi 4 Model B Rev 1.4", "ws281x"),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", "ws281x"),
    ("Raspberry Pi Zero 2 W Rev 1.0", "ws281x"),
    ("Raspberry Pi Zero W Rev 1.1", None),
    ("", None),
    ("Hardkernel ODROID-C4", None),
])
def test_backend_for_model(model: str, backend: str | None) -> None:
    assert backend_for_model(model) == backend


def test_auto_on_a_laptop_is_sim_and_says_why(model_file, caplog) -> None:
    caplog.set_level(logging.INFO, "firmware_bridge.strip")
    with open_strip(LedConfig(), led_count=80, model_path=model_file(None)) as strip:
        assert strip.backend == "sim" and strip.count == 80
    assert "no Pi" in caplog.text


def test_auto_on_a_pi4_uses_ws281x(model_file, ws281x) -> None:
    path = model_file("Raspberry Pi 4 Model B Rev 1.4")
    with open_strip(LedConfig(), led_count=80, model_path=path) as strip:
        assert strip.backend == "ws281x"


def test_auto_on_a_pi5_uses_pi5neo(model_file, pi5neo, spi_device) -> None:
    path = model_file("Raspberry Pi 5 Model B Rev 1.0")
    config = LedConfig(spi_device=spi_device)
    with open_strip(config, led_count=80, model_path=path) as strip:
        assert strip.backend == "pi5"


def test_auto_on_a_pi_without_library_falls_back_with_a_warning(
        model_file, no_hardware_libraries, caplog) -> None:
    path = model_file("Raspberry Pi 4 Model B Rev 1.4")
    with open_strip(LedConfig(), led_count=80, model_path=path) as strip:
        assert strip.backend == "sim"
    warning = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert warning and "pip install rpi_ws281x" in warning[0].getMessage()


def test_auto_on_a_pi5_without_spi_falls_back(model_file, pi5neo, caplog, tmp_path) -> None:
    path = model_file("Raspberry Pi 5 Model B Rev 1.0")
    config = LedConfig(spi_device=str(tmp_path / "missing"))
    with open_strip(config, led_count=80, model_path=path) as strip:
        assert strip.backend == "sim"
    assert "enable SPI" in caplog.text


def test_explicit_backend_without_library_names_the_package(
        model_file, no_hardware_libraries) -> None:
    path = model_file("Raspberry Pi 4 Model B Rev 1.4")
    with pytest.raises(LedBackendError, match="pip install rpi_ws281x"):
        open_strip(LedConfig(backend="ws281x"), led_count=80, model_path=path)


def test_ws281x_is_never_constructed_off_a_pi(model_file, ws281x) -> None:
    with pytest.raises(LedBackendError, match="Raspberry Pi 3/4/Zero 2"):
        open_strip(LedConfig(backend="ws281x"), led_count=80, model_path=model_file(None))
    with pytest.raises(LedBackendError, match="use pi5"):
        open_strip(LedConfig(backend="ws281x"), led_count=80,
                   model_path=model_file("Raspberry Pi 5 Model B Rev 1.0"))
    assert fakes.FakePixelStrip.instances == []


def test_pi5_is_refused_on_a_pi4_with_a_hint(model_file, pi5neo) -> None:
    with pytest.raises(LedBackendError, match=r"needs a Raspberry Pi 5.*use ws281x"):
        open_strip(LedConfig(backend="pi5"), led_count=80,
                   model_path=model_file("Raspberry Pi 4 Model B Rev 1.4"))
    assert fakes.FakePi5Neo.instances == []


@pytest.mark.parametrize("name", [name for name in BACKENDS if name != "auto"])
def test_every_backend_name_has_its_strip_class(name: str) -> None:
    cls = backend_class(name)
    assert issubclass(cls, LedStrip) and cls.backend == name
    assert set(BACKEND_CLASSES) == set(BACKENDS) - {"auto"}


def test_unknown_backend_name_is_named() -> None:
    with pytest.raises(ValueError, match=r"'auto'.*ws281x, pi5, sim, none"):
        backend_class("auto")


def test_the_strip_module_loads_no_backend_until_one_is_opened() -> None:
    code = ("import sys, firmware_bridge.strip as s\n"
            "print(sorted(m for m in sys.modules if m.startswith('firmware_bridge.backends.')))\n"
            "s.open_strip(s.LedConfig(backend='none'), led_count=3).close()\n"
            "print(sorted(m for m in sys.modules if m.startswith('firmware_bridge.backends.')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, check=True)
    assert result.stdout.splitlines() == ["[]", "['firmware_bridge.backends.none']"]


def test_choose_backend_keeps_an_explicit_choice() -> None:
    assert choose_backend(LedConfig(backend="none"), "")[0] == "none"
    assert choose_backend(LedConfig(backend="sim"), "Raspberry Pi 4 Model B")[0] == "sim"


def test_ws281x_builds_the_pixel_strip_and_pushes_frames(model_file, ws281x) -> None:
    path = model_file("Raspberry Pi 4 Model B Rev 1.4")
    config = LedConfig(backend="ws281x", gamma=1.0)
    with open_strip(config, led_count=4, model_path=path) as strip:
        pixels = fakes.FakePixelStrip.instances[0]
        assert pixels.began
        assert pixels.args == dict(num=4, pin=18, freq_hz=800_000, dma=10, invert=False,
                                   brightness=255, channel=0,
                                   strip_type=fakes.WS2811_STRIP_GRB)
        strip.set_frame({1: (0x11, 0x22, 0x33)})
        strip.show()
        assert pixels.shown[-1] == [0, 0x112233, 0, 0]
    assert pixels.shown[-1] == [0, 0, 0, 0], "closing darkens the strip"


@pytest.mark.parametrize(("pin", "order", "channel", "strip_type"), [
    (13, "RGB", 1, fakes.WS2811_STRIP_RGB),
    (10, "GRB", 0, fakes.WS2811_STRIP_GRB),
])
def test_ws281x_channel_and_colour_order(model_file, ws281x, pin, order, channel,
                                         strip_type) -> None:
    path = model_file("Raspberry Pi 3 Model B Rev 1.2")
    config = LedConfig(backend="ws281x", pin=pin, order=order)
    with open_strip(config, led_count=4, model_path=path):
        args = fakes.FakePixelStrip.instances[0].args
        assert (args["pin"], args["channel"], args["strip_type"]) == (pin, channel, strip_type)


def test_ws281x_refuses_a_pin_it_cannot_drive(model_file, ws281x) -> None:
    path = model_file("Raspberry Pi 4 Model B Rev 1.4")
    with pytest.raises(LedBackendError, match="GPIO 17"):
        open_strip(LedConfig(backend="ws281x", pin=17), led_count=4, model_path=path)
    assert fakes.FakePixelStrip.instances == []


def test_pi5_pushes_frames_without_sleeping(model_file, pi5neo, spi_device) -> None:
    path = model_file("Raspberry Pi 5 Model B Rev 1.0")
    config = LedConfig(backend="pi5", spi_device=spi_device, gamma=1.0)
    with open_strip(config, led_count=3, model_path=path) as strip:
        neo = fakes.FakePi5Neo.instances[0]
        assert (neo.spi_device, neo.num_leds, neo.spi_speed_khz) == (spi_device, 3, 800)
        assert neo.quiet_mode
        strip.set_frame({2: (10, 20, 30)})
        strip.show()
        assert neo.updates[-1] == ([(0, 0, 0), (0, 0, 0), (10, 20, 30)], None)


def test_pi5_swaps_red_and_green_for_an_rgb_strip(model_file, pi5neo, spi_device) -> None:
    path = model_file("Raspberry Pi 5 Model B Rev 1.0")
    config = LedConfig(backend="pi5", spi_device=spi_device, gamma=1.0, order="RGB")
    with open_strip(config, led_count=1, model_path=path) as strip:
        strip.set_frame({0: (10, 20, 30)})
        strip.show()
        assert fakes.FakePi5Neo.instances[0].leds[0] == (20, 10, 30)


def test_pi5_works_with_the_older_pi5neo(model_file, monkeypatch, spi_device) -> None:
    monkeypatch.setitem(sys.modules, "pi5neo", fakes.fake_pi5neo(fakes.OldFakePi5Neo))
    path = model_file("Raspberry Pi 5 Model B Rev 1.0")
    config = LedConfig(backend="pi5", spi_device=spi_device)
    with open_strip(config, led_count=2, model_path=path) as strip:
        strip.show()
        assert fakes.FakePi5Neo.instances[0].updates[-1][1] == "no-argument"


def test_pi5_without_permission_on_the_spi_device(model_file, pi5neo, spi_device,
                                                  monkeypatch) -> None:
    from firmware_bridge.backends import pi5

    monkeypatch.setattr(pi5.os, "access", lambda path, mode: False)
    path = model_file("Raspberry Pi 5 Model B Rev 1.0")
    with pytest.raises(LedBackendError, match="'spi' group"):
        open_strip(LedConfig(backend="pi5", spi_device=spi_device), led_count=2, model_path=path)
    assert fakes.FakePi5Neo.instances == []
