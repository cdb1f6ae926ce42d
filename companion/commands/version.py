"""`dog-companion version`."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of `version`."""
    parser.set_defaults(handler=show_version)


def show_version(args: argparse.Namespace) -> int:
    """Print the installed version."""
    from companion import __version__

    print(f"dog-companion {__version__}")
    return 0
