"""Photo-like synthetic camera frames of a Dog board, for tests, benchmarks and the simulator.

    cond = RenderConditions(tilt_deg=12, light_level=0.5, hands=1)
    r = render(load_profile("brandi-4"), {"T3": "red", "K0.0": "red"}, cond, seed=7)
    r.image       # uint8 BGR photo, r.homography maps board mm -> pixels, r.occluded hidden holes

The board is drawn top-down at a fixed scale (cached per profile, material and texture variant),
marbles are added, one perspective warp puts it under a pinhole camera, then hands and cards,
room light, white balance, blur, sensor noise and JPEG follow. A seed fixes every random detail.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.lens import Lens
from vision.render.board import MATERIALS, board_canvas, smooth_noise
from vision.render.camera import Camera, pose_camera
from vision.render.hands import cast_shadow, covered_share, draw_card, draw_hand
from vision.render.light import Glare, Lighting, develop, light_field
from vision.render.marbles import MARBLE_BGR, draw_marble, light_vector, resting_height_mm

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from hw import BoardProfile

__all__ = ["COLOURS", "RenderConditions", "Rendered", "random_conditions", "render",
           "start_occupancy"]

COLOURS = tuple(MARBLE_BGR)
BOARD_VARIANTS = 6
TABLE_SHADOW_DEPTH = 0.5  # how dark the board's shadow on the table is
HAND_SHADOW_DEPTH = 0.45  # how dark a hand's shadow on the board is
OCCLUDED_SHARE = 0.1  # a hole is under a hand when this share of its marble's circle is covered
_TABLE_BGR = ((38, 56, 84), (84, 86, 92), (150, 156, 160), (52, 78, 58), (30, 34, 40))


@dataclass(frozen=True)
class RenderConditions:
    """How one frame is shot. The defaults are a clean, well-lit, top-down wooden board.

    Image: `width` x `height` pixels. Board: `material` ("wood" or "aluminium") and
    `board_variant` (0…5, which piece of wood or metal: grain, tone, table under it).
    Camera: `camera_height_mm` above the board, `tilt_deg` away from looking straight down,
    `yaw_deg` turn about the vertical, its axis aimed at `aim_offset_mm` from the board centre,
    zoomed so the board spans `board_fill` of the frame's shorter side.
    Light: `light_level` exposure (0.35 dim evening … 1.3 bright, clipping), lamp colour
    `color_temperature_k` (2700…6500 K, seen through a camera balanced for 5000 K), lamp
    direction `light_azimuth_deg` / `light_elevation_deg` (board axes; moves highlights and
    shadows), `gradient` relative brightness change centre→edge along `gradient_angle_deg`,
    a soft shadow of `shadow_depth` (0 none) over the side of a line at `shadow_offset_mm` from
    the centre facing `shadow_angle_deg`, softened over `shadow_softness_mm`, lens `vignetting`.
    Glare: `board_glare_spots` lamp reflections on the board surface (marbles, hands and cards
    hide them); `glare_strength` scales them and the marbles' highlights; `glare_seed` fixes
    where the spots lie (the lamps and the camera of one table: frames sharing it share their
    board glare; None: drawn from `seed`).
    Marbles: each sits up to `marble_offset_mm` off its hole's centre. Sensor: Gaussian
    `noise_sigma` (8-bit levels at full light, grows in dim light), `blur_sigma` (px),
    `jpeg_quality` (None: no compression). Occluders: `hands` arms reaching over the board,
    `cards` playing cards lying on it. Lens: `lens_k1`, radial distortion as `vision.lens.Lens`
    (0: a straight, pinhole picture; the frame's `homography` is then exact).
    """

    width: int = 1280
    height: int = 960
    material: str = "wood"
    board_variant: int = 0
    camera_height_mm: float = 750.0
    tilt_deg: float = 0.0
    yaw_deg: float = 0.0
    aim_offset_mm: tuple[float, float] = (0.0, 0.0)
    board_fill: float = 0.9
    light_level: float = 1.0
    color_temperature_k: float = 5000.0
    light_azimuth_deg: float = 120.0
    light_elevation_deg: float = 65.0
    gradient: float = 0.0
    gradient_angle_deg: float = 0.0
    shadow_depth: float = 0.0
    shadow_angle_deg: float = 0.0
    shadow_offset_mm: float = 0.0
    shadow_softness_mm: float = 60.0
    vignetting: float = 0.0
    board_glare_spots: int = 0
    glare_strength: float = 1.0
    glare_seed: int | None = None
    marble_offset_mm: float = 0.0
    noise_sigma: float = 0.0
    blur_sigma: float = 0.0
    jpeg_quality: int | None = None
    hands: int = 0
    cards: int = 0
    lens_k1: float = 0.0


@dataclass(frozen=True)
class Rendered:
    """One synthetic frame: BGR `image`, board-mm→pixel `homography` and `cover`: per hole a
    hand or card touches, the share of its marble's circle covered (0…1)."""

    image: np.ndarray
    homography: np.ndarray
    cover: Mapping[str, float]

    @cached_property
    def occluded(self) -> frozenset[str]:
        """Holes under a hand or card: `OCCLUDED_SHARE` of the marble's circle covered."""
        return frozenset(hole for hole, share in self.cover.items() if share >= OCCLUDED_SHARE)

    @cached_property
    def touched(self) -> frozenset[str]:
        """Holes a hand or card covers any part of (the occluded ones among them)."""
        return frozenset(self.cover)


def render(profile: BoardProfile, occupancy: Mapping[str, str | None],
           cond: RenderConditions | None = None, seed: int = 0) -> Rendered:
    """A camera frame of `profile` with marbles of `occupancy` (hole id → colour or None)."""
    cond = cond or RenderConditions()
    _check_occupancy(profile, occupancy)
    marbles_rng, hands_rng, light_rng, sensor_rng = (
        np.random.default_rng(stream) for stream in np.random.SeedSequence(seed).spawn(4))
    camera = pose_camera(profile.board_mm, (cond.width, cond.height),
                         height_mm=cond.camera_height_mm, tilt_deg=cond.tilt_deg,
                         yaw_deg=cond.yaw_deg, aim_mm=cond.aim_offset_mm,
                         board_fill=cond.board_fill)
    scale = _canvas_scale(profile, cond)
    canvas = board_canvas(profile, cond.material, cond.board_variant % BOARD_VARIANTS, scale)
    board = canvas.image.copy()
    marbles = np.zeros(board.shape[:2], np.uint8)  # where marbles hide the board
    _place_marbles(board, marbles, canvas.to_canvas, scale, profile, occupancy, camera, cond,
                   marbles_rng)
    frame = _shaded_table(camera, profile, cond)
    to_image = camera.homography @ np.linalg.inv(canvas.from_board)
    size = (cond.width, cond.height)
    cv2.warpPerspective(board, to_image, size, dst=frame, flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_TRANSPARENT)
    coverage, shadow = _draw_occluders(frame, camera, profile, cond, hands_rng)
    cover = _cover(coverage, camera, profile)
    lighting = _lighting(cond, profile, light_rng)
    shading = None if shadow is None else 1 - HAND_SHADOW_DEPTH * shadow
    light, glare = light_field(lighting, np.linalg.inv(camera.homography),
                               max(profile.board_mm) / 2, size, shading)
    if glare is not None:
        # The lamps' reflections lie on the board's surface: marbles, hands and cards hide
        # them (a marble shows its own highlight instead).
        hidden = cv2.warpPerspective(marbles, to_image, size, flags=cv2.INTER_LINEAR)
        glare *= (1 - np.maximum(hidden / np.float32(255), coverage))[..., None]
    if cond.lens_k1:
        lens = _lens(cond.lens_k1, size)
        frame, light = lens.distort_image(frame), lens.distort_image(light)
        glare = None if glare is None else lens.distort_image(glare)
    image = develop(frame, light, glare, sensor_rng, level=cond.light_level,
                    noise_sigma=cond.noise_sigma, blur_sigma=cond.blur_sigma,
                    jpeg_quality=cond.jpeg_quality)
    return Rendered(image=image, homography=camera.homography, cover=cover)


@lru_cache(maxsize=4)
def _lens(k1: float, size: tuple[int, int]) -> Lens:
    """One lens per distortion and frame size: its maps are computed once."""
    return Lens(k1, size)


def start_occupancy(profile: BoardProfile,
                    colors: Sequence[str] | None = None) -> dict[str, str | None]:
    """Every hole of the board: kennels full with their seat's colour, track and home empty."""
    colors = tuple(colors) if colors is not None else profile.default_colors
    return {hole.id: colors[hole.seat] if hole.kind == "kennel" and hole.seat is not None
            else None for hole in profile.holes}


def random_conditions(rng: np.random.Generator, *, hands: bool | None = None) -> RenderConditions:
    """Conditions drawn from the full range a real table sees.

    `hands=True` puts at least one hand or card over the board, `False` none, `None` leaves it to
    chance (about a third of the frames).
    """
    with_hands = bool(rng.random() < 0.35) if hands is None else hands
    hand_count = int(rng.integers(1, 3)) if with_hands else 0
    card_count = int(rng.random() < 0.3) if with_hands else 0
    shadow = rng.random() < 0.4
    return RenderConditions(
        material=MATERIALS[int(rng.random() < 0.4)],
        board_variant=int(rng.integers(BOARD_VARIANTS)),
        camera_height_mm=float(rng.uniform(600, 900)),
        tilt_deg=float(20 * rng.random() ** 1.5),
        yaw_deg=float(rng.uniform(0, 360)),
        aim_offset_mm=(float(rng.uniform(-25, 25)), float(rng.uniform(-25, 25))),
        board_fill=float(rng.uniform(0.78, 0.96)),
        light_level=float(np.exp(rng.uniform(np.log(0.35), np.log(1.3)))),
        color_temperature_k=float(rng.uniform(2700, 6500)),
        light_azimuth_deg=float(rng.uniform(0, 360)),
        light_elevation_deg=float(rng.uniform(35, 85)),
        gradient=float(rng.uniform(0, 0.35)),
        gradient_angle_deg=float(rng.uniform(0, 360)),
        shadow_depth=float(rng.uniform(0.2, 0.55)) if shadow else 0.0,
        shadow_angle_deg=float(rng.uniform(0, 360)),
        shadow_offset_mm=float(rng.uniform(-150, 150)),
        shadow_softness_mm=float(rng.uniform(15, 120)),
        vignetting=float(rng.uniform(0, 0.3)),
        board_glare_spots=int(rng.integers(0, 4)),
        glare_strength=float(rng.uniform(0.6, 1.4)),
        marble_offset_mm=float(rng.uniform(0, 3)),
        noise_sigma=float(rng.uniform(0.5, 5)),
        blur_sigma=float(rng.uniform(0, 1.3)),
        jpeg_quality=int(rng.integers(45, 96)) if rng.random() < 0.7 else None,
        hands=hand_count,
        cards=card_count,
    )


def _check_occupancy(profile: BoardProfile, occupancy: Mapping[str, str | None]) -> None:
    known = {hole.id for hole in profile.holes}
    for hole_id, colour in occupancy.items():
        if hole_id not in known:
            raise ValueError(f"occupancy: board {profile.name!r} has no hole {hole_id!r}")
        if colour is not None and colour not in MARBLE_BGR:
            raise ValueError(f"occupancy[{hole_id!r}]: unknown colour {colour!r} "
                             f"(known: {', '.join(COLOURS)})")


def _canvas_scale(profile: BoardProfile, cond: RenderConditions) -> float:
    """Canvas pixels per mm: a little finer than the finest the camera can see of the board."""
    finest = 1.35 * min(cond.width, cond.height) / max(profile.board_mm)
    return round(finest * 20) / 20


def _place_marbles(board: np.ndarray, outline: np.ndarray,
                   to_canvas: Callable[[np.ndarray], np.ndarray], scale: float,
                   profile: BoardProfile, occupancy: Mapping[str, str | None], camera: Camera,
                   cond: RenderConditions, rng: np.random.Generator) -> None:
    """Draw every marble where the camera sees it, nudged off its hole's centre, in place
    (and into `outline`, where the marbles hide the board).

    Each hole has its own nudge and glass tone, so moving one marble leaves the others as they
    were."""
    holes = profile.holes
    angle = rng.uniform(0, 2 * np.pi, len(holes))
    reach = cond.marble_offset_mm * np.sqrt(rng.random(len(holes)))
    tones = rng.normal(1.0, 0.04, (len(holes), 3)).astype(np.float32)
    placed = [i for i, hole in enumerate(holes) if occupancy.get(hole.id)]
    if not placed:
        return
    centres = np.array([(holes[i].x, holes[i].y) for i in placed])
    centres += np.c_[np.cos(angle[placed]), np.sin(angle[placed])] * reach[placed, None]
    height = resting_height_mm(profile.marble_diameter_mm, profile.hole_diameter_mm)
    seen = to_canvas(camera.project_raised(centres, height))
    radius = round(profile.marble_diameter_mm / 2 * scale * 4) / 4
    height_px = round(height * scale * 4) / 4
    lamp = (round(cond.light_azimuth_deg) % 360, round(cond.light_elevation_deg))
    glare = round(cond.glare_strength, 1)
    for i, centre in zip(placed, seen, strict=True):
        draw_marble(board, centre, str(occupancy[holes[i].id]), radius, height_px, lamp, glare,
                    tones[i], outline)


@lru_cache(maxsize=8)
def _table(width: int, height: int, variant: int) -> np.ndarray:
    """The table around the board: a plain surface with a little texture."""
    rng = np.random.default_rng([variant, 99])
    colour = np.array(_TABLE_BGR[variant % len(_TABLE_BGR)], np.float32)
    shade = 1 + 0.08 * smooth_noise(rng, (height, width), (4, 5))
    grain = 3 * smooth_noise(rng, (height, width), (height // 3, width // 12))
    table = np.clip(colour * shade[..., None] + grain[..., None], 0, 255).astype(np.uint8)
    table.flags.writeable = False
    return np.asarray(table)


def _shaded_table(camera: Camera, profile: BoardProfile, cond: RenderConditions) -> np.ndarray:
    """A fresh copy of the table with the board's soft shadow on it, away from the lamp."""
    half_w, half_h = (v / 2 for v in profile.board_mm)
    corners = np.array([[-half_w, -half_h], [half_w, -half_h], [half_w, half_h], [-half_w, half_h]])
    light = light_vector(cond.light_azimuth_deg, cond.light_elevation_deg)
    shifted = corners * 1.02 - light[:2] / max(light[2], 0.2) * 15
    small = np.zeros((cond.height // 4 + 1, cond.width // 4 + 1), np.float32)
    cv2.fillConvexPoly(small, np.round(camera.project(shifted) / 4).astype(np.int32), 1.0)
    shade = 1 - TABLE_SHADOW_DEPTH * cv2.GaussianBlur(small, (0, 0), 3)
    full = cv2.resize(shade, (small.shape[1] * 4, small.shape[0] * 4))[:cond.height, :cond.width]
    table = _table(cond.width, cond.height, cond.board_variant)
    return cv2.multiply(table, cv2.cvtColor(full, cv2.COLOR_GRAY2BGR), dtype=cv2.CV_8U)


def _draw_occluders(frame: np.ndarray, camera: Camera, profile: BoardProfile,
                    cond: RenderConditions,
                    rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray | None]:
    """Cards lying on the board, then hands over it, in place.

    Returns what covers the board (0…1 per pixel) and the hands' shadow on it at a quarter of
    the image resolution (None: no hands).
    """
    coverage = np.zeros(frame.shape[:2], np.float32)
    half = np.array(profile.board_mm) / 2
    for _ in range(cond.cards):
        centre = rng.uniform(-0.8, 0.8, 2) * half
        np.maximum(coverage, draw_card(frame, camera, centre, rng.uniform(0, 360), rng),
                   out=coverage)
    if not cond.hands:
        return coverage, None
    hands = np.zeros(frame.shape[:2], np.float32)
    for _ in range(cond.hands):
        hole = profile.holes[int(rng.integers(len(profile.holes)))]
        target = np.array([hole.x, hole.y]) + rng.normal(0, 3, 2)
        np.maximum(hands, draw_hand(frame, camera, target, rng), out=hands)
    light = light_vector(cond.light_azimuth_deg, cond.light_elevation_deg)
    return np.maximum(coverage, hands), cast_shadow(hands, camera, light)


def _cover(coverage: np.ndarray, camera: Camera, profile: BoardProfile) -> dict[str, float]:
    """Per hole a hand or card touches, the share of its marble's circle covered."""
    if not coverage.any():
        return {}
    centres = np.array([(hole.x, hole.y) for hole in profile.holes])
    radius = max(profile.hole_diameter_mm, profile.marble_diameter_mm) / 2 + 1
    share = covered_share(coverage, camera, centres, radius)
    return {hole.id: float(s) for hole, s in zip(profile.holes, share, strict=True) if s > 0}


def _lighting(cond: RenderConditions, profile: BoardProfile,
              rng: np.random.Generator) -> Lighting:
    half = np.array(profile.board_mm) / 2
    if cond.glare_seed is not None:  # fixed lamps: the spots stay where they are
        rng = np.random.default_rng([cond.glare_seed, 7])
    spots = []
    for _ in range(cond.board_glare_spots):
        x, y = rng.uniform(-0.9, 0.9, 2) * half
        spots.append(Glare(float(x), float(y), radius_mm=float(rng.uniform(12, 45)),
                           strength=110 * cond.glare_strength))
    return Lighting(level=cond.light_level, kelvin=cond.color_temperature_k,
                    gradient=cond.gradient, gradient_angle_deg=cond.gradient_angle_deg,
                    shadow_depth=cond.shadow_depth, shadow_angle_deg=cond.shadow_angle_deg,
                    shadow_offset_mm=cond.shadow_offset_mm,
                    shadow_softness_mm=cond.shadow_softness_mm, vignetting=cond.vignetting,
                    glare=tuple(spots))
