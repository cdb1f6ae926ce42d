"""Things over the board: players' hands and arms, playing cards; which holes they hide."""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from vision.render.camera import Camera

HAND_HEIGHT_MM = 90.0  # how far above the board a hand hovers
_SKIN_BGR = ((150, 172, 228), (120, 150, 210), (96, 128, 186), (70, 98, 150), (48, 66, 104))
_SLEEVE_BGR = ((60, 50, 40), (150, 70, 40), (40, 40, 150), (200, 200, 200), (70, 110, 70))
_CARD_MM = (57.0, 89.0)


def draw_hand(image: np.ndarray, camera: Camera, target_mm: np.ndarray,
              rng: np.random.Generator) -> np.ndarray:
    """Draw an arm reaching in from outside the board to hover over `target_mm`, in place.

    Returns the hand's coverage mask (float32, 0…1) in image pixels.
    """
    outward = target_mm / max(np.linalg.norm(target_mm), 1.0)
    tip = camera.project(target_mm)[0]
    toward_player = camera.project(target_mm + outward * 10)[0] - tip
    along = toward_player / max(np.linalg.norm(toward_player), 1e-6)
    scale = camera.pixels_per_mm(tuple(target_mm)) * camera.position[2] / (
        camera.position[2] - HAND_HEIGHT_MM)
    skin = np.array(_SKIN_BGR[rng.integers(len(_SKIN_BGR))], np.float32) * rng.uniform(0.9, 1.08)
    cloth = np.array(_SLEEVE_BGR[rng.integers(len(_SLEEVE_BGR))], np.float32)
    coverage = np.zeros(image.shape[:2], np.uint8)
    for part, colour, roundness in _arm_parts(image.shape[:2], tip, along, scale, rng, skin,
                                              cloth):
        _paint_rounded(image, part, colour, roundness)
        np.maximum(coverage, part, out=coverage)
    return _soften(coverage)


def _arm_parts(shape: tuple[int, int], tip: np.ndarray, along: np.ndarray, scale: float,
               rng: np.random.Generator, skin: np.ndarray,
               cloth: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """Masks of forearm, palm, fingers, thumb and sleeve, bottom to top, with colour and
    roundness (px). The fingertips end near `tip`; a pointing hand stretches only its index."""
    def part(draw: Callable[[np.ndarray], object]) -> np.ndarray:
        mask = np.zeros(shape, np.uint8)
        draw(mask)
        return mask

    side = float(rng.choice([-1.0, 1.0]))
    across = np.array([-along[1], along[0]]) * side
    palm = tip + along * 95 * scale
    wrist = tip + along * 150 * scale
    far = tip + along * 2.5 * sum(shape)
    angle = math.degrees(math.atan2(along[1], along[0]))
    axes = (round(52 * scale), round(44 * scale))
    parts = [
        (part(lambda m: _capsule(m, wrist, wrist + along * 170 * scale, 62 * scale)), skin,
         22 * scale),
        (part(lambda m: cv2.ellipse(m, _pt(palm), axes, angle, 0, 360, 255, -1, cv2.LINE_AA)),
         skin, 20 * scale),
    ]
    pointing = rng.random() < 0.5
    for finger in range(4):
        length = (80 if finger == 1 or not pointing else 34) * scale * rng.uniform(0.85, 1.1)
        direction = _rotate(-along, np.radians((finger - 1.5) * rng.uniform(2, 8)))
        base = palm + across * (finger - 1.5) * 19 * scale - along * 30 * scale
        end = base + direction * length
        parts.append((part(_capsule_drawer(base, end, 17 * scale)), skin, 7 * scale))
    thumb = palm + across * 40 * scale
    thumb_end = thumb + _rotate(-along, 0.9 * side) * 48 * scale + across * 12 * scale
    parts.append((part(lambda m: _capsule(m, thumb, thumb_end, 21 * scale)), skin, 9 * scale))
    parts.append((part(lambda m: _capsule(m, wrist + along * 150 * scale, far, 105 * scale)),
                  cloth, 40 * scale))
    return parts


def draw_card(image: np.ndarray, camera: Camera, centre_mm: np.ndarray, angle_deg: float,
              rng: np.random.Generator) -> np.ndarray:
    """Draw a playing card lying face up on the board, in place; returns its coverage mask."""
    card = _card_face(rng)
    half_w, half_h = _CARD_MM[0] / 2, _CARD_MM[1] / 2
    a = math.radians(angle_deg)
    rotation = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    corners = np.array([[-half_w, half_h], [half_w, half_h], [half_w, -half_h],
                        [-half_w, -half_h]]) @ rotation.T + centre_mm
    raised = camera.project(camera.project_raised(corners, 0.5)).astype(np.float32)
    h, w = card.shape[:2]
    source = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    to_image = cv2.getPerspectiveTransform(source, raised)
    height, width = image.shape[:2]
    cv2.warpPerspective(card, to_image, (width, height), dst=image, flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_TRANSPARENT)
    mask = np.zeros((height, width), np.uint8)
    cv2.fillConvexPoly(mask, np.round(raised).astype(np.int32), 255, cv2.LINE_AA)
    return mask.astype(np.float32) / 255


def _card_face(rng: np.random.Generator) -> np.ndarray:
    """A Dog playing card: white face, coloured frame, a big value in the middle."""
    card = np.full((178, 114, 3), 236, np.uint8)
    colour = tuple(int(c) for c in rng.integers(30, 200, 3))
    cv2.rectangle(card, (6, 6), (107, 171), colour, 3, cv2.LINE_AA)
    value = str(rng.choice(["A", "K", "Q", "J", "2", "3", "4", "5", "6", "7", "8", "9", "10"]))
    (tw, th), _ = cv2.getTextSize(value, cv2.FONT_HERSHEY_DUPLEX, 2.0, 4)
    cv2.putText(card, value, ((114 - tw) // 2, (178 + th) // 2), cv2.FONT_HERSHEY_DUPLEX, 2.0,
                colour, 4, cv2.LINE_AA)
    return card


def covered_share(coverage: np.ndarray, camera: Camera, centres_mm: np.ndarray,
                  radius_mm: float) -> np.ndarray:
    """(N,) share of each circle (of `radius_mm` around the centres) covered in the image:
    of 25 points (centre, 12 at half the radius, 12 on the rim). A point outside the image
    counts as covered."""
    ring = [(0.0, 0.0)] + [(f * math.cos(t), f * math.sin(t)) for f in (0.5, 1.0)
                           for t in np.linspace(0, 2 * math.pi, 12, endpoint=False)]
    samples = (centres_mm[:, None, :] + np.array(ring) * radius_mm).reshape(-1, 2)
    px = np.round(camera.project(samples)).astype(np.int64)
    height, width = coverage.shape
    inside = (px[:, 0] >= 0) & (px[:, 0] < width) & (px[:, 1] >= 0) & (px[:, 1] < height)
    covered = np.ones(len(px), bool)
    covered[inside] = coverage[px[inside, 1], px[inside, 0]] > 0.05
    return np.asarray(covered.reshape(len(centres_mm), len(ring)).mean(axis=1))


def _capsule_drawer(start: np.ndarray, end: np.ndarray,
                    width: float) -> Callable[[np.ndarray], None]:
    """A function drawing this capsule into a mask."""
    return lambda mask: _capsule(mask, start, end, width)


def _capsule(mask: np.ndarray, start: np.ndarray, end: np.ndarray, width: float) -> None:
    """A thick line with round ends."""
    cv2.line(mask, _pt(start), _pt(end), 255, max(1, round(width)), cv2.LINE_AA)


def _soften(mask: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(mask, (0, 0), 1.0).astype(np.float32) / 255


def _paint_rounded(image: np.ndarray, mask: np.ndarray, colour: np.ndarray,
                   roundness_px: float) -> None:
    """Fill `mask` with `colour`, darker toward its outline as on a rounded limb, in place."""
    x, y, w, h = cv2.boundingRect(mask)
    if w == 0 or h == 0:
        return
    window = (slice(max(y - 2, 0), y + h + 2), slice(max(x - 2, 0), x + w + 2))
    part = mask[window]
    inside = cv2.distanceTransform((part > 127).astype(np.uint8), cv2.DIST_L2, 3)
    shade = 0.55 + 0.5 * np.sqrt(np.clip(inside / max(roundness_px, 1.0), 0, 1))
    painted = colour * shade[..., None]
    a = _soften(part)[..., None]
    image[window] = np.clip(image[window] * (1 - a) + painted * a, 0, 255).astype(np.uint8)


def cast_shadow(coverage: np.ndarray, camera: Camera, light_dir: np.ndarray) -> np.ndarray:
    """Soft shadow (0…1, quarter resolution) that objects `HAND_HEIGHT_MM` above the board and
    covering `coverage` cast on it: their outline shifted away from the lamp and blurred.

    The objects themselves are left out of their shadow."""
    shift_mm = -light_dir[:2] / max(light_dir[2], 0.2) * HAND_HEIGHT_MM
    ends = camera.project(np.array([[0.0, 0.0], shift_mm]))
    shift = (ends[1] - ends[0]) / 4
    small = cv2.resize(coverage, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    moved = cv2.warpAffine(small, np.array([[1.0, 0.0, shift[0]], [0.0, 1.0, shift[1]]]),
                           small.shape[::-1])
    blur = max(1.0, 1.5 * camera.pixels_per_mm((0.0, 0.0)))
    return cv2.GaussianBlur(moved, (0, 0), blur) * (1 - small)


def _rotate(vector: np.ndarray, radians: float) -> np.ndarray:
    c, s = math.cos(radians), math.sin(radians)
    return np.array([c * vector[0] - s * vector[1], s * vector[0] + c * vector[1]])


def _pt(point: np.ndarray) -> tuple[int, int]:
    return round(float(point[0])), round(float(point[1]))
