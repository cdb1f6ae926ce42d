"""What the LEDs show, as pure functions from plain data to scenes and frames.

Inputs are hole ids of a board profile and colours (names, `#rrggbb` or RGB); nothing here knows
the rules. Holes without an LED (the kennels) are skipped; an unknown hole id is a `ValueError`.

A `Scene` is a stack of layers, each a function of time: `scene.frame_at(t)` is the frame
(LED index → RGB) to show `t` seconds after the scene started. A scene with no moving layer is
static: `firmware_bridge.animator.Animator` shows it once and then sleeps.

    scene = overlay(turn(profile, 0, "red"), targets(profile, {"T5": "red", "H0.2": "red"}))
    strip.set_frame(scene.frame_at(0.0))
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from firmware_bridge.colors import OFF, ColorLike, Frame, Rgb, blend, scale, shades, to_rgb

if TYPE_CHECKING:
    from hw import BoardProfile

__all__ = [
    "Blink", "Chase", "Layer", "Pulse", "Scene", "Steady",
    "back_to_kennel", "frame_for", "game_won", "illegal_move", "jack_candidates", "nothing",
    "overlay", "round_over", "seven_reach", "start_field", "start_move", "targets", "turn",
]


class Layer(Protocol):
    """One part of a scene: which LEDs it lights at time `t`, and whether that changes."""

    @property
    def animated(self) -> bool: ...

    def at(self, t: float) -> Frame: ...


@dataclass(frozen=True)
class Steady:
    """LEDs lit steadily."""

    frame: Frame
    animated: bool = field(default=False, init=False)

    def at(self, t: float) -> Frame:
        return dict(self.frame)


@dataclass(frozen=True)
class Pulse:
    """LEDs breathing smoothly between `low` (fraction of full) and full, `hz` times a second."""

    frame: Frame
    hz: float = 1.0
    low: float = 0.2
    animated: bool = field(default=True, init=False)

    def at(self, t: float) -> Frame:
        level = self.low + (1.0 - self.low) * (0.5 - 0.5 * math.cos(2 * math.pi * self.hz * t))
        return {led: scale(color, level) for led, color in self.frame.items()}


@dataclass(frozen=True)
class Blink:
    """LEDs switching between frame `on` and frame `off` (dark by default), `hz` times a second."""

    on: Frame
    hz: float = 2.0
    off: Frame = field(default_factory=dict)
    animated: bool = field(default=True, init=False)

    def at(self, t: float) -> Frame:
        return dict(self.on if (t * self.hz) % 1.0 < 0.5 else self.off)


@dataclass(frozen=True)
class Chase:
    """A pattern running along `leds` (in order) at `speed` LEDs a second, repeated to fill."""

    leds: tuple[int, ...]
    pattern: tuple[Rgb, ...]
    speed: float = 20.0
    animated: bool = field(default=True, init=False)

    def at(self, t: float) -> Frame:
        if not self.leds or not self.pattern:
            return {}
        offset = int(t * self.speed)
        size = len(self.pattern)
        lit = {led: self.pattern[(i - offset) % size] for i, led in enumerate(self.leds)}
        return {led: color for led, color in lit.items() if color != OFF}


@dataclass(frozen=True)
class Scene:
    """Layers shown on top of each other: where two light one LED, the later one wins."""

    layers: tuple[Layer, ...] = ()

    @property
    def animated(self) -> bool:
        """True if any layer changes with time (the animator then keeps drawing)."""
        return any(layer.animated for layer in self.layers)

    def frame_at(self, t: float) -> Frame:
        """The frame to show `t` seconds after the scene started."""
        frame: Frame = {}
        for layer in self.layers:
            frame.update(layer.at(t))
        return frame


def overlay(*scenes: Scene) -> Scene:
    """One scene showing all of `scenes`, later ones on top."""
    return Scene(tuple(layer for scene in scenes for layer in scene.layers))


def nothing() -> Scene:
    """All LEDs dark."""
    return Scene()


# -- from hole ids to LEDs --------------------------------------------------------------------
def frame_for(profile: BoardProfile, holes: Mapping[str, ColorLike]) -> Frame:
    """LED index → RGB for hole id → colour; kennel holes (no LED) are left out.

    `ValueError` naming the hole or colour on bad input.
    """
    leds = _led_index(profile)
    frame: Frame = {}
    for hole_id, color in holes.items():
        led = _led_of(profile, leds, hole_id)
        rgb = to_rgb(color)
        if led is not None:
            frame[led] = rgb
    return frame


def start_field(profile: BoardProfile, seat: int) -> str:
    """The id of the track hole where marbles of `seat` enter the track."""
    for hole in profile.holes:
        if hole.kind == "track" and hole.seat == seat:
            return hole.id
    raise ValueError(f"board {profile.name!r} has no seat {seat!r} (seats 0…{profile.seats - 1})")


def _led_index(profile: BoardProfile) -> dict[str, int | None]:
    return {hole.id: hole.led for hole in profile.holes}


def _led_of(profile: BoardProfile, leds: Mapping[str, int | None], hole_id: str) -> int | None:
    try:
        return leds[hole_id]
    except KeyError:
        raise ValueError(f"board {profile.name!r} has no hole {hole_id!r}") from None


def _same_color(holes: Iterable[str], color: ColorLike) -> dict[str, ColorLike]:
    rgb = to_rgb(color)
    return {hole_id: rgb for hole_id in holes}


# -- the table's situations ---------------------------------------------------------------------
def targets(profile: BoardProfile, holes: Mapping[str, ColorLike]) -> Scene:
    """The legal targets of the announced card: each hole steady in its colour."""
    return Scene((Steady(frame_for(profile, holes)),))


def seven_reach(
    profile: BoardProfile, reach: Mapping[str, Sequence[str]], color: ColorLike
) -> Scene:
    """A 7: every marble's reachable holes in a shade of its own.

    `reach` maps the hole a marble stands on to the holes it can reach. The marble's own hole
    glows dimly in its shade so players see which shade is whose; a hole two marbles can reach
    shows the mix of their shades.
    """
    leds = _led_index(profile)
    own: Frame = {}
    reached: dict[int, list[Rgb]] = {}
    for (marble, holes), shade in zip(reach.items(), shades(to_rgb(color), len(reach)),
                                      strict=True):
        led = _led_of(profile, leds, marble)
        if led is not None:
            own[led] = scale(shade, 0.3)
        for hole_id in holes:
            target = _led_of(profile, leds, hole_id)
            if target is not None:
                reached.setdefault(target, []).append(shade)
    mixed = {led: blend(colors) for led, colors in reached.items()}
    return Scene((Steady(own), Steady(mixed)))


def jack_candidates(profile: BoardProfile, holes: Mapping[str, ColorLike]) -> Scene:
    """A Jack: the marbles that could swap, pulsing in their colours."""
    return Scene((Pulse(frame_for(profile, holes), hz=1.0, low=0.15),))


def start_move(profile: BoardProfile, seat: int, color: ColorLike) -> Scene:
    """A start move (A, K, Joker): the seat's start field pulsing quickly in its colour."""
    frame = frame_for(profile, {start_field(profile, seat): color})
    return Scene((Pulse(frame, hz=1.5, low=0.1),))


def illegal_move(profile: BoardProfile, wrong: Iterable[str], expected: Iterable[str]) -> Scene:
    """An illegal move: red blinking where a marble is wrong, green where it should be.

    A hole that is both shows green.
    """
    red = frame_for(profile, _same_color(wrong, "red"))
    green = frame_for(profile, _same_color(expected, "green"))
    return Scene((Blink(red, hz=2.0), Steady(green)))


def back_to_kennel(profile: BoardProfile, hole: str, color: ColorLike) -> Scene:
    """A marble that must go back to its kennel: its hole flashing between its colour and white."""
    on = frame_for(profile, {hole: color})
    off = frame_for(profile, {hole: "white"})
    return Scene((Blink(on, hz=3.0, off={led: scale(c, 0.3) for led, c in off.items()}),))


def turn(profile: BoardProfile, seat: int, color: ColorLike) -> Scene:
    """Whose turn it is: that player's start field glowing slowly in their colour."""
    frame = frame_for(profile, {start_field(profile, seat): color})
    return Scene((Pulse(frame, hz=0.5, low=0.3),))


def round_over(profile: BoardProfile, color: ColorLike = "white") -> Scene:
    """Round over: a comet running round the track."""
    head = to_rgb(color)
    ring = _track_leds(profile)
    tail = tuple(scale(head, f) for f in (1.0, 0.6, 0.35, 0.2, 0.1, 0.05))
    pattern = tail + (OFF,) * max(0, len(ring) - len(tail))
    return Scene((Chase(ring, pattern[::-1], speed=32.0),))


def game_won(profile: BoardProfile, colors: Sequence[ColorLike]) -> Scene:
    """Game won: the winners' colours (one, or a team's two or three) circling the track."""
    if not colors:
        raise ValueError("game_won needs the winners' colours")
    pattern = tuple(rgb for rgb in (to_rgb(c) for c in colors) for _ in range(4))
    return Scene((Chase(_track_leds(profile), pattern, speed=12.0),))


def _track_leds(profile: BoardProfile) -> tuple[int, ...]:
    return tuple(h.led for h in profile.holes if h.kind == "track" and h.led is not None)
