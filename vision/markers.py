"""Printable marker sheets: the board's ArUco markers at true scale on A4 SVG pages.

Each page holds up to six markers, each with its id, the board corner it belongs to and where
its centre goes (profile mm from the board centre), plus a 10 cm scale bar to check that the
printer kept the scale, and the instructions for sticking them on.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

import cv2
import numpy as np

from hw import BoardProfile, Marker

PAGE_MM = (210.0, 297.0)
COLUMNS, ROWS = 2, 3
CELL_MM = (90.0, 62.0)
GRID_ORIGIN_MM = (15.0, 62.0)
QUIET_ZONE_CELLS = 1  # white border around the black square, in marker cells


def corner_name(marker: Marker) -> str:
    """Where a marker sits seen from seat 0 (seat 0 at the bottom edge, -y)."""
    vertical = "top" if marker.y > 0 else "bottom" if marker.y < 0 else "middle"
    horizontal = "right" if marker.x > 0 else "left" if marker.x < 0 else "centre"
    return f"{vertical}-{horizontal}"


def marker_bits(marker: Marker) -> np.ndarray:
    """The marker's cells including its black border, True where black, top row first."""
    dictionary = cv2.aruco.getPredefinedDictionary(int(getattr(cv2.aruco, marker.dictionary)))
    cells = dictionary.markerSize + 2
    image = cv2.aruco.generateImageMarker(dictionary, marker.id, cells, borderBits=1)
    return image < 128


def _marker_svg(marker: Marker, left: float, top: float) -> list[str]:
    bits = marker_bits(marker)
    cell = marker.size / bits.shape[0]
    quiet = QUIET_ZONE_CELLS * cell
    parts = [f'<rect x="{left - quiet:.3f}" y="{top - quiet:.3f}" '
             f'width="{marker.size + 2 * quiet:.3f}" height="{marker.size + 2 * quiet:.3f}" '
             'fill="white" stroke="#bbb" stroke-width="0.2" stroke-dasharray="1,1"/>']
    for row, col in zip(*np.nonzero(bits), strict=True):
        parts.append(f'<rect x="{left + col * cell:.3f}" y="{top + row * cell:.3f}" '
                     f'width="{cell:.3f}" height="{cell:.3f}" fill="black"/>')
    return parts


def _text(x: float, y: float, text: str, size: float = 3.5, weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-family="sans-serif" font-size="{size}" '
            f'font-weight="{weight}">{escape(text)}</text>')


def _page(profile: BoardProfile, markers: list[Marker], page: int, pages: int) -> str:
    width, height = PAGE_MM
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}mm" height="{height}mm" '
        f'viewBox="0 0 {width} {height}">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        _text(15, 20, f"Dog Companion markers: board {profile.name} (page {page} of {pages})",
              5, "bold"),
        _text(15, 28, "Print at 100 % (actual size, no 'fit to page'); check the scale bar: "
                      "it must measure exactly 10 cm."),
        _text(15, 33, "Cut along the dashed line. Stick each marker flat with its centre at "
                      "the x, y given (mm from the board centre,"),
        _text(15, 38, "x toward the right, y away from seat 0 as seen from seat 0), its TOP "
                      "edge (arrow) pointing away from seat 0 (+y)."),
        _text(15, 43, "Keep the white border around the black square visible; do not cover "
                      "or laminate with glossy film."),
    ]
    bar_top = 50.0
    parts.append(f'<rect x="15" y="{bar_top}" width="100" height="2" fill="black"/>')
    for tick in range(11):
        parts.append(f'<rect x="{15 + 10 * tick - 0.15:.2f}" y="{bar_top - 2}" width="0.3" '
                     f'height="4" fill="black"/>')
    parts.append(_text(120, bar_top + 2, "10 cm scale bar"))
    for index, marker in enumerate(markers):
        column, row = index % COLUMNS, index // COLUMNS
        left = GRID_ORIGIN_MM[0] + column * CELL_MM[0] + 8
        top = GRID_ORIGIN_MM[1] + row * CELL_MM[1] + 10
        parts += _marker_svg(marker, left, top)
        label_x = left + marker.size + 8
        parts.append(_text(label_x, top + 4, f"marker id {marker.id}", 4.5, "bold"))
        parts.append(_text(label_x, top + 10, f"{corner_name(marker)} corner"))
        parts.append(_text(label_x, top + 15, f"centre x = {marker.x:g} mm"))
        parts.append(_text(label_x, top + 20, f"centre y = {marker.y:g} mm"))
        parts.append(_text(label_x, top + 25, f"{marker.size:g} mm, {marker.dictionary}", 2.8))
        arrow_x = left + marker.size / 2
        parts.append(f'<path d="M {arrow_x - 3:.2f} {top - 6:.2f} L {arrow_x:.2f} '
                     f'{top - 10:.2f} L {arrow_x + 3:.2f} {top - 6:.2f} Z" fill="black"/>')
        parts.append(_text(arrow_x + 5, top - 6.5, "top (+y)", 2.8))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def marker_sheets(profile: BoardProfile) -> list[str]:
    """SVG documents, one per A4 page, holding every marker of the profile at true size."""
    per_page = COLUMNS * ROWS
    markers = sorted(profile.markers, key=lambda marker: marker.id)
    for marker in markers:
        if marker.size > CELL_MM[0] - 40 or marker.size > CELL_MM[1] - 16:
            raise ValueError(f"marker {marker.id}: {marker.size:g} mm is too large for the "
                             "A4 sheet layout")
    chunks = [markers[i:i + per_page] for i in range(0, len(markers), per_page)] or [[]]
    return [_page(profile, chunk, number, len(chunks))
            for number, chunk in enumerate(chunks, start=1)]
