"""The naive reader, the baseline the benchmarks compare `BoardReader` with.

Markers → homography → the mean L*a*b* colour of a disc at each hole → the nearest of the
start photo's looks: each seat's kennel colour, and the hole's own empty look (track and
home holes are empty in the start photo; kennels take the median empty track hole). Seats
are named by the nearest colour of the board's own marble set in `PALETTE_SRGB`, each seat
another name. It never says `"?"` and never sets `occluded`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from hw import BoardProfile
from vision.locate import Locator
from vision.reader.palette import PALETTE_SRGB

DISC_SHARE = 0.6  # the disc sampled is this share of the hole's radius
EMPTY = -1
WEIGHTS = np.array([0.5, 1.0, 1.0])  # lightness counts half in naming (it follows exposure)


@dataclass(frozen=True)
class NaiveReading:
    """What the naive reader says of one frame (the fields the benchmarks read)."""

    holes: dict[str, str | None]
    occluded: bool = False


def _palette_lab(name: str) -> np.ndarray:
    rgb = np.array([[PALETTE_SRGB[name]]], np.uint8)
    return cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB)[0, 0].astype(np.float64)


class NaiveReader:
    """Reads frames of one board against its start photo the naive way."""

    def __init__(self, profile: BoardProfile, start: np.ndarray) -> None:
        self.profile = profile
        self.locator = Locator(profile)
        self.ids = [hole.id for hole in profile.holes]
        self.centres = np.array([(hole.x, hole.y) for hole in profile.holes], np.float64)
        radius = profile.hole_diameter_mm / 2 * DISC_SHARE
        angles = np.linspace(0, 2 * np.pi, 12, endpoint=False)
        rings = [np.zeros((1, 2))] + [
            share * radius * np.stack([np.cos(angles), np.sin(angles)], axis=1)
            for share in (0.5, 1.0)]
        self.offsets = np.concatenate(rings)
        looks = self._looks(start)
        kinds = [hole.kind for hole in profile.holes]
        seats = [hole.seat for hole in profile.holes]
        track = np.array([kind == "track" for kind in kinds])
        self.empty = looks.copy()
        kennel = np.array([kind == "kennel" for kind in kinds])
        self.empty[kennel] = np.median(looks[track], axis=0)
        self.seat_looks: dict[int, np.ndarray] = {}
        for seat in range(profile.seats):
            mine = kennel & (np.array(seats) == seat)
            self.seat_looks[seat] = np.median(looks[mine], axis=0)
        playing = [seat for seat, look in self.seat_looks.items()
                   if np.linalg.norm(look - self.empty[kennel][0]) > 12]
        self.names = self._name(playing)

    def _name(self, playing: list[int]) -> dict[int, str]:
        """Each playing seat's colour name: the cheapest assignment of the board's set."""
        choices = list(self.profile.default_colors)
        palette = {name: _palette_lab(name) for name in choices}
        best: tuple[float, tuple[str, ...]] = (np.inf, ())
        for names in itertools.permutations(choices, len(playing)):
            cost = sum(float(np.linalg.norm((self.seat_looks[seat] - palette[name]) * WEIGHTS))
                       for seat, name in zip(playing, names, strict=True))
            best = min(best, (cost, names))
        return dict(zip(playing, best[1], strict=True))

    def _looks(self, image: np.ndarray) -> np.ndarray:
        """(holes, 3) mean OpenCV L*a*b* of each hole's disc."""
        fit = self.locator.locate(image)
        points = (self.centres[:, None, :] + self.offsets[None]).reshape(-1, 2)
        pixels = fit.project(points).reshape(len(self.ids), -1, 2)
        lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float64)
        xs = np.clip(np.rint(pixels[..., 0]).astype(int), 0, image.shape[1] - 1)
        ys = np.clip(np.rint(pixels[..., 1]).astype(int), 0, image.shape[0] - 1)
        return np.asarray(lab[ys, xs].mean(axis=1))

    def read(self, image: np.ndarray) -> NaiveReading:
        """Name every hole of one BGR frame: a seat's colour or empty."""
        looks = self._looks(image)
        seats = list(self.names)
        to_empty = np.linalg.norm(looks - self.empty, axis=1)
        holes: dict[str, str | None] = {}
        for index, hole_id in enumerate(self.ids):
            gaps = [float(np.linalg.norm(looks[index] - self.seat_looks[seat]))
                    for seat in seats]
            nearest = int(np.argmin(gaps)) if gaps else EMPTY
            holes[hole_id] = (None if nearest == EMPTY or to_empty[index] <= gaps[nearest]
                              else self.names[seats[nearest]])
        return NaiveReading(holes)
