"""`dog-companion leds …`: walk the strip to check the wiring, light holes by hand, go dark.

    dog-companion leds test --board brandi-4 [--delay 0.3] [--backend auto]
    dog-companion leds show T5 H0.2 --color green [--board brandi-4] [--seconds 10]
    dog-companion leds off

Only the standard library is imported here; the strip code loads when a command runs. Without a
strip (or with `--backend sim`) the commands run on the simulated strip and say so.
Exit codes: 0 done, 1 the strip could not be opened, 2 bad input.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

BACKEND_CHOICES = ("auto", "ws281x", "pi5", "sim", "none")
DEFAULT_BOARD = "brandi-4"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the `test`, `show` and `off` sub-commands to `parser`."""
    actions = parser.add_subparsers(dest="leds_action", metavar="ACTION")

    test = actions.add_parser(
        "test", help="light one LED after the other and print the hole each belongs to",
        description="Walk the strip one LED at a time to check wiring and LED order.")
    _common(test)
    test.add_argument("--delay", type=_seconds, default=0.3, metavar="S",
                      help="seconds each LED stays lit (default 0.3)")
    test.add_argument("--color", default="white", help="colour of the walking LED (white)")
    test.set_defaults(handler=run_test)

    show = actions.add_parser(
        "show", help="light holes in a colour", description="Light the given holes.")
    show.add_argument("holes", nargs="+", metavar="HOLE", help="hole ids: T5, H0.2, …")
    _common(show)
    show.add_argument("--color", default="white", help="colour name or #rrggbb (white)")
    show.add_argument("--seconds", type=_seconds, default=None, metavar="S",
                      help="how long to keep them lit (default: until Ctrl-C; 0 on the sim)")
    show.set_defaults(handler=run_show)

    off = actions.add_parser("off", help="turn every LED dark", description="Blank the strip.")
    _common(off)
    off.set_defaults(handler=run_off)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board", default=DEFAULT_BOARD,
                        help=f"board profile name or file (default {DEFAULT_BOARD})")
    parser.add_argument("--backend", choices=BACKEND_CHOICES, default=None,
                        help="LED backend (default: $DOG_LEDS or auto)")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"{text!r} must be between 0 and 3600 seconds")
    return value


class _BadInput(Exception):
    """A one-line reason why the command cannot run (exit 2)."""


def run_test(args: argparse.Namespace) -> int:
    """Light every LED in turn, printing its index and hole."""
    try:
        profile = _profile(args.board)
        color = _color(args.color)
        holes_by_led = {h.led: h.id for h in profile.holes if h.led is not None}
        with _open(args, profile.led_count) as strip:
            print(f"walking {strip.count} LEDs of {profile.name} on {strip.backend}")
            for index in range(strip.count):
                strip.set_frame({index: color})
                strip.show()
                print(f"LED {index:3d}  {holes_by_led.get(index, '(no hole)')}", flush=True)
                time.sleep(args.delay)
            strip.off()
        print("done: every LED lit once")
        return 0
    except _BadInput as err:
        return _fail(2, err)
    except _StripUnavailable as err:
        return _fail(1, err)


def run_show(args: argparse.Namespace) -> int:
    """Light the given holes in one colour and keep them lit."""
    try:
        profile = _profile(args.board)
        color = _color(args.color)
        leds = {}
        for hole_id in args.holes:
            try:
                hole = profile.hole(hole_id)
            except ValueError:
                raise _BadInput(f"unknown hole {hole_id!r} on {profile.name}") from None
            if hole.led is None:
                print(f"{hole_id} has no LED (kennel holes are not lit)", file=sys.stderr)
            else:
                leds[hole_id] = hole.led
        with _open(args, profile.led_count) as strip:
            strip.set_frame({led: color for led in leds.values()})
            strip.show()
            for hole_id, led in leds.items():
                print(f"{hole_id} → LED {led} {args.color}")
            simulated = strip.backend in ("sim", "none")
            seconds = args.seconds if args.seconds is not None else 0.0 if simulated else None
            if seconds is None:
                print("lit until Ctrl-C", file=sys.stderr, flush=True)
                while True:
                    time.sleep(3600)
            else:
                time.sleep(seconds)
        return 0
    except _BadInput as err:
        return _fail(2, err)
    except _StripUnavailable as err:
        return _fail(1, err)


def run_off(args: argparse.Namespace) -> int:
    """Turn the whole strip dark."""
    try:
        profile = _profile(args.board)
        with _open(args, profile.led_count) as strip:
            strip.off()
            print(f"{strip.count} LEDs off ({strip.backend})")
        return 0
    except _BadInput as err:
        return _fail(2, err)
    except _StripUnavailable as err:
        return _fail(1, err)


class _StripUnavailable(Exception):
    """The strip asked for cannot be opened here (exit 1)."""


def _profile(board: str) -> Any:
    from hw import ProfileError, load_profile

    try:
        return load_profile(board)
    except ProfileError as err:
        raise _BadInput(str(err)) from None


def _color(text: str) -> tuple[int, int, int]:
    from firmware_bridge.colors import to_rgb

    try:
        return to_rgb(text)
    except ValueError as err:
        raise _BadInput(str(err)) from None


def _open(args: argparse.Namespace, led_count: int) -> Any:
    from firmware_bridge.config import LedConfig
    from firmware_bridge.strip import LedBackendError, open_strip

    try:
        config = LedConfig.from_env(backend=args.backend)
    except ValueError as err:
        raise _BadInput(str(err)) from None
    try:
        strip = open_strip(config, led_count=led_count)
    except (LedBackendError, ValueError) as err:
        raise _StripUnavailable(str(err)) from None
    if strip.backend == "sim":
        print(f"no LED strip in use: {strip.reason}", file=sys.stderr)
    return strip


def _fail(code: int, reason: Exception) -> int:
    print(f"dog-companion leds: error: {reason}", file=sys.stderr)
    return code
