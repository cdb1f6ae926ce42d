"""`dog-companion demo`: bots play a whole game at the simulated table, live on the page.

The table, its journal, the simulated LED strip, the referee page and its API are the real
ones (INTERFACES.md section 5 applies unchanged); the camera is a virtual board
(`companion.sim.live.LiveTable`) whose marbles the bots' hands move. The demo's own endpoints
(``/api/demo…``, :data:`bp`) start a bot game and hand seats to people and back; ``run``
serves them too when it runs the simulated table.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from flask import Blueprint, Flask

    from companion.sim.live import LiveTable

DEFAULT_PORT = 8080
log = logging.getLogger("dog-companion")


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of `demo`."""
    parser.add_argument("--board", default=os.environ.get("DOG_BOARD", "brandi-4"),
                        help="board profile: brandi-4 (four bots) or brandi-6 (six bots)")
    parser.add_argument("--rules", default="swiss", choices=("swiss", "schmidt"),
                        help="rule set (default: swiss)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the cards and the bots' choices (default: 1)")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="how fast the bots play (1: calm players, 4: four times as fast)")
    parser.add_argument("--cheat", type=float, default=0.1,
                        help="probability of an illegal move per turn (default: 0.1)")
    parser.add_argument("--bots", default="heuristic", choices=("heuristic", "random"),
                        help="which bots play (default: heuristic)")
    parser.add_argument("--host", default=os.environ.get("DOG_HOST", "0.0.0.0"),
                        help="address to listen on (default: all)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("DOG_PORT",
                                                                       DEFAULT_PORT)),
                        help=f"port of the page (default: {DEFAULT_PORT})")
    parser.add_argument("--language", choices=("de", "en"),
                        default=os.environ.get("DOG_LANGUAGE", "de"),
                        help="default language of the page (default: de)")
    parser.add_argument("--state-dir", dest="state_dir", metavar="DIR",
                        help="folder of the journal (default: DOG_STATE_DIR, else systemd's "
                             "STATE_DIRECTORY, else ~/.local/state/dog-companion)")
    parser.add_argument("--size", default="640x480",
                        help="size of the virtual camera's frames (default: 640x480)")
    parser.set_defaults(handler=run)


def fail(message: str) -> int:
    """One line on stderr, exit code 2."""
    print(f"dog-companion demo: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Serve the page while the bots play; until Ctrl-C."""
    from pathlib import Path

    from companion.commands.malloc import limit_malloc
    from companion.sim.live import DemoError, DemoOptions
    from companion.table.config import default_state_dir
    from hw import ProfileError, load_profile

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    limit_malloc()
    try:
        profile = load_profile(args.board)
    except ProfileError as err:
        return fail(str(err))
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
        if min(width, height) < 160:
            raise ValueError
    except ValueError:
        return fail(f"--size {args.size!r} is not WIDTHxHEIGHT (at least 160x160)")
    try:
        options = DemoOptions(args.rules, args.seed, args.bots, args.cheat, args.speed).checked()
    except DemoError as err:
        return fail(str(err))
    state_dir = Path(args.state_dir).expanduser() if args.state_dir else default_state_dir(
        os.environ)
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        return fail(f"cannot use the state directory {state_dir} ({err.strerror})")
    return serve(profile, state_dir, options, (width, height), args)


def serve(profile: Any, state_dir: Any, options: Any, size: tuple[int, int],
          args: argparse.Namespace) -> int:
    """Open the simulated strip, the table and the virtual board; play and serve."""
    from companion.sim.live import LiveTable
    from companion.table import RefereePin, Table
    from companion.web import create_app
    from companion.web.server import close_server, create_server, stop_on_signals
    from firmware_bridge.animator import Animator
    from firmware_bridge.config import LedConfig
    from firmware_bridge.strip import open_strip
    from vision.render import RenderConditions

    pin, new_pin = RefereePin.load_or_create(state_dir, os.environ.get("DOG_REFEREE_PIN"))
    if new_pin is not None:
        print(f"Referee PIN: {new_pin} (made now; only its hash is kept in {state_dir})",
              flush=True)
    with open_strip(LedConfig(backend="sim"), led_count=profile.led_count) as strip, \
            Animator(strip) as animator:
        table = Table(profile, simulated=True, hardware={"camera": "virtual",
                                                          "leds": strip.backend},
                      state_dir=state_dir, leds=animator)
        strip.add_listener(lambda shown: table.mirror_leds(shown.colors))
        conditions = RenderConditions(width=size[0], height=size[1], noise_sigma=1.5,
                                      jpeg_quality=90)
        with LiveTable(table, conditions=conditions, seed=options.seed) as live:
            app = create_app(table, {"DEFAULT_LANGUAGE": args.language,
                                     "STATE_DIR": str(state_dir)}, pin=pin)
            add_demo(app, live)
            try:
                server = create_server(app, args.host, args.port)
            except OSError as err:
                table.close()
                return fail(f"cannot listen on {args.host}:{args.port} ({err.strerror}); "
                            "choose another port with --port")
            live.start_game(options)
            host = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
            print(f"Dog Companion demo: {len(profile.default_colors)} seats, board "
                  f"{profile.name}, {options.bots} bots, cheat {options.cheat}, speed "
                  f"{options.speed}", flush=True)
            print(f"Page: http://{host}:{server.effective_port}/", flush=True)
            stop_on_signals(app)
            try:
                server.run()
            except KeyboardInterrupt:
                pass
            finally:
                table.close()  # ends the pages' event streams
                close_server(server)
    print("Dog Companion demo stopped.")
    return 0


def add_demo(app: Flask, live: LiveTable) -> None:
    """Serve the demo's endpoints (``/api/demo…``) for ``live`` in ``app``."""
    app.extensions["dog_demo"] = live
    app.config["DOG_DEMO"] = True       # the page loads demo.js and its seat section
    app.register_blueprint(blueprint())


def blueprint() -> Blueprint:
    """The demo's endpoints (see docs/sim.md)."""
    from flask import Blueprint, Response, current_app, jsonify
    from werkzeug.exceptions import Forbidden

    from companion.sim.live import DemoError, DemoOptions
    from companion.web.auth import current_access, referee_only
    from companion.web.security import error, json_body

    bp = Blueprint("demo", __name__, url_prefix="/api/demo")

    def live() -> LiveTable:
        return cast("LiveTable", current_app.extensions["dog_demo"])

    def seat_or_referee(player: int) -> None:
        access = current_access()
        if not access.referee and access.seat != player:
            raise Forbidden(f"this needs seat {player} (join it by its QR code) or the "
                            "referee PIN")

    def guarded(action: Any) -> Response:
        try:
            return jsonify(action())
        except DemoError as err:
            return error(409, str(err))

    @bp.get("")
    def status() -> Response:
        """Whether bots play, which players are bots and which people."""
        return jsonify(live().status())

    @bp.post("/start")
    @referee_only
    def start() -> Response:
        """Start a bot game: ``{"rules", "seed", "bots", "cheat", "speed"}`` (all optional)."""
        body = json_body({"rules": str, "seed": int, "bots": str, "cheat": (int, float),
                          "speed": (int, float)})
        defaults = DemoOptions()
        options = DemoOptions(body.get("rules", defaults.rules), body.get("seed", defaults.seed),
                              body.get("bots", defaults.bots),
                              float(body.get("cheat", defaults.cheat)),
                              float(body.get("speed", defaults.speed)))
        return guarded(lambda: live().start_game(options))

    @bp.post("/seats/<int:player>/take")
    def take(player: int) -> Response:
        """A person plays this player from now on (the seat itself or the referee)."""
        json_body({})
        seat_or_referee(player)
        return guarded(lambda: live().take_seat(player))

    @bp.post("/seats/<int:player>/release")
    def release(player: int) -> Response:
        """The bot plays this player again."""
        json_body({})
        seat_or_referee(player)
        return guarded(lambda: live().release_seat(player))

    @bp.get("/seats/<int:player>")
    def seat(player: int) -> Response:
        """The player's hand and its legal moves: to that seat only."""
        if current_access().seat != player:
            raise Forbidden(f"only seat {player} sees its hand (join it by its QR code)")
        return guarded(lambda: live().seat(player))

    @bp.post("/seats/<int:player>/play")
    def play(player: int) -> Response:
        """``{"card": "7", "move": NOTATION}``: the hand moves the marbles of that move."""
        body = json_body({"card": str, "move": str}, required=("card", "move"))
        if current_access().seat != player:
            raise Forbidden(f"only seat {player} plays its cards")
        return guarded(lambda: live().play_for(player, body["card"], body["move"]))

    @bp.post("/seats/<int:player>/give")
    def give(player: int) -> Response:
        """``{"card": "A"}``: the card this seat passes to its partner in the exchange."""
        body = json_body({"card": str}, required=("card",))
        if current_access().seat != player:
            raise Forbidden(f"only seat {player} passes its cards")
        return guarded(lambda: live().give_for(player, body["card"]))

    return bp
