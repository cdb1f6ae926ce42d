"""Hands, arms, cards and other things over the board: which holes they hide.

The board around every hole is compared with the same spot in the reference frame. Light that
changed for the whole board (level, colour temperature) is taken out first, as the median
change over all holes; what is left must look like light too: a shadow darkens all colour
channels alike and keeps the wood grain. A hole whose surroundings changed colour, became
much brighter or lost their texture, or whose centre looks like no known class, is hidden;
so are its neighbours, because a hand's edge rarely stops exactly between two holes.
Without a reference frame only the last test and a colour test against the board's own
median surface are possible.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from hw import BoardProfile

if TYPE_CHECKING:
    from vision.read import HoleFeatures

CHROMA_LIMIT = 0.12  # log colour change beyond a neutral (shadow-like) change
BRIGHTER_LIMIT = 0.25  # log brightness gain beyond the board-wide change
DARKER_LIMIT = -1.3  # deeper than any shadow
TEXTURE_LIMIT = -0.7  # log of ring texture now / in the reference
NEIGHBOURHOOD_MM = 26.0  # holes this close to a hidden hole are hidden too


def surface_changes(features: HoleFeatures, reference_ring: np.ndarray | None,
                    reference_texture: np.ndarray | None = None) -> np.ndarray:
    """Per hole: True where the board around the hole no longer looks like board."""
    if reference_ring is None:
        change = features.ring - np.median(features.ring, axis=0)
    else:
        change = features.ring - reference_ring
    residual = change - np.median(change, axis=0)
    brightness = residual.mean(axis=1)
    chroma = np.linalg.norm(residual - brightness[:, None], axis=1)
    changed = (chroma > CHROMA_LIMIT) | (brightness > BRIGHTER_LIMIT) | (brightness < DARKER_LIMIT)
    if reference_texture is not None:
        texture = np.log((features.ring_texture + 1e-3) / (reference_texture + 1e-3))
        changed |= texture < TEXTURE_LIMIT
    return changed


def spread_to_neighbours(profile: BoardProfile, hidden: np.ndarray) -> np.ndarray:
    """Hide every hole within `NEIGHBOURHOOD_MM` of a hidden one."""
    if not hidden.any():
        return hidden
    centres = np.array([(hole.x, hole.y) for hole in profile.holes])
    distance = np.linalg.norm(centres[:, None, :] - centres[None, hidden, :], axis=2)
    return (distance <= NEIGHBOURHOOD_MM).any(axis=1)


def occluded_holes(profile: BoardProfile, features: HoleFeatures,
                   reference_ring: np.ndarray | None, unknown: np.ndarray,
                   reference_texture: np.ndarray | None = None) -> np.ndarray:
    """Boolean per hole (profile order): hidden under a hand or an object."""
    hidden = unknown | surface_changes(features, reference_ring, reference_texture)
    return spread_to_neighbours(profile, hidden)
