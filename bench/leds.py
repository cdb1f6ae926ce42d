"""Benchmark: compute and push LED frames through the sim backend; animator CPU at idle.

    .venv/bin/python bench/leds.py [--frames 2000] [--idle 3]

Prints figures, asserts nothing. The sim backend does all the work a real backend does
(effects, brightness, gamma table, current budget) except the wire; the wire itself needs
30 µs per LED at 800 kHz (24 bits × 1.25 µs), the physical floor the figures are compared with.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_bridge import effects
from firmware_bridge.animator import Animator
from firmware_bridge.backends.sim import SimStrip
from firmware_bridge.config import LedConfig
from hw import BoardProfile, load_profile

WIRE_US_PER_LED = 30.0
SEED = 20240501


def busy_scene(profile: BoardProfile, rng: random.Random) -> effects.Scene:
    """A heavy, realistic scene: turn glow, a 7 with four marbles, pulsing Jack candidates."""
    track = [h.id for h in profile.holes if h.kind == "track"]
    marbles = rng.sample(track, 4)
    reach = {m: rng.sample(track, 7) for m in marbles}
    jack = {hole: rng.choice(profile.default_colors) for hole in rng.sample(track, 6)}
    return effects.overlay(
        effects.turn(profile, 0, profile.default_colors[0]),
        effects.seven_reach(profile, reach, profile.default_colors[0]),
        effects.jack_candidates(profile, jack),
    )


def time_frames(profile: BoardProfile, frames: int, rng: random.Random) -> dict[str, float]:
    """Median µs per frame for the effects alone, the strip alone, and both."""
    scene = busy_scene(profile, rng)
    # Full white on every LED too, so the budget has to scale every frame down.
    config = LedConfig(backend="sim", count=profile.led_count, brightness=1.0)
    strip = SimStrip(config)
    full = {i: (255, 255, 255) for i in range(strip.count)}
    effect_us, show_us, total_us, budget_us = [], [], [], []
    for n in range(frames):
        t = n / 30
        start = time.perf_counter()
        frame = scene.frame_at(t)
        middle = time.perf_counter()
        strip.set_frame(frame)
        strip.show()
        end = time.perf_counter()
        strip.set_frame(full)
        strip.show()
        budget_end = time.perf_counter()
        effect_us.append((middle - start) * 1e6)
        show_us.append((end - middle) * 1e6)
        total_us.append((end - start) * 1e6)
        budget_us.append((budget_end - end) * 1e6)
    return {
        "effects": statistics.median(effect_us),
        "show": statistics.median(show_us),
        "total": statistics.median(total_us),
        "total_p99": sorted(total_us)[int(0.99 * len(total_us))],
        "full_white_over_budget": statistics.median(budget_us),
    }


def animator_cpu(profile: BoardProfile, scene: effects.Scene, seconds: float) -> tuple[float, int]:
    """Process CPU seconds and wake-ups of an animator showing `scene` for `seconds`."""
    strip = SimStrip(LedConfig(backend="sim", count=profile.led_count))
    with Animator(strip) as animator:
        animator.play(scene)
        time.sleep(0.2)  # let the first frame go out
        cpu, wakeups = time.process_time(), animator.wakeups
        time.sleep(seconds)
        return time.process_time() - cpu, animator.wakeups - wakeups


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=2000)
    parser.add_argument("--idle", type=float, default=3.0, help="seconds per CPU measurement")
    args = parser.parse_args()
    rng = random.Random(SEED)
    print(f"python {platform.python_version()} on {platform.machine()} "
          f"({platform.processor() or platform.platform()}), seed {SEED}, {args.frames} frames")
    print(f"{'board':9} {'LEDs':>4} {'effects':>9} {'show':>9} {'total':>9} {'p99':>9} "
          f"{'white>budget':>12} {'wire floor':>10}")
    for name in ("brandi-4", "brandi-6"):
        profile = load_profile(name)
        figures = time_frames(profile, args.frames, rng)
        floor = profile.led_count * WIRE_US_PER_LED
        print(f"{name:9} {profile.led_count:4d} {figures['effects']:7.0f}µs "
              f"{figures['show']:7.0f}µs {figures['total']:7.0f}µs {figures['total_p99']:7.0f}µs "
              f"{figures['full_white_over_budget']:10.0f}µs {floor:8.0f}µs")
    profile = load_profile("brandi-4")
    static = effects.targets(profile, {"T5": "green", "T9": "green", "H0.1": "green"})
    cpu, wakeups = animator_cpu(profile, static, args.idle)
    print(f"animator, static scene: {cpu * 1000:.1f} ms CPU in {args.idle:g} s "
          f"({cpu / args.idle * 100:.3f} %), {wakeups} wake-ups")
    pulsing = busy_scene(profile, rng)
    cpu, wakeups = animator_cpu(profile, pulsing, args.idle)
    print(f"animator, animated scene: {cpu * 1000:.1f} ms CPU in {args.idle:g} s "
          f"({cpu / args.idle * 100:.2f} %), {wakeups} wake-ups ({wakeups / args.idle:.1f}/s)")


if __name__ == "__main__":
    main()
