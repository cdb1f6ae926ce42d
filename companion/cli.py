"""The `dog-companion` command line.

Sub-commands live in their own modules and are imported only when called, so that
`dog-companion rules …` loads neither OpenCV nor Flask. Each module offers
`configure(parser)`, which adds its arguments and sets `handler(args) -> exit code`.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("companion.commands.run", "start the companion: camera, LEDs and the referee page"),
    "demo": ("companion.commands.demo", "bots play a whole game at the simulated table, live "
             "on the referee page"),
    "games": ("companion.commands.games", "list, show, export and import the journal's games"),
    "rules": ("companion.commands.rules", "legal moves, the referee's check, positions as text"),
    "vision": ("vision.cli", "read the board from a photo or camera, print the marker sheet"),
    "leds": ("firmware_bridge.cli", "test the LED strip and light holes by hand"),
    "version": ("companion.commands.version", "print the version"),
}


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: what is wrong and where to look."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser(command: str | None = None) -> Parser:
    """The top-level parser; only `command`'s own module is imported and configured."""
    parser = Parser(
        prog="dog-companion",
        description="Dog Companion: a refereed table for the board game Dog.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name, (module, help_text) in COMMANDS.items():
        command_parser = sub.add_parser(name, help=help_text, description=help_text)
        if name == command:
            importlib.import_module(module).configure(command_parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    # The companion's arrays are small: one BLAS thread is fastest, and threads spinning
    # beside the camera and the web server would only slow them (set before numpy loads).
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    args_list = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in args_list if not a.startswith("-")), None)
    parser = build_parser(command if command in COMMANDS else None)
    args = parser.parse_args(args_list)
    handler = getattr(args, "handler", None)
    if handler is None:
        if args.command is not None:
            parser.error(f"'{args.command}' needs a sub-command")
        parser.print_help()
        return 0
    try:
        code = int(handler(args))
        sys.stdout.flush()  # a reader that went away shows here, not at exit
        return code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Whoever read the output stopped (`… | head`): nothing more to say, no traceback
        # (stdout goes to /dev/null, so that flushing it at exit fails no more).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as a shell reports a command ended by SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
