"""Configuration (file, environment, options), the referee PIN and the buttons."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.table import RefereePin, Table
from companion.table.buttons import ButtonDriver
from companion.table.camera import open_camera
from companion.table.config import ConfigError, default_state_dir, load
from companion.table.pin import FILE_NAME
from firmware_bridge.buttons import ButtonConfig, ButtonPanel
from hw import BoardProfile, load_profile
from tests.table.conftest import moved, setup_request

FILE = """
board = "brandi-6"
port = 9000
settle_s = 2.5
[camera]
source = "usb:1"
[leds]
backend = "sim"
brightness = 0.5
[buttons]
confirm = 17
undo = 27
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "dog.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_file_then_environment_then_options(tmp_path: Path) -> None:
    path = write(tmp_path, FILE)
    config = load(path, {})
    assert (config.board, config.port, config.settle_s, config.camera) == (
        "brandi-6", 9000, 2.5, "usb:1")
    assert config.leds == {"backend": "sim", "brightness": 0.5}
    assert config.buttons == "confirm=17,undo=27"
    env = {"DOG_PORT": "9100", "DOG_LEDS": "none", "DOG_CAMERA": "sim",
           "DOG_BUTTONS": "next=23"}
    config = load(path, env)
    assert (config.port, config.camera, config.leds["backend"], config.buttons) == (
        9100, "sim", "none", "next=23")
    assert config.leds["brightness"] == 0.5
    config = load(path, env, {"port": 9200, "board": None})
    assert config.port == 9200 and config.board == "brandi-6"


@pytest.mark.parametrize(("text", "message"), [
    ("colour = 'red'", "unknown key 'colour'"),
    ("[camera]\nzoom = 2", "unknown key camera.zoom"),
    ("[buttons]\nhorn = 5", "unknown key buttons.horn"),
    ("port = 'x'", "port = 'x' must be a int"),
    ("port = 70000", "port 70000 is not a TCP port"),
    ("[leds]\nbrightness = 3.0", "brightness"),
    ("[buttons]\nconfirm = 99", "GPIO 99"),
    ("port = ", "not valid TOML"),
])
def test_bad_configuration_names_the_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError) as error:
        load(write(tmp_path, text), {})
    assert message in str(error.value)


def test_the_frame_size_follows_the_board_unless_configured(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.sources

    opened = []
    monkeypatch.setattr(vision.sources, "open_source",
                        lambda spec, settings: opened.append((settings.width, settings.height)))
    for board, size in (("brandi-4", (1280, 960)), ("brandi-6", (1640, 1232))):
        config = load(write(tmp_path, f'board = "{board}"'), {})
        assert config.camera_size is None
        open_camera("usb:0", SimpleNamespace(profile=load_profile(board)), config.camera_size,
                    config.camera_fps)
        assert opened.pop() == size
    config = load(write(tmp_path, 'board = "brandi-6"\n[camera]\nwidth = 1280\nheight = 960'), {})
    assert config.camera_size == (1280, 960)


def test_state_directory_default() -> None:
    assert default_state_dir({"DOG_STATE_DIR": "/x"}) == Path("/x")
    assert default_state_dir({"STATE_DIRECTORY": "/var/lib/dog-companion"}) == Path(
        "/var/lib/dog-companion")
    assert default_state_dir({}) == Path.home() / ".local" / "state" / "dog-companion"


def test_pin_is_made_once_and_stored_only_as_a_hash(tmp_path: Path) -> None:
    pin, new = RefereePin.load_or_create(tmp_path, None)
    assert new is not None and len(new) == 6 and new.isdigit()
    assert pin.check(new) and not pin.check("000000" if new != "000000" else "111111")
    assert new not in (tmp_path / FILE_NAME).read_text()
    assert (tmp_path / FILE_NAME).stat().st_mode & 0o077 == 0
    again, none = RefereePin.load_or_create(tmp_path, None)
    assert none is None and again.check(new)
    chosen, none = RefereePin.load_or_create(tmp_path, "4711")
    assert none is None and chosen.check("4711") and not chosen.check(new)


def test_buttons_drive_the_table(profile4: BoardProfile, tmp_path: Path) -> None:
    from gpiozero.pins.mock import MockFactory

    table = Table(profile4, state_dir=tmp_path)
    panel = ButtonPanel(ButtonConfig.parse("confirm=17,undo=27,cannot_play=22,next=23"),
                        pin_factory=MockFactory())
    with ButtonDriver(table, panel):
        state = table.setup(setup_request())
        panel.press("next")
        assert table.state()["exchange"] is False
        panel.press("undo")
        assert "undo" in table.state()["notice"]
        table.announce("A")
        table.observe(position=moved(state["position"], 1, ["K", "K", "K", "T16*"]))
        panel.press("undo")
        assert table.state()["undo_requested"] is True
        panel.press("cannot_play")
        assert table.state()["folded"] == [2]
        table.announce("A")
        panel.press("confirm")      # no camera: refused, shown, not raised
        assert "camera" in table.state()["notice"]
    panel.close()
