"""Path-traced camera frames of a Dog board (Blender Cycles), physically apart from `render`.

    case = draw_case(load_profile("brandi-4"), np.random.default_rng(7), seed=7)
    pair = render_pair(case, threads=2)
    pair.start, pair.game     # uint8 BGR frames: the start position and the game position
    pair.truth                # JSON-ready: every hole's colour, holes under hands, conditions

A `CyclesCase` describes one table: the board (profile, wood or aluminium, wear, printed rings),
which colour each seat plays, the camera, two or three lamps of different colour temperature
(optionally a window), and the game frame's differences: marbles on track and homes, hands of
rounded fingers, a mug or a phone, lamps switched or moved, LEDs glowing through holes. Both
frames share camera and board. The scene itself is built by `vision.render.cycles_scene`, which
needs Blender's `bpy` module; it is imported only when a frame is rendered, so nothing else in
`vision` needs it. Cycles renders linear light; `vision.render.cycles_develop` turns it into an
8-bit photo the way a camera does (exposure, white balance, tone curve, noise, JPEG).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from vision.render.cycles_case import (
    COLOURS,
    MATERIALS,
    RESOLUTIONS,
    CyclesCase,
    Hand,
    Lamp,
    Thing,
    stands_on,
)

if TYPE_CHECKING:
    from hw import BoardProfile

__all__ = ["COLOURS", "RESOLUTIONS", "CyclesCase", "Hand", "Lamp", "Pair", "Thing",
           "draw_case", "render_pair", "stands_on", "start_occupancy"]

OCCLUDED_SHARE = 0.1  # a hole is under a hand when this share of its marble's circle is covered


@dataclass(frozen=True)
class Pair:
    """A rendered case: BGR `start` and `game` frames and the `truth` to store beside them."""

    start: np.ndarray
    game: np.ndarray
    truth: dict[str, Any]


def start_occupancy(profile: BoardProfile, colours: tuple[str, ...]) -> dict[str, str | None]:
    """Every kennel full with its seat's colour, track and home empty."""
    return {h.id: colours[h.seat] if h.kind == "kennel" and h.seat is not None else None
            for h in profile.holes}


def game_position(profile: BoardProfile, colours: tuple[str, ...],
                  rng: np.random.Generator) -> dict[str, str | None]:
    """A mid-game position: each seat's marbles in its kennel, on the track or in its home."""
    occupancy: dict[str, str | None] = {h.id: None for h in profile.holes}
    track = [h.id for h in profile.holes if h.kind == "track"]
    rng.shuffle(track)
    for seat in range(profile.seats):
        kennel = [h.id for h in profile.holes if h.kind == "kennel" and h.seat == seat]
        home = [h.id for h in profile.holes if h.kind == "home" and h.seat == seat]
        out = int(rng.integers(0, len(kennel) + 1))
        homed = int(rng.integers(0, out + 1)) if rng.random() < 0.4 else 0
        for hole in kennel[:len(kennel) - out]:
            occupancy[hole] = colours[seat]
        for hole in list(rng.choice(home, homed, replace=False)):
            occupancy[str(hole)] = colours[seat]
        for _ in range(out - homed):
            occupancy[track.pop()] = colours[seat]
    return occupancy


def _lamp(rng: np.random.Generator, kelvin: float) -> Lamp:
    kind = "area" if rng.random() < 0.6 else "point"
    distance = float(rng.uniform(0, 1100))
    angle = float(rng.uniform(0, 2 * math.pi))
    z = float(rng.uniform(900, 1900))
    reach = (distance ** 2 + z ** 2) / 1e6  # keep the light on the board comparable
    return Lamp(kind, distance * math.cos(angle), distance * math.sin(angle), z, kelvin,
                float(rng.uniform(25, 90) * reach),
                float(rng.uniform(150, 450) if kind == "area" else rng.uniform(20, 60)))


def _window(rng: np.random.Generator) -> Lamp:
    angle = float(rng.uniform(0, 2 * math.pi))
    return Lamp("window", 2200 * math.cos(angle), 2200 * math.sin(angle),
                float(rng.uniform(900, 1500)), float(rng.uniform(5800, 7500)),
                float(rng.uniform(300, 900)), float(rng.uniform(900, 1500)))


def _changed_lamps(lamps: tuple[Lamp, ...], rng: np.random.Generator) -> tuple[Lamp, ...]:
    """The lamps of the game frame: one switched off or on, dimmed or moved."""
    change = rng.choice(["off", "on", "dim", "move"])
    lamps_list = list(lamps)
    index = int(rng.integers(len(lamps_list)))
    if change == "off" and len(lamps_list) > 1:
        del lamps_list[index]
    elif change == "on":
        lamps_list.append(_lamp(rng, float(rng.uniform(2700, 6500))))
    elif change == "dim":
        lamp = lamps_list[index]
        lamps_list[index] = replace(lamp, watts=lamp.watts * float(rng.uniform(0.5, 1.6)))
    else:
        lamp = lamps_list[index]
        lamps_list[index] = replace(lamp, x=lamp.x + float(rng.uniform(-400, 400)),
                                    y=lamp.y + float(rng.uniform(-400, 400)))
    return tuple(lamps_list)


def _hand(profile: BoardProfile, rng: np.random.Generator) -> Hand:
    hole = profile.holes[int(rng.integers(len(profile.holes)))]
    return Hand(x=hole.x + float(rng.normal(0, 4)), y=hole.y + float(rng.normal(0, 4)),
                height_mm=float(rng.uniform(4, 60)), from_deg=float(rng.uniform(0, 360)),
                curl=float(rng.uniform(0, 1)), tone=float(rng.beta(1.5, 2.5)),
                size=float(rng.uniform(0.85, 1.15)), right=bool(rng.random() < 0.8))


def _thing(profile: BoardProfile, rng: np.random.Generator) -> Thing:
    half = np.array(profile.board_mm) / 2
    x, y = rng.uniform(-0.75, 0.75, 2) * half
    kind = "mug" if rng.random() < 0.5 else "phone"
    rgb = (tuple(float(v) for v in rng.uniform(0.05, 0.85, 3)) if kind == "mug"
           else (0.02, 0.02, 0.025))
    return Thing(kind, float(x), float(y), float(rng.uniform(0, 360)), rgb)  # type: ignore[arg-type]


def _seat_colours(profile: BoardProfile, rng: np.random.Generator) -> tuple[str, ...]:
    """A shuffled choice of colours: other seats, or other colours than the board's print."""
    palette = list(COLOURS) if profile.seats < len(COLOURS) and rng.random() < 0.5 else list(
        profile.default_colors)
    chosen = [str(c) for c in rng.choice(palette, profile.seats, replace=False)]
    if tuple(chosen) == profile.default_colors:
        chosen = chosen[1:] + chosen[:1]
    return tuple(chosen)


def draw_case(profile: BoardProfile, rng: np.random.Generator, seed: int, *,
              shuffled: bool | None = None, hands: bool | None = None,
              things: bool | None = None, lamp_change: bool | None = None,
              material: str | None = None, resolution: tuple[int, int] | None = None,
              samples: int = 40) -> CyclesCase:
    """A random table and game. Each `None` choice is left to chance: shuffled seat colours in a
    third of the cases, hands in a fifth, a mug or phone in a sixth, lamps changed between the
    start and the game frame in a third, aluminium in two fifths, 1640x1232 in a quarter."""
    shuffled = bool(rng.random() < 1 / 3) if shuffled is None else shuffled
    with_hands = bool(rng.random() < 0.2) if hands is None else hands
    with_things = bool(rng.random() < 1 / 6) if things is None else things
    changed = bool(rng.random() < 1 / 3) if lamp_change is None else lamp_change
    material = material or MATERIALS[int(rng.random() < 0.4)]
    width, height = resolution or RESOLUTIONS[int(rng.random() < 0.25)]
    colours = _seat_colours(profile, rng) if shuffled else ()
    lamp_count = int(rng.integers(2, 4))
    kelvins = rng.uniform(2700, 6500, lamp_count)
    lamps = tuple(_lamp(rng, float(k)) for k in kelvins)
    if rng.random() < 0.3:
        lamps += (_window(rng),)
    game = game_position(profile, colours or profile.default_colors, rng)
    offsets = {h.id: (float(a), float(b)) for h, (a, b) in
               zip(profile.holes, rng.normal(0, 0.35, (len(profile.holes), 2)), strict=True)}
    hand_list = tuple(_hand(profile, rng) for _ in range(int(rng.integers(1, 3)))) \
        if with_hands else ()
    thing_list = (_thing(profile, rng),) if with_things else ()
    led_holes = [h.id for h in profile.holes if h.led is not None]
    leds: dict[str, tuple[float, float, float]] = {}
    if rng.random() < 0.4:
        red, green, blue = (float(v) for v in rng.choice(
            [(1, 1, 1), (0.1, 1, 0.2), (1, 0.6, 0.1), (0.2, 0.4, 1)]))
        leds = {str(h): (red, green, blue)
                for h in rng.choice(led_holes, int(rng.integers(1, 6)), replace=False)}
    return CyclesCase(
        board=profile.name, seed=seed, width=int(width), height=int(height), samples=samples,
        material=material, wood_tone=float(rng.uniform(0, 1)),
        wear=float(rng.uniform(0, 1) ** 2), printed_rings=bool(rng.random() < 0.3),
        seat_colours=colours, camera_height_mm=float(rng.uniform(700, 900)),
        tilt_deg=float(15 * rng.random() ** 1.5), yaw_deg=float(rng.uniform(0, 360)),
        board_fill=float(rng.uniform(0.8, 0.95)), lamps=lamps,
        game_lamps=_changed_lamps(lamps, rng) if changed else (),
        table_rgb=tuple(float(v) for v in rng.uniform(0.03, 0.5, 3)),  # type: ignore[arg-type]
        exposure_ev=float(rng.normal(0, 0.4)), awb_strength=float(rng.uniform(0.5, 0.95)),
        locked_exposure=bool(rng.random() < 0.5), noise=float(rng.uniform(0.5, 3.0)),
        jpeg_quality=int(rng.integers(70, 96)) if rng.random() < 0.5 else None,
        game=game, marble_offset_mm=offsets, hands=hand_list, things=thing_list, leds=leds)


def _without_things(profile: BoardProfile, case: CyclesCase) -> dict[str, str | None]:
    """The game position with the marbles taken away where an object stands."""
    game = dict(case.game)
    for thing in case.things:
        for hole in profile.holes:
            if stands_on(thing, hole.x, hole.y):
                game[hole.id] = None
    return game


def render_pair(case: CyclesCase, threads: int = 2) -> Pair:
    """Render the start and the game frame of `case` (needs Blender's `bpy` module)."""
    from hw import load_profile
    from vision.render.cycles_develop import develop, exposure_of
    from vision.render.cycles_scene import Scene

    profile = load_profile(case.board)
    colours = case.colours(profile)
    for colour in colours:
        if colour not in COLOURS:
            raise ValueError(f"seat_colours: unknown colour {colour!r} (known: "
                             f"{', '.join(COLOURS)})")
    start = start_occupancy(profile, colours)
    game = _without_things(profile, case)
    began, began_cpu = time.perf_counter(), time.process_time()
    scene = Scene(profile, case, threads)
    rng = np.random.default_rng([case.seed, 5])
    scene.set_frame(start, case.lamps, hands=(), things=(), leds={})
    start_linear = scene.render()
    start_exposure = exposure_of(start_linear, scene.board_mask(), case)
    start_image = develop(start_linear, start_exposure, case, rng)
    scene.set_frame(game, case.game_lamps or case.lamps, case.hands, case.things, case.leds)
    game_linear = scene.render()
    game_exposure = start_exposure if case.locked_exposure else exposure_of(
        game_linear, scene.board_mask(), case)
    game_image = develop(game_linear, game_exposure, case, rng)
    cover = scene.cover() if case.hands or case.things else {}
    seconds, cpu_seconds = time.perf_counter() - began, time.process_time() - began_cpu
    truth = {
        "board": case.board,
        "seat_colours": list(colours),
        "start": start,
        "game": game,
        "cover": cover,
        "occluded": sorted(h for h, share in cover.items() if share >= OCCLUDED_SHARE),
        "touched": sorted(cover),
        "homography": scene.homography().tolist(),
        "seconds": round(seconds, 1),
        "cpu_seconds": round(cpu_seconds, 1),
        "renderer": scene.version,
        "case": case.to_json(),
    }
    scene.close()
    return Pair(start_image, game_image, truth)
