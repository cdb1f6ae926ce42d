"""Which seats play: does a kennel hold marbles in the reference frame?

The reference frame shows every playing seat's marbles in its kennel; a seat nobody plays has
empty kennel holes in a band of its colour. Each kennel hole is compared with empty holes that
see the same light: the plain track holes whose surroundings are about as bright as the band
around it, and the home holes (drilled and unpainted inside, like kennel holes). Four ways a
glass marble differs from an empty drilled dimple count as evidence, each in units of how much
empty holes differ among themselves:

* **colour**: a dimple's centre is its surroundings' colour, darkened by the shading every
  dimple has; a marble shows its own brightness and colour (or a highlight) instead;
* **shadow**: a marble and its shadow darken one side of the band right around the hole, which
  a gradual change of light (a lamp's glare, a shadow's edge) does not do more there than
  farther out;
* **highlight**: the glass makes the centre more uneven than a dimple's shading;
* **dome**: a dimple is darker at its bottom than toward its edge, a marble lit from above is
  brighter at its top.

A seat plays when what most of its kennel holes show (each kind's lower median: three of
four holes), combined, exceeds `PLAYING_EVIDENCE`: holes under a glare spot do not decide.

Dark glass in a band of its own colour (a deep blue marble in the blue kennel) can pass for a
dimple of that colour, and dull white glass on grey aluminium for a dimple without its glint.
So a seat also plays when most of its kennel holes are unlike the empty home dimples in
similar light (`unlike_dimples`): a kennel hole is drilled as a home hole and, empty, unpainted
inside as it, so its centre shows the same colour balance and the same unevenness relative to
its brightness, whatever paint lies around it; a marble shows its own. Where a centre is
overexposed (white glass over a white band in bright light), it shows only that it is much
brighter than those dimples. White glass in bright light can fall a little short of both
limits, clear of every empty kennel, and plays by the two together (`JOINT_EVIDENCE`).
"""

from __future__ import annotations

import numpy as np

from hw import BoardProfile
from vision.reader.features import LOG_OFFSET, SECTORS, HoleFeatures, brightness
from vision.reader.holes import DISC_OFFSETS, RIM_OFFSETS, RING_OFFSETS

PLAYING_EVIDENCE = 2.95  # evidence of a kennel's holes (`seat_evidence`) above which it plays
JOINT_EVIDENCE = 1.4  # ... or with its unlikeness to dimples, in units of their limits, summed
SIMILAR_LIGHT = 16  # plain track holes that show what an empty hole looks like in its light
SIMILAR_HOMES = 8  # home holes that show an empty dimple's shading in that light
LEVEL_ERROR = 1.0  # 8-bit levels any reading may be off by
LUMA_FLOOR = 0.10  # least spread of the empty holes' shading, relative (dimples differ a little)
CHROMA_FLOOR = 0.05  # least spread of their colour beyond the surroundings', relative
BOARD_TINT = 0.5  # most of the bare board's colour that compression spreads into a hole
RATIO_FLOOR = 0.12  # least spread of an empty hole's log colour ratio (overexposed holes)
UNEVEN_FLOOR = 0.02  # least spread of the unevenness (relative to the surface)
SHADOW_FLOOR = 0.01  # least spread of the one-sided rim change (relative)
DOME_FLOOR = 0.2  # least spread of the dimples' centre-to-edge brightness pattern
SHADOW_WEIGHT = 1.2  # deviations of the shadow worth one of colour
UNEVEN_WEIGHT = 3.0  # the same for unevenness: a weak cue, noise makes centres uneven too
NEAR_CLIPPED = 236  # a mean level this high may hide overexposed pixels
CLIP_SLACK = 0.25  # how far (log) an overexposed surface or centre may lie beyond the reading
TINT_LIMIT = 1.0  # log colour balance of a centre beyond the home dimples' that holds a marble
UNEVEN_LIMIT = 1.0  # log unevenness (relative to the centre's brightness) beyond theirs, either way
DIMPLE_SPREADS = 3.0  # ... beyond so many of the home dimples' own spreads
BRIGHTER_LIMIT = float(np.log(1.6))  # log brightness of an overexposed centre beyond theirs
SMOOTHER_LIMIT = 0.7  # log unevenness below the evenest of them (half as uneven): dull glass
SIMILAR_DIMPLES = 8  # home holes in the most similar light that show the empty dimple's look
_CLIPPED = float(np.log(NEAR_CLIPPED + LOG_OFFSET))
_LUMA = np.array([0.114, 0.587, 0.299])  # B, G, R weights of brightness as JPEG keeps it
_TURN = np.exp(1j * ((np.arange(SECTORS) + 0.5) / SECTORS * 2 - 1) * np.pi)
_RIM_TO_RING = float(np.hypot(*RIM_OFFSETS.T).mean() / np.hypot(*RING_OFFSETS.T).mean())
_RADIUS = np.hypot(*DISC_OFFSETS.T) - np.hypot(*DISC_OFFSETS.T).mean()
_OUTWARD = _RADIUS / np.linalg.norm(_RADIUS)  # a disc pattern brightening toward its edge


def playing_seats(profile: BoardProfile, features: HoleFeatures) -> list[int]:
    """The seats whose kennel holds marbles in a start-of-game frame, in seat order."""
    kennel = np.flatnonzero([h.kind == "kennel" and h.seat is not None for h in profile.holes])
    seats = np.array([profile.holes[i].seat for i in kennel])
    evidence = marble_evidence(profile, features, kennel)
    unlike = unlike_dimples(profile, features, kennel)
    return [seat for seat in range(profile.seats) if (seats == seat).any()
            and plays(seat_evidence(evidence[seats == seat]), _lower_median(unlike[seats == seat]))]


def plays(evidence: float, unlike: float) -> bool:
    """Whether a kennel holds marbles, by its holes' marble ``evidence`` (`seat_evidence`)
    and how ``unlike`` the home dimples most of them are (`unlike_dimples`): either beyond
    its limit (`PLAYING_EVIDENCE`, 1), or both together, each in units of its limit, beyond
    `JOINT_EVIDENCE`."""
    return (evidence > PLAYING_EVIDENCE or unlike > 1.0
            or evidence / PLAYING_EVIDENCE + unlike > JOINT_EVIDENCE)


def unlike_dimples(profile: BoardProfile, features: HoleFeatures,
                   holes: np.ndarray) -> np.ndarray:
    """(H,) how unlike an empty home dimple each of `holes` (indices) looks, in units of the
    limits (above 1: a marble): its centre's colour balance (`TINT_LIMIT`) or its
    unevenness relative to its brightness (`UNEVEN_LIMIT`, either way), each beyond
    `DIMPLE_SPREADS` of the spread among the `SIMILAR_DIMPLES` home holes in the most similar
    light, or an unevenness below the evenest of those (`SMOOTHER_LIMIT`: dull glass where
    some dimples glint more than others, which widens their spread). A hole whose centre may
    be overexposed shows no colour or unevenness to tell: it counts by how much brighter than
    those dimples it is at least (`BRIGHTER_LIMIT`: white glass over a white band, where the
    empty dimple would show its unpainted inside). Every hole is 0 when fewer than three home
    holes show theirs."""
    home = np.flatnonzero([h.kind == "home" for h in profile.holes])
    clipped = np.asarray((features.centre >= _CLIPPED).any(axis=1))
    home = home[~clipped[home]]
    if len(home) < 3:
        return np.zeros(len(holes))
    level = _linear_log(_brightest_half(features.rim_sectors)).mean(axis=1)
    apart = np.abs(level[holes, None] - level[home][None])
    apart[holes[:, None] == home[None]] = np.inf  # a home hole is not its own reference
    similar = home[np.argsort(apart, axis=1)[:, :min(SIMILAR_DIMPLES, len(home) - 1)]]
    centre = _linear_log(features.centre)
    light = np.exp(centre) @ _LUMA
    uneven = np.log((features.spread + LEVEL_ERROR) / (light + LEVEL_ERROR))
    typical, spread = _masked_median(uneven[similar], np.ones(similar.shape, bool))
    uneven_gap = np.maximum(np.abs(uneven[holes] - typical) - DIMPLE_SPREADS * spread, 0.0)
    smoother = np.maximum(uneven[similar].min(axis=1) - uneven[holes], 0.0)
    balance = centre - centre.mean(axis=1, keepdims=True)
    typical_balance, balance_spread = _masked_median(balance[similar],
                                                     np.ones((*similar.shape, 3), bool))
    balance_gap = np.maximum(np.abs(balance[holes] - typical_balance)
                             - DIMPLE_SPREADS * balance_spread, 0.0)
    unlike = np.maximum.reduce([uneven_gap / UNEVEN_LIMIT, smoother / SMOOTHER_LIMIT,
                                np.sqrt((balance_gap ** 2).sum(axis=1)) / TINT_LIMIT])
    typical_light, _ = _masked_median(light[similar], np.ones(similar.shape, bool))
    brighter = np.log(light[holes] / np.maximum(typical_light, 1.0)) / BRIGHTER_LIMIT
    return np.asarray(np.where(clipped[holes], np.maximum(brighter, 0.0), unlike))


def _lower_median(values: np.ndarray) -> float:
    """What at least half of the values reach (of 4: three)."""
    return float(np.sort(values)[(len(values) - 1) // 2])


def seat_evidence(evidence: np.ndarray) -> float:
    """One kennel's evidence from its holes' (K, 4): each kind's lower median (what at least
    3 of 4 holes show), combined."""
    typical = np.sort(evidence, axis=0)[(len(evidence) - 1) // 2]
    return float(np.sqrt((typical ** 2).sum()))


def marble_evidence(profile: BoardProfile, features: HoleFeatures,
                    holes: np.ndarray) -> np.ndarray:
    """(H, 4) how unlike an empty hole each of `holes` (indices) looks in colour,
    shadow, highlight and dome, each in units of the spread among empty holes in similar
    light (weighted)."""
    plain = np.flatnonzero([h.kind == "track" and h.seat is None for h in profile.holes])
    home = np.flatnonzero([h.kind == "home" for h in profile.holes])
    surface_log = _brightest_half(features.rim_sectors)
    level = _linear_log(surface_log).mean(axis=1)
    similar = plain[np.argsort(np.abs(level[holes, None] - level[plain][None]), axis=1)
                    [:, :SIMILAR_LIGHT]]  # (H, K)
    clipped = np.asarray(((surface_log >= _CLIPPED) | (features.centre >= _CLIPPED)).any(axis=1))
    by_levels = ~clipped[holes] & ((~clipped[similar]).sum(axis=1) >= similar.shape[1] // 3)
    colour = np.where(by_levels, _level_deviation(features, surface_log, holes, similar, home),
                      _ratio_deviation(features, surface_log, holes, similar))
    unevenness = features.spread / brightness(np.exp(_linear_log(surface_log)))
    uneven = np.maximum(_deviation(unevenness, holes, similar, UNEVEN_FLOOR), 0.0)
    shadow = np.maximum(_deviation(_one_sided(features), holes, similar, SHADOW_FLOOR), 0.0)
    outward = features.disc_pattern @ _OUTWARD
    dome_median, dome_spread = _masked_median(outward[home][None], np.ones((1, len(home)), bool))
    dome = np.maximum(dome_median - outward[holes], 0.0) / max(float(dome_spread[0]), DOME_FLOOR)
    return np.column_stack([colour, shadow / SHADOW_WEIGHT, uneven / UNEVEN_WEIGHT, dome])


def _level_deviation(features: HoleFeatures, surface_log: np.ndarray, holes: np.ndarray,
                     similar: np.ndarray, home: np.ndarray) -> np.ndarray:
    """(H,) how far each centre lies from an empty dimple's, in 8-bit levels and units of the
    similar empty holes' spread (for holes where nothing is overexposed, nor in most of them).

    An empty centre is its surface's brightness times a dimple's shading, and the surface's
    colour up to fully its saturation; compression also spreads some of the bare board's colour
    into a dark hole. A marble's brightness and colour are its own."""
    centre = np.exp(_linear_log(features.centre))
    surface = np.exp(_linear_log(surface_log))
    surface_light = surface @ _LUMA
    clipped = np.asarray(((surface_log >= _CLIPPED) | (features.centre >= _CLIPPED)).any(axis=1))
    counted = ~clipped[similar]
    shading = _dimple_shading(features, centre, surface_light, holes, similar, counted, home)
    tint = (surface - surface_light[:, None]) / np.maximum(surface_light, 1.0)[:, None]
    board_tint, _ = _masked_median(tint[similar], np.repeat(counted[..., None], 3, axis=2))
    luma, chroma = _dimple_residuals(centre[holes], surface[holes], shading, board_tint)
    reference_luma, reference_chroma = _dimple_residuals(
        centre[similar], surface[similar], shading[:, None], board_tint[:, None])
    _, luma_noise = _masked_median(reference_luma, counted)
    chroma_noise, _ = _masked_median(reference_chroma, counted)
    empty_light = shading * surface_light[holes]
    luma_spread = np.sqrt(luma_noise ** 2 + LEVEL_ERROR ** 2 + (LUMA_FLOOR * empty_light) ** 2)
    chroma_spread = np.sqrt(chroma_noise ** 2 + LEVEL_ERROR ** 2
                            + (CHROMA_FLOOR * empty_light) ** 2)
    return np.asarray(np.hypot(luma / luma_spread, chroma / chroma_spread))


def _dimple_shading(features: HoleFeatures, centre: np.ndarray, surface_light: np.ndarray,
                    holes: np.ndarray, similar: np.ndarray, counted: np.ndarray,
                    home: np.ndarray) -> np.ndarray:
    """(H,) an empty dimple's brightness relative to its surface in each hole's light: the
    home holes' (no groove or paint inside, as in a kennel hole; their painted circle lies
    on the rim, so their surface is the ring's), else the similar plain holes'."""
    ring_log = _brightest_half(features.ring_sectors[home])
    ring_light = np.exp(_linear_log(ring_log)) @ _LUMA
    usable = ~((ring_log >= _CLIPPED) | (features.centre[home] >= _CLIPPED)).any(axis=1)
    nearest = np.argsort(np.abs(np.log(np.maximum(surface_light[holes], 1.0))[:, None]
                                - np.log(np.maximum(ring_light, 1.0))[None]), axis=1)
    nearest = nearest[:, :SIMILAR_HOMES]
    home_shading, _ = _masked_median(
        (centre[home] @ _LUMA / np.maximum(ring_light, 1.0))[nearest], usable[nearest])
    plain_shading, _ = _masked_median(
        (centre @ _LUMA / np.maximum(surface_light, 1.0))[similar], counted)
    return np.where(usable[nearest].sum(axis=1) >= 3, home_shading, plain_shading)


def _dimple_residuals(centre: np.ndarray, surface: np.ndarray, shading: np.ndarray,
                      board_tint: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Brightness (signed) and colour (length) of centres (..., 3) beyond what an empty
    dimple with that shading shows in that surface, in levels: its colour may be the
    surface's up to fully its saturation, plus up to `BOARD_TINT` of the bare board's
    (``board_tint``, relative to brightness)."""
    centre_light, surface_light = centre @ _LUMA, surface @ _LUMA
    tint = centre - centre_light[..., None]
    own = surface - surface_light[..., None]
    board = board_tint * surface_light[..., None]

    def share(rest: np.ndarray, direction: np.ndarray) -> np.ndarray:
        return np.asarray((rest * direction).sum(axis=-1)
                          / np.maximum((direction ** 2).sum(axis=-1), 1e-6))

    of_own = np.clip(share(tint, own), shading, 1.0)
    for _ in range(2):  # alternating the two shares comes close enough to the best fit
        of_board = np.clip(share(tint - of_own[..., None] * own, board), 0.0, BOARD_TINT)
        of_own = np.clip(share(tint - of_board[..., None] * board, own), shading, 1.0)
    rest = tint - of_own[..., None] * own - of_board[..., None] * board
    return centre_light - shading * surface_light, np.sqrt((rest ** 2).sum(axis=-1))


def _ratio_deviation(features: HoleFeatures, surface_log: np.ndarray, holes: np.ndarray,
                     similar: np.ndarray) -> np.ndarray:
    """(H,) how far each centre's colour relative to its surface lies from the empty look,
    per channel in units of the similar holes' spread (for overexposed holes).

    A channel clipped in the surface makes the ratio an upper bound (the surface is brighter
    than measured), clipped in the centre a lower bound; empty holes that are clipped bound the
    empty look the same way. Deviations are the gaps between these intervals."""
    ratio = _linear_log(features.centre) - _linear_log(surface_log)
    surface_clipped, centre_clipped = surface_log >= _CLIPPED, features.centre >= _CLIPPED
    low = (ratio - np.where(surface_clipped, CLIP_SLACK, 0.0))[holes]
    high = (ratio + np.where(centre_clipped, CLIP_SLACK, 0.0))[holes]
    known = (~surface_clipped & ~centre_clipped)[similar]
    bounded = (surface_clipped & ~centre_clipped)[similar]  # an upper bound of the empty look
    enough = max(2, similar.shape[1] // 3)
    exact, spread = _masked_median(ratio[similar], known)
    bound, _ = _masked_median(ratio[similar], bounded)
    is_exact = known.sum(axis=1) >= enough  # (H, 3)
    is_bound = ~is_exact & (bounded.sum(axis=1) >= enough)
    empty_low = np.where(is_exact, exact, np.where(is_bound, bound - CLIP_SLACK, -np.inf))
    empty_high = np.where(is_exact, exact, np.where(is_bound, bound, np.inf))
    gap = np.where(low > empty_high, low - empty_high,
                   np.where(high < empty_low, high - empty_low, 0.0))
    gap = np.where(np.isfinite(gap), gap, 0.0) / np.hypot(np.where(is_exact, spread, 0.0),
                                                          RATIO_FLOOR)
    return np.asarray(np.sqrt((gap ** 2).sum(axis=1)))


def _one_sided(features: HoleFeatures) -> np.ndarray:
    """(N,) how much one side of the rim is darker or brighter than the other, beyond what the
    ring farther out shows (a gradual change of light changes both alike)."""
    def first_harmonic(sectors: np.ndarray) -> np.ndarray:
        light = brightness(np.exp(_linear_log(sectors)))
        turned = (light / light.mean(axis=1, keepdims=True) * _TURN).sum(axis=1)
        return np.asarray(turned * 2 / SECTORS)

    rim, ring = first_harmonic(features.rim_sectors), first_harmonic(features.ring_sectors)
    return np.asarray(np.maximum(np.abs(rim) - _RIM_TO_RING * np.abs(ring), 0.0))


def _deviation(values: np.ndarray, holes: np.ndarray, similar: np.ndarray,
               floor: float) -> np.ndarray:
    """(H,) each hole's value less the median of its similar holes', in units of their
    spread."""
    median, spread = _masked_median(values[similar], np.ones(similar.shape, bool))
    return np.asarray((values[holes] - median) / np.maximum(spread, floor))


def _brightest_half(sectors: np.ndarray) -> np.ndarray:
    """(N, 3) mean log colour of the brighter half of each hole's sectors: the band around a
    hole, not a marble's shadow on it or the track's groove through it."""
    order = np.argsort(-brightness(sectors), axis=1)[:, :SECTORS // 2]
    return np.asarray(np.take_along_axis(sectors, order[..., None], axis=1).mean(axis=1))


def _linear_log(logs: np.ndarray) -> np.ndarray:
    """Logs of levels from `HoleFeatures`' offset logs, so that ratios are ratios of light."""
    return np.asarray(np.log(np.maximum(np.exp(logs) - LOG_OFFSET, 1.0)))


def _masked_median(values: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Median along axis 1 of the values where mask holds, and the standard deviation
    estimated from their median absolute deviation (0 where no value counts)."""
    if values.shape[1] == 0:
        zeros = np.zeros(values.shape[:1] + values.shape[2:])
        return zeros, zeros

    def median(rows: np.ndarray) -> np.ndarray:
        ordered = np.sort(np.where(mask, rows, np.inf), axis=1)
        count = mask.sum(axis=1, keepdims=True)
        low = np.take_along_axis(ordered, np.maximum((count - 1) // 2, 0), axis=1)
        high = np.take_along_axis(ordered, np.maximum(count // 2, 0), axis=1)
        return np.where(count > 0, (low + high) / 2, 0.0)[:, 0]

    centre = median(values)
    return centre, 1.4826 * median(np.abs(values - np.expand_dims(centre, 1)))
