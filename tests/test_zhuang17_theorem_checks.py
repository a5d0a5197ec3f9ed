"""The hypotheses of ZHUANG17's theorems, checked in code, the near-threshold theory cases, and the
generators the chapter's H1/H2 gate is measured on."""

import numpy as np
import pytest

from bandit_lib.infra.scorecard import Hypothesis
from bandit_lib.zhuang17.experiments.natural import fig3_cases, natural_case
from bandit_lib.zhuang17.experiments.theory_hard import GAP_WINDOW, hard_case
from bandit_lib.zhuang17.report.gates import (
    h1_over_h2,
    narrow_band_fig3_cases,
    planted_fig3_cases,
    synthetic_gate_results,
    twitter_gate,
)
from bandit_lib.zhuang17.report.hypotheses import bound_can_fail, combine, theorem_hypotheses

Y = np.array([0.20, 0.22, 0.25, 0.30, 0.32, 0.35, 0.38, 0.40, 0.42, 0.95])


def by_name(hyps):
    return {h.name.split(":")[0]: h for h in hyps}


def test_the_theorems_hold_on_a_valid_instance():
    for theorem in ("Theorem 1", "Theorem 2"):
        assert all(h.holds for h in theorem_hypotheses(theorem, Y, 2.0, 0.1, R=1.0))
    hyps = theorem_hypotheses("Theorem 3", Y, 2.0, 0.1, R=1.0, rho=2.5)
    assert all(h.holds for h in hyps) and any("ρ ≥ 1" in h.name for h in hyps)


def test_each_hypothesis_can_be_violated():
    narrow = by_name(theorem_hypotheses("Theorem 1", Y, 2.0, 0.1, R=0.25))
    assert not narrow["§4.3"].holds and "R = 0.25" in narrow["§4.3"].detail
    capped = by_name(theorem_hypotheses("Theorem 1", Y, 2.0, 0.1, R=1.0, capped_runs=2))
    assert not capped["Theorem 1"].holds
    assert not by_name(theorem_hypotheses("Theorem 3", Y, 2.0, 0.1, R=1.0, rho=0.5))["Theorem 3"].holds
    # k = 0: theta is the mean, 0.5, and the middle arm sits on it
    assert not by_name(theorem_hypotheses("Theorem 2", np.array([0.0, 0.5, 1.0]), 0.0, 0.1, R=1.0))["§3"].holds


def test_bad_arguments_are_errors_not_violations():
    with pytest.raises(ValueError, match="theorem"):
        theorem_hypotheses("Theorem 4", Y, 2.0, 0.1, R=1.0)
    with pytest.raises(ValueError, match="delta"):
        theorem_hypotheses("Theorem 1", Y, 2.0, 1.5, R=1.0)
    with pytest.raises(ValueError, match="rho"):
        theorem_hypotheses("Theorem 3", Y, 2.0, 0.1, R=1.0)
    with pytest.raises(ValueError, match="capped_runs"):
        theorem_hypotheses("Theorem 1", Y, 2.0, 0.1, R=1.0, capped_runs=-1)


def test_combine_holds_only_if_every_instance_holds():
    ok = theorem_hypotheses("Theorem 1", Y, 2.0, 0.1, R=1.0)
    bad = theorem_hypotheses("Theorem 1", Y, 2.0, 0.1, R=0.1)
    joined = by_name(combine([ok, ok]))
    assert all(h.holds for h in joined.values()) and "all 2 instances" in joined["§4.3"].detail
    joined = by_name(combine([ok, bad, ok]))
    assert not joined["§4.3"].holds and "1 of 3" in joined["§4.3"].detail and joined["§3"].holds
    with pytest.raises(ValueError, match="at least one"):
        combine([])
    with pytest.raises(TypeError, match="Hypothesis"):
        combine([["not a hypothesis"]])
    assert isinstance(joined["§3"], Hypothesis)


def test_a_bound_at_the_cap_cannot_fail():
    assert bound_can_fail([1e6, 2e6], 1e8)
    assert not bound_can_fail([1e6, 2e8], 1e8)
    assert not bound_can_fail([1e8], 1e8)


def test_near_threshold_cases_lie_in_their_window_and_are_reproducible():
    case = hard_case(10, 2.0, 0)
    assert GAP_WINDOW[0] <= case.gap_min < GAP_WINDOW[1] and len(case.outliers) >= 1
    assert np.array_equal(case.means, hard_case(10, 2.0, 0).means)
    assert all(h.holds for h in theorem_hypotheses("Theorem 1", case.means, 2.0, 0.1, R=1.0))


def test_the_generators_beside_the_papers_h1_over_h2_range():
    natural, planted = h1_over_h2(fig3_cases()), h1_over_h2(planted_fig3_cases())
    assert natural.min() < 4.5 <= planted.min()  # only the i.i.d. cases reach the paper's low values
    assert h1_over_h2(narrow_band_fig3_cases()).max() < 9
    assert all(g.passed for g in synthetic_gate_results(fig3_cases()))
    assert not all(g.passed for g in synthetic_gate_results(planted_fig3_cases()))
    assert np.array_equal(natural_case("natural", 20, 2.5, 3).means, natural_case("natural", 20, 2.5, 3).means)


def test_the_twitter_stand_in_is_ungated():
    gate = twitter_gate()
    assert not gate.passed and gate.key.startswith("ungated.")
