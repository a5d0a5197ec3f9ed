"""GRAPL20: the graph-regularised estimator, its solvers and the thresholding metrics."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from _examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from bandit_lib.grapl20.estimator import GraphEstimator, conjugate_gradient, graph_system, laplacian
from bandit_lib.grapl20.problem import (
    classes_paper,
    classes_ref,
    complexity_H,
    complexity_H_star,
    complexity_H_tilde,
    error_paper,
    error_ref,
    loss,
    n_small,
    wrong_counts,
)


def random_graph(n, seed, p=0.3, weighted=True):
    rng = np.random.default_rng(seed)
    g = nx.gnp_random_graph(n, p, seed=int(seed))
    for u, v in g.edges:
        g[u][v]["weight"] = float(rng.uniform(0.2, 3.0)) if weighted else 1.0
    return g


def feed(est, pulls, rewards):
    for i, x in zip(pulls, rewards):
        est.update(int(i), float(x))


@settings(max_examples=examples(40))
@given(
    st.integers(2, 20),
    st.integers(0, 10_000),
    st.sampled_from([1e-3, 0.1, 1.0, 100.0]),
    st.booleans(),
    st.integers(1, 60),
)
def test_exact_estimate_solves_the_normal_equations_and_zeroes_the_gradient(n, seed, gamma, offset, pulls):
    rng = np.random.default_rng(seed)
    system = graph_system(random_graph(n, seed), lam=1e-3)
    tau = 0.3
    est = GraphEstimator(system, gamma=gamma, tau=tau, offset=offset)
    arms, xs = rng.integers(n, size=pulls), rng.normal(size=pulls)
    feed(est, arms, xs)
    c = tau if offset else 0.0
    counts = np.bincount(arms, minlength=n)
    sums = np.bincount(arms, weights=xs - c, minlength=n)
    V = system.L_lambda.toarray() + np.diag(counts / gamma)
    s = np.linalg.solve(V, sums / gamma)
    assert np.allclose(est.mu_hat, c + s, atol=1e-9 * (1 + np.abs(s).max()))
    # gradient of sum_s (x_s - mu_{pi_s})^2 + gamma ||mu - c||^2_{L_lambda} at the estimate
    grad = counts * est.s - sums + gamma * (system.L_lambda @ est.s)
    assert np.abs(grad).max() <= 1e-8 * (1 + np.abs(sums).max() + gamma)
    assert np.array_equal(est.counts, counts)
    assert np.allclose(est.V().toarray(), V)


@settings(max_examples=examples(40))
@given(st.integers(2, 20), st.integers(0, 10_000), st.sampled_from([1e-5, 1e-2, 1.0, 1e3]), st.integers(1, 60))
def test_offset_estimate_is_a_sub_stochastic_average_of_the_sample_means(n, seed, gamma, pulls):
    """mu_hat - tau = W (xbar - tau) with W >= 0 and rows summing to at most 1 (spec §1.6)."""
    rng = np.random.default_rng(seed)
    system = graph_system(random_graph(n, seed), lam=1e-3)
    tau = 0.5
    est = GraphEstimator(system, gamma=gamma, tau=tau)
    arms, xs = rng.integers(n, size=pulls), rng.uniform(-3, 3, size=pulls)
    feed(est, arms, xs)
    counts = np.bincount(arms, minlength=n)
    V = system.L_lambda.toarray() + np.diag(counts / gamma)
    W = np.linalg.solve(V, np.diag(counts / gamma))
    assert W.min() >= -1e-9 and W.sum(axis=1).max() <= 1 + 1e-9
    xbar = np.bincount(arms, weights=xs, minlength=n)[counts > 0] / counts[counts > 0]
    low, high = min(tau, xbar.min()), max(tau, xbar.max())
    scale = 1e-9 * (1 + abs(high) + abs(low))
    assert np.all(est.mu_hat >= low - scale) and np.all(est.mu_hat <= high + scale)


def test_cg_and_exact_agree_where_cg_converges():
    rng = np.random.default_rng(3)
    for seed in range(4):
        system = graph_system(random_graph(60, seed, p=0.08), lam=1e-3)
        for gamma in (0.1, 10.0):
            exact = GraphEstimator(system, gamma=gamma, tau=0.0)
            tight = GraphEstimator(system, gamma=gamma, tau=0.0, solver="cg", rtol=1e-12)
            loose = GraphEstimator(system, gamma=gamma, tau=0.0, solver="cg")  # the authors' rtol = 1e-5
            for i, x in zip(rng.integers(60, size=200), rng.normal(size=200)):
                for est in (exact, tight, loose):
                    est.update(int(i), float(x))
                assert tight.cg_converged and loose.cg_converged
            direct = spla.spsolve(sp.csc_array(exact.V()), exact.b)
            assert np.abs(exact.s - direct).max() < 1e-9
            assert np.abs(tight.s - direct).max() < 1e-7
            assert np.abs(loose.s - direct).max() < 1e-3 * np.abs(direct).max()


@settings(max_examples=examples(30))
@given(st.integers(3, 40), st.integers(0, 10_000), st.sampled_from([1e-6, 1e-5, 1e-3, 1e-8]), st.booleans())
def test_our_cg_follows_scipy_cg(n, seed, rtol, warm):
    """Same recurrence and stopping rule as scipy.sparse.linalg.cg: same iteration count, same answer
    up to rounding (the sums are ordered differently)."""
    from scipy.sparse.linalg import cg as scipy_cg

    rng = np.random.default_rng(seed)
    system = graph_system(random_graph(n, seed), lam=1e-3)
    V = sp.csr_array(system.L_lambda + sp.diags_array(rng.integers(0, 4, size=n) / 0.5))
    b = rng.normal(size=n)
    x0 = rng.normal(size=n) if warm else np.zeros(n)
    calls = []
    ref, info = scipy_cg(V, b, x0=x0.copy(), rtol=rtol, atol=0.0, callback=lambda xk: calls.append(1))
    ours = x0.copy()
    its, ok = conjugate_gradient(V.indptr, V.indices, V.data, b, ours, rtol, 10 * n)
    assert ok == (info == 0)
    assert abs(its - len(calls)) <= 1  # rounding may move the last stopping test by one iteration
    assert np.abs(ours - ref).max() <= 10 * rtol * (1 + np.abs(ref).max()) * np.linalg.cond(V.toarray())


def test_cg_returns_b_when_b_is_zero_and_reports_non_convergence():
    system = graph_system(nx.path_graph(30), lam=1e-3)
    V = system.L_lambda
    x = np.ones(30)
    assert conjugate_gradient(V.indptr, V.indices, V.data, np.zeros(30), x, 1e-5, 300) == (0, True)
    assert np.array_equal(x, np.zeros(30))
    x = np.zeros(30)
    its, ok = conjugate_gradient(V.indptr, V.indices, V.data, np.arange(30.0), x, 1e-12, 2)
    assert (its, ok) == (2, False)


def test_logdet_and_sigma_diagnostics():
    rng = np.random.default_rng(0)
    system = graph_system(random_graph(15, 1), lam=1e-2)
    est = GraphEstimator(system, gamma=0.5, tau=0.0)
    previous = est.sigma2()
    for i in rng.integers(15, size=40):
        est.update(int(i), 1.0)
        now = est.sigma2()
        assert np.all(now <= previous)  # exactly non-increasing (eq. 59)
        previous = now
    _, logdet_v = np.linalg.slogdet(est.V().toarray())
    _, logdet_l = np.linalg.slogdet(system.L_lambda.toarray())
    assert est.logdet_ratio == pytest.approx(logdet_v - logdet_l, rel=1e-9)
    assert np.allclose(est.sigma2(), np.diag(np.linalg.inv(est.V().toarray())))


def test_system_inverse_is_exactly_symmetric_and_accurate():
    system = graph_system(random_graph(40, 2, p=0.1), lam=1e-3)
    P = system.inverse
    assert np.array_equal(P, P.T)
    assert np.abs(P @ system.L_lambda.toarray() - np.eye(40)).max() < 1e-9


def test_laplacian_uses_weights_node_order_and_cancels_self_loops():
    g = nx.Graph()
    g.add_nodes_from(["b", "a", "c"])
    g.add_edge("a", "b", weight=2.0)
    g.add_edge("b", "c")
    g.add_edge("c", "c", weight=5.0)
    L = laplacian(g).toarray()
    assert np.array_equal(L, [[3.0, -2.0, -1.0], [-2.0, 2.0, 0.0], [-1.0, 0.0, 1.0]])
    assert laplacian(nx.path_graph(4)).dtype == np.float64  # never integer: 1/gamma updates must not truncate


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: laplacian(nx.DiGraph([(0, 1)])), "undirected"),
        (lambda: laplacian(nx.Graph([(0, 1, {"weight": -1.0})])), "weight=-1.0"),
        (lambda: laplacian(nx.Graph([(0, 1, {"weight": float("nan")})])), "weight=nan"),
        (lambda: laplacian(nx.Graph([(0, 1, {"weight": "heavy"})])), "weight='heavy'"),
        (lambda: laplacian(nx.path_graph(3), n_arms=4), "n_arms=4"),
        (lambda: laplacian(nx.Graph([(0, 1), (2, 3)]), require_connected=True), "2 components"),
        (lambda: laplacian(nx.Graph()), "empty"),
        (lambda: laplacian([[1, -1], [-1, 1]]), "networkx graph"),
        (lambda: graph_system(nx.path_graph(3), lam=0.0), "lam=0.0"),
        (lambda: graph_system(np.array([[1.0, 1.0], [1.0, 1.0]])), "off-diagonal"),
        (lambda: graph_system(np.array([[1.0, -1.0], [0.0, 0.0]])), "symmetric"),
        (lambda: graph_system(np.array([[2.0, -1.0], [-1.0, 1.0]])), "sum to 0"),
        (lambda: graph_system(nx.path_graph(3), n_arms=5), "n_arms=5"),
        (lambda: GraphEstimator(graph_system(nx.path_graph(3)), gamma=0.0, tau=0.0), "gamma=0.0"),
        (lambda: GraphEstimator(graph_system(nx.path_graph(3)), gamma=1.0, tau=0.0, solver="lu"), "solver='lu'"),
        (lambda: GraphEstimator(nx.path_graph(3), gamma=1.0, tau=0.0), "GraphSystem"),
        (lambda: GraphEstimator(graph_system(nx.path_graph(3)), gamma=1.0, tau=0.0).update(3, 1.0), "i=3"),
        (lambda: GraphEstimator(graph_system(nx.path_graph(3)), gamma=1.0, tau=0.0).update(0, float("inf")), "x=inf"),
        (lambda: GraphEstimator(graph_system(nx.path_graph(3)), gamma=1.0, tau=0.0, solver="cg").sigma2(), "exact"),
    ],
)
def test_bad_graph_and_estimator_inputs_raise_naming_the_value(make, message):
    with pytest.raises((ValueError, TypeError), match=message):
        make()


def test_graph_system_accepts_a_laplacian_matrix():
    L = laplacian(nx.cycle_graph(5))
    a, b = graph_system(L), graph_system(nx.cycle_graph(5))
    assert np.array_equal(a.L_lambda.toarray(), b.L_lambda.toarray())
    assert np.array_equal(a.L_lambda.data[a.diag_pos], np.full(5, 2.001))


# ----------------------------------------------------------------------------------- metrics
def test_error_metrics_on_a_worked_example():
    means = np.array([1.0, 0.8, 0.505, 0.5, 0.2, 0.0])
    tau, eps = 0.5, 0.01
    assert classes_ref(means, tau, eps).tolist() == [1, 1, 0, 0, -1, -1]
    assert classes_paper(means, tau, eps).tolist() == [1, 1, 0, 0, -1, -1]
    # arm 1 sits exactly at tau (an error for E_ref, "above" hence right for eq. 23); arm 4 is wrong
    mu_hat = np.array([0.9, 0.5, 0.1, 0.9, 0.7, 0.3])
    wrong_ref, wrong_paper = wrong_counts(mu_hat, means, tau, eps)
    assert (wrong_ref, wrong_paper) == (4, 1)  # arms 1, 2, 3 (near tau, never right), 4
    assert error_ref(mu_hat, means, tau, eps) == pytest.approx(4 / 6)
    assert error_paper(mu_hat, means, tau, eps) == pytest.approx(1 / 4)
    assert loss(mu_hat, means, tau, eps) and not loss(np.array([1, 1, 0, 0, 0, 0.0]), means, tau, eps)
    with pytest.raises(ValueError, match="undefined"):
        error_paper(mu_hat, means, tau, 10.0)
    with pytest.raises(ValueError, match="same length"):
        wrong_counts(mu_hat[:3], means, tau, eps)


@given(st.lists(st.floats(-3, 3), min_size=1, max_size=30), st.floats(-1, 1), st.floats(0.001, 0.5))
def test_complexity_inequalities_of_eqs_14_and_20(values, tau, eps):
    means = np.array(values)
    d = np.abs(means - tau)
    H = complexity_H(means, tau, eps)
    H_star = complexity_H_star(means, tau, eps)
    assert 4 * H >= H_star * (1 - 1e-12)
    assert H_star >= (H - n_small(means, tau, eps) / eps**2) * (1 + 1e-12) - 1e-9
    middle = np.sum(np.maximum(d, eps) ** -2.0)
    assert middle >= H * (1 - 1e-12)
    # eq. 14's first inequality needs every arm at least eps from tau (N_small = 0); see the next test
    if n_small(means, tau, eps) == 0 and np.all(d > 0):
        assert complexity_H_tilde(means, tau, eps) >= middle * (1 - 1e-12)


def test_eq_14_fails_when_an_arm_lies_within_eps_of_tau():
    """H_tilde only looks at the arms at least eps away; an arm nearer than eps adds eps^-2 to the middle term."""
    means, tau, eps = np.array([0.0, 1.0]), 0.0, 0.5
    assert complexity_H_tilde(means, tau, eps) == 2.0
    assert np.sum(np.maximum(np.abs(means - tau), eps) ** -2.0) == 5.0


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: complexity_H([0.5], 0.5, 0.0), "infinite"),
        (lambda: complexity_H_tilde([0.5], 0.5, 0.1), "undefined"),
        (lambda: classes_ref([0.1, np.nan], 0.0, 0.1), r"means\[1\]=nan"),
        (lambda: classes_paper([0.1], 0.0, -0.1), "eps=-0.1"),
        (lambda: error_ref([0.1], [0.2], "x", 0.1), "tau='x'"),
    ],
)
def test_bad_metric_inputs_raise_naming_the_value(make, message):
    with pytest.raises((ValueError, TypeError), match=message):
        make()


def test_blas_is_pinned_to_one_thread_inside_the_block_and_restored_after():
    from bandit_lib.blas_threads import blas_thread_counts, pinned, single_blas_thread

    assert pinned()  # numpy's and scipy's OpenBLAS: the book's machine
    before = blas_thread_counts()
    with single_blas_thread():
        assert set(blas_thread_counts()) == {1}
    assert blas_thread_counts() == before


def test_bad_inputs_of_the_remaining_metric_functions():
    from bandit_lib.grapl20.problem import ThresholdRun, complexity_H_star, n_judged_paper

    with pytest.raises(ValueError, match=r"means\[0\]=inf"):
        loss([0.5], [np.inf], 0.5, 0.1)
    with pytest.raises(ValueError, match="eps=-1.0"):
        n_judged_paper([0.5], 0.5, -1.0)
    with pytest.raises(TypeError, match="tau='a'"):
        complexity_H_star([0.5], "a", 0.1)
    with pytest.raises(ValueError, match="eps=-0.1"):
        n_small([0.5], 0.5, -0.1)
    run = ThresholdRun(0.5, np.array([0]), np.array([1]), np.array([0.5]), np.array([1]), np.array([0]), 0)
    with pytest.raises(ValueError, match="metric='eq23'"):
        run.errors("eq23")
    with pytest.raises(ValueError, match="undefined"):
        run.errors("paper")
