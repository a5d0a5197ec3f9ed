"""GRAPL20: effective dimension, bounds, lemmas and gamma* (spec §5, §2.7)."""

import math

import networkx as nx
import numpy as np
import pytest
from _examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from bandit_lib.grapl20.estimator import GraphEstimator, graph_system
from bandit_lib.grapl20.experiments.common import first_time_at_most, last_time_above, t_grid
from bandit_lib.grapl20.report import quantile_curves
from bandit_lib.grapl20.theory import (
    T0,
    M_constant,
    bound_prop22,
    bound_prop36,
    bound_thm31,
    clique_graph,
    clique_spectrum,
    effective_dimension,
    eigenvalues,
    gamma_star,
    lemma_a1_radius,
    lemma_a2_bound,
    lemma_a3_bound,
    lower_bound_cliques,
    smoothness_norm,
)


def clique_instance(D=20, K=50, lam=1e-5):
    system = graph_system(clique_graph(D, K), lam)
    means = np.repeat(np.where(np.arange(D) % 2 == 0, 1.0, -1.0), K)
    return system, means


def test_clique_spectrum_and_smoothness():
    system, means = clique_instance(4, 6, 1e-3)
    assert np.allclose(eigenvalues(system), np.sort(clique_spectrum(4, 6, 1e-3)))
    assert smoothness_norm(system, means) ** 2 == pytest.approx(1e-3 * np.sum(means**2))


@pytest.mark.parametrize("T, gamma", [(1000, 10.0), (5000, 100.0), (10000, 1.0)])
def test_effective_dimension_of_cliques_saturates_at_D(T, gamma):
    eigs = clique_spectrum(20, 50, 1e-5)
    assert effective_dimension(eigs, gamma, 1e-5, T) == 20


@given(st.integers(1, 30), st.integers(1, 30), st.floats(1e-6, 1.0), st.floats(1e-3, 1e3), st.floats(1.0, 1e5))
def test_effective_dimension_is_the_largest_d_of_definition_2_1(D, K, lam, gamma, T):
    eigs = clique_spectrum(D, K, lam)
    d = effective_dimension(eigs, gamma, lam, T)
    rhs = T / math.log1p(T / (gamma * lam))
    ordered = np.sort(eigs)
    assert 1 <= d <= len(eigs)
    assert (d - 1) * gamma * ordered[d - 1] <= rhs
    assert d == len(eigs) or d * gamma * ordered[d] > rhs
    assert effective_dimension(eigs, gamma, lam, T, cap_T_at_N=True) <= d or T < len(eigs)


def test_gamma_star_reproduces_the_clique_values_of_the_spec():
    system, means = clique_instance()
    eigs = clique_spectrum(20, 50, 1e-5)
    kw = dict(tau=0.0, eps=0.1, alpha=1e-8, R=0.5, eigs=eigs)
    printed = gamma_star(system, means, **kw)
    refcode = gamma_star(system, means, variant="refcode", **kw)
    rederived = gamma_star(system, means, variant="rederived", **kw)
    assert printed.gamma == pytest.approx(192.85, abs=0.01) and printed.d_prime == 20
    assert printed.T0 == pytest.approx(25500, rel=1e-3)
    assert refcode.gamma == pytest.approx(130.73, abs=0.01) and refcode.T0 == pytest.approx(17286.8, rel=1e-4)
    assert rederived.gamma == pytest.approx(printed.gamma / (2 * math.sqrt(2)), rel=1e-9)
    assert gamma_star(system, means, tau=0.0, eps=0.1, alpha=1e-8, R=0.5).gamma == pytest.approx(
        printed.gamma, rel=1e-9
    )


def test_bounds_printed_and_corrected_agree_at_gamma_one_and_need_their_condition():
    args = dict(H=10.0, M=1.0, m=0.1, d_T=3, lam=1e-3)
    assert bound_thm31(1e5, 1.0, 1.0, form="printed", **args) == bound_thm31(1e5, 1.0, 1.0, form="corrected", **args)
    assert bound_thm31(1e5, 10.0, 1.0, form="printed", **args) < bound_thm31(1e5, 10.0, 1.0, form="corrected", **args)
    assert bound_thm31(10.0, 10.0, 1.0, **{**args, "m": 100.0}) == math.inf
    assert bound_prop22(1e4, 1.0, 1.0, 100.0, 0.1, 3, 1e-3) == bound_prop36(1e4, 1.0, 1.0, 100.0, 0.1, 3, 1e-3)
    assert T0(10.0, 1.0, 0.1, 2.0) == pytest.approx(2.0 * 10.0 * 16 * 0.01)
    assert M_constant(1e-8, 10.0, 1e-5) == pytest.approx(1.0, abs=1e-7)
    assert M_constant(1.0, 10.0, 1e-5) == pytest.approx(100.0)
    assert 0 < lower_bound_cliques(100.0, 5, 1.0, 10.0, 20) < 1


@settings(max_examples=examples(20))
@given(st.integers(3, 15), st.integers(0, 1000), st.sampled_from([0.01, 1.0, 100.0]), st.integers(1, 60))
def test_lemmas_a2_and_a3_hold_along_a_run(n, seed, gamma, pulls):
    rng = np.random.default_rng(seed)
    system = graph_system(nx.gnp_random_graph(n, 0.4, seed=seed), 1e-3)
    est = GraphEstimator(system, gamma=gamma, tau=0.0)
    sigma0_sq = est.sigma2()
    assert np.all(sigma0_sq <= 1 / 1e-3 * (1 + 1e-12))
    for i in rng.integers(n, size=pulls):
        est.update(int(i), float(rng.normal()))
        assert np.all(np.sqrt(est.sigma2()) <= lemma_a2_bound(sigma0_sq, est.counts, gamma) * (1 + 1e-9))
    d_T = effective_dimension(eigenvalues(system), gamma, 1e-3, pulls)
    assert est.logdet_ratio <= lemma_a3_bound(d_T, pulls, gamma, 1e-3) * (1 + 1e-12)


def test_lemma_a1_forms():
    sigma = np.array([0.5, 1.0])
    printed = lemma_a1_radius(sigma, 1.0, 100.0, 2.0, 0.1, 0.2, "printed")
    corrected = lemma_a1_radius(sigma, 1.0, 100.0, 2.0, 0.1, 0.2, "corrected")
    assert np.all(printed < corrected)
    assert np.allclose(corrected, sigma * (0.1 * math.sqrt(2.0 - 2 * math.log(0.1)) + 0.2))
    assert np.allclose(
        lemma_a1_radius(sigma, 1.0, 1.0, 2.0, 0.1, 0.2, "printed"),
        lemma_a1_radius(sigma, 1.0, 1.0, 2.0, 0.1, 0.2, "corrected"),
    )


def test_curve_helpers():
    assert np.array_equal(t_grid(25, dense=5, step=10), [1, 2, 3, 4, 5, 15, 25])
    curve = np.array([0.5, 0.02, 0.01, 0.03, 0.0])
    assert first_time_at_most(curve, 0.01) == 3 and last_time_above(curve, 0.01) == 4
    assert first_time_at_most(curve, -1) is None and last_time_above(curve, 1.0) == 0
    q = quantile_curves(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    assert np.array_equal(q["median"], [3.0, 4.0]) and np.array_equal(q["q25"], [2.0, 3.0])


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: effective_dimension([1.0, -1.0], 1.0, 1e-3, 10), r"eigs\[1\]=-1.0"),
        (lambda: effective_dimension([1.0], 0.0, 1e-3, 10), "gamma=0.0"),
        (lambda: bound_thm31(100, 1.0, 0.0, 1.0, 1.0, 0.1, 1, 1e-3), "R=0.0"),
        (lambda: bound_thm31(100, 1.0, 1.0, 1.0, 1.0, 0.1, 1, 1e-3, form="loose"), "form='loose'"),
        (lambda: gamma_star(*clique_instance(2, 3), tau=0.0, eps=0.1, alpha=1.0, R=1.0, variant="x"), "variant='x'"),
        (lambda: gamma_star(clique_instance(2, 3)[0], np.zeros(6), tau=0.0, eps=0.1, alpha=1.0, R=1.0), "infinite"),
        (lambda: smoothness_norm(clique_instance(2, 3)[0], np.zeros(5)), "5 entries"),
        (lambda: lemma_a1_radius([1.0], 1.0, 1.0, 1.0, 1.5, 0.0), "delta=1.5"),
        (lambda: clique_spectrum(0, 3, 1e-3), "D=0"),
        (lambda: eigenvalues(nx.path_graph(3)), "GraphSystem"),
    ],
)
def test_bad_theory_inputs_raise_naming_the_value(make, message):
    with pytest.raises((ValueError, TypeError), match=message):
        make()


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: M_constant(-1.0, 1.0, 1e-3), "alpha=-1.0"),
        (lambda: T0(0.0, 1.0, 0.1, 1.0), "H=0.0"),
        (lambda: lower_bound_cliques(100.0, 0, 1.0, 10.0, 20), "K=0"),
        (lambda: lemma_a2_bound([1.0], [-1.0], 1.0), r"counts\[0\]=-1.0"),
        (lambda: lemma_a3_bound(0, 100.0, 1.0, 1e-3), "d_T=0"),
        (lambda: bound_prop22(100.0, 1.0, 1.0, -5.0, 0.1, 1, 1e-3), "H_tilde=-5.0"),
    ],
)
def test_more_bad_theory_inputs(make, message):
    with pytest.raises((ValueError, TypeError), match=message):
        make()


def test_hypotheses_of_the_lemmas_and_of_theorem_3_1():
    import pandas as pd

    from bandit_lib.grapl20.report.hypotheses import (
        lemma_a1_hypotheses,
        lemma_a23_hypotheses,
        theorem31_cells,
        theorem31_condition,
        theorem31_hypotheses,
    )

    assert all(h.holds for h in lemma_a1_hypotheses(noise_sd=1.0, R=1.0, gammas=[0.01, 100.0], lam=1e-3, delta=0.1))
    noisy = lemma_a1_hypotheses(noise_sd=2.0, R=1.0, gammas=[1.0], lam=1e-3, delta=0.1)
    assert not noisy[0].holds and "sd 2" in noisy[0].detail  # noise wider than R: outside the lemma
    assert all(h.holds for h in lemma_a23_hypotheses(gammas=[1.0], lam=1e-3, horizon=300))
    # the condition m <= sqrt(T/(gamma H))/(3M+1): with H = 16, gamma = 1, M = 1, T = 16 the bound is 1/4
    assert theorem31_condition(16.0, 1.0, 0.25, 1.0, 16) and not theorem31_condition(16.0, 1.0, 0.26, 1.0, 16)
    base = {"gamma": 1.0, "lam": 1e-3, "alpha": 1e-8, "H": 16.0, "M": 1.0, "R": 1.0, "noise_sd": 1.0}
    cells = theorem31_cells(pd.DataFrame([{**base, "horizon": 16, "m": 0.2}, {**base, "horizon": 16, "m": 0.3}]))
    assert cells["inside"].tolist() == [True, False]
    hyps = theorem31_hypotheses(cells)  # only the cell inside is evidence, and it meets every hypothesis
    assert all(h.holds for h in hyps) and "1 (instance, T)" in hyps[-1].detail
    assert not theorem31_hypotheses(cells[~cells["inside"]].assign(inside=False))[0].holds
    with pytest.raises(ValueError, match="lacks the column"):
        theorem31_cells(pd.DataFrame([{"horizon": 1}]))
