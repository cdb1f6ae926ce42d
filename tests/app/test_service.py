"""The companion under systemd: READY, watchdog pings while healthy, clean SIGTERM stop."""

from __future__ import annotations

import configparser
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from companion.service import Service
from tests.conftest import REPO


def receive(sock: socket.socket, until: str, timeout_s: float = 20) -> list[str]:
    """sd_notify datagrams received until one contains `until`."""
    messages: list[str] = []
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        sock.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            messages.append(sock.recv(4096).decode())
        except TimeoutError:
            break
        if until in messages[-1]:
            return messages
    raise AssertionError(f"no {until!r} within {timeout_s} s; got {messages}")


@pytest.fixture
def notify_socket(tmp_path: Path):
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        yield sock, str(path)


def test_run_notifies_ready_pings_watchdog_and_stops_on_sigterm(notify_socket,
                                                                tmp_path: Path) -> None:
    sock, path = notify_socket
    env = {**os.environ, "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "400000",
           "DOG_STATE_DIR": str(tmp_path / "state")}
    process = subprocess.Popen([sys.executable, "-m", "companion", "run", "--port", "0",
                                "--host", "127.0.0.1"], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        ready = receive(sock, "READY=1")[-1]
        assert re.search(r"STATUS=serving http://127\.0\.0\.1:\d+/ \(simulated table\)", ready)
        receive(sock, "WATCHDOG=1")
        receive(sock, "WATCHDOG=1")
        process.send_signal(signal.SIGTERM)
        receive(sock, "STOPPING=1")
        out, err = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "Page: http://127.0.0.1:" in out and "stopped" in out
    assert re.search(r"Referee PIN: \d{6} ", out)
    assert (tmp_path / "state" / "journal.sqlite").is_file()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_a_stop_with_a_page_open_ends_its_stream_at_once(tmp_path: Path, stop: int) -> None:
    """A page's event stream holds a server thread; on SIGTERM or Ctrl-C the stream ends at
    once (the server does not wait for its thread, waitress's "thread(s) still running"), and
    the server closes only after the thread has finished."""
    import urllib.request

    env = {**os.environ, "DOG_STATE_DIR": str(tmp_path / "state")}
    process = subprocess.Popen([sys.executable, "-m", "companion", "run", "--port", "0",
                                "--host", "127.0.0.1"], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        page = next(line for line in process.stdout if line.startswith("Page: ")).split()[1]
        with urllib.request.urlopen(page + "api/events", timeout=10) as events:
            assert events.readline().startswith(b"retry:")  # the stream is open
            process.send_signal(stop)
            out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "stopped" in out
    assert "Traceback" not in err and "ERROR" not in err, err
    assert "still running" not in err, err


class RecordingService(Service):
    def __init__(self, environ: dict[str, str]) -> None:
        super().__init__(environ)
        self.sent: list[str] = []

    def notify(self, message: str) -> None:
        self.sent.append(message)


def test_watchdog_is_not_pinged_while_unhealthy() -> None:
    service = RecordingService({"WATCHDOG_USEC": "20000"})
    thread = service.start_watchdog(lambda: False)
    assert thread is not None
    time.sleep(0.1)
    service.stopping()
    thread.join(timeout=2)
    assert "WATCHDOG=1" not in service.sent
    assert service.sent == ["STOPPING=1"]


def test_outside_systemd_nothing_is_sent() -> None:
    service = Service({})
    assert service.watchdog_s is None
    assert service.start_watchdog(lambda: True) is None
    service.ready("ok")     # no socket, no error


def test_unit_file_is_a_notify_service_with_a_watchdog() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str      # type: ignore[assignment,method-assign]
    unit.read(REPO / "systemd" / "dog-companion.service")
    service = unit["Service"]
    assert service["Type"] == "notify"
    assert int(service["WatchdogSec"]) > 0
    assert service["Restart"] == "on-failure"
    assert service["ExecStart"].endswith("/.venv/bin/dog-companion run")
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def unit_service() -> configparser.SectionProxy:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str      # type: ignore[assignment,method-assign]
    unit.read(REPO / "systemd" / "dog-companion.service")
    return unit["Service"]


def test_unit_runs_as_its_own_user_with_a_state_directory() -> None:
    service = unit_service()
    assert service["User"] == "dog-companion"
    assert service["SupplementaryGroups"].split() == ["video", "gpio", "spi"]
    assert service["StateDirectory"] == "dog-companion"


@pytest.mark.parametrize(("key", "value"), [
    ("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"), ("ProtectHome", "read-only"),
    ("PrivateTmp", "yes"), ("ProtectKernelModules", "yes"), ("RestrictSUIDSGID", "yes"),
    ("CapabilityBoundingSet", ""), ("UMask", "0077"),
])
def test_unit_is_hardened(key: str, value: str) -> None:
    assert unit_service()[key] == value


def test_install_script_writes_the_unit_for_this_checkout(tmp_path: Path) -> None:
    env = {**os.environ, "DOG_INSTALL_ROOT": str(tmp_path), "DOG_INSTALL_WS281X": "1"}
    result = subprocess.run([str(REPO / "systemd" / "install.sh")], env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    unit = tmp_path / "etc" / "systemd" / "system" / "dog-companion.service"
    text = unit.read_text()
    assert "@DIR@" not in text and f"ExecStart={REPO}/.venv/bin/dog-companion run" in text
    drop_in = unit.with_suffix(".service.d") / "ws281x-root.conf"
    assert "User=root" in drop_in.read_text()
    if shutil.which("systemd-analyze"):
        verify = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                                text=True, timeout=60)
        assert verify.returncode == 0, verify.stderr


def test_run_refuses_a_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "companion", "run", "--host",
                                 "127.0.0.1", "--port", str(port), "--state-dir",
                                 str(tmp_path)],
                                capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr


def test_run_refuses_an_unknown_board() -> None:
    result = subprocess.run([sys.executable, "-m", "companion", "run", "--board", "chess"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "dog-companion run: board 'chess': no such profile (shipped: brandi-4, brandi-6) or file"]


def test_run_refuses_an_unknown_config_key(tmp_path: Path) -> None:
    config = tmp_path / "dog.toml"
    config.write_text('port = 8081\ncolour = "red"\n')
    result = subprocess.run([sys.executable, "-m", "companion", "run", "--config", str(config)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "unknown key 'colour'" in result.stderr and "Traceback" not in result.stderr


def test_a_later_start_says_where_the_pin_came_from(tmp_path: Path, monkeypatch: Any,
                                                     capsys: Any) -> None:
    from companion import cli
    from companion.commands import run

    monkeypatch.setattr(run, "start", lambda config, profile, pin: 0)
    monkeypatch.delenv("DOG_REFEREE_PIN", raising=False)
    arguments = ["run", "--state-dir", str(tmp_path / "state")]
    assert cli.main(arguments) == 0
    assert re.search(r"Referee PIN: \d{6} \(made now", capsys.readouterr().out)
    assert cli.main(arguments) == 0
    assert "Referee PIN: as printed on the first start" in capsys.readouterr().out
