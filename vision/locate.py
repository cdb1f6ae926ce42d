"""Find the board in a frame: ArUco markers → homography from board mm to image pixels.

The four corner markers of the profile (DICT_4X4_50, printed upright: top edge toward +y)
give 16 point pairs; a least-squares homography through them maps board millimetres to
pixels. A :class:`Locator` remembers the last good fit: while a hand covers one or two
markers it keeps that fit as long as the markers it still sees agree with it, and re-fits
as soon as they disagree (camera or board moved). Once it has a fit it looks for the
markers only around where they were, which is much faster than searching the whole frame.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from hw import BoardProfile

if TYPE_CHECKING:
    from vision.lens import Lens

AGREEMENT_PX = 3.0  # visible markers farther than this from the last fit: something moved
MAX_ERROR_PX = 4.0  # RMS reprojection error above which a fit is refused
FRESH_FIT_MARKERS = 3  # two markers alone leave the homography poorly fixed
MIN_DIMPLES = 12  # fewer found holes than this: keep the marker fit
DIMPLE_SEARCH_MM = 5.0  # how far from its predicted place a hole is looked for
DIMPLE_MIN_SCORE = 0.5  # normalised correlation a found hole must reach
DIMPLE_TOLERANCE_PX = 1.5  # RANSAC: found holes farther than this from the fit are ignored
SEARCH_MARGIN = 0.6  # tracked search window: marker size in px times (1 + 2 * margin)
UPSCALE = 2  # missing markers are looked for again in windows enlarged this much ...
RESCUE_MARGIN = 2.5  # ... and wider, as two markers say only roughly where the others are
ENLARGE_MAX_SIDE_PX = 2048  # frames up to this size are searched enlarged as a last resort,
SHARPEN_SIGMA_PX = 1.5  # as they are and sharpened: less this blur of the frame, ...
SHARPEN_AMOUNT = 1.0  # ... this many times over (an unsharp mask)
TRACKED_MIN_PERIMETER = 0.8  # least marker perimeter in a search window, per window side
TRACKED_MIN_THRESHOLD_WINDOW = 13  # px: least adaptive threshold window in a search window
TRACKING_THRESHOLD_WINDOW = 17  # px: the one threshold window where the last fit says a marker is
# A marker the detector outlines but cannot decode (glare and blur wash out its bits) is taken
# where the others put it: the undecoded outline whose corners each lie within this share of
# the found markers' side of where the fit through them puts its corners ...
COMPLETION_REACH = 0.8
# ... if the fit through all of them errs at most this many px more than the fit without it
# (the white paper's outline around a marker, which the reach lets through, errs 3 px more).
COMPLETION_SLACK_PX = 1.0


class LocateError(ValueError):
    """The board cannot be located in a frame; the message says why."""


@dataclass(frozen=True)
class BoardFit:
    """Where the board is in one frame.

    ``homography`` maps board mm (x, y, 1) to the pixels of an ideal (pinhole) camera,
    which ``lens`` (`vision.lens.Lens`, None: none) bends into the frame's; ``error_px`` is
    the RMS distance between detected marker corners and their projection; ``markers`` are
    the marker ids seen in this frame; ``reused`` is true when an earlier fit was kept
    because too few markers were visible to fit again.
    """

    homography: np.ndarray
    error_px: float
    markers: tuple[int, ...]
    reused: bool = False
    lens: Lens | None = None

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Image pixel positions of board points given as an (N, 2) array in mm."""
        return self.bend(self.project_ideal(points_mm))

    def project_ideal(self, points_mm: np.ndarray) -> np.ndarray:
        """Where an ideal camera would show board points (N, 2) given in mm."""
        points = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(points, self.homography).reshape(-1, 2)

    def bend(self, ideal_px: np.ndarray) -> np.ndarray:
        """Where the frame shows the ideal camera's pixel positions (N, 2)."""
        return ideal_px if self.lens is None else self.lens.distort(ideal_px)


def marker_corners_mm(profile: BoardProfile) -> dict[int, np.ndarray]:
    """Board mm of each marker's corners in ArUco order (top-left, top-right,
    bottom-right, bottom-left as printed; top is +y)."""
    corners = {}
    for marker in profile.markers:
        half = marker.size / 2
        corners[marker.id] = np.array([
            (marker.x - half, marker.y + half), (marker.x + half, marker.y + half),
            (marker.x + half, marker.y - half), (marker.x - half, marker.y - half)])
    return corners


def _dictionary_id(profile: BoardProfile) -> int:
    names = {marker.dictionary for marker in profile.markers}
    if len(names) != 1:
        raise LocateError(f"board {profile.name}: markers must share one dictionary, "
                          f"found {sorted(names)}")
    name = names.pop()
    if not name.startswith("DICT_") or not hasattr(cv2.aruco, name):
        raise LocateError(f"board {profile.name}: unknown marker dictionary {name!r}")
    return int(getattr(cv2.aruco, name))


def find_dimples(grey: np.ndarray, project: Callable[[np.ndarray], np.ndarray],
                 centres_mm: np.ndarray, radius_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """Where the dark round holes near their predicted positions really are.

    ``project`` maps board mm (N, 2) to the pixels (N, 2) where the holes should be (e.g.
    `BoardFit.project`). A dark disc template (the hole's size at the local scale) is matched
    around each predicted centre; matches with a clear peak give (board mm, image px) pairs.
    """
    predicted = project(centres_mm)
    ends = project(centres_mm + np.array([1.0, 0.0]))
    scales = np.linalg.norm(ends - predicted, axis=1)
    height, width = grey.shape
    pairs_mm, pairs_px = [], []
    for centre_mm, (x, y), scale in zip(centres_mm, predicted, scales, strict=True):
        radius = radius_mm * scale
        half = int(np.ceil(radius * 1.6))
        search = int(np.ceil(DIMPLE_SEARCH_MM * scale)) + 1
        x0, y0 = round(x) - half - search, round(y) - half - search
        x1, y1 = round(x) + half + search + 1, round(y) + half + search + 1
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            continue
        template = _disc_template(radius, half)
        scores = cv2.matchTemplate(grey[y0:y1, x0:x1].astype(np.float32), template,
                                   cv2.TM_CCOEFF_NORMED)
        _, best, _, (bx, by) = cv2.minMaxLoc(scores)
        if best < DIMPLE_MIN_SCORE or not (0 < bx < scores.shape[1] - 1) or not (
                0 < by < scores.shape[0] - 1):
            continue
        dx = _peak_offset(scores[by, bx - 1:bx + 2])
        dy = _peak_offset(scores[by - 1:by + 2, bx])
        pairs_mm.append(centre_mm)
        pairs_px.append((x0 + bx + half + dx, y0 + by + half + dy))
    return np.array(pairs_mm, np.float64), np.array(pairs_px, np.float64)


def _disc_template(radius: float, half: int) -> np.ndarray:
    yy, xx = np.mgrid[-half:half + 1, -half:half + 1]
    inside = np.clip(radius + 0.5 - np.hypot(xx, yy), 0, 1)
    return np.asarray((1.0 - inside).astype(np.float32))


def _peak_offset(values: np.ndarray) -> float:
    """Sub-pixel position of a peak from three samples around it (parabola)."""
    left, middle, right = (float(v) for v in values)
    denominator = left - 2 * middle + right
    return 0.0 if denominator >= 0 else 0.5 * (left - right) / denominator


def _parameters(min_perimeter: float | None = None,
                threshold_window: int | None = None) -> cv2.aruco.DetectorParameters:
    """Detector settings; with `min_perimeter` (share of the searched image's larger side)
    for a window where a marker is big: small outlines and the smallest threshold window
    (3 px, which shows only a big marker's edges) are skipped; `threshold_window` thresholds
    with that one window size only (one pass instead of two)."""
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # Small, blurred markers: sample each cell with more pixels, correct more bits
    # (a wrongly decoded id cannot pass the layout check of the fit).
    parameters.perspectiveRemovePixelPerCell = 8
    parameters.errorCorrectionRate = 1.0
    if min_perimeter is not None:
        parameters.minMarkerPerimeterRate = min_perimeter
        parameters.adaptiveThreshWinSizeMin = TRACKED_MIN_THRESHOLD_WINDOW
    if threshold_window is not None:
        parameters.adaptiveThreshWinSizeMin = threshold_window
        parameters.adaptiveThreshWinSizeMax = threshold_window
    return parameters


def _grey(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _enlarged(grey: np.ndarray, upscale: int = UPSCALE) -> np.ndarray:
    """A grey image enlarged `upscale` times (cubic interpolation); see `_shrunk_back`."""
    return cv2.resize(grey, None, fx=upscale, fy=upscale, interpolation=cv2.INTER_CUBIC)


def _sharpened(grey: np.ndarray) -> np.ndarray:
    """A grey image with its edges steepened (unsharp mask: `SHARPEN_SIGMA_PX`,
    `SHARPEN_AMOUNT`)."""
    soft = cv2.GaussianBlur(grey, (0, 0), SHARPEN_SIGMA_PX)
    return np.asarray(cv2.addWeighted(grey, 1 + SHARPEN_AMOUNT, soft, -SHARPEN_AMOUNT, 0))


def _shrunk_back(corners: Sequence[np.ndarray], upscale: int) -> list[np.ndarray]:
    """Marker corners found in an `_enlarged` image, in pixels of the image before."""
    return [(np.asarray(c, np.float64) + 0.5) / upscale - 0.5 for c in corners]


def fit_homography(points_mm: np.ndarray, points_px: np.ndarray) -> tuple[np.ndarray, float]:
    """Least-squares homography mm → px through all point pairs, and its RMS error in px."""
    homography, _ = cv2.findHomography(points_mm, points_px, 0)
    if homography is None:
        raise LocateError("markers are degenerate: no homography fits them")
    projected = cv2.perspectiveTransform(points_mm.reshape(-1, 1, 2), homography).reshape(-1, 2)
    error = float(np.sqrt(np.mean(np.sum((projected - points_px) ** 2, axis=1))))
    return homography, error


class Locator:
    """Locates one board profile in successive frames of one camera, whose frames ``lens``
    distorts (None: a straight camera); every fit it makes carries the lens."""

    def __init__(self, profile: BoardProfile, lens: Lens | None = None) -> None:
        self.profile = profile
        self.lens = lens
        self._corners_mm = marker_corners_mm(profile)
        dictionary = cv2.aruco.getPredefinedDictionary(_dictionary_id(profile))
        self._detector = cv2.aruco.ArucoDetector(dictionary, _parameters())
        # In a window around its last position the marker is big: skip every small outline
        # (wood grain, holes, noise), which is most of the work.
        # (A tracked marker that this misses is looked for in the whole frame.)
        self._tracker = cv2.aruco.ArucoDetector(dictionary, _parameters(
            TRACKED_MIN_PERIMETER, TRACKING_THRESHOLD_WINDOW))
        # The rescue windows are wider: the same marker is a smaller share of them.
        self._rescuer = cv2.aruco.ArucoDetector(dictionary, _parameters(
            TRACKED_MIN_PERIMETER * (1 + 2 * SEARCH_MARGIN) / (1 + 2 * RESCUE_MARGIN)))
        # The board's markers as one OpenCV board, and a detector to complete it with.
        self._board = cv2.aruco.Board(
            [np.column_stack([corners, np.zeros(4)]).astype(np.float32)
             for corners in self._corners_mm.values()],
            dictionary, np.array(list(self._corners_mm), np.int32))
        self._completer = cv2.aruco.ArucoDetector(dictionary, _parameters())
        self.last_fit: BoardFit | None = None

    def locate(self, image: np.ndarray) -> BoardFit:
        """Fit the board in ``image`` (BGR or grey); `LocateError` if that is impossible."""
        found = {} if self.last_fit is None else self._detect_tracked(
            image, self.last_fit, enough=FRESH_FIT_MARKERS)
        settled = (self.last_fit is not None and len(found) >= 2
                   and self._error(self.last_fit, found) <= AGREEMENT_PX)
        grey = None  # the frame in grey, made once when a whole-frame search needs it
        outlines: list[np.ndarray] = []
        if len(found) < len(self._corners_mm) and not settled:
            grey = _grey(image)
            whole, outlines = self._detect_outlined(grey)
            found = {**whole, **found}
        if 2 <= len(found) < FRESH_FIT_MARKERS and not settled:
            rough = self._rough_fit(found)
            found = {**self._detect_tracked(image, rough, UPSCALE, RESCUE_MARGIN, self._rescuer),
                     **found}
        try:
            fit = self._fit(found)
        except LocateError:
            # Before giving up: small, blurred markers (a high or steeply tilted camera, where
            # two markers also put the others far from where they are; a camera out of focus)
            # decode in the whole frame enlarged, or enlarged and sharpened. Slow (tens of ms),
            # but only where there is no fit otherwise; a larger frame has pixels enough per
            # marker, and enlarging it would cost far more.
            if max(image.shape[:2]) > ENLARGE_MAX_SIDE_PX:
                raise
            grey = _grey(image) if grey is None else grey
            enlarged = {**self._detect(_enlarged(_sharpened(grey)), UPSCALE),
                        **self._detect(_enlarged(grey), UPSCALE)}
            if not enlarged.keys() - found.keys():
                raise
            found = {**enlarged, **found}
            fit = self._fit(found)
        if not fit.reused and FRESH_FIT_MARKERS <= len(fit.markers) < len(self._corners_mm):
            fit = self._with_missing_markers(image, grey, fit, found, outlines)
        if not fit.reused:
            self.last_fit = fit
        return fit

    def _with_missing_markers(self, image: np.ndarray, grey: np.ndarray | None, fit: BoardFit,
                              found: dict[int, np.ndarray],
                              outlines: list[np.ndarray]) -> BoardFit:
        """A fresh ``fit`` through three markers, through the fourth too where it is found:
        taken from an undecoded outline where the three put it (`_completed`), else decoded
        in an enlarged window there, as it is or sharpened (blur and JPEG can leave its bits
        unreadable at the frame's size); the window is as wide as the rescue's: three markers
        leave the far corner's perspective loose, a pixel off at each corner puts it several
        pixels off."""
        fitting = {i: found[i] for i in fit.markers}
        if grey is not None and outlines:
            completed = self._completed(grey, fitting, outlines)
            if len(completed) > len(fitting):
                return self._fit_markers(completed)
        missing = self._corners_mm.keys() - fitting.keys()
        more = self._detect_tracked(image, fit, UPSCALE, RESCUE_MARGIN, self._rescuer,
                                    wanted=missing)
        if not more:  # a camera out of focus: its edges steepened
            sharpened = _sharpened(_grey(image) if grey is None else grey)
            more = self._detect_tracked(sharpened, fit, UPSCALE, RESCUE_MARGIN, self._rescuer,
                                        wanted=missing)
        if more:
            with_more = self._fit_markers({**fitting, **more})
            if with_more.error_px <= MAX_ERROR_PX:
                return with_more
        return fit

    def refine(self, image: np.ndarray, centres_mm: np.ndarray, radius_mm: float) -> BoardFit:
        """Sharpen a last fit made without every marker on holes known to be empty (dark
        dimples), e.g. the track and homes of a start position: three markers leave the far
        corner's perspective poorly fixed, many points all over the board pin it down. A fit
        through all markers is kept as it is: a dimple's darkest spot shifts toward the side
        the light comes from, a printed corner does not. A refined fit must still fit the
        markers seen (`MAX_ERROR_PX`; looked for as for a missing marker): a few dimples found
        in one part of the board (printed rings, glare) may tilt it anyhow elsewhere. The
        refined fit is kept for later frames."""
        if self.last_fit is None:
            raise LocateError("nothing to refine: locate the board first")
        fit = self.last_fit
        if len(fit.markers) >= len(self._corners_mm):
            return fit
        found_mm, found_px = find_dimples(_grey(image), fit.project, centres_mm, radius_mm)
        if len(found_mm) < MIN_DIMPLES:
            return fit
        found_px = self._ideal(found_px)
        homography, inliers = cv2.findHomography(found_mm, found_px, cv2.RANSAC,
                                                 DIMPLE_TOLERANCE_PX)
        if homography is None:
            return fit
        kept = inliers.ravel().astype(bool)
        projected = cv2.perspectiveTransform(found_mm[kept].reshape(-1, 1, 2), homography)
        error = float(np.sqrt(np.mean(np.sum((projected.reshape(-1, 2) - found_px[kept]) ** 2,
                                             axis=1))))
        refined = replace(fit, homography=homography, error_px=error)
        seen = self._detect_tracked(image, fit, UPSCALE, RESCUE_MARGIN, self._rescuer,
                                    wanted=fit.markers)
        if seen and self._error(refined, seen) > MAX_ERROR_PX:
            return fit
        self.last_fit = refined
        return refined

    def _ideal(self, points_px: np.ndarray) -> np.ndarray:
        """Frame pixel positions (N, 2) as an ideal camera would show them."""
        return points_px if self.lens is None else self.lens.ideal(points_px)

    def _fit(self, found: dict[int, np.ndarray]) -> BoardFit:
        seen = tuple(sorted(found))
        previous = self.last_fit
        if previous is not None and found:
            error = self._error(previous, found)
            if error <= AGREEMENT_PX:
                # Nothing moved: keep the earlier fit (maybe refined on the holes, see `refine`).
                return replace(previous, error_px=error, markers=seen, reused=True)
        if len(found) >= min(FRESH_FIT_MARKERS, len(self._corners_mm)):
            return self._fresh_fit(found)
        if previous is not None and found:
            if len(found) >= 2:
                return self._shifted_fit(previous, found)
            raise LocateError(f"the board or camera moved and only marker {seen[0]} is visible: "
                              f"need at least 2 to follow it, {FRESH_FIT_MARKERS} to fit anew")
        what = "no markers" if not found else f"only marker(s) {list(seen)}"
        raise LocateError(f"{what} of {sorted(self._corners_mm)} found: need at least "
                          f"{FRESH_FIT_MARKERS} (hand over a marker, markers outside the picture "
                          "or too small?)")

    def _fresh_fit(self, found: dict[int, np.ndarray]) -> BoardFit:
        fit = self._fit_markers(found)
        if fit.error_px > MAX_ERROR_PX and len(found) > FRESH_FIT_MARKERS:
            # One marker misread or moved: keep the best fit of the others.
            fit = min((self._fit_markers({i: c for i, c in found.items() if i != left_out})
                       for left_out in found), key=lambda candidate: candidate.error_px)
        if fit.error_px > MAX_ERROR_PX:
            raise LocateError(f"markers {list(fit.markers)} do not fit the {self.profile.name} "
                              f"layout (reprojection error {fit.error_px:.1f} px): wrong board "
                              "profile, or a marker stuck in the wrong place?")
        return fit

    def _fit_markers(self, found: dict[int, np.ndarray]) -> BoardFit:
        ids = sorted(found)
        points_mm = np.concatenate([self._corners_mm[i] for i in ids]).astype(np.float64)
        points_px = np.concatenate([found[i] for i in ids]).astype(np.float64)
        homography, error = fit_homography(points_mm, self._ideal(points_px))
        return BoardFit(homography, error, tuple(ids), lens=self.lens)

    def _shifted_fit(self, previous: BoardFit, found: dict[int, np.ndarray]) -> BoardFit:
        """Follow a moved camera with two markers: the last fit, shifted, turned and scaled."""
        ids = sorted(found)
        before = previous.project_ideal(np.concatenate([self._corners_mm[i] for i in ids]))
        after = self._ideal(np.concatenate([found[i] for i in ids]).astype(np.float64))
        motion, _ = cv2.estimateAffinePartial2D(before, after, method=cv2.LMEDS)
        if motion is None:
            raise LocateError(f"the board or camera moved and markers {ids} cannot say where")
        homography = np.vstack([motion, (0.0, 0.0, 1.0)]) @ previous.homography
        fit = BoardFit(homography, 0.0, tuple(ids), lens=self.lens)
        error = self._error(fit, found)
        if error > MAX_ERROR_PX:
            raise LocateError(f"the board or camera moved and markers {ids} alone cannot follow "
                              f"it (error {error:.1f} px): uncover the markers")
        return replace(fit, error_px=error)

    def _error(self, fit: BoardFit, found: dict[int, np.ndarray]) -> float:
        ids = sorted(found)
        projected = fit.project(np.concatenate([self._corners_mm[i] for i in ids]))
        detected = np.concatenate([found[i] for i in ids])
        return float(np.sqrt(np.mean(np.sum((projected - detected) ** 2, axis=1))))

    def markers(self, image: np.ndarray) -> dict[int, np.ndarray]:
        """The profile's markers found in the whole frame: id → its four corners (4, 2) in
        pixels, in `marker_corners_mm` order, a marker only outlined taken from its outline
        where three decode (`_completed`); no fit is kept."""
        grey = _grey(image)
        found, outlines = self._detect_outlined(grey)
        if outlines and FRESH_FIT_MARKERS <= len(found) < len(self._corners_mm):
            found = self._completed(grey, found, outlines)
        return found

    def _detect(self, grey: np.ndarray, upscale: int = 1) -> dict[int, np.ndarray]:
        """The markers in a whole grey frame, given `_enlarged` `upscale` times (corners in the
        frame's own pixels)."""
        corners, ids, _ = self._detector.detectMarkers(grey)
        return self._keep_known(_shrunk_back(corners, upscale), ids, (0, 0))

    def _detect_outlined(self, grey: np.ndarray) -> tuple[dict[int, np.ndarray],
                                                          list[np.ndarray]]:
        """The markers in a whole grey frame, and the square outlines the detector found but
        could not decode (each (1, 4, 2) float32, pixels)."""
        corners, ids, rejected = self._detector.detectMarkers(grey)
        return self._keep_known(corners, ids, (0, 0)), list(rejected)

    def _completed(self, grey: np.ndarray, found: dict[int, np.ndarray],
                   outlines: list[np.ndarray]) -> dict[int, np.ndarray]:
        """``found`` (markers that fit together), with the missing markers among the undecoded
        ``outlines`` where the fit through ``found`` puts them (`COMPLETION_REACH`; OpenCV's
        `refineDetectedMarkers`, its bits left unchecked) if the fit through all of them errs
        at most `COMPLETION_SLACK_PX` more."""
        ids = sorted(found)
        side = float(np.median([np.linalg.norm(np.roll(found[i], -1, axis=0) - found[i], axis=1)
                                for i in ids]))
        self._completer.setRefineParameters(
            cv2.aruco.RefineParameters(COMPLETION_REACH * side, -1.0, True))
        corners, completed, _, _ = self._completer.refineDetectedMarkers(
            grey, self._board, [found[i].reshape(1, 4, 2).astype(np.float32) for i in ids],
            np.array(ids, np.int32).reshape(-1, 1), outlines)
        more = self._keep_known(corners, completed, (0, 0))
        if len(more) <= len(found):
            return found
        slack = self._fit_markers(more).error_px - self._fit_markers(found).error_px
        return more if slack <= COMPLETION_SLACK_PX else found

    def _rough_fit(self, found: dict[int, np.ndarray]) -> BoardFit:
        """Where two markers put the board, as a shift, turn and scale in the frame's pixels
        (lens or not): enough to say where to look for the others."""
        ids = sorted(found)
        points_mm = np.concatenate([self._corners_mm[i] for i in ids])
        points_px = np.concatenate([found[i] for i in ids]).astype(np.float64)
        flip = np.diag([1.0, -1.0, 1.0])  # board y is up, image y down: a mirror image
        motion, _ = cv2.estimateAffinePartial2D(points_mm * (1.0, -1.0), points_px)
        if motion is None:
            raise LocateError(f"only marker(s) {ids} found, and they do not fit together")
        return BoardFit(np.vstack([motion, (0.0, 0.0, 1.0)]) @ flip, 0.0, tuple(ids))

    def _detect_tracked(self, image: np.ndarray, fit: BoardFit, upscale: int = 1,
                        margin: float = SEARCH_MARGIN,
                        detector: cv2.aruco.ArucoDetector | None = None,
                        enough: int | None = None,
                        wanted: Collection[int] | None = None) -> dict[int, np.ndarray]:
        """Search each marker (of ``wanted``, default all) only in a window around where ``fit``
        puts it; ``upscale`` enlarges the window first (small, blurred markers decode better).
        With ``enough``, stop once that many markers are found where ``fit`` puts them: the
        board has not moved."""
        detector = detector or self._tracker
        height, width = image.shape[:2]
        found: dict[int, np.ndarray] = {}
        for marker_id, corners_mm in self._corners_mm.items():
            if wanted is not None and marker_id not in wanted:
                continue
            corners = fit.project(corners_mm)
            low, high = corners.min(axis=0), corners.max(axis=0)
            pad = (high - low).max() * margin
            x0, y0 = (np.maximum(low - pad, 0)).astype(int)
            x1, y1 = (np.minimum(high + pad, (width, height))).astype(int)
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue
            window = _grey(image[y0:y1, x0:x1])
            if upscale > 1:
                window = _enlarged(window, upscale)
            window_corners, ids, _ = detector.detectMarkers(window)
            found.update(self._keep_known(_shrunk_back(window_corners, upscale), ids, (x0, y0),
                                          only=marker_id))
            if enough and len(found) >= enough and self._error(fit, found) <= AGREEMENT_PX:
                break
        return found

    def _keep_known(self, corners: Sequence[np.ndarray], ids: np.ndarray | None,
                    offset: tuple[int, int], only: int | None = None) -> dict[int, np.ndarray]:
        """The profile's markers among the detections, corners shifted into the frame; an id
        seen twice is ambiguous and dropped."""
        if ids is None:
            return {}
        numbers = [int(i) for i in ids.ravel()]
        wanted = set(self._corners_mm) if only is None else {only}
        return {number: np.asarray(marker, np.float64).reshape(4, 2) + offset
                for marker, number in zip(corners, numbers, strict=True)
                if number in wanted and numbers.count(number) == 1}
