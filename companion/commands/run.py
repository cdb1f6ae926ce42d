"""`dog-companion run`: start the table (journal, LEDs, buttons, camera) and serve the page."""

from __future__ import annotations

import argparse
import logging
import os
import socket
import sys
import urllib.request
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.sim.live import LiveTable
    from companion.table import RefereePin, Table
    from companion.table.config import Config

log = logging.getLogger("dog-companion")


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of `run`; each wins over the config file and the environment."""
    parser.add_argument("--config", metavar="FILE",
                        help="TOML configuration file (see docs/table.md)")
    parser.add_argument("--board", help="board profile name or path (default: brandi-4, env "
                                        "DOG_BOARD)")
    parser.add_argument("--host", help="address to listen on (default: all, so phones at the "
                                       "table can connect; env DOG_HOST)")
    parser.add_argument("--port", type=int, help="port of the page (default: 8080, env "
                                                 "DOG_PORT)")
    parser.add_argument("--language", choices=("de", "en"),
                        help="default language of the page (default: de, env DOG_LANGUAGE)")
    parser.add_argument("--state-dir", dest="state_dir", metavar="DIR",
                        help="folder of the journal (env DOG_STATE_DIR, default: systemd's "
                             "STATE_DIRECTORY, else ~/.local/state/dog-companion)")
    parser.add_argument("--camera", help="camera spec: picamera2, usb:N, URL, file, folder or "
                                         "sim (env DOG_CAMERA)")
    parser.add_argument("--settle", dest="settle_s", type=float, metavar="SECONDS",
                        help="how long a reading must stay unchanged before it is judged "
                             "(default: 1.5)")
    parser.set_defaults(handler=run)


def probe_camera(spec: str | None) -> str:
    """The camera spec that opens here (`spec`, `$DOG_CAMERA`, else the Pi camera), or
    `sim` with a log line saying why not."""
    from vision.sources import SourceError, default_spec, open_source

    spec = spec or default_spec()
    if spec == "sim":
        log.info("camera: none configured or installed, the simulated table provides frames")
        return "sim"
    try:
        with open_source(spec):
            return spec
    except SourceError as err:
        log.warning("camera: %s; the simulated table provides frames", err)
        return "sim"


def lan_address() -> str | None:
    """This machine's address on the local network, if its name resolves to one."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    addresses = [str(info[4][0]) for info in infos if not str(info[4][0]).startswith("127.")]
    return addresses[0] if addresses else None


def page_answers(url: str, timeout_s: float = 2.0) -> bool:
    """True when the page's health check answers in time."""
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def fail(message: str) -> int:
    """One line on stderr, exit code 2."""
    print(f"dog-companion run: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Start the table and serve the page until Ctrl-C or SIGTERM."""
    from companion.table.config import ConfigError, load
    from hw import ProfileError, load_profile

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    from companion.commands.malloc import limit_malloc

    limit_malloc()
    options = {key: getattr(args, key) for key in ("board", "host", "port", "language",
                                                   "state_dir", "camera", "settle_s")}
    try:
        config = load(args.config, os.environ, options)
        profile = load_profile(config.board)
    except (ConfigError, ProfileError) as err:
        return fail(str(err))
    try:
        config.state_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        return fail(f"cannot use the state directory {config.state_dir} ({err.strerror})")
    from companion.store import StoreError
    from companion.table import RefereePin

    try:
        pin, new_pin = RefereePin.load_or_create(config.state_dir,
                                                 os.environ.get("DOG_REFEREE_PIN"))
    except (OSError, ValueError) as err:
        return fail(f"referee PIN: {err}")
    if new_pin is not None:
        print(f"Referee PIN: {new_pin} (made now; only its hash is kept in "
              f"{config.state_dir})", flush=True)
        log.info("referee PIN made on first start: %s", new_pin)
    elif "DOG_REFEREE_PIN" not in os.environ:
        print("Referee PIN: as printed on the first start (forgotten? start once with "
              "DOG_REFEREE_PIN=<new PIN>)", flush=True)
    try:
        return start(config, profile, pin)
    except StoreError as err:
        return fail(str(err))


def start(config: Config, profile: Any, pin: RefereePin) -> int:
    """Open LEDs, buttons, camera and the table; serve until stopped."""
    from companion.table import Table
    from companion.table.buttons import ButtonDriver
    from companion.table.camera import CameraLoop, open_camera
    from firmware_bridge.animator import Animator
    from firmware_bridge.buttons import ButtonConfig, open_buttons
    from firmware_bridge.config import LedConfig
    from firmware_bridge.strip import LedBackendError, open_strip

    try:
        led_config = LedConfig(**config.leds)
        bounce = config.button_bounce_s
        buttons_config = (ButtonConfig.parse(config.buttons) if bounce is None
                          else ButtonConfig.parse(config.buttons, bounce))
    except (TypeError, ValueError) as err:
        return fail(str(err))
    with ExitStack() as stack:
        try:
            strip = stack.enter_context(open_strip(led_config, led_count=profile.led_count))
        except LedBackendError as err:
            return fail(f"LEDs: {err}")
        animator = stack.enter_context(Animator(strip))
        camera_spec = probe_camera(config.camera)
        hardware = {"camera": camera_spec, "leds": strip.backend}
        simulated = camera_spec == "sim" and strip.backend in ("sim", "none")
        table = Table(profile, simulated=simulated, hardware=hardware,
                      state_dir=config.state_dir, leds=animator, settle_s=config.settle_s,
                      snapshot_limit_bytes=int(config.snapshot_limit_mb * 2 ** 20))
        strip.add_listener(lambda shown: table.mirror_leds(shown.colors))
        panel = stack.enter_context(open_buttons(buttons_config))
        stack.enter_context(ButtonDriver(table, panel))
        live = None
        if camera_spec == "sim":
            # No camera: companion.sim's virtual board is the camera (its own CameraLoop),
            # following the table, with the demo's bot games ready to start from the page.
            from companion.sim.live import LiveTable

            live = stack.enter_context(LiveTable(table))
        else:
            source = open_camera(camera_spec, table, config.camera_size, config.camera_fps)
            stack.enter_context(CameraLoop(table, source, simulated=False))
        return serve(config, table, pin, live)
    return 0


def serve(config: Config, table: Table, pin: RefereePin, live: LiveTable | None = None) -> int:
    """Serve the page for a table; tell systemd how it goes."""
    from companion.service import Service
    from companion.web import create_app
    from companion.web.server import close_server, create_server, stop_on_signals

    profile, hardware, simulated = table.profile, table.hardware, table.simulated
    app = create_app(table, {"DEFAULT_LANGUAGE": config.language,
                             "STATE_DIR": str(config.state_dir)}, pin=pin)
    if live is not None:  # the simulated table: the demo's endpoints (docs/sim.md)
        from companion.commands.demo import add_demo

        add_demo(app, live)
    try:
        server = create_server(app, config.host, config.port)
    except OSError as err:
        table.close()
        return fail(f"cannot listen on {config.host}:{config.port} ({err.strerror}); "
                    "choose another port with --port")
    everywhere = config.host in ("0.0.0.0", "")
    page = f"http://{'127.0.0.1' if everywhere else config.host}:{server.effective_port}/"
    kind = "simulated table" if simulated else "table"
    print(f"Dog Companion: {kind} with board {profile.name} "
          f"(camera: {hardware['camera']}, LEDs: {hardware['leds']}, journal: "
          f"{config.state_dir})")
    print(f"Page: {page}", flush=True)
    address = lan_address() if everywhere else None
    if address:
        app.config["PUBLIC_URL"] = f"http://{address}:{server.effective_port}"  # seat QR codes
        print(f"At the table: http://{address}:{server.effective_port}/", flush=True)
    service = Service()
    stop_on_signals(app)
    service.start_watchdog(lambda: page_answers(page + "healthz"))
    service.ready(f"serving {page} ({kind})")
    try:
        server.run()        # until Ctrl-C or SIGTERM
    finally:
        service.stopping()
        table.close()       # ends the pages' event streams
        close_server(server)
    print("Dog Companion stopped.")
    return 0
