"""The referee's reason names the real mistake: random observed mistakes of every kind.

Each observation is a legal move (or a forbidden one) spoilt the way players spoil them; its
truth is the peg and field the mistake is about (tests/rules/mistakes.py). ``bench/rules.py
--reasons N`` measures the share over a large sample; docs/rules.md has the figure.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.rules import check
from tests.rules.mistakes import KINDS, checked_sample, names_truth, observe

REQUIRED_SHARE = 0.999


@settings(max_examples=240, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.integers(0, 2**32), st.sampled_from(KINDS))
def test_the_reason_names_the_peg_and_field_of_the_mistake(seed: int, kind: str) -> None:
    observation = observe(random.Random(seed), kind)
    assume(observation is not None)
    assert observation is not None
    verdict = check(observation.before, observation.after, observation.card)
    assume(not verdict.legal)
    assert verdict.code is not None and verdict.rule is not None
    assert names_truth(observation, verdict), (
        f"{kind}: {verdict.reason}; the mistake is about {sorted(observation.truth)}")
    if verdict.code.endswith("_left_standing"):  # and the mover's peg that did it
        before = observation.before
        team = {before.layout.colors[player] for player in before.team_of(before.turn)}
        assert verdict.args["by_color"] in team


@pytest.mark.slow
def test_at_least_999_in_1000_reasons_name_the_mistake_over_a_fixed_sample() -> None:
    rng = random.Random(20261201)
    judged: Counter[str] = Counter()
    named: Counter[str] = Counter()
    for kind, observation, verdict in checked_sample(rng, 8 * 150):
        if verdict.legal:
            continue
        judged[kind] += 1
        named[kind] += names_truth(observation, verdict)
    assert set(judged) == set(KINDS) and min(judged.values()) >= 100
    assert sum(named.values()) >= REQUIRED_SHARE * sum(judged.values()), (named, judged)
