"""UIG chapter: unit interval graphs, recognition, revelation and candidate sets."""

import itertools

import networkx as nx
import numpy as np
import pytest
from _examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from bandit_lib.uig.candidates import (
    candidate_classes,
    candidate_set_by_permutations,
    candidate_set_complete,
    candidate_set_complete_nx,
    candidate_set_exact,
    candidate_set_from_means,
    candidate_set_theorem1,
    eliminate_partial,
    simplicial_vertices,
)
from bandit_lib.uig.domination import domination_number, exploration_values
from bandit_lib.uig.lower_bound import (
    LowerBoundLP,
    gaussian_kl,
    lower_bound_rates,
    lower_bound_rates_linprog,
    merge_twins,
    mirror_means,
)
from bandit_lib.uig.problem import (
    NotUnitIntervalGraph,
    bfs_levels,
    check_adjacency,
    check_side_information,
    closed_neighbourhoods,
    components,
    equivalence_classes,
    from_networkx,
    is_umbrella_ordering,
    is_unit_interval_graph,
    reveal,
    similarity_graph,
    to_networkx,
    umbrella_ordering,
)

means_st = st.lists(st.floats(0.0, 1.0, allow_nan=False), min_size=1, max_size=40).map(np.array)
eps_st = st.floats(0.0, 1.2, allow_nan=False)


def _rng(seed):
    return np.random.default_rng(seed)


# --- the similarity graph ------------------------------------------------------------------


def test_similarity_graph_uses_a_strict_threshold_and_no_self_loops():
    A = similarity_graph([0.0, 0.25, 0.4, 0.4], 0.25)
    assert not A[0, 1] and A[1, 2] and A[2, 3] and not A.diagonal().any()
    assert similarity_graph([0.1, 0.2], 0.0).sum() == 0
    with pytest.raises(ValueError, match="eps=-0.1"):
        similarity_graph([0.1, 0.2], -0.1)
    with pytest.raises(ValueError, match=r"means\[1\]=nan"):
        similarity_graph([0.1, float("nan")], 0.1)


@given(means_st, eps_st)
def test_the_mean_order_is_an_umbrella_ordering(means, eps):
    A = similarity_graph(means, eps)
    assert is_umbrella_ordering(A, np.argsort(means, kind="stable"))
    assert is_unit_interval_graph(A)
    assert is_umbrella_ordering(A, umbrella_ordering(A))


@settings(max_examples=examples(150))
@given(st.integers(1, 6), st.floats(0.0, 1.0), st.integers(0, 2**31))
def test_recognition_agrees_with_brute_force_on_small_graphs(n, density, seed):
    A = from_networkx(nx.gnp_random_graph(n, density, seed=seed))
    brute = any(is_umbrella_ordering(A, p) for p in itertools.permutations(range(n)))
    assert is_unit_interval_graph(A) == brute


@pytest.mark.parametrize(
    "graph, witness",
    [
        (nx.star_graph(3), "claw"),
        (nx.cycle_graph(5), "chordless cycle"),
        # the net: a triangle with a pendant vertex at each corner
        (nx.Graph([(0, 1), (1, 2), (0, 2), (0, 3), (1, 4), (2, 5)]), "claw|net"),
        # the tent (3-sun): a triangle with a vertex on each side
        (nx.Graph([(0, 1), (1, 2), (0, 2), (0, 3), (1, 3), (1, 4), (2, 4), (0, 5), (2, 5)]), "net or tent"),
    ],
)
def test_a_graph_that_is_not_a_uig_gets_a_clear_error(graph, witness):
    A = from_networkx(graph)
    with pytest.raises(NotUnitIntervalGraph, match=f"not a unit interval graph.*({witness})"):
        umbrella_ordering(A)
    with pytest.raises(NotUnitIntervalGraph):
        candidate_set_complete(A)


def test_checking_against_a_wrong_order_raises():
    A = similarity_graph([0.1, 0.2, 0.3], 0.15)
    with pytest.raises(NotUnitIntervalGraph, match="order given"):
        candidate_set_complete(A, order=[1, 0, 2])
    with pytest.raises(ValueError, match="permutation"):
        is_umbrella_ordering(A, [0, 0, 1])


@pytest.mark.parametrize(
    "bad, match",
    [
        (np.zeros((2, 3)), "square"),
        (np.array([[0, 1], [0, 0]]), "symmetric"),
        (np.array([[1, 0], [0, 0]]), "self-loops"),
        (np.array([[0, 2], [2, 0]]), "0/1"),
    ],
)
def test_adjacency_checks_name_the_problem(bad, match):
    with pytest.raises(ValueError, match=match):
        check_adjacency("A", bad)


@given(means_st, eps_st)
def test_structure_agrees_with_networkx(means, eps):
    A = similarity_graph(means, eps)
    G = to_networkx(A)
    assert np.array_equal(from_networkx(G), A)
    assert sorted(map(sorted, nx.connected_components(G))) == sorted(c.tolist() for c in components(A))
    ours = bfs_levels(A, 0)
    theirs = list(nx.bfs_layers(G, 0))
    assert [sorted(level) for level in theirs] == [level.tolist() for level in ours]
    groups = {}
    for v in G:
        groups.setdefault(frozenset(G[v]) | {v}, []).append(v)
    assert sorted(map(sorted, groups.values())) == sorted(c.tolist() for c in equivalence_classes(A))
    assert (closed_neighbourhoods(A).diagonal()).all()


# --- revelation -----------------------------------------------------------------------------


@given(means_st, st.floats(0, 1), st.floats(0, 1), st.integers(0, 2**31))
def test_revelation_is_a_consistent_nested_subset(means, p, q, seed):
    A = similarity_graph(means, 0.2)
    S, D = reveal(A, p, p, _rng(seed))
    S2, D2 = reveal(A, max(p, q), max(p, q), _rng(seed))
    assert not (S & ~A).any() and not (D & A).any() and not (S & D).any() and not D.diagonal().any()
    assert not (S & ~S2).any() and not (D & ~D2).any()
    check_side_information(S, D)


def test_revelation_extremes_and_errors():
    A = similarity_graph(np.linspace(0, 1, 8), 0.3)
    S, D = reveal(A, 1.0, 1.0, _rng(0))
    assert np.array_equal(S, A) and np.array_equal(D, ~A & ~np.eye(8, dtype=bool))
    S, D = reveal(A, 0.0, 0.0, _rng(0))
    assert not S.any() and not D.any()
    with pytest.raises(ValueError, match="p_s=1.5"):
        reveal(A, 1.5, 0.5, _rng(0))
    with pytest.raises(TypeError, match="Generator"):
        reveal(A, 0.5, 0.5, 3)
    with pytest.raises(ValueError, match="both similar and dissimilar"):
        check_side_information(A, A)


# --- candidate sets -------------------------------------------------------------------------


@given(means_st, eps_st)
def test_csi_off_equals_theorem_1_and_the_networkx_reference(means, eps):
    A = similarity_graph(means, eps)
    B = candidate_set_complete(A)
    assert B.tolist() == candidate_set_theorem1(A, means).tolist() == candidate_set_complete_nx(to_networkx(A))
    assert int(np.argmax(means)) in B and int(np.argmin(means)) in B
    # at most two classes per component
    assert len(candidate_classes(A, B)) <= 2 * len(components(A))


@given(st.lists(st.floats(0.0, 1.0), min_size=2, max_size=60).map(np.array), st.floats(0.01, 0.99))
def test_theorem_1_closed_form_in_the_means(means, eps):
    """C_max = {j : mu_j >= m' + eps}, m' the largest mean <= mu* - eps (connected, not complete)."""
    A = similarity_graph(means, eps)
    if len(components(A)) > 1 or A.sum() == len(A) * (len(A) - 1):
        return
    top = means.max()
    below = means[top - means >= eps]
    m_prime = below.max()
    closed_form = set(np.flatnonzero(means - m_prime >= eps).tolist())
    top_class = next(c for c in candidate_classes(A, candidate_set_complete(A)) if int(np.argmax(means)) in c)
    assert set(top_class.tolist()) == closed_form


@settings(max_examples=examples(40))
@given(
    st.lists(st.floats(0.0, 1.0), min_size=1, max_size=6).map(np.array),
    st.floats(0.05, 0.9),
    st.floats(0, 1),
    st.integers(0, 2**31),
)
@pytest.mark.slow
def test_candidate_sets_are_nested_and_the_search_matches_brute_force(means, eps, p, seed):
    A = similarity_graph(means, eps)
    K = len(means)
    complete_D = ~A & ~np.eye(K, dtype=bool)
    assert candidate_set_by_permutations(A, complete_D).tolist() == candidate_set_complete(A).tolist()
    S, D = reveal(A, p, p, _rng(seed))
    exact = candidate_set_exact(S, D)
    assert exact.tolist() == candidate_set_by_permutations(S, D).tolist()
    B0 = eliminate_partial(S, D)
    assert set(candidate_set_complete(A)) <= set(exact) <= set(B0)
    assert int(np.argmax(means)) in B0


@given(means_st, st.floats(0, 1), st.integers(0, 2**31))
def test_psi_off_shrinks_as_edges_are_added_and_equals_the_simplicial_vertices_at_p_1(means, p, seed):
    A = similarity_graph(means, 0.2)
    S, D = reveal(A, p, p, _rng(seed))
    S2, D2 = reveal(A, min(1.0, p + 0.3), min(1.0, p + 0.3), _rng(seed))
    assert set(eliminate_partial(S2, D2)) <= set(eliminate_partial(S, D))
    full = eliminate_partial(A, ~A & ~np.eye(len(A), dtype=bool))
    assert full.tolist() == simplicial_vertices(A).tolist()
    assert set(candidate_set_complete(A)) <= set(full)


def test_the_paper_figure_2_example():
    left_ends = np.array([0, 0.1, 0.2, 0.9, 1.5, 2.2, 2.8, 3.4, 4.0, 4.6, 4.65])
    B, classes = candidate_set_from_means(left_ends, 1.0)
    assert (B + 1).tolist() == [1, 2, 3, 10, 11]
    assert [(c + 1).tolist() for c in classes] == [[1, 2, 3], [10, 11]]


def test_exact_search_refuses_large_graphs():
    A = similarity_graph(np.linspace(0, 1, 20), 0.2)
    with pytest.raises(ValueError, match="20 arms"):
        candidate_set_exact(A, ~A & ~np.eye(20, dtype=bool))
    with pytest.raises(ValueError, match="20 arms"):
        candidate_set_by_permutations(A, ~A & ~np.eye(20, dtype=bool))


# --- LP P2 and LP P1 ---------------------------------------------------------------------


@given(means_st, st.floats(0, 1), st.integers(0, 2**31))
def test_exploration_values_are_a_fractional_dominating_set(means, p, seed):
    A = similarity_graph(means, 0.2)
    S, _ = reveal(A, p, p, _rng(seed))
    z = exploration_values(S)
    closed = closed_neighbourhoods(S)
    assert (closed.astype(float) @ z >= 1 - 1e-7).all()
    assert (z >= 0).all() and (z <= 1 + 1e-9).all() and not ((z > 0) & (z < 1e-9)).any()
    gamma = domination_number(S)
    assert 1 - 1e-9 <= z.sum() <= gamma + 1e-7
    assert gamma <= len(nx.dominating_set(to_networkx(S)))


def test_exploration_values_of_extreme_graphs():
    assert exploration_values(np.zeros((4, 4), dtype=bool)).tolist() == [1.0] * 4
    complete = ~np.eye(5, dtype=bool)
    assert exploration_values(complete).sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="square"):
        exploration_values(np.zeros((0, 0)))


@given(st.lists(st.integers(0, 1000), min_size=3, max_size=30).map(lambda v: np.array(v) / 1000), st.floats(0.02, 0.6))
def test_lower_bound_closed_form_equals_linprog(means, eps):
    A = similarity_graph(means, eps)
    tau, c1 = lower_bound_rates(A, means)
    tau2, c2 = lower_bound_rates_linprog(A, means)
    assert c1 == pytest.approx(c2, rel=1e-6, abs=1e-9)
    assert c1 >= 0
    _assert_same_optimum(
        tau, tau2, np.zeros(len(means)) if np.isinf(c1) else LowerBoundLP(A).rows(means, int(np.argmax(means)), 1.0)[1]
    )


def _assert_same_optimum(tau, tau2, lower):
    """The same allocation: the same arms above their bound, the same rates (HiGHS to 1e-6)."""
    if np.isinf(tau).all() or np.isinf(tau2).all():
        assert np.isinf(tau).all() and np.isinf(tau2).all()
        return
    assert np.flatnonzero(tau > lower).tolist() == np.flatnonzero(tau2 > lower + 1e-9 * np.maximum(1.0, tau)).tolist()
    assert tau2 == pytest.approx(tau, rel=1e-6, abs=1e-9)


def test_lower_bound_tie_rule_least_exploration_then_lowest_id():
    """OSSB's plug-in at estimates that put arms above the leader: their clipped gaps are 0, so
    the LP's value is 0 and many allocations are optimal. Both solvers return the canonical one:
    in each row the zero-gap arm of largest KL (least exploration, arm 2 rather than arm 1, whose
    KL 2e-8 would ask for 5e7 samples per log t), and among arms the LP cannot tell apart (the
    middle arms 5, 6, 7 of the other component: gap 0, the same KL) the lowest id."""
    means = np.array([0.5, 0.46, 0.42, 0.38, 0.2, 0.16, 0.12, 0.08, 0.04])
    A = similarity_graph(means, 0.05)
    lp = LowerBoundLP(A)
    assert [c.tolist() for c in lp.components] == [[0, 1, 2, 3], [4, 5, 6, 7, 8]]
    assert lp.candidates.tolist() == [0, 3, 4, 8]
    xbar = np.array([0.5, 0.5001, 0.6, 0.3, 0.1, 0.7, 0.7, 0.7, 0.0])
    expected = np.zeros(9)
    expected[[2, 5]] = 1.0 / gaussian_kl(0.6, 0.4), 1.0 / gaussian_kl(0.0, 0.5 - 0.7)
    for solve in (lp.solve, lp.solve_linprog):
        tau, c1 = solve(xbar, 0, 1.0)
        assert c1 == pytest.approx(0.0, abs=1e-12)
        assert tau == pytest.approx(expected, rel=1e-9, abs=1e-12), solve.__name__
    # Any split among twins is optimal; merge_twins moves it to the lowest id.
    gaps, lower, rows = lp.rows(xbar, 0, 1.0)
    split = expected.copy()
    split[[5, 6, 7]] = expected[5] * np.array([0.0, 0.3, 0.7])
    assert merge_twins(split, gaps, lower, rows) == pytest.approx(expected)


@settings(max_examples=examples(60))
@given(st.integers(0, 2**31), st.floats(0.03, 0.3))
def test_lower_bound_solvers_agree_when_plug_in_gaps_are_zero(seed, eps):
    """Random OSSB-like plug-ins: estimates = means + noise, then two to four arms outside the
    leader's class lifted to or above the leader (some to equal values: twins), so that the LP
    has several optima (in about half of the examples a row has two or more arms of gap 0, and
    the former rule, the lowest id, gave another allocation in about a third); the closed form and
    HiGHS return the same allocation."""
    rng = np.random.default_rng(seed)
    K = int(rng.integers(5, 30))
    means = rng.uniform(0.1, 1.0, K)
    A = similarity_graph(means, eps)
    lp = LowerBoundLP(A)
    xbar = means + rng.normal(0.0, 0.1, K)
    best = int(lp.candidates[np.argmax(xbar[lp.candidates])])
    others = np.setdiff1d(np.arange(K), lp.class_of[best])
    lifted = rng.choice(others, size=min(len(others), int(rng.integers(2, 5))), replace=False)
    xbar[lifted] = xbar[best] + rng.choice([0.0, 0.01, 0.2], size=len(lifted))
    best = int(lp.candidates[np.argmax(xbar[lp.candidates])])
    gaps, lower, rows = lp.rows(xbar, best, 1.0)
    tau, c1 = lp.solve(xbar, best, 1.0)
    tau2, c2 = lp.solve_linprog(xbar, best, 1.0)
    assert c1 == pytest.approx(c2, rel=1e-6, abs=1e-9)
    _assert_same_optimum(tau, tau2, lower)
    if np.isfinite(c1):
        # Feasible and optimal (HiGHS's second LP is the check that it explores least).
        assert (gaps * tau).sum() == pytest.approx(c1, abs=1e-12)
        assert all((tau * row).sum() >= 1.0 - 1e-9 for row in rows)


def test_lower_bound_mirror_and_errors():
    means = np.array([1.0, 0.95, 0.8, 0.6, 0.4, 0.2, 0.0])
    A = similarity_graph(means, 0.25)
    lp = LowerBoundLP(A)
    top, bottom = lp.class_of[0], lp.other_end[0]
    comp = components(A)[0]
    mirrored = mirror_means(means, top, bottom, comp)
    assert mirrored[top].tolist() == means[top].tolist()
    assert mirrored[bottom].max() == pytest.approx(means[0] + means[top].min() - means.min())
    with pytest.raises(ValueError, match="best must be a candidate arm"):
        lower_bound_rates(A, means, best=3)
    with pytest.raises(ValueError, match="one entry per arm"):
        lower_bound_rates(A, means[:3])
    with pytest.raises(NotUnitIntervalGraph):
        lower_bound_rates(from_networkx(nx.star_graph(3)), np.ones(4))
