"""Find a camera's lens distortion (`vision.lens.Lens`) in its start-position frame.

The four markers in the board's corners cannot tell a bent frame from a homography; the start
position's many empty holes can. `find_lens` tries values of k1 and keeps the one under which
the dark dimples of the track and homes lie best on one homography.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from hw import BoardProfile
from vision.lens import Lens
from vision.locate import (
    DIMPLE_TOLERANCE_PX,
    FRESH_FIT_MARKERS,
    BoardFit,
    Locator,
    find_dimples,
    marker_corners_mm,
)

K1_RANGE = (-0.32, 0.08)  # the distortions looked for (a wide lens' barrel, some pincushion)
COARSE_STEP = 0.02
LENS_GAIN = 0.8  # a lens is kept only if it brings the misfit below this share of none's
FINE_STEPS = (0.01, 0.0025)  # the best k1 is refined on these steps, three either side
NEGLIGIBLE_K1 = 0.02  # smaller ones cost no hole (60 benchmark cases through -0.02: all right)


def find_lens(image: np.ndarray, profile: BoardProfile) -> Lens | None:
    """The lens distortion of a start-position frame (every marble in its kennel), or None
    when the frame is straight enough (`NEGLIGIBLE_K1`, `LENS_GAIN`). `LocateError` when the
    board is not found.

    Every k1 tried (`K1_RANGE`, on `COARSE_STEP`s, then finer around the best) straightens
    the marker corners; the homography through them, bent back by the lens, says where each
    empty hole should show, and `dimple_misfit` how far its dimple lies from there."""
    size = (image.shape[1], image.shape[0])
    corners_mm, corners_px = _marker_corners(image, profile)
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    centres = np.array([(h.x, h.y) for h in profile.holes if h.kind != "kennel"])
    tried: dict[float, float] = {}

    def misfit(k1: float) -> float:
        k1 = round(k1, 6)
        if k1 not in tried:
            lens = Lens(k1, size)
            homography, _ = cv2.findHomography(corners_mm, lens.ideal(corners_px), 0)
            tried[k1] = DIMPLE_TOLERANCE_PX ** 2 if homography is None else dimple_misfit(
                grey, BoardFit(homography, 0.0, (), lens=lens).project, centres,
                profile.hole_diameter_mm / 2)
        return tried[k1]

    low, high = K1_RANGE
    best = min(np.arange(low, high + 1e-9, COARSE_STEP), key=misfit)
    for step in FINE_STEPS:
        best = min((best + step * offset for offset in range(-3, 4)), key=misfit)
    if abs(best) < NEGLIGIBLE_K1 or misfit(best) >= LENS_GAIN * misfit(0.0):
        return None
    return Lens(float(best), size)


def _marker_corners(image: np.ndarray, profile: BoardProfile) -> tuple[np.ndarray, np.ndarray]:
    """The corners of the markers in the frame: board mm (K, 2) and where they show (K, 2),
    as detected (a homography through them would bend them straight). Where the whole frame
    shows too few, the locator's fit says where they are (its searches find small and blurred
    markers; `LocateError` when it finds no board)."""
    layout = marker_corners_mm(profile)
    locator = Locator(profile)
    found = locator.markers(image)
    if len(found) < FRESH_FIT_MARKERS:
        corners_mm = np.concatenate(list(layout.values()))
        return corners_mm, locator.locate(image).project(corners_mm)
    ids = sorted(found)
    return (np.concatenate([layout[i] for i in ids]), np.concatenate([found[i] for i in ids]))


def dimple_misfit(grey: np.ndarray, project: Callable[[np.ndarray], np.ndarray],
                  centres_mm: np.ndarray, radius_mm: float) -> float:
    """How far the dark dimples of empty holes (``centres_mm``) lie from where ``project``
    puts them (`locate.find_dimples`): per hole the squared distance (px²),
    `DIMPLE_TOLERANCE_PX`² for a dimple farther or not found; the mean over the holes."""
    worst = DIMPLE_TOLERANCE_PX ** 2
    found_mm, found_px = find_dimples(grey, project, centres_mm, radius_mm)
    if len(found_mm) == 0:
        return worst
    squared = np.minimum(((project(found_mm) - found_px) ** 2).sum(axis=1), worst)
    return float((squared.sum() + (len(centres_mm) - len(found_mm)) * worst) / len(centres_mm))

