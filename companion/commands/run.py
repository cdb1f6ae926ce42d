"""`dog-companion run`: start the table and serve the referee page."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import sys
import urllib.request
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.table import Table

DEFAULT_PORT = 8080
log = logging.getLogger("dog-companion")


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of `run`."""
    parser.add_argument("--board", default=os.environ.get("DOG_BOARD", "brandi-4"),
                        help="board profile name or path (default: brandi-4, env DOG_BOARD)")
    parser.add_argument("--host", default=os.environ.get("DOG_HOST", "0.0.0.0"),
                        help="address to listen on (default: all, so phones at the table "
                             "can connect; env DOG_HOST)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("DOG_PORT", DEFAULT_PORT)),
                        help=f"port of the page (default: {DEFAULT_PORT}, env DOG_PORT)")
    parser.add_argument("--language", choices=("de", "en"),
                        default=os.environ.get("DOG_LANGUAGE", "de"),
                        help="default language of the page (default: de)")
    parser.set_defaults(handler=run)


def probe_camera() -> str:
    """The camera spec that opens here (`$DOG_CAMERA`, else the Pi camera), or
    `sim` with a log line saying why not."""
    from vision.sources import SourceError, default_spec, open_source

    spec = default_spec()
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


def stop_on_sigterm() -> None:
    """systemd stops services with SIGTERM: end the server the way Ctrl-C does."""
    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def run(args: argparse.Namespace) -> int:
    """Start the table and serve the page until Ctrl-C or SIGTERM."""
    from hw import ProfileError, load_profile

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        profile = load_profile(args.board)
    except ProfileError as err:
        print(f"dog-companion run: {err}", file=sys.stderr)
        return 2

    from companion.table import Table
    from firmware_bridge.strip import open_strip

    with open_strip(led_count=profile.led_count) as strip:
        hardware = {"camera": probe_camera(), "leds": strip.backend}
        simulated = hardware["camera"] == "sim" and hardware["leds"] in ("sim", "none")
        table = Table(profile, simulated=simulated, hardware=hardware)
        strip.add_listener(lambda shown: table.mirror_leds(shown.colors))
        return serve(args, table)


def serve(args: argparse.Namespace, table: Table) -> int:
    """Serve the page for a table; tell systemd how it goes."""
    import waitress

    from companion.service import Service
    from companion.web import create_app

    profile, hardware, simulated = table.profile, table.hardware, table.simulated
    app = create_app(table, {"DEFAULT_LANGUAGE": args.language})
    try:
        server = waitress.create_server(app, host=args.host, port=args.port, threads=16,
                                        ident="dog-companion")
    except OSError as err:
        print(f"dog-companion run: cannot listen on {args.host}:{args.port} ({err.strerror}); "
              "choose another port with --port", file=sys.stderr)
        return 2
    everywhere = args.host in ("0.0.0.0", "")
    page = f"http://{'127.0.0.1' if everywhere else args.host}:{server.effective_port}/"
    kind = "simulated table" if simulated else "table"
    print(f"Dog Companion: {kind} with board {profile.name} "
          f"(camera: {hardware['camera']}, LEDs: {hardware['leds']})")
    print(f"Page: {page}", flush=True)
    address = lan_address() if everywhere else None
    if address:
        print(f"At the table: http://{address}:{server.effective_port}/", flush=True)
    service = Service()
    stop_on_sigterm()
    service.start_watchdog(lambda: page_answers(page + "healthz"))
    service.ready(f"serving {page} ({kind})")
    try:
        server.run()        # until Ctrl-C or SIGTERM
    finally:
        service.stopping()
        table.close()
        server.close()
    print("Dog Companion stopped.")
    return 0
