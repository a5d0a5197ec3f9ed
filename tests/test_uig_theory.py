"""The UIG paper's hypotheses checked in code (bandit_lib.uig.theory): each check holds on an
instance that satisfies it and fails on one that does not."""

import math

import numpy as np
import pytest

from bandit_lib.seeding import generator
from bandit_lib.uig import theory as th
from bandit_lib.uig.candidates import candidate_set_from_means, eliminate_partial
from bandit_lib.uig.instances import clustered_instance, line_instance
from bandit_lib.uig.problem import reveal, similarity_graph


def _holds(hyps):
    return [h.holds for h in hyps]


def test_assumptions_4_5_need_one_kappa_the_issue_numbers():
    # p = 0.8: Assumption 5 needs κ ≥ 2.79; six clusters of 5 (K = 30) allow only κ ≤ 5 / ln 30
    means, _ = clustered_instance(6, 5, 0.1)
    kappa4, kappa5 = th.kappa_bounds(means, 0.1, 0.8, 0.8)
    assert kappa5 == pytest.approx(2 / -math.log(1 - 0.512)) and 2.78 < kappa5 < 2.80
    assert kappa4 == pytest.approx(5 / math.log(30))
    assert _holds(th.theorem5_hypotheses(means, 0.1, 0.8, 0.8)) == [True, False]
    # N ≥ κ ln(6N) first holds at N = 12 for six clusters
    assert [th.assumptions_4_5(clustered_instance(6, n, 0.1)[0], 0.1, 0.8, 0.8).holds for n in (11, 12)] == [
        False,
        True,
    ]
    # the least p for which one κ fits: Assumptions 4-5 hold just above it, not just below
    seven = clustered_instance(7, 20, 0.1)[0]
    p = th.smallest_p(seven, 0.1)
    assert th.assumptions_4_5(seven, 0.1, p + 1e-9, p + 1e-9).holds
    assert not th.assumptions_4_5(seven, 0.1, p - 1e-6, p - 1e-6).holds
    # p = 1 reveals everything: any κ works
    assert th.kappa_bounds(means, 0.1, 1.0, 1.0)[1] == 0.0


def test_assumption3_fails_when_a_middle_class_has_no_dissimilar_pair_around_it():
    assert th.assumption3(clustered_instance(5, 2, 0.1)[0], 0.1).holds
    # three arms, all similar: one class, no middle class, holds vacuously
    assert th.assumption3(np.array([0.0, 0.01, 0.02]), 0.1).holds
    # five classes at ε = 0.1: the third (0.11) is similar only to 0.05 and 0.14, which are similar
    # to each other, so no two of its neighbouring classes are dissimilar
    means = np.array([0.0, 0.05, 0.11, 0.14, 0.22])
    h = th.assumption3(means, 0.1)
    assert not h.holds and "middle class" in h.detail


def test_corollary1_adds_the_bottom_gap_and_eq94s_branch():
    six = th.corollary1_hypotheses(clustered_instance(6, 20, 0.1)[0], 0.1, 0.8, 0.8)
    seven = th.corollary1_hypotheses(clustered_instance(7, 20, 0.1)[0], 0.1, 0.8, 0.8)
    assert _holds(six) == [True, True, False, True]  # the bottom class 0.35 < 4ε below the top
    assert _holds(seven) == [True, True, True, True]
    assert not th.corollary1_hypotheses(clustered_instance(7, 13, 0.1)[0], 0.1, 0.8, 0.8)[3].holds


def test_regret_theorem_hypotheses_fail_where_they_should():
    line = np.array([1.0, 0.6, 0.55, 0.2, -0.2])
    assert all(_holds(th.theorem2_hypotheses(line, 0.5, sigma=1.0, alpha=8.0)))
    assert _holds(th.theorem2_hypotheses(line, 0.5, sigma=2.0, alpha=2.0))[1:] == [False, False]
    apart = np.array([1.0, 0.0])
    assert not th.theorem2_hypotheses(apart, 0.5, sigma=1.0, alpha=8.0)[0].holds
    assert all(_holds(th.theorem3_hypotheses(line, 0.5, sigma=1.0, alpha=8.0)))
    A = similarity_graph(line, 0.5)
    S, D = reveal(A, 0.5, 0.5, generator(1, "t"))
    assert all(_holds(th.theorem6_hypotheses(line * 0.5 + 0.3, 0.25, similarity_graph(line * 0.5 + 0.3, 0.25), S, D)))
    wrong = S.copy()
    wrong[0, 3] = wrong[3, 0] = True  # an S-pair outside the graph
    assert not th.theorem6_hypotheses(line * 0.5 + 0.3, 0.25, A, wrong, D)[1].holds
    design = {"top": (1.0, 0.6), "connector": 0.55, "middle_high": 0.08, "bottom": -1.5}
    family = [(m, 0.5, candidate_set_from_means(m, 0.5)[0]) for m in (line_instance(k, **design) for k in (10, 40))]
    assert all(_holds(th.remark1_hypotheses(family)))
    other = line_instance(20, **{**design, "top": (1.0, 0.7)})
    assert not th.remark1_hypotheses([*family, (other, 0.5, candidate_set_from_means(other, 0.5)[0])])[1].holds


@pytest.mark.slow
def test_exact_survival_probability_matches_psi_off_and_sits_below_the_proofs_bound():
    p, N = 0.6, 3
    exact = th.survival_probability(N, N, p, p)
    assert exact <= (1 - p**3) ** N
    means, cluster = clustered_instance(3, N, 0.1)
    A = similarity_graph(means, 0.1)
    middle = np.flatnonzero(cluster == 1)
    reps = 4000
    survived = sum(
        int(np.isin(middle, eliminate_partial(*reveal(A, p, p, generator(7, "s", r)))).sum()) for r in range(reps)
    )
    low, high = th.bound_decision(survived, reps * N, 1.0)[1]
    assert low <= exact <= high


def test_bound_decision_and_the_trials_it_needs():
    n = th.trials_to_confirm(1 / 900)
    assert th.bound_decision(0, n, 1 / 900)[0] == "below"
    assert th.bound_decision(0, n - 1, 1 / 900)[0] == "undecided"
    assert th.bound_decision(3, 200, 1 / 900)[0] == "above"
    with pytest.raises(ValueError, match="bound"):
        th.bound_decision(0, 10, 1.5)
