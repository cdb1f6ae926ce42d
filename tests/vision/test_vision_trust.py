"""`trust.evident`: holes whose best class stands whatever the trust network says."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from hw import load_profile
from tests.vision.conftest import rendered_start
from vision.reader.board_reader import BoardReader
from vision.reader.trust import DOUBTFUL, EVIDENT_MARGIN, REACH_CAP_MM, SAME_DISC, evident


def test_evident_holes_are_far_from_regions_fit_win_clearly_and_keep_their_look():
    frame = rendered_start("brandi-4")
    evidence = BoardReader(load_profile("brandi-4"), frame.image).read(frame.image).evidence
    assert evidence is not None
    holes = 7
    scores = np.zeros((2, holes))
    scores[1] = -EVIDENT_MARGIN - 1.0  # empty wins clearly ...
    scores[1, 2] = -EVIDENT_MARGIN + 1.0  # ... but not at hole 2
    distance = np.full((2, holes), 1.0)
    distance[0, 3] = DOUBTFUL + 0.5  # hole 3 fits empty badly
    reach = np.full(holes, np.inf)
    reach[1] = REACH_CAP_MM - 1.0  # hole 1 lies near a foreign region
    disc = np.full(holes, 0.9)
    disc[4:] = SAME_DISC - 0.2  # holes 4 to 6: the disc no longer shows the reference's
    start = np.zeros(holes, int)
    start[5] = 1  # hole 5 held a marble in the reference: its disc may look otherwise now
    reduced = replace(evidence, scores=scores, distance=distance, reach=reach, disc_match=disc)
    assert evident(reduced, start).tolist() == [True, False, False, False, False, True, False]
