"""The BLAS-free dense linear algebra of GRAPL20 (:mod:`bandit_lib.grapl20.dense`) against LAPACK."""

import networkx as nx
import numpy as np
import pytest
from scipy.linalg import lapack

from bandit_lib.grapl20 import dense
from bandit_lib.grapl20.estimator import graph_system


def _laplacian_plus_ridge(n: int, p: float, lam: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    graph = nx.gnp_random_graph(n, p, seed=seed)
    for u, v in graph.edges:
        graph[u][v]["weight"] = float(rng.uniform(0.1, 3.0))
    return graph_system(graph, lam).L_lambda.toarray()


def _lapack_inverse(A):
    factor, info = lapack.dpotrf(A, lower=1)
    assert info == 0
    low, info = lapack.dpotri(factor, lower=1)
    assert info == 0
    low = np.tril(low)
    return low + np.tril(low, -1).T


@pytest.mark.parametrize(
    "n, p, lam, seed",
    [(1, 0.0, 0.5, 0), (2, 1.0, 1e-3, 1), (30, 0.2, 1e-3, 2), (120, 0.05, 1.0, 3), (200, 0.03, 1e-3, 4)],
)
def test_inverse_agrees_with_lapack_and_is_bitwise_symmetric(n, p, lam, seed):
    A = _laplacian_plus_ridge(n, p, lam, seed)
    P, R = dense.spd_inverse(A), _lapack_inverse(A)
    assert np.array_equal(P, P.T)
    # both are backward stable: they differ by at most a few ulps times the condition number
    cond = np.linalg.cond(A)
    assert np.abs(P - R).max() <= 1e-12 * np.abs(R).max() * max(1.0, cond / 1e4)
    assert np.abs(P @ A - np.eye(n)).max() < 1e-9
    U = dense.cholesky_upper(A)
    assert np.array_equal(U, np.triu(U)) and np.abs(U.T @ U - A).max() <= 1e-13 * np.abs(A).max()


def test_inverse_of_the_figures_graphs_agrees_with_lapack_to_1e_12():
    from bandit_lib.grapl20.sbm import two_block_sbm

    graph, _ = two_block_sbm(400, 7)
    system = graph_system(graph, 1e-3)
    A = system.L_lambda.toarray()
    R = _lapack_inverse(A)
    assert np.abs(system.inverse - R).max() <= 1e-12 * np.abs(R).max()
    assert np.array_equal(system.inverse, system.inverse.T)


@pytest.mark.parametrize(
    "n, p, lam, seed", [(1, 0.0, 0.5, 0), (2, 1.0, 1e-3, 1), (40, 0.2, 1e-3, 5), (150, 0.05, 1.0, 6)]
)
def test_eigenvalues_and_solve_agree_with_lapack(n, p, lam, seed):
    A = _laplacian_plus_ridge(n, p, lam, seed)
    eigs = dense.symmetric_eigenvalues(A)
    assert np.all(np.diff(eigs) >= 0)
    assert np.abs(eigs - np.linalg.eigvalsh(A)).max() <= 1e-13 * np.abs(A).max() * n
    y = np.random.default_rng(seed).standard_normal(n)
    x = dense.spd_solve(A, y)
    assert np.abs(A @ x - y).max() <= 1e-12 * max(1.0, np.abs(A).max() * np.abs(x).max())


def test_eigenvalues_of_a_matrix_with_repeated_eigenvalues():
    # two disjoint 5-cliques: lam twice, 5 + lam eight times
    A = graph_system(nx.disjoint_union(nx.complete_graph(5), nx.complete_graph(5)), 1e-3).L_lambda.toarray()
    eigs = dense.symmetric_eigenvalues(A)
    assert np.allclose(eigs, [1e-3] * 2 + [5.001] * 8, rtol=0, atol=1e-12)


def test_bad_matrices_raise_naming_the_problem():
    with pytest.raises(np.linalg.LinAlgError, match="pivot 1"):
        dense.spd_inverse(np.array([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(ValueError, match="exactly symmetric"):
        dense.spd_inverse(np.array([[1.0, 0.5], [0.4, 1.0]]))
    with pytest.raises(ValueError, match="square"):
        dense.symmetric_eigenvalues(np.ones((2, 3)))
    with pytest.raises(ValueError, match="non-finite"):
        dense.spd_solve(np.eye(2), [1.0, np.nan])
    with pytest.raises(ValueError, match="length 2"):
        dense.spd_solve(np.eye(2), [1.0])


@pytest.mark.parametrize("n, p, seed", [(2, 1.0, 5), (40, 0.05, 6), (150, 0.02, 7), (150, 0.3, 8)])
def test_skipping_zero_multipliers_changes_no_bit(n, p, seed):
    """The factor and the inverse skip the updates by a zero multiplier (the matrix holds no −0):
    the same bits as the full loops, on sparse Laplacians whose factors are mostly zeros."""
    A = _laplacian_plus_ridge(n, p, 1e-3, seed)
    U_skip, U_full = A.copy(), A.copy()
    assert dense._cholesky_upper_inplace(U_skip, True) == dense._cholesky_upper_inplace(U_full, False) == 0
    assert np.array_equal(U_skip, U_full) and np.array_equal(np.signbit(U_skip), np.signbit(U_full))
    U = np.triu(U_full)
    X1, P1, X2, P2 = (np.empty((n, n)) for _ in range(4))
    dense._inverse_from_upper(U, X1, P1, True)
    dense._inverse_from_upper(U, X2, P2, False)
    assert np.array_equal(P1, P2) and np.array_equal(np.signbit(P1), np.signbit(P2))
    # a negative zero in the input turns the skipping off
    assert dense._no_negative_zero(np.array([[1.0, 0.0], [0.0, 1.0]]))
    assert not dense._no_negative_zero(np.array([[1.0, -0.0], [-0.0, 1.0]]))


def test_four_sturm_counts_at_once_equal_one_at_a_time():
    """The bisection takes four intervals at a time; each chain must count as the single one."""
    rng = np.random.default_rng(9)
    d, e = rng.normal(size=300), rng.normal(size=299)
    e[::7] = 0.0  # exact zeros in the off-diagonal, and points on eigenvalue-free gaps
    e2, pivmin = e * e, np.finfo(float).tiny
    counts = np.empty(4, dtype=np.int64)
    for _ in range(50):
        x = rng.normal(scale=3.0, size=4)
        x[rng.integers(4)] = d[rng.integers(300)]  # a point where a pivot can vanish
        dense._count_below4(d, e2, x[0], x[1], x[2], x[3], pivmin, counts)
        assert list(counts) == [dense._count_below(d, e2, xi, pivmin) for xi in x]
