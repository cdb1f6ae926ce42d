"""The description of one path-traced case (`vision.render.cycles`): table, lamps, hands,
objects and the game position, as plain values that go to and from JSON."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping

    from hw import BoardProfile

COLOURS = ("red", "yellow", "green", "blue", "white", "black")
MATERIALS = ("wood", "aluminium")
RESOLUTIONS = ((1280, 960), (1640, 1232))
MUG_RADIUS_MM = 40.0
PHONE_MM = (75.0, 150.0)


@dataclass(frozen=True)
class Lamp:
    """A light source: `kind` "area" (a shaded ceiling lamp), "point" (a bare bulb) or "window"
    (a large, cool area to one side); position in board mm (z above the board), colour
    temperature, power in watts, `size_mm` its emitting size."""

    kind: str
    x: float
    y: float
    z: float
    kelvin: float
    watts: float
    size_mm: float


@dataclass(frozen=True)
class Hand:
    """A hand reaching over the board: fingertip above (`x`, `y`) board mm at `height_mm`, the
    arm coming from `from_deg` (board angle of the direction it comes from), `curl` 0 (flat,
    fingers spread) … 1 (fist with the index finger pointing), skin `tone` 0 (light) … 1 (dark),
    `size` scale of an adult hand, `right` a right hand (else a left one)."""

    x: float
    y: float
    height_mm: float
    from_deg: float
    curl: float
    tone: float
    size: float
    right: bool = True


@dataclass(frozen=True)
class Thing:
    """An object standing on the board: `kind` "mug" or "phone" at (`x`, `y`) mm, turned by
    `angle_deg`, of colour `rgb` (linear 0…1)."""

    kind: str
    x: float
    y: float
    angle_deg: float
    rgb: tuple[float, float, float]


@dataclass(frozen=True)
class CyclesCase:
    """One table and two frames of it (see the module doc). Lengths in mm, angles in degrees."""

    board: str
    seed: int
    width: int = 1280
    height: int = 960
    samples: int = 40
    denoise: bool = True
    material: str = "wood"
    wood_tone: float = 0.5  # 0 pale birch … 1 dark walnut
    wear: float = 0.2  # 0 new … 1 worn paint and varnish
    printed_rings: bool = False  # a ring printed around every track hole
    seat_colours: tuple[str, ...] = ()  # empty: the profile's defaults
    camera_height_mm: float = 800.0
    tilt_deg: float = 0.0
    yaw_deg: float = 0.0
    board_fill: float = 0.9
    lamps: tuple[Lamp, ...] = ()
    game_lamps: tuple[Lamp, ...] = ()  # empty: the same lamps as the start frame
    table_rgb: tuple[float, float, float] = (0.25, 0.16, 0.09)
    exposure_ev: float = 0.0  # the camera's exposure bias
    awb_strength: float = 0.8  # how far the camera's white balance corrects the lamps' tint
    locked_exposure: bool = False  # the game frame keeps the start frame's exposure and balance
    noise: float = 1.5  # sensor noise, 8-bit levels
    jpeg_quality: int | None = None
    game: Mapping[str, str | None] = field(default_factory=dict)  # hole -> colour / None
    marble_offset_mm: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    hands: tuple[Hand, ...] = ()
    things: tuple[Thing, ...] = ()
    leds: Mapping[str, tuple[float, float, float]] = field(default_factory=dict)

    def colours(self, profile: BoardProfile) -> tuple[str, ...]:
        """Which colour each seat plays."""
        return self.seat_colours or profile.default_colors

    def to_json(self) -> dict[str, Any]:
        """The case as plain JSON values."""
        data = asdict(self)
        data["game"] = dict(self.game)
        data["marble_offset_mm"] = {k: list(v) for k, v in self.marble_offset_mm.items()}
        data["leds"] = {k: list(v) for k, v in self.leds.items()}
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CyclesCase:
        """The case `to_json` made."""
        values = dict(data)
        values["lamps"] = tuple(Lamp(**lamp) for lamp in values.get("lamps", ()))
        values["game_lamps"] = tuple(Lamp(**lamp) for lamp in values.get("game_lamps", ()))
        values["hands"] = tuple(Hand(**hand) for hand in values.get("hands", ()))
        values["things"] = tuple(Thing(**{**t, "rgb": tuple(t["rgb"])})
                                 for t in values.get("things", ()))
        values["seat_colours"] = tuple(values.get("seat_colours", ()))
        values["table_rgb"] = tuple(values.get("table_rgb", (0.25, 0.16, 0.09)))
        values["marble_offset_mm"] = {k: tuple(v) for k, v in
                                      values.get("marble_offset_mm", {}).items()}
        values["leds"] = {k: tuple(v) for k, v in values.get("leds", {}).items()}
        return cls(**values)


def stands_on(thing: Thing, x: float, y: float, margin_mm: float = 8.0) -> bool:
    """Whether the object's foot covers the board point (`x`, `y`) (within `margin_mm`)."""
    dx, dy = x - thing.x, y - thing.y
    if thing.kind == "mug":
        return math.hypot(dx, dy) < MUG_RADIUS_MM + margin_mm
    turn = math.radians(thing.angle_deg)
    along = dx * math.cos(turn) + dy * math.sin(turn)
    across = -dx * math.sin(turn) + dy * math.cos(turn)
    return (abs(along) < PHONE_MM[0] / 2 + margin_mm
            and abs(across) < PHONE_MM[1] / 2 + margin_mm)
