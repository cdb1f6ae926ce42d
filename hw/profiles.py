"""Board profiles (`dog-board-profile/1`): where every hole, LED and marker sits on a board."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

FORMAT = "dog-board-profile/1"
HOLE_KINDS = ("track", "home", "kennel")
_HOLE_ID = {"track": re.compile(r"T\d+"), "home": re.compile(r"H\d+\.[0-3]"),
            "kennel": re.compile(r"K\d+\.\d+")}


class ProfileError(ValueError):
    """A board profile is missing, unreadable or malformed."""


@dataclass(frozen=True)
class Hole:
    """One hole of the board: `T<n>` track, `H<p>.<k>` home, `K<p>.<j>` kennel."""

    id: str
    kind: str
    x: float
    y: float
    seat: int | None
    led: int | None


@dataclass(frozen=True)
class Marker:
    """A fiducial marker: `size` is the side of the black square in mm, (x, y) its centre."""

    id: int
    dictionary: str
    size: float
    x: float
    y: float


@dataclass(frozen=True)
class BoardProfile:
    """Everything the camera and the LED strip need to know about one physical board."""

    name: str
    seats: int
    fields_per_seat: int
    board_mm: tuple[float, float]
    hole_diameter_mm: float
    marble_diameter_mm: float
    default_colors: tuple[str, ...]
    markers: tuple[Marker, ...]
    holes: tuple[Hole, ...]

    def hole(self, hole_id: str) -> Hole:
        """The hole with this id; `ProfileError` if the board has none."""
        for hole in self.holes:
            if hole.id == hole_id:
                return hole
        raise ProfileError(f"board {self.name!r} has no hole {hole_id!r}")

    def holes_of_kind(self, kind: str) -> tuple[Hole, ...]:
        """All holes of one kind (`track`, `home` or `kennel`) in profile order."""
        return tuple(hole for hole in self.holes if hole.kind == kind)

    @property
    def led_count(self) -> int:
        """Number of LEDs on the strip: one past the highest LED index."""
        return 1 + max((h.led for h in self.holes if h.led is not None), default=-1)

    @classmethod
    def from_json(cls, data: Any) -> BoardProfile:
        """Build a profile from parsed JSON, naming the offending key on any error."""
        if not isinstance(data, dict):
            raise ProfileError("profile: expected a JSON object")
        if data.get("format") != FORMAT:
            raise ProfileError(f"format: {data.get('format')!r} is not {FORMAT!r}")
        try:
            holes = tuple(_hole(i, h) for i, h in enumerate(data["holes"]))
            markers = tuple(Marker(int(m["id"]), str(m["dictionary"]), float(m["size"]),
                                   float(m["x"]), float(m["y"])) for m in data["markers"])
            profile = cls(
                name=str(data["name"]), seats=int(data["seats"]),
                fields_per_seat=int(data["fields_per_seat"]),
                board_mm=(float(data["board_mm"][0]), float(data["board_mm"][1])),
                hole_diameter_mm=float(data["hole_diameter_mm"]),
                marble_diameter_mm=float(data["marble_diameter_mm"]),
                default_colors=tuple(str(c) for c in data["default_colors"]),
                markers=markers, holes=holes)
        except KeyError as missing:
            raise ProfileError(f"profile: missing key {missing}") from None
        except (TypeError, ValueError, IndexError) as bad:
            if isinstance(bad, ProfileError):
                raise
            raise ProfileError(f"profile: malformed value ({bad})") from None
        ids = [h.id for h in holes]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ProfileError(f"holes: duplicate id {duplicates[0]!r}")
        track = profile.holes_of_kind("track")
        if len(track) != profile.seats * profile.fields_per_seat:
            raise ProfileError(f"holes: {len(track)} track holes, expected "
                               f"{profile.seats} seats x {profile.fields_per_seat} fields")
        return profile


def _hole(index: int, data: dict[str, Any]) -> Hole:
    where = f"holes[{index}]"
    kind = data["kind"]
    if kind not in HOLE_KINDS:
        raise ProfileError(f"{where}.kind: {kind!r} is not one of {', '.join(HOLE_KINDS)}")
    hole_id = str(data["id"])
    if not _HOLE_ID[kind].fullmatch(hole_id):
        raise ProfileError(f"{where}.id: {hole_id!r} is not a valid {kind} hole id")
    led = data["led"]
    if led is not None and (not isinstance(led, int) or led < 0):
        raise ProfileError(f"{where}.led: {led!r} is not a LED index or null")
    seat = data["seat"]
    return Hole(hole_id, kind, float(data["x"]), float(data["y"]),
                None if seat is None else int(seat), led)


def profile_names() -> list[str]:
    """Names of the profiles shipped with the project (`brandi-4`, `brandi-6`, ...)."""
    folder = resources.files("hw") / "boards"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def load_profile(name_or_path: str | Path) -> BoardProfile:
    """Load a shipped profile by name (`brandi-4`) or any profile file by path."""
    text = str(name_or_path)
    if text in profile_names():
        raw = (resources.files("hw") / "boards" / f"{text}.json").read_text(encoding="utf-8")
        source = text
    else:
        path = Path(text)
        if not path.is_file():
            known = ", ".join(profile_names())
            raise ProfileError(f"board {text!r}: no such profile (shipped: {known}) or file")
        try:
            raw = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ProfileError(f"board {text!r}: not a text file (a profile is JSON)") from None
        source = str(path)
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as err:
        raise ProfileError(f"board {source!r}: not valid JSON ({err})") from None
    return BoardProfile.from_json(data)
