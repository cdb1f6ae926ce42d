"""`dog-companion vision …`: read a photo, watch a camera, print the marker sheet.

Only the standard library is imported here; OpenCV and numpy are imported by the handlers, so
that the top-level command starts fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the `read`, `watch` and `markers` sub-commands to the `vision` parser."""
    commands = parser.add_subparsers(dest="vision_command", metavar="COMMAND", required=True)

    read = commands.add_parser("read", help="read the board in one photo, print JSON")
    read.add_argument("image", metavar="IMAGE", help="photo of the board (PNG, JPEG, ...)")
    _board_options(read)
    read.add_argument("--debug", metavar="OUT.png", type=Path,
                      help="also write the photo with markers, holes and classes drawn on it")
    read.set_defaults(handler=run_read)

    watch = commands.add_parser("watch", help="print one JSON line per stable board reading")
    watch.add_argument("source", metavar="SOURCE",
                       help="picamera2, usb:N, a stream URL, an image, a folder or a video")
    _board_options(watch)
    watch.add_argument("--stable-ms", type=float, default=300.0,
                       help="how long a reading must stay unchanged (default 300)")
    watch.set_defaults(handler=run_watch)

    markers = commands.add_parser("markers", help="write the printable marker sheet (SVG)")
    markers.add_argument("--board", required=True, help="profile name or path to a profile JSON")
    markers.add_argument("--out", required=True, type=Path, metavar="FILE.svg")
    markers.set_defaults(handler=run_markers)


def _board_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board", required=True, help="profile name or path to a profile JSON")
    parser.add_argument("--reference", metavar="START_IMAGE",
                        help="photo of the start position (every marble in its kennel): the "
                             "seat colours are learnt from it")
    parser.add_argument("--seats", metavar="SEATS",
                        help="the seats that play, by colour or number, e.g. red,green or 0,2 "
                             "(default: every seat whose kennel shows marbles in the reference)")
    parser.add_argument("--colors", metavar="COLOURS",
                        help="the colour played at each seat, in seat order, '-' for a seat "
                             "nobody plays, e.g. blue,-,red,yellow (default: each kennel's "
                             "colour named by what it shows)")


class _BadInput(Exception):
    """Input the command cannot use; the message is printed as is."""


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _load_board(name: str) -> Any:
    from hw import ProfileError, load_profile

    try:
        return load_profile(name)
    except ProfileError as error:
        raise _BadInput(str(error)) from None


def _make_reader(args: argparse.Namespace) -> Any:
    from vision.locate import LocateError
    from vision.reader.board_reader import BoardReader, ReadError
    from vision.sources import SourceError, read_image

    profile = _load_board(args.board)
    reference = None
    if args.reference:
        try:
            reference = read_image(args.reference)
        except SourceError as error:
            raise _BadInput(f"--reference {error}") from None
    seats = None if args.seats is None else _parse_seats(profile, args.seats)
    colours = None if args.colors is None else [
        None if name.strip() in ("", "-") else name.strip() for name in args.colors.split(",")]
    if colours is not None and len(colours) > profile.seats:
        raise _BadInput(f"--colors {args.colors}: {len(colours)} colours for the "
                        f"{profile.seats} seats of {profile.name}")
    try:
        reader = BoardReader(profile, reference, seats=seats, colors=colours)
    except ReadError as error:
        if error.args and str(error).startswith("colors: "):
            raise _BadInput(f"--colors {args.colors}: {str(error)[len('colors: '):]}") from None
        raise _BadInput(f"--reference {args.reference}: {error}") from None
    except LocateError as error:
        raise _BadInput(f"--reference {args.reference}: {error}") from None
    for warning in reader.warnings:
        print(f"warning: --reference {args.reference}: {warning}", file=sys.stderr)
    return reader


def _parse_seats(profile: Any, text: str) -> list[int]:
    """``--seats red,green`` or ``0,2`` as seat numbers (`_BadInput` names a wrong one)."""
    colours = list(profile.default_colors[:profile.seats])
    seats = []
    for item in text.split(","):
        name = item.strip().lower()
        if name.isdigit() and int(name) < len(colours):
            seats.append(int(name))
        elif name in colours:
            seats.append(colours.index(name))
        else:
            raise _BadInput(f"--seats {text}: {item.strip()!r} is no seat of {profile.name} "
                            f"(seats 0 to {len(colours) - 1}: {', '.join(colours)})")
    if len(set(seats)) != len(seats):
        raise _BadInput(f"--seats {text}: a seat is named twice")
    return seats


def run_read(args: argparse.Namespace) -> int:
    """`vision read IMAGE`: print the board reading as JSON (exit 0), or exit 2."""
    from vision.locate import LocateError
    from vision.reader.board_reader import ReadError
    from vision.sources import SourceError, read_image

    try:
        reader = _make_reader(args)
        image = read_image(args.image)
        reading = reader.read(image)
    except _BadInput as error:
        return _fail(str(error))
    except SourceError as error:
        return _fail(str(error))
    except (LocateError, ReadError) as error:
        return _fail(f"{args.image}: {error}")
    if args.debug:
        import cv2

        from vision.debug import draw_reading

        if not cv2.imwrite(str(args.debug), draw_reading(image, reader, reading)):
            return _fail(f"--debug {args.debug}: cannot write the image")
    print(json.dumps(reading.to_json()))
    return 0


def run_watch(args: argparse.Namespace) -> int:
    """`vision watch SOURCE`: one JSON line per stable reading until Ctrl-C or the end."""
    from vision.locate import LocateError
    from vision.reader.board_reader import ReadError, frame_motion
    from vision.sources import SourceError, open_source
    from vision.stabilize import Observation, Stabilizer

    if args.stable_ms < 0:
        return _fail(f"--stable-ms {args.stable_ms:g}: must not be negative")
    try:
        reader = _make_reader(args)
        source = open_source(args.source)
    except (_BadInput, SourceError) as error:
        return _fail(str(error))
    stabilizer = Stabilizer(args.stable_ms / 1000)
    previous = None
    try:
        with source:
            for frame in source:
                try:
                    reading = reader.read(frame.image)
                except (LocateError, ReadError) as error:
                    print(f"warning: {source.name} at {frame.timestamp:.2f} s: {error}",
                          file=sys.stderr)
                    previous = None
                    continue
                moving = previous is not None and frame_motion(previous, reading)
                previous = reading
                settled = stabilizer.update(Observation(frame.timestamp, reading.holes,
                                                        reading.occluded, moving))
                if settled is not None:
                    print(json.dumps(reading.to_json()), flush=True)
    except SourceError as error:
        return _fail(str(error))
    except KeyboardInterrupt:
        pass
    return 0


def run_markers(args: argparse.Namespace) -> int:
    """`vision markers`: write the marker sheet; extra pages go to FILE-2.svg, FILE-3.svg…"""
    try:
        profile = _load_board(args.board)
    except _BadInput as error:
        return _fail(str(error))
    from vision.markers import marker_sheets

    try:
        pages = marker_sheets(profile)
    except ValueError as error:
        return _fail(f"board {profile.name}: {error}")
    out: Path = args.out
    paths = [out] + [out.with_name(f"{out.stem}-{n}{out.suffix}") for n in range(2, len(pages) + 1)]
    try:
        for path, page in zip(paths, pages, strict=True):
            path.write_text(page, encoding="utf-8")
    except OSError as error:
        return _fail(f"--out {out}: {error.strerror or error}")
    print(json.dumps({"pages": [str(path) for path in paths]}))
    return 0
