"""Which marble sits in which hole: per-hole classification, empty or a colour.

Every hole is described relative to the board surface right around it, so that the light
falling on that spot (level, colour temperature, a shadow across the board) cancels out:

* ``ring`` — the board's colour in a ring around the hole (upper quartile: the marble's own
  shadow does not count);
* ``paint`` — how much the printed decorations (kennel bands, coloured rings of start and home
  fields) change that ring compared with the plain track surface nearby, measured once;
* ``feature`` — log colour of the hole's centre minus log of the surface there (an empty
  hole against its own ring, a marble against the plain board: the ring corrected for paint),
  plus how uneven the centre is (glass highlights, a hole's shading).

Seat colours are learnt from a *reference* frame taken at the start of a game (every marble in
its kennel, the track and homes empty): each kennel gives its seat's colour (named by what it
is, `palette`, or as the table's setup tells), each empty hole its own empty look, and the
Gaussian distance of every hole to every class follows. With the
reference, two small learned networks decide: `match` ranks each hole's classes,
`trust` says whether the best may be reported or the hole is ``"?"`` (a hand, a card,
doubt; `occlusion` finds where the bare board changed), and `census` checks the
result against each seat's marble count (`seats` says which seats play). Without a
reference the reader falls back to default colour prototypes, takes the empty look from the
track itself (most track holes are empty in any game) and hides holes by hand-made rules:
less robust, documented in docs/vision.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

import numpy as np

from hw import BoardProfile
from vision.calibrate import find_lens
from vision.focus import marker_blur
from vision.lens import Lens
from vision.locate import BoardFit, Locator
from vision.reader.census import UNKNOWN as CENSUS_UNKNOWN
from vision.reader.census import Census
from vision.reader.features import LOG_OFFSET, HoleFeatures, brightness, medians
from vision.reader.holes import HoleSampler
from vision.reader.hue import passing, ruled_out, without_ruled_out
from vision.reader.learning import (
    LEARN_RATE,
    MAX_DISAGREEMENT,
    SHADOW_REACH_MM,
    blend_features,
    blend_means,
    blend_surface,
    blend_table,
    near,
)
from vision.reader.match import INPUTS as MATCH_INPUTS
from vision.reader.match import (
    PairEvidence,
    changed_holes,
    class_centres,
    class_scores,
    look_changes,
    possible_classes,
)
from vision.reader.network import MODELS, Network
from vision.reader.occlusion import (
    Baseline,
    Foreign,
    SurfaceGrid,
    hiding_grain,
    nothing_over_board,
    region_distance,
    region_share,
    unwitnessed_parts,
    with_holes,
    without_grain_shown,
)
from vision.reader.palette import balanced_lab, linear_bgr, name_seats, paper_colours
from vision.reader.seats import playing_seats
from vision.reader.texture import (
    FADED_TEXTURE,
    TEXTURE_NEIGHBOURS,
    SurfaceTexture,
    grey_levels,
    hides_texture,
    shows_texture,
)
from vision.reader.trust import AT_REGION_MM, HoleEvidence
from vision.reader.trust import INPUTS as TRUST_INPUTS
from vision.reader.warning import (
    ReaderWarning,
    board_overexposed,
    kennel_overexposed,
    reference_blurred,
)

EMPTY = None
UNKNOWN = "?"
FEATURE_FLOOR = np.array([0.10, 0.10, 0.10, 0.10])  # least spread of a class, per feature
DARK_RATIO = 0.7  # log ratio to the board below which a colour counts as dark ...
DARK_SPREAD = 0.15  # ... and its spread grows by this per unit of log ratio
MOTION_LIMIT = 0.2  # log colour change of a hole's centre between frames that means motion
OUTLIER_DISTANCE = 4.5  # farther than this from every class: something unknown is there
DOUBTFUL_DISTANCE = 3.0  # farther than this: hidden too if next to a hidden hole
DOUBT_REACH_MM = 50.0  # "next to": centres this close
STRANGE_DISTANCE = 4.5  # two adjacent holes this far from every class: something is there
ADJACENT_MM = 30.0  # adjacent holes: centres this close
OWN_LOOK_LIMIT = 0.15  # how far a hole's empty look may differ from the plain track's
PLAIN_NEIGHBOURS = 4  # plain track holes that say what the bare board looks like near a hole
FIFTH_MARBLE_PLAYERS = (2, 3, 5)  # Schmidt: each player starts with a marble on the start field
BLIND_KENNEL_SHARE = 0.5  # a kennel with this share of its holes overexposed is blind
BLIND_BOARD_SHARE = 0.5  # a reference overexposed over this share of the bare board: warned
# A reference this blurred (Gaussian σ, pixels; `vision.focus`) is warned about: a camera in
# focus shows about 0.5 px, the compositing renderer draws up to 1.3 px and reads as well there;
# the 183 path-traced cases blurred by 1.6 px more (1.7 px in all) read 23 marbles empty, by
# 2.0 px more left 11 frames unread, their markers undecodable.
BLURRED_PX = 1.5
KENNEL_REACH_MM = 22.0  # a kennel marble's shadow and edge fall this far from its hole's centre
# A foreign region (not a stray) this close to a hole's centre may cover the edge of its marble
# (8 mm): the occlusion test sees the board only from the rings (12-14 mm) out, every grid step.
# Regions all farther than this from every hole hide no marble (`nothing_over_holes`).
TOUCH_REACH_MM = 20.0
# ... nor does one farther than `AT_REGION_MM` from a hole whose ring still shows the
# reference's grain this well (correlation): a mug or a phone beside the track leaves the board
# around the hole in view (path-traced 0389-0630: mugs 16-20 mm from holes whose rings matched
# 0.95-0.99; the hands as far from a hole they touched 0.14 and 0.22).
TOUCHED_RING_MATCH = 0.6
# ... and one within `AT_REGION_MM` of a hole only while the hole's ring has lost some of the
# grain: a region beside a hole whose ring matches the reference this well is light, not a thing
# (path-traced 0695: a lamp moved between the frames, its old glare's halo a region 8-12 mm from
# six holes whose rings matched 0.94-0.98; on every path-traced board with a hand over a hole
# and a region found, 0389-0418 and 0686-0726, some ring within 12 mm of it matched 0.57 or
# less).
SHOWN_GRAIN_MATCH = 0.9
# A hole the trust network doubts by this many logits or more, which the census then finds
# empty (every marble it could hold is seen elsewhere), has something over it that is no
# marble: a finger the occlusion test missed (on the training renderer's held-out seeds 31-34,
# 2 235 cases, 18 boards with a hand over a hole and no such hole without one; path-traced
# 0139-0388: 8 boards with a hand that only this found) ...
EMPTIED_DOUBT = 2.0
# ... unless the hole was empty in the reference and its disc still shows the reference's
# brightness pattern this well (correlation): nothing hides it ...
UNCHANGED_DISC = 0.85
# ... or it held a marble in the reference and now looks like an empty dimple, painted as the
# band around it (its distance to the empty class against its own ring) or unpainted (against
# the plain board, `Prototypes.bare_dimple_distance`), within this distance: its marble has
# left, and the dimple the reference never showed is doubted for that alone. (The compositing
# renderer paints its kennel dimples, the path tracer does not. Path-traced 0389-0470: the
# emptied kennel holes doubted so with nothing over them lay at most 3.4 from either (white
# glass gone from aluminium, 0443; green from a lamp's gradient, 0455); on the shuffled
# compositing draws of seeds 2024 and 2025, every one lay under a hand, and every board such a
# hole flagged has one at 3.7 or more.)
LEFT_EMPTY_DISTANCE = 3.5
# A hole full in the reference and read empty whose empty class scores below this (log-odds:
# the match network does not find it empty; its reference's colour was ruled out as changed)
# holds something that is neither: a finger over its marble (path-traced 0604: a pale finger
# over a yellow kennel marble, -3.3; the emptied kennel holes whose colour was ruled out so
# scored -1.6 or more on path-traced 0389-0630, 0 or more on the shuffled compositing draw of
# seed 2024, cases 0-299). Within `TOUCH_REACH_MM` of a foreign region the bar is
# `EMPTY_IN_VIEW_SCORE`: path-traced 0754, fingers over a green kennel marble, 1.06; the emptied
# kennel holes in view that near a region scored 8.5 or more (path-traced 0389-0754).
EMPTY_SCORE = -2.0
# A hole full in the reference, read as its own marble within `TOUCH_REACH_MM` of a foreign
# region by less than this margin (log-odds over every other class), may have lost the marble
# to the fingers beside it (compositing seed 2030 shuffled, case 145: a kennel hole a hand
# covers a quarter of, its marble gone, read yellow by 1.7). Kennel holes so read beside a hand
# had margins of 4 or more on the hand cases of seeds 2024, 2025 and 2031 (shuffled, 1 800
# cases) and on path-traced 0389-0759 but one under a hand (0739 `K4.0`, 2.2).
KEPT_BESIDE_HAND_MARGIN = 3.0
# A hole empty in the reference, read empty away from every foreign region (beyond
# `TOUCH_REACH_MM`), that lies farther than this from the empty class (Gaussian distance) ...
STRANGE_DISTANCE = 6.0
# ... by less than this margin (log-odds), its ring's grain lost as under a finger
# (`TOUCHED_RING_MATCH`), has something over it that the occlusion test did not find: a finger
# over the sparse surface points of a track (compositing seed 2034 at 1640x1232, case 284,
# `T61`: 9.4, 5.6 and 0.47, then named yellow by the count). Beyond that distance every such
# hole read empty with a margin below 10 was under a hand on seed 2024 and path-traced
# 0389-0794, where visible empty holes so far from the empty class had margins of 17 or more;
# on seed 2034 one in view had 8.3, its ring matching 0.91 (case 73, `T90`), and on seed 2032
# shuffled white glass 0.7, white scoring 0.2 log-odds (case 259, `T34`); under hands no marble
# scored above -1.7 there.
STRANGE_MARGIN = 10.0
# A hole inside a foreign region, empty in the reference and read empty, that looks unlike an
# empty hole (Gaussian distance to the empty class beyond this) and unlike its own reference
# (disc match below `UNCHANGED_DISC`) has something over it: a black marble between fingers
# (compositing seed 2024 case 155, 0.88 covered: 4.17). On the compositing draws of seeds 2024
# and 2025, no hole with less than a tenth covered that was read empty inside a region lay
# beyond 2.53.
IN_REGION_EMPTY_DISTANCE = 3.3
# A kennel hole that held a marble in the reference and whose disc shows the reference's
# brightness pattern this well still holds it: a glass marble that leaves takes its highlights
# with it, and a kennel holds no other seat's marbles. (Kennel holes emptied since the
# reference matched at most 0.89: path-traced 0389-0470, 818 holes, black glass on a dark band
# the closest; the default compositing draw's cases 0-199, 3 010 holes, hands over 95 of them.
# Of the holes whose marble stayed, 517 of 796 and 150 of 990 matched 0.95 or better. Path-
# traced 0453: black glass in a black kennel on dark aluminium looked more like an empty dimple
# than the black class and was read empty, its disc matching 0.99.)
STAYED_DISC = 0.95
# A hole empty in the reference whose dimple showed a strong brightness pattern there (its
# disc's brightness spread at least this share of the board's level around it) and whose disc
# now shows that pattern inverted (correlation at most `INVERTED_DISC`) holds a marble: light
# moved or changed since shades a deep dimple alike, a glass marble lights its centre. (Path-
# traced 0389-0595: of 18 310 empty holes in view, none matched 0 or less; white glass on wood
# ranked empty, -0.50 to -0.68, its dimple 0.50-0.66 in the reference. The compositing
# renderer's dimples are shallow, at most 0.28, where moved light does invert them.)
STRONG_DIMPLE = 0.4
INVERTED_DISC = -0.3
# A hole empty in the reference that the networks read empty by this margin (log-odds over
# every other class) and whose disc shows the reference's brightness pattern (`UNCHANGED_DISC`)
# is an empty dimple in view, whatever the trust network doubts beside a hand (path-traced:
# empty holes a hand's shadow or nearness made "?"). Marbles under hands read empty as best
# class: disc match at most 0.63 on path-traced 0389-0522; on the compositing draws of seeds
# 2024 and 2025 (1 200 cases) one black marble under fingers matched 0.96, at a margin of 4.2.
# Not inside a foreign region: compositing seed 2037 shuffled, case 239, a hand over a black
# marble in a home (0.96 covered) matched the dimple 0.86 at a margin of 14.6.
CLEAR_EMPTY_MARGIN = 8.0
# So is one read empty by this wider margin that lies this close to the empty class (Gaussian
# distance) and whose disc still shows some of the reference's pattern (correlation): a dimple
# in a hand's shadow keeps its pattern's shape, fingers over a marble do not. Marbles under
# hands ranked empty this far ahead lay at least 3.51 from the empty class when their disc
# matched this well (compositing seed 2024, 600 cases), and matched at most 0.09 when closer;
# the empty holes this reads lay at 0.6-2.2 and matched 0.40-0.83 (path-traced 0389-0595).
SHADED_EMPTY_MARGIN = 15.0
SHADED_EMPTY_DISTANCE = 2.5
SHADED_DISC = 0.3
# ... or one farther from the reference's empty class that looks, within this scaled distance,
# like its `EMPTY_NEIGHBOURS` nearest holes (within `EMPTY_NEIGHBOUR_MM`, at least
# `LEAST_EMPTY_NEIGHBOURS` of them) that were empty in the reference and are read empty now by
# `CLEAR_EMPTY_MARGIN`: the frame's own empty look, where a lamp switched on or moved since the
# reference changed every dimple around alike (path-traced 0438, 0457, 0662: 0.14-0.49).
# Marbles under hands that the networks rank empty by `SHADED_EMPTY_MARGIN` and whose disc matches
# `SHADED_DISC` lay at 1.44 or more (compositing seeds 2024 and 2025, 1 200 cases); those that
# lay closer had lost their disc's pattern (0.14 or less: fingers over a marble among covered
# holes the networks also read empty).
LIKE_EMPTY_NEIGHBOURS = 0.8
EMPTY_NEIGHBOURS = 4
EMPTY_NEIGHBOUR_MM = 60.0
LEAST_EMPTY_NEIGHBOURS = 3
# Where every colour a hole can hold was ruled out, each of these rules also needs the empty
# class itself to score at least this (log-odds): a margin made only of ruled-out classes says
# no marble of the reference's look is there, not that the dimple is. (Compositing seed 2027:
# fingers over blue, green and black marbles in homes, every colour ruled out, scored empty
# 1.26-1.37, a margin of 23. The empty holes in view these rules read scored 4.62 or more on
# path-traced 0389-0753 and 12.0 or more on seed 2024; through a drawn camera, path-traced
# 0757's scored about 1, the black class not ruled out.)
EMPTY_IN_VIEW_SCORE = 3.0

# Without a reference frame: how each marble typically looks against the plain board around
# it (the colour features below: log B, G, R ratio and unevenness), measured with this reader
# on the simulator's boards in neutral light. A stand-in for learning, not a substitute.
DEFAULT_LOOKS = {
    "wood": {"red": (-0.44, -0.89, 0.06, 0.53), "yellow": (-0.64, 0.22, 0.17, 0.35),
             "green": (-0.18, 0.14, -1.07, 0.56), "blue": (0.6, -0.28, -1.4, 0.55),
             "white": (0.7, 0.3, 0.16, 0.13), "black": (-0.94, -1.4, -1.56, 0.7)},
    "aluminium": {"red": (-0.88, -0.93, 0.2, 0.49), "yellow": (-1.14, 0.16, 0.27, 0.31),
                  "green": (-0.66, 0.08, -0.96, 0.49), "blue": (0.09, -0.38, -1.32, 0.48),
                  "white": (0.23, 0.24, 0.28, 0.13), "black": (-1.42, -1.46, -1.45, 0.64)},
}
DEFAULT_SPREAD = 2.0  # default looks are this many times less certain than learnt ones


class ReadError(ValueError):
    """A frame cannot be read (e.g. a reference frame that does not show a start position)."""


def nothing_over_holes(evidence: HoleEvidence) -> bool:
    """Whether nothing lies over any hole: no hand or card over the board, or none within
    `AT_REGION_MM` of a hole whose ring lost some of the reference's grain
    (`SHOWN_GRAIN_MATCH`), nor within `TOUCH_REACH_MM` of one whose ring lost most of it
    (`TOUCHED_RING_MATCH`; a phone or a mug beside the track hides no marble)."""
    at = (evidence.reach <= AT_REGION_MM) & (evidence.ring_match < SHOWN_GRAIN_MATCH)
    touching = at | ((evidence.reach <= TOUCH_REACH_MM)
                     & (evidence.ring_match < TOUCHED_RING_MATCH))
    return evidence.nothing_over or not touching.any()


def paint_offsets(profile: BoardProfile, ring: np.ndarray) -> np.ndarray:
    """Log colour of each hole's ring minus that of the plain track rings nearest to it."""
    centres = np.array([(hole.x, hole.y) for hole in profile.holes])
    plain = np.array([hole.kind == "track" and hole.seat is None for hole in profile.holes])
    plain_centres, plain_rings = centres[plain], ring[plain]
    distance = np.linalg.norm(centres[:, None, :] - plain_centres[None, :, :], axis=2)
    nearest = np.argsort(distance, axis=1)[:, :PLAIN_NEIGHBOURS]
    return np.asarray(ring - np.median(plain_rings[nearest], axis=1))


@dataclass(frozen=True)
class Prototypes:
    """What each class looks like: ``names`` (None = empty, always first), per-hole ``means``
    (C, N, F) and ``scales`` (C, F) of the features; ``seats`` the seat of each colour class
    (``names[1:]``).

    The empty class is measured against each hole's own ring (``empty_paint``): an empty hole
    is a shaded dimple in whatever surrounds it. Marbles are measured against the plain board
    (``paint``): a marble's own colour does not depend on the paint around its hole.
    ``start`` (N,) is the class each hole holds in the reference frame (`start_classes`; empty
    without one).
    """

    names: tuple[str | None, ...]
    means: np.ndarray
    scales: np.ndarray
    paint: np.ndarray
    empty_paint: np.ndarray
    seats: tuple[int, ...] = ()
    start: np.ndarray = field(default_factory=lambda: np.zeros(0, int))

    def scaled_residuals(self, features: HoleFeatures) -> np.ndarray:
        """(C, N, F) every hole's features minus every class's look, in class spreads."""
        empty = features.vectors(self.empty_paint)[None]
        marbles = np.broadcast_to(features.vectors(self.paint),
                                  (len(self.names) - 1, *empty.shape[1:]))
        stacked = np.concatenate([empty, marbles])
        return np.asarray(features.residuals(stacked, self.means) / self.scales[:, None, :])

    def bare_dimple_distance(self, features: HoleFeatures) -> np.ndarray:
        """(N,) scaled distance to the empty class of every hole's centre taken against the
        plain board around it (as a marble's, `paint`) instead of its own ring: how far it is
        from an unpainted dimple, which a kennel hole shows once its marble has left,
        whatever paint lies around it."""
        bare = features.vectors(self.paint)[None]
        residual = features.residuals(bare, self.means[:1])[0] / self.scales[0]
        return np.asarray(np.sqrt((residual ** 2).sum(axis=1)))

    def distances(self, features: HoleFeatures) -> np.ndarray:
        """(C, N) scaled distance of every hole's features to every class."""
        return np.asarray(np.sqrt((self.scaled_residuals(features) ** 2).sum(axis=2)))


def _robust_spread(values: np.ndarray) -> np.ndarray:
    """Standard deviation estimated from the median absolute deviation, per column."""
    return np.asarray(1.4826 * np.median(np.abs(values - np.median(values, axis=0)), axis=0))


def _floor(mean: np.ndarray) -> np.ndarray:
    """Least spread of a class: wider for dark colours, whose ratios noise moves more."""
    darkness = np.clip(-mean[:3] - DARK_RATIO, 0.0, None)
    return np.asarray(FEATURE_FLOOR + np.append(DARK_SPREAD * darkness, 0.0))


def _plain_track(profile: BoardProfile) -> np.ndarray:
    return np.array([hole.kind == "track" and hole.seat is None for hole in profile.holes])


def learn_prototypes(profile: BoardProfile, features: HoleFeatures,
                     seats: Sequence[int] | None = None,
                     colours: Mapping[int, str] | None = None) -> Prototypes:
    """Learn seat colours and empty holes from a start-of-game frame.

    Kennel ``K<p>.*`` shows seat p's colour, named ``colours[p]`` (see `seat_colours`; default:
    ``profile.default_colors[p]``). The seats that play are `seats` when told, else decided
    from the frame: a seat whose kennel looks like empty holes is left out (`seats`). Track
    and home holes must be empty; each gives its own empty look, kennels take the plain
    track's.
    """
    paint = paint_offsets(profile, features.ring)
    no_paint = np.zeros_like(paint)
    empty_vectors = features.vectors(no_paint)
    kennel = np.array([hole.kind == "kennel" for hole in profile.holes])
    plain_empty = np.median(empty_vectors[_plain_track(profile)], axis=0)
    # Each hole's own empty look, but only so far from the plain track's: a glint or a shadow
    # edge in the reference frame must not become part of a hole's look.
    own_look = plain_empty + np.clip(empty_vectors - plain_empty, -OWN_LOOK_LIMIT, OWN_LOOK_LIMIT)
    empty_means = np.where(kennel[:, None], plain_empty, own_look)
    names: list[str | None] = [EMPTY]
    means = [empty_means]
    scales = [np.hypot(_robust_spread(empty_vectors[~kennel]), FEATURE_FLOOR)]
    vectors = features.vectors(paint)
    playing = tuple(playing_seats(profile, features) if seats is None else sorted(seats))
    for seat in playing:
        own = np.array([h.kind == "kennel" and h.seat == seat for h in profile.holes])
        if colours is not None and seat in colours:
            names.append(colours[seat])
        elif seat < len(profile.default_colors):
            names.append(profile.default_colors[seat])
        else:
            raise ReadError(f"board {profile.name}: no colour name for seat {seat}")
        mean = np.median(vectors[own], axis=0)
        means.append(np.broadcast_to(mean, empty_means.shape))
        scales.append(np.hypot(_robust_spread(vectors[own]), _floor(mean)))
    if len(names) < 2:
        raise ReadError("reference frame: no kennel shows marbles; take the reference with "
                        "every marble in its kennel")
    means_array, scales_array = np.stack(means), np.stack(scales)
    start = start_classes(profile, playing, vectors, empty_vectors, plain_empty, means_array,
                          scales_array)
    # A start field holding a marble shows no empty look: it takes the plain track's.
    means_array[0] = np.where((start > 0)[:, None], plain_empty, means_array[0])
    return Prototypes(tuple(names), means_array, scales_array, paint, no_paint, playing, start)


def start_classes(profile: BoardProfile, playing: Sequence[int], vectors: np.ndarray,
                  empty_vectors: np.ndarray, plain_empty: np.ndarray, means: np.ndarray,
                  scales: np.ndarray) -> np.ndarray:
    """(N,) the class each hole holds in the reference frame: a playing seat's kennel its
    seat's colour (class k + 1 for ``playing[k]``), everything else empty, except a playing
    seat's start field that holds a marble of its seat's colour (Schmidt's 2, 3 and 5 players
    start with one there): it lies closer to that colour's look (``vectors`` against the plain
    board, ``means``, ``scales`` of the classes) than to the plain track's empty look
    (``empty_vectors`` against its own ring, ``plain_empty``). Only games of
    `FIFTH_MARBLE_PLAYERS` players have one there: with any other number, a start field in a
    printed ring of its seat's colour is not mistaken for a marble."""
    start = np.zeros(len(profile.holes), int)
    fifth_marble = len(playing) in FIFTH_MARBLE_PLAYERS
    for index, hole in enumerate(profile.holes):
        if hole.seat is None or hole.seat not in playing:
            continue
        colour = list(playing).index(hole.seat) + 1
        if hole.kind == "kennel":
            start[index] = colour
        elif hole.kind == "track" and fifth_marble:
            to_colour = np.linalg.norm((vectors[index] - means[colour, index]) / scales[colour])
            to_empty = np.linalg.norm((empty_vectors[index] - plain_empty) / scales[0])
            start[index] = colour if to_colour < to_empty else 0
    return start


def board_in_white(profile: BoardProfile, image: np.ndarray, fit: BoardFit,
                   features: HoleFeatures) -> np.ndarray:
    """(3,) linear BGR: the plain board's colour in white light, the plain track beside each
    marker's white paper divided by the paper (`ReadError` when no paper is in the picture)."""
    centres = np.array([(hole.x, hole.y) for hole in profile.holes])
    plain = _plain_track(profile)
    plain_board = linear_bgr(np.exp(features.ring) - LOG_OFFSET)
    paper = linear_bgr(paper_colours(image, profile, fit))
    colours = []
    for marker, white in zip(profile.markers, paper, strict=True):
        apart = np.linalg.norm(centres[plain] - (marker.x, marker.y), axis=1)
        nearest = plain_board[plain][np.argsort(apart)[:PLAIN_NEIGHBOURS]]
        colours.append(np.median(nearest, axis=0) / np.maximum(white, 1e-4))
    colour = np.nanmedian(np.array(colours), axis=0)
    if not np.isfinite(colour).all():
        raise ReadError("reference frame: the markers' white paper is not in the picture")
    return np.asarray(colour)


def seat_colours(profile: BoardProfile, board_colour: np.ndarray, features: HoleFeatures,
                 seats: Sequence[int], told: Mapping[int, str] | None = None) -> dict[int, str]:
    """The colour name of each playing seat's marbles in a start-of-game frame: as `told`, else
    by what its kennel shows (`palette.name_seats`: the median colour of the kennel holes'
    centres against the white there, which is the plain board's colour around them divided
    by the board's colour in white light, `board_in_white`)."""
    # The plain board at each hole: its ring less the paint around it (`paint_offsets`).
    local_board = linear_bgr(np.exp(features.ring - paint_offsets(profile, features.ring))
                             - LOG_OFFSET)
    centre = linear_bgr(np.exp(features.centre) - LOG_OFFSET)
    looks, clipped = {}, []
    for seat in seats:
        own = np.array([h.kind == "kennel" and h.seat == seat for h in profile.holes])
        white = np.median(local_board[own], axis=0) / board_colour
        looks[seat] = (np.median(centre[own], axis=0), white)
        if features.centre_clipped[own].any(axis=1).mean() >= BLIND_KENNEL_SHARE:
            clipped.append(seat)
    return name_seats(looks, profile.default_colors, clipped, told)


def default_prototypes(profile: BoardProfile, features: HoleFeatures,
                       seats: Sequence[int] | None = None,
                       colours: Mapping[int, str] | None = None) -> Prototypes:
    """Prototypes without a reference frame: typical marble colours over the board's material
    (guessed from the plain track's colour) of every seat or the `seats` told, each named by
    `colours` where told (else the profile's default), empty look from the track's majority."""
    paint = paint_offsets(profile, features.ring)
    vectors = features.vectors(paint)
    plain = _plain_track(profile)
    empty_mean = np.median(vectors[plain], axis=0)
    surface = np.exp(np.median(features.ring[plain], axis=0))
    looks = DEFAULT_LOOKS["wood" if surface[0] < 0.8 * surface[2] else "aluminium"]
    names: list[str | None] = [EMPTY]
    means = [np.broadcast_to(empty_mean, vectors.shape)]
    playing = []
    for seat, default in enumerate(profile.default_colors):
        colour = (colours or {}).get(seat, default)
        if colour in looks and (seats is None or seat in seats):
            names.append(colour)
            means.append(np.broadcast_to(np.array(looks[colour]), vectors.shape))
            playing.append(seat)
    scales = np.stack([FEATURE_FLOOR * DEFAULT_SPREAD] + [
        _floor(mean[0]) * DEFAULT_SPREAD for mean in means[1:]])
    return Prototypes(tuple(names), np.stack(means), scales, paint, paint, tuple(playing))


@dataclass
class HoleReading:
    """The reading of one frame: ``holes`` maps every hole id to a colour, None or "?";
    ``occluded``: something lies over the board, a hole is "?", the census found a hole empty
    that the trust network clearly doubted (`EMPTIED_DOUBT`) or (with a reference) a foreign
    region other than a stray reaches within `TOUCH_REACH_MM` of a hole."""

    holes: dict[str, str | None]
    confidence: float
    occluded: bool
    fit: BoardFit
    hole_confidence: np.ndarray = field(repr=False)
    features: HoleFeatures = field(repr=False)
    best: tuple[str | None, ...] = field(repr=False, default=())  # before hiding doubtful holes
    evidence: HoleEvidence | None = field(repr=False, default=None)
    pairs: PairEvidence | None = field(repr=False, default=None)

    def to_json(self) -> dict[str, object]:
        """The ``vision read`` contract: holes, occluded, confidence."""
        return {"holes": dict(self.holes), "occluded": self.occluded,
                "confidence": round(float(self.confidence), 4)}


@dataclass(frozen=True)
class Learned:
    """The reader's learned parts: the network ranking each hole's classes (`match`)
    and the one deciding whether to trust the best (`trust`). Without them, the
    Gaussian distances rank and every hole's best class is reported (raw, for training)."""

    match: Network | None
    trust: Network | None

    @classmethod
    @cache
    def shipped(cls) -> Learned:
        """The networks shipped with the reader, loaded once per process."""
        return cls.load(MODELS)

    @classmethod
    def load(cls, folder: Path) -> Learned:
        """The networks `vision.reader.train` wrote to a folder."""
        return cls(Network.load(folder / "hole_match.npz", MATCH_INPUTS),
                   Network.load(folder / "hole_trust.npz", TRUST_INPUTS))


class BoardReader:
    """Reads frames of one board from one camera: locate, sample, classify, flag occlusion.

    `reference` is the start position (every marble in its kennel) the colours are learnt
    from; `seats` the seats that play, when known (else decided from the reference);
    `colors` the table's setup, which colour plays at which seat (``{0: "red", 2: "blue"}``
    or a sequence by seat, None for a seat nobody plays): those names are reported, and
    without `seats` its seats are the ones that play. Otherwise each kennel's colour is named
    by what it is (`seat_colours`); without a reference, by the profile's default colours.
    `colours` maps each playing seat to the name it is read as. `warnings` says what in the
    reference will make readings worse (`reference_warnings`: English sentences, each with a
    ``code`` and ``args``, `vision.reader.warning.ReaderWarning`).
    """

    def __init__(self, profile: BoardProfile, reference: np.ndarray | None = None,
                 learned: Learned | None = None, seats: Sequence[int] | None = None,
                 colors: Mapping[int, str] | Sequence[str | None] | None = None) -> None:
        told = None if colors is None else _checked_colours(profile, colors)
        if seats is None and told is not None:
            seats = tuple(sorted(told))
        if seats is not None:
            seats = _checked_seats(profile, seats)
            if told is not None and set(told) - set(seats):
                raise ReadError(f"colors: seat {min(set(told) - set(seats))} has a colour but "
                                "does not play: name it in the seats too")
        self.profile = profile
        self.seats = seats
        self.told_colours = told
        self.locator = Locator(profile)
        self.sampler = HoleSampler(profile)
        self.ids = [hole.id for hole in profile.holes]
        self.grid = SurfaceGrid.for_profile(profile)
        centres = np.array([(hole.x, hole.y) for hole in profile.holes])
        apart = np.linalg.norm(centres[:, None] - centres[None], axis=2)
        self._neighbours = apart <= DOUBT_REACH_MM
        self._apart = apart
        self._adjacent = (apart <= ADJACENT_MM) & (apart > 0)
        self._kinds = np.array([[h.kind == kind for kind in ("track", "home", "kennel")]
                                for h in profile.holes])
        self.prototypes: Prototypes | None = None
        self.baseline: Baseline | None = None
        self.reference: HoleFeatures | None = None
        self.learned = learned
        self._class_centres = np.zeros(0)
        self._possible = np.zeros(0)
        self._class_brightness = np.zeros(0)
        self.census: Census | None = None
        self._surface = np.zeros((0, 3), np.float32)  # the reference's bare board (grid)
        self._outside: tuple[np.ndarray, np.ndarray] | None = None  # the table beside it
        self._kennel_reach = np.zeros(0, bool)
        self._kennel_seats = np.zeros(0, int)
        self._start_classes = np.zeros(0, int)  # each hole's class in the reference
        self._board_white = np.ones(3)  # the plain board's colour in white light
        self._texture: SurfaceTexture | None = None  # the reference's grain between the holes
        self.warnings: tuple[ReaderWarning, ...] = ()
        self.lens: Lens | None = None  # the camera's distortion, found in the reference
        if reference is not None:
            self.lens = find_lens(reference, profile)
            self.locator = Locator(profile, self.lens)
            self.locator.locate(reference)
            empty = [(h.x, h.y) for h in profile.holes if h.kind != "kennel"]
            self.locator.refine(reference, np.array(empty), profile.hole_diameter_mm / 2)
            fit, features = self._measure(reference)
            self.reference = features
            self.learned = learned or Learned.shipped()
            playing = list(playing_seats(profile, features) if seats is None else sorted(seats))
            self._board_white = board_in_white(profile, reference, fit, features)
            names = seat_colours(profile, self._board_white, features, playing, told)
            self.prototypes = learn_prototypes(profile, features, playing, names)
            owners = np.array([h.seat if h.kind in ("kennel", "home") else -1
                               for h in profile.holes])  # -1: a track hole
            kennel_seats = np.where(self._kinds[:, 2], owners, -1)
            start = self.prototypes.start
            self._class_centres = class_centres(kennel_seats, playing, features.centre,
                                                ~self._kinds[:, 2] & (start == 0))
            self._possible = possible_classes(owners, playing)
            marbles = np.bincount(start, minlength=len(playing) + 1)
            marbles[0] = 0
            # An overexposed kennel looks like bare board: if its seat was found not to play,
            # that was a guess (unless told), and the count is not sure.
            blind = blind_kennels(kennel_seats, features)
            self.census = Census(marbles, self._possible,
                                 seats is not None or set(blind) <= set(playing))
            # Each class's mean log ratio to the board (0 for empty).
            self._class_brightness = np.array(
                [0.0] + [float(m[0, :3].mean()) for m in self.prototypes.means[1:]])
            self._kennel_reach = around_kennels(self.grid, centres, start > 0)
            self._surface = self.grid.sample(reference, fit)
            self._texture = SurfaceTexture.learn(self.grid.points_mm.reshape(-1, 2), reference,
                                                 fit)
            self._outside = self.grid.sample_outside(reference, fit)
            self.baseline = Baseline.learn(self.grid, self._surface, features.ring,
                                           self._kennel_reach, self._outside)
            self._kennel_seats = kennel_seats
            self._start_classes = start
            sharpness = marker_blur(reference, profile, fit)
            self.warnings = reference_warnings(blind, self.colours, self.baseline,
                                               None if sharpness is None else sharpness[0])

    @property
    def colours(self) -> dict[int, str]:
        """The colour name each playing seat is read as (learnt, told or the default)."""
        if self.prototypes is not None:
            return {seat: str(name) for seat, name in zip(self.prototypes.seats,
                                                          self.prototypes.names[1:],
                                                          strict=True)}
        chosen = dict(enumerate(self.profile.default_colors[:self.profile.seats]))
        chosen |= self.told_colours or {}
        return {seat: name for seat, name in chosen.items()
                if self.seats is None or seat in self.seats}

    def _same_camera(self, image: np.ndarray) -> np.ndarray:
        """``image``, if a lens found in the reference can bend it (`ReadError` otherwise: a
        lens is known for one frame size)."""
        if self.lens is not None and (image.shape[1], image.shape[0]) != self.lens.size:
            raise ReadError(f"the frame is {image.shape[1]}x{image.shape[0]} px but the "
                            f"reference {self.lens.size[0]}x{self.lens.size[1]}: both must "
                            "come from the same camera")
        return image

    def measure(self, image: np.ndarray) -> tuple[BoardFit, HoleFeatures]:
        """Locate the board and measure every hole (`LocateError` if the board is not found)."""
        return self._measure(self._same_camera(image))

    def _measure(self, image: np.ndarray) -> tuple[BoardFit, HoleFeatures]:
        fit = self.locator.locate(image)
        return fit, HoleFeatures.measure(self.sampler.sample(image, fit))

    def _without_texture_shown(self, grey: np.ndarray, fit: BoardFit,
                               region: np.ndarray) -> np.ndarray:
        """The region without its connected parts that keep the board's own texture
        (`shows_texture`, in the frame's ``grey`` levels): light, however their colour
        changed (path-traced 0690: a lamp switched on beside a kennel; its glare's edge
        matched 0.89)."""
        assert self._texture is not None
        kept = region.copy()
        for part in self.grid.parts(region):
            if shows_texture(self._texture.match(grey, fit,
                                                 np.flatnonzero(part[self.grid.cells]))):
                kept &= ~part
        return kept

    def _hiding_texture(self, grey: np.ndarray, fit: BoardFit, brighter: np.ndarray,
                        witnesses: np.ndarray) -> np.ndarray:
        """The parts of a region much brighter than the board (`Foreign.brighter`) that lie
        over too few of the ``witnesses`` to be judged by their grain (`unwitnessed_parts`)
        and hide the board's own texture (`hides_texture`): a pale hand over a grey board
        between the holes, where a lamp's glare keeps the grain. Each is grown over the
        points connected to it whose texture is faded too (`FADED_TEXTURE`, averaged over
        the told points around each, `TEXTURE_NEIGHBOURS` at least): the rest of the hand,
        whose colour the light test took for light, its fingers out to the holes. (Asked
        only where nothing else was found: the trust network learnt its doubt beside the
        regions the colours show.)"""
        assert self._texture is not None
        found = [part for part in unwitnessed_parts(self.grid, brighter, witnesses)
                 if hides_texture(self._texture.match(grey, fit,
                                                      np.flatnonzero(part[self.grid.cells])))]
        if not found:
            return np.zeros_like(brighter)
        everywhere = np.arange(len(self.grid.points_mm))
        around = self.grid.told_average(self._texture.match(grey, fit, everywhere),
                                        TEXTURE_NEIGHBOURS)
        with np.errstate(invalid="ignore"):  # NaN: untold, not hidden
            hidden = around < FADED_TEXTURE
        return self.grid.grown(np.logical_or.reduce(found), everywhere[hidden])

    def _hidden_if_emptied(self, evidence: HoleEvidence, bare: np.ndarray) -> np.ndarray:
        """(N,) holes that, if clearly doubted and found empty, have something over them
        (`EMPTIED_DOUBT`): those empty in the reference whose disc no longer shows the
        reference's pattern (`UNCHANGED_DISC`), and those full in it that look like no empty
        dimple, painted or unpainted (``bare`` (N,): `Prototypes.bare_dimple_distance`;
        `LEFT_EMPTY_DISTANCE`)."""
        left_empty = np.minimum(evidence.distance[0], bare)
        return np.asarray(np.where(self._start_classes == 0,
                                   evidence.disc_match < UNCHANGED_DISC,
                                   left_empty > LEFT_EMPTY_DISTANCE))

    def _empty_in_view(self, evidence: HoleEvidence, in_changed_light: np.ndarray,
                       doubt: np.ndarray, no_colour_left: np.ndarray) -> np.ndarray:
        """(N,) holes empty in the reference and read empty, either by `CLEAR_EMPTY_MARGIN`
        over every other class with the disc still showing the reference's pattern
        (`UNCHANGED_DISC`) outside every foreign region, or in a shadow: by
        `SHADED_EMPTY_MARGIN`, within `SHADED_EMPTY_DISTANCE` of the empty class, the disc
        matching `SHADED_DISC`; or empty dimples in changed light (``in_changed_light``
        (N,), `_in_changed_light`). In each
        case by a margin (log-odds) larger than the trust network's ``doubt`` (N, logits):
        fingers over a marble looked like a dimple by 8.4 to 9.7 log-odds, doubted by 10.4
        to 16.3 (compositing seeds 2026 and 31). Where every colour the hole can hold was
        ruled out (``no_colour_left`` (N,)) the margin is the ruling out's, and the empty
        class itself must score `EMPTY_IN_VIEW_SCORE` (with a match network: its scores are
        log-odds)."""
        margin = evidence.margin
        in_view = ((margin >= CLEAR_EMPTY_MARGIN) & (evidence.disc_match >= UNCHANGED_DISC)
                   & (evidence.reach > 0))
        shaded = ((margin >= SHADED_EMPTY_MARGIN)
                  & (evidence.distance[0] <= SHADED_EMPTY_DISTANCE)
                  & (evidence.disc_match >= SHADED_DISC))
        looks_empty = ~no_colour_left
        if self.learned is not None and self.learned.match is not None:
            looks_empty |= evidence.scores[0] >= EMPTY_IN_VIEW_SCORE
        return np.asarray((evidence.best == 0) & (self._start_classes == 0) & (margin > doubt)
                          & looks_empty & (in_view | shaded | in_changed_light))

    def _in_changed_light(self, evidence: HoleEvidence,
                          empty_residual: np.ndarray) -> np.ndarray:
        """(N,) empty dimples in changed light: read empty by `SHADED_EMPTY_MARGIN`, the disc
        matching `SHADED_DISC`, within `LIKE_EMPTY_NEIGHBOURS` of the look of the holes around
        them that were empty in the reference and are read empty by `CLEAR_EMPTY_MARGIN`
        (``empty_residual`` (N, F): every hole's scaled residual from the empty class)."""
        empty_before = (evidence.best == 0) & (self._start_classes == 0)
        clearly_empty = empty_before & (evidence.margin >= CLEAR_EMPTY_MARGIN)
        like_empty = (_distance_to_neighbours(empty_residual, clearly_empty, self._apart)
                      <= LIKE_EMPTY_NEIGHBOURS)
        return np.asarray(empty_before & like_empty & (evidence.margin >= SHADED_EMPTY_MARGIN)
                          & (evidence.disc_match >= SHADED_DISC))

    def _strange_empty_in_region(self, evidence: HoleEvidence,
                                 in_changed_light: np.ndarray) -> np.ndarray:
        """(N,) holes inside a foreign region, empty in the reference and read empty, that
        look like neither an empty hole (`IN_REGION_EMPTY_DISTANCE`) nor their own reference
        (`UNCHANGED_DISC`) nor, in changed light, the empty holes around
        (``in_changed_light``, `_in_changed_light`): something is over them, which may hide a
        marble."""
        read_empty = evidence.best == 0
        return np.asarray(read_empty & (self._start_classes == 0) & (evidence.reach <= 0)
                          & (evidence.distance[0] > IN_REGION_EMPTY_DISTANCE)
                          & (evidence.disc_match < UNCHANGED_DISC) & ~in_changed_light)

    def _strange_empty_unexplained(self, evidence: HoleEvidence) -> np.ndarray:
        """(N,) holes empty in the reference, read empty, beyond `TOUCH_REACH_MM` of every
        foreign region, farther than `STRANGE_DISTANCE` from the empty class by a margin below
        `STRANGE_MARGIN`, their rings matching the reference's below `TOUCHED_RING_MATCH` and
        no marble likelier there than not (every colour below 0 log-odds): something the
        occlusion test missed is over them, and the board around them counts as a foreign
        region (`occlusion.with_holes`). (Without a match network the scores are no log-odds:
        none.)"""
        if self.learned is None or self.learned.match is None:
            return np.zeros(len(self.ids), bool)
        return np.asarray((evidence.best == 0) & (self._start_classes == 0)
                          & (evidence.scores[1:].max(axis=0) < 0.0)
                          & (evidence.reach > TOUCH_REACH_MM)
                          & (evidence.distance[0] > STRANGE_DISTANCE)
                          & (evidence.margin < STRANGE_MARGIN)
                          & (evidence.ring_match < TOUCHED_RING_MATCH))

    def _emptied_unchanged_by_hand(self, evidence: HoleEvidence) -> np.ndarray:
        """(N,) holes full in the reference, read empty, within `TOUCH_REACH_MM` of a foreign
        region, whose disc still shows the reference's pattern (`UNCHANGED_DISC`): the marble
        may still be there under the fingers beside it."""
        return np.asarray((evidence.best == 0) & (self._start_classes != 0)
                          & (evidence.reach <= TOUCH_REACH_MM)
                          & (evidence.disc_match >= UNCHANGED_DISC))

    def _kept_unclearly_by_hand(self, evidence: HoleEvidence) -> np.ndarray:
        """(N,) holes full in the reference, read as the marble they held, within
        `TOUCH_REACH_MM` of a foreign region, by less than `KEPT_BESIDE_HAND_MARGIN`: the
        fingers beside it may have taken the marble."""
        return np.asarray((self._start_classes != 0) & (evidence.best == self._start_classes)
                          & (evidence.reach <= TOUCH_REACH_MM)
                          & (evidence.margin < KEPT_BESIDE_HAND_MARGIN))

    def _emptied_unlike_empty(self, evidence: HoleEvidence) -> np.ndarray:
        """(N,) holes full in the reference, read empty although the match network scores
        them empty below `EMPTY_SCORE`, or below `EMPTY_IN_VIEW_SCORE` within `TOUCH_REACH_MM`
        of a foreign region: their colour was ruled out as changed, and what changed them
        does not look empty either (a finger over the marble). (Without a match network the
        scores are no log-odds: none.)"""
        if self.learned is None or self.learned.match is None:
            return np.zeros(len(self.ids), bool)
        least = np.where(evidence.reach <= TOUCH_REACH_MM, EMPTY_IN_VIEW_SCORE, EMPTY_SCORE)
        return np.asarray((evidence.best == 0) & (self._start_classes != 0)
                          & (evidence.scores[0] < least))

    def _spread_to_doubtful(self, hidden: np.ndarray, doubtful: np.ndarray) -> np.ndarray:
        """Also hide doubtful holes next to hidden ones (the hand's edge), transitively."""
        hidden = hidden.copy()
        while True:
            reached = doubtful & ~hidden & self._neighbours[:, hidden].any(axis=1)
            if not reached.any():
                return hidden
            hidden |= reached

    def read(self, image: np.ndarray) -> HoleReading:
        """Classify every hole of one BGR frame (`ReadError` for a frame of another size than
        a reference a lens was found in)."""
        return self._read(self._same_camera(image))

    def _read(self, image: np.ndarray) -> HoleReading:
        fit, features = self._measure(image)
        prototypes = self.prototypes or default_prototypes(self.profile, features, self.seats,
                                                           self.told_colours)
        residual = prototypes.scaled_residuals(features)  # (C, N, F)
        distance = np.sqrt((residual ** 2).sum(axis=2))
        scores = -0.5 * distance ** 2  # log-likelihoods, unless the match network scores
        evidence = pairs = None
        clearly_doubted = np.zeros(len(self.ids), bool)
        if self.learned is not None and self.reference is not None:
            patterns = features.pattern_match(self.reference)  # ring, disc, rim
            pairs = self._pair_evidence(features, prototypes, residual, patterns)
            if self.learned.match is not None:
                scores = class_scores(self.learned.match, pairs)
            assert self.baseline is not None
            foreign = self.baseline.foreign_regions(self.grid.sample(image, fit), features.ring,
                                                    self.grid.sample_outside(image, fit))
            empty_before = self._start_classes == 0  # the grain's witnesses; flat dimples
            region = (without_grain_shown(self.grid, foreign.region, *patterns[:2], empty_before)
                      | hiding_grain(self.grid, foreign.brighter, *patterns[:2], empty_before))
            if (region.any() or foreign.brighter.any()) and self._texture is not None:
                grey = grey_levels(image)  # once: every texture match below samples it
                if self._texture.in_view(grey, fit):
                    region = self._without_texture_shown(grey, fit, region)
                    if not region.any():
                        region = self._hiding_texture(grey, fit, foreign.brighter,
                                                      empty_before)
            foreign = foreign._replace(region=region)
            ruled_out = self._ruled_out(features, prototypes, pairs, foreign.noise,
                                        scores if self.learned.match is not None else None)
            scores = without_ruled_out(scores, ruled_out)
            evidence = self._evidence(features, prototypes, distance, scores, patterns,
                                      foreign)
            strange = self._strange_empty_unexplained(evidence)
            if strange.any():
                foreign = foreign._replace(region=with_holes(self.grid, region, strange))
                evidence = self._evidence(features, prototypes, distance, scores, patterns,
                                          foreign)
            in_changed_light = self._in_changed_light(evidence, residual[0])
            hidden = (blind_at_region(evidence) | flat_empty(evidence, empty_before)
                      | self._strange_empty_in_region(evidence, in_changed_light)
                      | self._emptied_unchanged_by_hand(evidence)
                      | self._emptied_unlike_empty(evidence)
                      | self._kept_unclearly_by_hand(evidence) | strange)
            if self.learned.trust is not None:
                doubt = self.learned.trust.threshold - self.learned.trust.logits(evidence.matrix())
                no_colour_left = ~np.any(self._possible[1:] & ~ruled_out[1:], axis=0)
                hidden |= (doubt > 0) & ~self._empty_in_view(evidence, in_changed_light, doubt,
                                                             no_colour_left)
                bare = prototypes.bare_dimple_distance(features)
                clearly_doubted = (hidden & (doubt >= EMPTIED_DOUBT)
                                   & self._hidden_if_emptied(evidence, bare))
        else:
            hidden = self._doubtful_without_reference(features, distance)
        best = scores.argmax(axis=0)
        labels = np.where(hidden, CENSUS_UNKNOWN, best)
        over_holes = evidence is not None and not nothing_over_holes(evidence)
        emptied = False  # the census found a clearly doubted hole empty
        if (self.census is not None and evidence is not None and self.learned is not None
                and self.learned.trust is not None):
            labels = self.census.settle(scores, labels, evidence.reach, not over_holes)
            hidden = labels == CENSUS_UNKNOWN
            emptied = bool((clearly_doubted & (labels == 0)).any())
        reported = np.where(hidden, best, labels)
        weights = np.exp(scores - scores.max(axis=0))
        confidence = weights[reported, np.arange(reported.size)] / weights.sum(axis=0)
        holes: dict[str, str | None] = {}
        for index, hole_id in enumerate(self.ids):
            holes[hole_id] = UNKNOWN if hidden[index] else prototypes.names[labels[index]]
        names = tuple(prototypes.names[index] for index in best)
        visible = ~hidden
        board_confidence = float(confidence[visible].min()) if visible.any() else 0.0
        occluded = bool(hidden.any()) or emptied or over_holes
        return HoleReading(holes, board_confidence, occluded, fit, confidence,
                           features, names, evidence, pairs)

    def learn(self, image: np.ndarray, holes: Mapping[str, str | None]) -> bool:
        """Learn from the frame of an accepted position: ``holes`` is the truth (every hole id
        → its marble's colour name or None). Learnt only when nothing is over the board and the
        reading of ``image`` differs from the truth in at most `learning.MAX_DISAGREEMENT`
        holes (``"?"`` counts); then each hole's stored look, the colours' and empty holes'
        looks and the bare board move `learning.LEARN_RATE` of the way towards this frame's
        (`vision.reader.learning`). True when learnt. Needs a reference (`ReadError`), as does a
        truth naming an unknown hole or a colour nobody plays."""
        truth = self._truth(holes)
        reading = self._read(self._same_camera(image))
        evidence = reading.evidence
        if reading.occluded or evidence is None or not evidence.nothing_over:
            return False
        disagreeing = sum(reading.holes[hole_id] != colour for hole_id, colour in holes.items())
        if disagreeing > MAX_DISAGREEMENT:
            return False
        return self._learn_from(image, reading, truth, LEARN_RATE)

    def relearn(self, image: np.ndarray, holes: Mapping[str, str | None]) -> bool:
        """Learn the light anew from a frame that shows the position ``holes`` (as `learn`,
        but all the way and whatever the frame reads: someone has checked that nothing is over
        the board and the marbles stand as told). For light that changed at once, a lamp
        switched on or off mid-game: the reader then reads, and `learn` follows, in the new
        light. True when learnt; False when no hole holds what it held in the reference."""
        truth = self._truth(holes)
        return self._learn_from(image, self._read(self._same_camera(image)), truth, 1.0)

    def _truth(self, holes: Mapping[str, str | None]) -> np.ndarray:
        """(N,) every hole's class index in the truth ``holes``; `ReadError` without a
        reference, for an unknown or missing hole, or for a colour nobody plays."""
        if self.prototypes is None or self.reference is None or self.baseline is None:
            raise ReadError("learning needs a reference frame")
        unknown = set(holes) ^ set(self.ids)
        if unknown:
            raise ReadError(f"learn: hole {sorted(unknown)[0]} is not (or not only) in the "
                            f"truth of board {self.profile.name}")
        index = {name: position for position, name in enumerate(self.prototypes.names)}
        for hole_id, colour in holes.items():
            if colour not in index:
                raise ReadError(f"learn: {hole_id}: {colour!r} is no colour that plays")
        return np.array([index[holes[hole_id]] for hole_id in self.ids])

    def _learn_from(self, image: np.ndarray, reading: HoleReading, truth: np.ndarray,
                    rate: float) -> bool:
        """Move what the reader compares against ``rate`` of the way to ``image``'s looks,
        ``truth`` (N,) being every hole's class (`vision.reader.learning`)."""
        assert self.prototypes is not None and self.reference is not None
        assert self.baseline is not None
        same = truth == self._start_classes
        if not same.any():
            return False
        centres = np.array([(hole.x, hole.y) for hole in self.profile.holes])
        features = reading.features
        self.reference = blend_features(self.reference, features, same, centres, rate)
        means = blend_means(self.prototypes.means,
                            features.vectors(self.prototypes.empty_paint),
                            features.vectors(self.prototypes.paint), truth, self._kinds[:, 2],
                            _plain_track(self.profile), OWN_LOOK_LIMIT, rate)
        self.prototypes = replace(self.prototypes, means=means)
        playing = list(self.prototypes.seats)
        self._class_centres = class_centres(self._kennel_seats, playing, self.reference.centre,
                                            ~self._kinds[:, 2] & (self._start_classes == 0))
        self._class_brightness = np.array(
            [0.0] + [float(m[0, :3].mean()) for m in self.prototypes.means[1:]])
        points = np.concatenate([self.grid.points_mm.reshape(-1, 2), centres])
        moved = centres[~same]  # holes whose marble came or went: their shadows changed
        fair = ~near(points, moved, SHADOW_REACH_MM)
        rings = self.baseline.reference[:, len(self._surface):].T
        stored = np.concatenate([self._surface, rings])
        now = np.concatenate([self.grid.sample(image, reading.fit), features.ring])
        at_rings = np.arange(len(points)) >= len(self._surface)
        board = blend_surface(stored, now, fair, points, anchors=at_rings, rate=rate)
        self._surface = board[:len(self._surface)]
        self._outside = blend_table(self._outside, self.grid.sample_outside(image, reading.fit),
                                    rate)
        self.baseline = Baseline.learn(self.grid, self._surface, board[len(self._surface):],
                                       self._kennel_reach, self._outside)
        return True

    def _ruled_out(self, features: HoleFeatures, prototypes: Prototypes,
                   pairs: PairEvidence, noise: float,
                   scores: np.ndarray | None = None) -> np.ndarray:
        """(C, N) the classes each hole's look rules out: on the track and in homes the colours
        its hue rules out (`hue`: its centre against the white there, the plain board around
        it in white light), for each colour only while the hue check passes in this frame on
        most of its kennel's unchanged marbles (whose colour is known: light the white there
        does not balance fails it); anywhere the class it held in the reference where it has
        changed since beyond the frame's ``noise`` (`match.changed_holes`); and in a kennel
        the empty hole where the reference's marble stayed (`STAYED_DISC`). A strong dimple
        inverted (`_inverted_dimples`) counts as changed. ``scores``: the match network's
        (black glass mirroring a tint, `hue.ruled_out`), None without it."""
        assert self.reference is not None
        local_board = linear_bgr(np.exp(features.ring - prototypes.paint) - LOG_OFFSET)
        centre = linear_bgr(np.exp(features.centre) - LOG_OFFSET)
        lab = balanced_lab(centre, local_board / self._board_white)
        by_hue = ruled_out(lab, prototypes.names, scores)
        changed = changed_holes(features, self.reference, pairs.disc_match, noise)
        changed |= self._inverted_dimples(pairs.disc_match)
        classes = np.arange(len(prototypes.names))[:, None]
        known = (self._start_classes == classes) & self._kinds[:, 2] & ~changed
        out = by_hue & passing(by_hue, known)[:, None] & ~self._kinds[:, 2]
        out[self._start_classes[changed], np.flatnonzero(changed)] = True
        out[0] |= (self._kinds[:, 2] & (self._start_classes > 0) & ~changed
                   & (pairs.disc_match >= STAYED_DISC))
        return np.asarray(out)

    def _inverted_dimples(self, disc_match: np.ndarray) -> np.ndarray:
        """(N,) holes empty in the reference whose dimple's brightness pattern was strong
        there (`STRONG_DIMPLE`) and is now inverted (`INVERTED_DISC`): a marble came."""
        assert self.reference is not None
        reference = self.reference
        contrast = reference.unevenness(np.zeros_like(reference.ring))
        return np.asarray((self._start_classes == 0) & (contrast >= STRONG_DIMPLE)
                          & (disc_match <= INVERTED_DISC))

    def _pair_evidence(self, features: HoleFeatures, prototypes: Prototypes,
                       residual: np.ndarray,
                       patterns: tuple[np.ndarray, np.ndarray, np.ndarray]) -> PairEvidence:
        """What the match network weighs per (class, hole) (needs the reference frame)."""
        assert self.reference is not None
        drift = medians((features.ring - self.reference.ring).T)
        changes = look_changes(features, self.reference, drift, self._class_centres)
        ring_match, disc_match, rim_match = patterns
        shape = np.column_stack([ring_match, rim_match, features.profile,
                                 features.profile - self.reference.profile])
        return PairEvidence(residual=residual, means=prototypes.means, look_change=changes,
                            ring_clipped=features.ring_clipped,
                            centre_clipped=features.centre_clipped, kinds=self._kinds,
                            disc_match=disc_match, shape=shape, drift=drift,
                            possible=self._possible)

    def _evidence(self, features: HoleFeatures, prototypes: Prototypes, distance: np.ndarray,
                  scores: np.ndarray, patterns: tuple[np.ndarray, np.ndarray, np.ndarray],
                  foreign: Foreign) -> HoleEvidence:
        """What the trust network weighs per hole (needs the reference frame); ``foreign``
        what `occlusion.Baseline.foreign_regions` found in the frame, its region without
        the parts that are light."""
        assert self.reference is not None
        region = foreign.region
        ring_match, disc_match, rim_match = patterns
        return HoleEvidence(
            distance=distance, scores=scores, class_brightness=self._class_brightness,
            reach=region_distance(self.grid, region),
            nothing_over=nothing_over_board(self.grid, region), ring_changed=foreign.ring_changed,
            region_share=region_share(self.grid, region), noise=foreign.noise,
            levels=np.column_stack([brightness(features.ring), brightness(features.centre)]),
            flat=features.look_flat(), unevenness=features.unevenness(prototypes.paint),
            ring_clipped=features.ring_clipped, centre_clipped=features.centre_clipped,
            kinds=self._kinds, adjacent=self._adjacent, around=self._neighbours,
            ring_delta=features.ring - self.reference.ring,
            centre_delta=features.centre - self.reference.centre,
            ring_match=ring_match, disc_match=disc_match, rim_match=rim_match,
            texture_change=features.ring_texture - self.reference.ring_texture,
            sectors=features.sector_change(self.reference))

    def _doubtful_without_reference(self, features: HoleFeatures,
                                    distance: np.ndarray) -> np.ndarray:
        """Without a reference frame: holes that look like nothing known or flat, two strange
        holes side by side, and doubtful holes next to those (the edge of a hand)."""
        nearest = distance.min(axis=0)
        hidden = (nearest > OUTLIER_DISTANCE) | features.look_flat()
        strange = nearest > STRANGE_DISTANCE
        hidden |= strange & self._adjacent[:, strange].any(axis=1)
        return self._spread_to_doubtful(hidden, nearest > DOUBTFUL_DISTANCE)


def blind_kennels(kennel_seats: np.ndarray, reference: HoleFeatures) -> list[int]:
    """The seats whose kennel is overexposed in the reference frame (``kennel_seats`` (N,):
    each kennel hole's seat, -1 elsewhere): the board around most of its holes in every channel,
    the marble in two or three (it looks like the board)."""
    blind = reference.ring_clipped.all(axis=1) & (reference.centre_clipped.sum(axis=1) >= 2)
    return [int(seat) for seat in np.unique(kennel_seats[kennel_seats >= 0])
            if blind[kennel_seats == seat].mean() >= BLIND_KENNEL_SHARE]


def around_kennels(grid: SurfaceGrid, centres: np.ndarray, full: np.ndarray) -> np.ndarray:
    """(M + N,) which of the bare board's sample points (`grid`'s, then the rings around the
    holes' ``centres`` (N, 2) mm) lie within `KENNEL_REACH_MM` of a ``full`` (N,) hole (one
    holding a marble in the reference frame: a playing seat's kennel or start field)."""
    samples = np.concatenate([grid.points_mm.reshape(-1, 2), centres])
    apart = np.linalg.norm(samples[:, None] - centres[full][None], axis=2)
    return np.asarray(apart.min(axis=1, initial=np.inf) <= KENNEL_REACH_MM)


def reference_warnings(blind: Sequence[int], colours: Mapping[int, str],
                       baseline: Baseline, blur_px: float | None) -> tuple[ReaderWarning, ...]:
    """What in a reference frame will make the readings worse, said for the people at the
    table: the ``blind`` seats' kennels overexposed (`blind_kennels`: their marbles, white ones
    on a light board above all, look like the bare board: whether the seat plays cannot be told,
    its colour cannot be learnt, and its marbles may later be read as empty), much of the
    bare board overexposed (a hand or card there goes unseen), or the picture blurred
    (``blur_px``, `vision.focus.marker_blur`, at least `BLURRED_PX`). Each is its English
    sentence with a code and arguments (`vision.reader.warning`)."""
    warnings = [kennel_overexposed(colours.get(seat, f"seat {seat}")) for seat in blind]
    share = float(baseline.blind.mean())
    if share >= BLIND_BOARD_SHARE:
        warnings.append(board_overexposed(share))
    if blur_px is not None and blur_px >= BLURRED_PX:
        warnings.append(reference_blurred(blur_px))
    return tuple(warnings)


def _distance_to_neighbours(residual: np.ndarray, chosen: np.ndarray,
                            apart: np.ndarray) -> np.ndarray:
    """(N,) how far each hole's ``residual`` (N, F) lies from the median of its
    `EMPTY_NEIGHBOURS` nearest ``chosen`` (N,) holes within `EMPTY_NEIGHBOUR_MM` (``apart``
    (N, N) mm), itself not counted; infinite with fewer than `LEAST_EMPTY_NEIGHBOURS`."""
    reach = np.where(chosen[None, :] & (apart > 0) & (apart <= EMPTY_NEIGHBOUR_MM), apart,
                     np.inf)
    nearest = np.argsort(reach, axis=1)[:, :EMPTY_NEIGHBOURS]
    found = np.isfinite(np.take_along_axis(reach, nearest, axis=1))
    around = np.where(found[:, :, None], residual[nearest], np.nan)
    enough = found.sum(axis=1) >= LEAST_EMPTY_NEIGHBOURS
    with np.errstate(invalid="ignore"):
        typical = np.nanmedian(np.where(enough[:, None, None], around, 0.0), axis=1)
    distance = np.sqrt(((residual - typical) ** 2).sum(axis=1))
    return np.asarray(np.where(enough, distance, np.inf))


def flat_empty(evidence: HoleEvidence, empty_before: np.ndarray) -> np.ndarray:
    """(N,) holes read empty that look flat (`HoleFeatures.look_flat`): an empty hole shows its
    dimple's shade, so something lies over these (path-traced cases 0139–0242: 5 holes read
    empty looked flat, all under a hand, one of them a kennel marble; no visible hole did).
    Not a hole ``empty_before`` (N,) (empty in the reference) whose disc still shows the
    reference's brightness pattern (`UNCHANGED_DISC`) away from every foreign region
    (`AT_REGION_MM`): a shallow dimple under glare looks flat, in the reference too
    (compositing seed 2032 shuffled, cases 312 and 469: discs matching 0.90 and 0.92)."""
    in_view = (empty_before & (evidence.disc_match >= UNCHANGED_DISC)
               & (evidence.reach > AT_REGION_MM))
    return np.asarray((evidence.scores.argmax(axis=0) == 0) & evidence.flat & ~in_view)


def blind_at_region(evidence: HoleEvidence) -> np.ndarray:
    """Holes whose ring and centre are overexposed in every channel, at a hand or card: the
    pixels there tell nothing, and something white may lie over the hole (a card under the
    lamp). Such holes are ``"?"`` whatever the networks make of them."""
    blind = evidence.ring_clipped.all(axis=1) & evidence.centre_clipped.all(axis=1)
    return np.asarray(blind & (evidence.reach <= AT_REGION_MM))


def _checked_seats(profile: BoardProfile, seats: Sequence[int]) -> tuple[int, ...]:
    """The seats told to play, checked against the board (`ReadError` names the wrong one)."""
    told = tuple(seats)
    for seat in told:
        if not 0 <= seat < min(profile.seats, len(profile.default_colors)):
            raise ReadError(f"seat {seat}: board {profile.name} has seats 0 to "
                            f"{profile.seats - 1}")
    if not told:
        raise ReadError("no seat plays: name at least one")
    if len(set(told)) != len(told):
        raise ReadError(f"seats {', '.join(map(str, told))}: a seat is named twice")
    return told


def _checked_colours(profile: BoardProfile,
                     colors: Mapping[int, str] | Sequence[str | None]) -> dict[int, str]:
    """The table's setup as seat → colour name, checked (`ReadError` names the wrong entry)."""
    items = colors.items() if isinstance(colors, Mapping) else enumerate(colors)
    told = {}
    for seat, name in items:
        if name is None:
            continue
        if not isinstance(seat, int) or not 0 <= seat < profile.seats:
            raise ReadError(f"colors: seat {seat!r}: board {profile.name} has seats 0 to "
                            f"{profile.seats - 1}")
        if not isinstance(name, str) or not name.strip():
            raise ReadError(f"colors: seat {seat}: {name!r} is no colour name")
        told[seat] = name.strip().lower()
    if len(set(told.values())) != len(told):
        raise ReadError(f"colors: {', '.join(told.values())}: a colour is named twice")
    if not told:
        raise ReadError("colors: no seat has a colour: name at least one")
    return told


def frame_motion(previous: HoleReading, current: HoleReading) -> bool:
    """True when the centre of any hole changed colour between two frames (something moving)."""
    change = np.abs(current.features.centre - previous.features.centre).max(axis=1)
    return bool((change > MOTION_LIMIT).any())
