"""A picture of what the reader saw: markers, hole positions and each hole's class."""

from __future__ import annotations

import cv2
import numpy as np

from vision.locate import marker_corners_mm
from vision.reader.board_reader import UNKNOWN, BoardReader, HoleReading
from vision.reader.palette import PALETTE_SRGB

# Each named colour of the palette in its own colour (BGR); other names grey.
CLASS_BGR = {name: (b, g, r) for name, (r, g, b) in PALETTE_SRGB.items()} | {
    UNKNOWN: (255, 0, 255)}
MARKER_BGR = (0, 255, 0)
EMPTY_BGR = (160, 160, 160)


def draw_reading(image: np.ndarray, reader: BoardReader, reading: HoleReading) -> np.ndarray:
    """A copy of ``image`` with the fitted markers, every hole and its class drawn on it.

    Empty holes get a thin grey circle, marbles a thick circle of their colour, hidden holes a
    magenta cross; seen markers are outlined in green with their id.
    """
    canvas = image.copy()
    fit = reading.fit
    for marker_id, corners in marker_corners_mm(reader.profile).items():
        outline = np.round(fit.project(corners)).astype(np.int32)
        seen = marker_id in fit.markers
        cv2.polylines(canvas, [outline], True, MARKER_BGR if seen else (0, 0, 255), 2)
        cv2.putText(canvas, str(marker_id), tuple(int(v) for v in outline[0]),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.6, MARKER_BGR, 2)
    centres = fit.project(np.array([(hole.x, hole.y) for hole in reader.profile.holes]))
    ends = fit.project(np.array([[0.0, 0.0], [1.0, 0.0]]))
    scale = float(np.linalg.norm(ends[1] - ends[0]))  # pixels per mm near the centre
    radius = max(3, round(reader.profile.hole_diameter_mm / 2 * scale))
    for (x, y), hole in zip(centres, reader.profile.holes, strict=True):
        label = reading.holes[hole.id]
        centre = (round(x), round(y))
        if label is None:
            cv2.circle(canvas, centre, radius, EMPTY_BGR, 1, cv2.LINE_AA)
        elif label == UNKNOWN:
            size = radius
            cv2.line(canvas, (centre[0] - size, centre[1] - size),
                     (centre[0] + size, centre[1] + size), CLASS_BGR[UNKNOWN], 2)
            cv2.line(canvas, (centre[0] - size, centre[1] + size),
                     (centre[0] + size, centre[1] - size), CLASS_BGR[UNKNOWN], 2)
        else:
            colour = CLASS_BGR.get(label, (128, 128, 128))
            cv2.circle(canvas, centre, radius + 2, (40, 40, 40), 4, cv2.LINE_AA)
            cv2.circle(canvas, centre, radius + 2, colour, 2, cv2.LINE_AA)
    text = (f"confidence {reading.confidence:.2f}  occluded {reading.occluded}  "
            f"fit error {fit.error_px:.2f} px")
    cv2.putText(canvas, text, (10, 25), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 4)
    cv2.putText(canvas, text, (10, 25), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (255, 255, 255), 2)
    return canvas
