"""Which colour names a marble off its kennel cannot have, by its hue and how colourful it is.

The match network compares a hole with each seat's look learnt in the reference's kennel. On the
track a glass marble refracts other things behind it than in its kennel (wood or metal instead
of the kennel's print), so dark glass can look more like the black seat's kennel than like its
own (green glass on dark wood), and black glass like a dark coloured seat's. Its colour against
the white light there still tells the families apart: balanced by the plain board around the
hole (`palette.balanced_lab`, as the seats are named), coloured glass keeps the hue of its name
and a chroma of 15 or more, black and white glass stay grey.

`ruled_out` says, per hole and colour name, whether the look rules the name out (the reader
trusts it for a colour only in frames where it keeps the name of most of that colour's marbles
still in their kennel, `passing`):

* a colourful look (chroma ≥ `COLOURFUL`) rules out black, and white when beyond
  `COLOURFUL_WHITE` (white glass takes on a tint of the board and the lamps); not black where
  the tint stays below `MIRRORED_TINT` and the networks take the hole for black by `BLACK_LEAD`
  over every other class (black glass on light wood mirrors the wood: red-brown, or bluish
  under a cool lamp);
* a grey look (chroma ≤ `GREY`) no darker than `GREY_FROM_L` rules out every coloured name
  (darker still, noise decides the hue, and nothing is ruled out);
* a colourful look rules out a coloured name whose palette hue lies more than `HUE_SLACK`
  degrees farther from the look's hue than the nearest playing coloured name's.

On the path-traced frames (`docs/vision-cycles.md`) balanced track marbles of every colour lie
within 25° of their palette hue; black ones have chroma ≤ 8, coloured ones ≥ 7 (dark, L* < 6)
and mostly ≥ 15.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.reader.palette import PALETTE

COLOURFUL = 15.0  # chroma (C*ab) from which a look is no black marble
COLOURFUL_WHITE = 40.0  # ... and no white one
MIRRORED_TINT = 30.0  # chroma below which black glass may show what it mirrors ...
BLACK_LEAD = 6.0  # ... when the networks take it for black by this many log-odds
GREY = 6.0  # chroma up to which a look is no coloured marble ...
GREY_FROM_L = 6.0  # ... when it is at least this light (L*)
HUE_SLACK = 30.0  # degrees a coloured name's hue may lie beyond the nearest one's
ACHROMATIC = ("white", "black")
RULED_OUT_COST = 20.0  # log-odds a class loses at a hole whose look rules its name out


def hue_angle(lab: np.ndarray) -> np.ndarray:
    """(…) the hue angle h_ab in degrees of (…, 3) L*a*b* values."""
    return np.asarray(np.degrees(np.arctan2(lab[..., 2], lab[..., 1])))


_PALETTE_HUE = {name: float(hue_angle(lab)) for name, lab in PALETTE.items()}


def ruled_out(lab: np.ndarray, names: Sequence[str | None],
              scores: np.ndarray | None = None) -> np.ndarray:
    """(len(names), N) bool: which names the balanced looks ``lab`` (N, 3) rule out; a name
    outside the palette (or None) is never ruled out. ``scores`` (len(names), N): the
    networks' class scores, for black glass mirroring a tint."""
    chroma = np.hypot(lab[:, 1], lab[:, 2])
    colourful = chroma >= COLOURFUL
    grey = (chroma <= GREY) & (lab[:, 0] >= GREY_FROM_L)
    coloured = [name for name in names if name in _PALETTE_HUE and name not in ACHROMATIC]
    gaps = {name: np.abs((hue_angle(lab) - _PALETTE_HUE[name] + 180.0) % 360.0 - 180.0)
            for name in coloured}
    nearest = np.min(list(gaps.values()), axis=0) if gaps else np.zeros(len(lab))
    out = np.zeros((len(names), len(lab)), bool)
    for row, name in enumerate(names):
        if name == "black":
            out[row] = colourful & ~((chroma < MIRRORED_TINT) & _leads(scores, row))
        elif name == "white":
            out[row] = chroma >= COLOURFUL_WHITE
        elif name in gaps:
            out[row] = grey | (colourful & (gaps[name] > nearest + HUE_SLACK))
    return out


def _leads(scores: np.ndarray | None, row: int) -> np.ndarray | bool:
    """Where class ``row`` scores `BLACK_LEAD` above every other class (no scores: nowhere)."""
    if scores is None:
        return False
    others = np.delete(scores, row, axis=0).max(axis=0)
    return np.asarray(scores[row] - others >= BLACK_LEAD)


def passing(out: np.ndarray, known: np.ndarray) -> np.ndarray:
    """(C,) for each class, whether the check (``out`` (C, N), as `ruled_out` gives it) keeps
    the name of most holes ``known`` (C, N) to hold that class (none known: False). The white
    taken from the board can be off (light the board does not show as the glass does): then
    the check fails on the kennel's own marbles too and must not judge the others."""
    count = known.sum(axis=1)
    failed = (out & known).sum(axis=1)
    return np.asarray((count > 0) & (2 * failed < count))


def without_ruled_out(scores: np.ndarray, out: np.ndarray) -> np.ndarray:
    """(C, N) class scores (class 0 the empty hole) where each ruled-out class (``out``
    (C, N): by this module's hue check, or the class a changed hole held) loses
    `RULED_OUT_COST`. Where a ruled-out colour was the best class, the empty hole loses as
    much: the hole looked like a marble, only not of that colour."""
    best = scores.argmax(axis=0)
    best_out = out[best, np.arange(scores.shape[1])] & (best > 0)
    cost = RULED_OUT_COST * out.astype(float)
    cost[0] = RULED_OUT_COST * (out[0] | best_out)
    return np.asarray(scores - cost)
