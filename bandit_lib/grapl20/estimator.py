r"""Laplacian-regularised estimation of arm means on a graph (GRAPL20 §2.3, eqs. 5–8, Remark 3.5).

Arms are the vertices of a weighted undirected graph with Laplacian :math:`L = D - W`. After the
pulls :math:`\pi_1..\pi_t` with rewards :math:`x_1..x_t` the estimate is the minimiser of
:math:`\sum_s (x_s - \mu_{\pi_s})^2 + \gamma \|\mu - c\mathbf 1\|^2_{L_\lambda}`, with
:math:`L_\lambda = L + \lambda I`:

.. math::

    V_t = L_\lambda + N_t/\gamma, \qquad
    b_t = \tfrac1\gamma \textstyle\sum_{s \le t} (x_s - c)\, e_{\pi_s}, \qquad
    \hat\mu_t = c\mathbf 1 + V_t^{-1} b_t,

where :math:`N_t = \mathrm{diag}(n^t)` holds the pull counts and :math:`c` is the reference level:
:math:`c = \tau` with the τ-offset of Remark 3.5 (used by every experiment of the paper), 0
without it. Before any pull :math:`\hat\mu_0 = c\mathbf 1`. A pull of arm i changes V only in the
diagonal entry (i, i), by 1/γ.

Two solvers compute :math:`s_t = \hat\mu_t - c\mathbf 1 = V_t^{-1} b_t`:

``"exact"`` (the library default)
    Sherman–Morrison on the dense inverse :math:`P_t = V_t^{-1}`. With :math:`u = P_{t-1} e_i` and
    :math:`k = \gamma + u_i`, a pull of arm i with reward x gives
    :math:`s_t = s_{t-1} + u\,(x - c - s_{t-1,i})/k` and :math:`P_t = P_{t-1} - u u^\top / k`
    (exact algebra; O(N²) per pull, independent of γ).
``"cg"`` (the authors' solver)
    Conjugate gradient on :math:`V_t s = b_t`, warm-started at :math:`s_{t-1}`, stopping when the
    residual norm falls below ``rtol`` times :math:`\|b_t\|` (scipy's rule; rtol = 1e-5 as in the
    authors' code). It is inexact by design: for tiny γ, :math:`\|b_t\| \propto 1/\gamma` makes the
    stopping test loose, which is what degrades the paper's γ = 1e-7 curve (Fig. 3).

Both solvers are written once and shared by the readable per-pull references
(:class:`GraphEstimator`) and the numba engines (``bandit_lib.grapl20._engine``), so that the two
compute the same floating-point numbers in the same order.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import networkx as nx
import numpy as np
import scipy.sparse as sp
from numba import njit

from bandit_lib.checks import check_choice, check_index, check_int, check_positive, check_real
from bandit_lib.grapl20.dense import spd_inverse

SOLVERS = ("exact", "cg")


# ----------------------------------------------------------------------------------- the graph
def laplacian(graph, n_arms: int | None = None, *, require_connected: bool = False) -> sp.csr_array:
    """The combinatorial Laplacian L = D − W of an undirected weighted graph, as float64 CSR.

    Arms are the graph's nodes in ``graph.nodes`` order. Edge weights come from the attribute
    ``weight`` (1 when absent; parallel edges of a multigraph add up; self-loops cancel in L).
    Raises a clear error for a directed graph, a non-numeric, non-finite or negative weight, a
    node count different from ``n_arms``, or (with ``require_connected``) a disconnected graph.
    """
    if not isinstance(graph, nx.Graph):
        raise TypeError(f"graph must be a networkx graph; got {type(graph).__name__}")
    if graph.is_directed():
        raise ValueError(f"graph must be undirected; got a directed graph ({type(graph).__name__})")
    n = graph.number_of_nodes()
    if n == 0:
        raise ValueError("graph must have at least one node; got an empty graph")
    if n_arms is not None and n != check_int("n_arms", n_arms, minimum=1):
        raise ValueError(f"the graph has {n} nodes but there are n_arms={n_arms} arms (one node per arm)")
    for u, v, w in graph.edges(data="weight", default=1.0):
        if not isinstance(w, numbers.Real) or isinstance(w, bool) or not np.isfinite(w) or w < 0:
            raise ValueError(f"edge weights must be finite numbers >= 0; got weight={w!r} on edge ({u!r}, {v!r})")
    if require_connected and not nx.is_connected(graph):
        sizes = sorted((len(c) for c in nx.connected_components(graph)), reverse=True)
        raise ValueError(f"graph must be connected; it has {len(sizes)} components of sizes {sizes[:10]}")
    L = nx.laplacian_matrix(graph, nodelist=list(graph.nodes), weight="weight")
    return sp.csr_array(L, dtype=np.float64)


def _check_laplacian(L) -> sp.csr_array:
    if isinstance(L, nx.Graph):
        return laplacian(L)
    if not sp.issparse(L):
        L = np.asarray(L, dtype=np.float64)
        if L.ndim != 2:
            raise ValueError(f"a Laplacian must be a square matrix; got shape {L.shape}")
    L = sp.csr_array(L, dtype=np.float64)
    n, m = L.shape
    if n != m:
        raise ValueError(f"a Laplacian must be square; got shape {L.shape}")
    if not np.all(np.isfinite(L.data)):
        raise ValueError("the Laplacian has non-finite entries")
    if abs(L - L.T).max() > 1e-12 * max(1.0, abs(L).max()):
        raise ValueError("the Laplacian must be symmetric (an undirected graph)")
    off = L - sp.diags_array(L.diagonal())
    if off.nnz and off.data.max() > 0:
        raise ValueError(f"a Laplacian has off-diagonal entries <= 0 (minus the weights); got {off.data.max()!r}")
    rows = np.asarray(L.sum(axis=1)).ravel()
    if np.abs(rows).max() > 1e-9 * max(1.0, abs(L).max()):
        raise ValueError(f"the rows of a Laplacian sum to 0; got a row sum of {rows[np.abs(rows).argmax()]!r}")
    return L


@dataclass(eq=False)
class GraphSystem:
    r"""The fixed part of the estimator: :math:`L_\lambda = L + \lambda I` and, once asked for, its
    dense inverse (the starting point of the exact solver). Build one per graph and λ and share it
    between runs: runs copy what they modify.
    """

    L_lambda: sp.csr_array
    lam: float
    diag_pos: np.ndarray
    _inverse: np.ndarray | None = field(default=None, repr=False)

    @property
    def n_arms(self) -> int:
        return self.L_lambda.shape[0]

    @property
    def inverse(self) -> np.ndarray:
        r""":math:`L_\lambda^{-1}`, exactly symmetric in floating point, and the same bits on any
        machine: a Cholesky factor and the inverse from it in numba loops of a fixed order
        (:func:`bandit_lib.grapl20.dense.spd_inverse`), not LAPACK, whose kernels (chosen by CPU)
        move the last bits, and those bits can break a near-tie of GrAPL's index."""
        if self._inverse is None:
            try:
                self._inverse = spd_inverse(self.L_lambda.toarray())
            except np.linalg.LinAlgError as exc:
                raise np.linalg.LinAlgError(f"L + lam*I is not positive definite (lam={self.lam!r}): {exc}") from None
        return self._inverse


def graph_system(graph_or_laplacian, lam: float = 1e-3, n_arms: int | None = None) -> GraphSystem:
    """:class:`GraphSystem` of a networkx graph (see :func:`laplacian`) or of a Laplacian matrix."""
    lam = check_positive("lam", lam)
    if isinstance(graph_or_laplacian, nx.Graph):
        L = laplacian(graph_or_laplacian, n_arms)
    else:
        L = _check_laplacian(graph_or_laplacian)
        if n_arms is not None and L.shape[0] != n_arms:
            raise ValueError(f"the Laplacian is {L.shape[0]}x{L.shape[0]} but there are n_arms={n_arms} arms")
    n = L.shape[0]
    V = sp.csr_array(L + lam * sp.eye_array(n, format="csr"))
    V.sort_indices()
    # λ > 0 makes every diagonal entry structurally present; record where each one is stored.
    diag_pos = np.empty(n, dtype=np.int64)
    for i in range(n):
        lo, hi = V.indptr[i], V.indptr[i + 1]
        diag_pos[i] = lo + np.searchsorted(V.indices[lo:hi], i)
    return GraphSystem(V, lam, diag_pos)


# ----------------------------------------------------------------------------------- solvers
@njit(cache=True)
def _dot(a, b):
    total = 0.0
    for j in range(a.shape[0]):
        total += a[j] * b[j]
    return total


@njit(cache=True)
def _matvec_dot(indptr, indices, data, v, out):
    """out = A v (CSR rows in order) and returns v·out, summed in row order."""
    vq = 0.0
    for row in range(out.shape[0]):
        acc = 0.0
        for k in range(indptr[row], indptr[row + 1]):
            acc += data[k] * v[indices[k]]
        out[row] = acc
        vq += v[row] * acc
    return vq


@njit(cache=True)
def conjugate_gradient(indptr, indices, data, b, x, rtol, maxiter):
    """Solve A x = b (A symmetric positive definite, CSR) by conjugate gradient, in place.

    ``x`` holds the initial guess (the warm start) and receives the solution. This is the
    recurrence of ``scipy.sparse.linalg.cg`` (scipy 1.12+, no preconditioner) line by line:
    stop as soon as ``||r|| < rtol * ||b||`` (checked before each iteration), at most ``maxiter``
    iterations, and return ``b`` itself when ``b = 0``. Dot products are summed in index order;
    each is accumulated in the loop that produces its last operand, which changes no rounding.
    Returns ``(iterations, converged)``.
    """
    n = b.shape[0]
    bnrm2 = np.sqrt(_dot(b, b))
    if bnrm2 == 0.0:
        for j in range(n):
            x[j] = b[j]
        return 0, True
    atol = rtol * bnrm2
    r = np.empty(n)
    nonzero = False
    for j in range(n):
        if x[j] != 0.0:
            nonzero = True
            break
    if nonzero:
        _matvec_dot(indptr, indices, data, x, r)
        for j in range(n):
            r[j] = b[j] - r[j]
    else:
        for j in range(n):
            r[j] = b[j]
    rr = _dot(r, r)
    p = np.empty(n)
    q = np.empty(n)
    rho_prev = 1.0
    for iteration in range(maxiter):
        if np.sqrt(rr) < atol:
            return iteration, True
        rho_cur = rr
        if iteration > 0:
            beta = rho_cur / rho_prev
            for j in range(n):
                p[j] = p[j] * beta + r[j]
        else:
            for j in range(n):
                p[j] = r[j]
        alpha = rho_cur / _matvec_dot(indptr, indices, data, p, q)
        rr = 0.0
        for j in range(n):
            x[j] += alpha * p[j]
            r[j] -= alpha * q[j]
            rr += r[j] * r[j]
        rho_prev = rho_cur
    return maxiter, False


@njit(cache=True)
def sherman_morrison_lower(P, s, i, innovation, gamma, u):
    r"""Exact update after a pull of arm i, on the *lower triangle* of the symmetric ``P``.

    ``innovation`` is :math:`x - c`. Computes, in this order and with these roundings,
    :math:`u = P e_i`, :math:`k = \gamma + u_i`, :math:`s \mathrel{+}= u\,((x - c - s_i)/k)` and
    :math:`P_{ab} \mathrel{-}= (u_a u_b)\,(1/k)` for :math:`b \le a`: the same numbers as the
    readable full-matrix update of :class:`GraphEstimator` (which is exactly symmetric).
    """
    n = s.shape[0]
    for a in range(n):
        u[a] = P[a, i] if a >= i else P[i, a]
    k = gamma + u[i]
    f = (innovation - s[i]) / k
    for a in range(n):
        s[a] += u[a] * f
    inv_k = 1.0 / k
    for a in range(n):
        ua = u[a]
        row = P[a]
        for b in range(a + 1):
            row[b] -= (ua * u[b]) * inv_k


# ----------------------------------------------------------------------------------- estimator
class GraphEstimator:
    r"""The per-pull estimator of Algorithms 1 and 2 (readable reference).

    ``update(i, x)`` records a reward x of arm i; ``mu_hat`` is :math:`c + V_t^{-1} b_t`.
    ``solver="exact"`` keeps :math:`P_t = V_t^{-1}` (also giving :math:`\sigma_i^t =
    \sqrt{(V_t^{-1})_{ii}}`, eq. 25, and the log-determinant ratio of Lemma A.3);
    ``solver="cg"`` runs conjugate gradient with a warm start (``rtol``, ``maxiter`` = 10 N by
    default, as scipy).
    """

    def __init__(
        self,
        system: GraphSystem,
        *,
        gamma: float,
        tau: float,
        offset: bool = True,
        solver: str = "exact",
        rtol: float = 1e-5,
        maxiter: int | None = None,
    ):
        if not isinstance(system, GraphSystem):
            raise TypeError(f"system must be a GraphSystem (see graph_system); got {type(system).__name__}")
        self.system = system
        self.gamma = check_positive("gamma", gamma)
        self.tau = check_real("tau", tau)
        self.offset = bool(offset)
        self.solver = check_choice("solver", solver, SOLVERS)
        self.rtol = check_positive("rtol", rtol)
        n = system.n_arms
        self.maxiter = 10 * n if maxiter is None else check_int("maxiter", maxiter, minimum=1)
        self.c = self.tau if self.offset else 0.0
        self.counts = np.zeros(n, dtype=np.int64)
        self.s = np.zeros(n)  # s = mu_hat - c = V^{-1} b
        self.b = np.zeros(n)
        self.V_data = system.L_lambda.data.copy()  # V = L_lambda + N/gamma, same sparsity
        self.logdet_ratio = 0.0  # log det V_t - log det L_lambda
        self.cg_iterations = 0
        self.cg_converged = True
        self.P = system.inverse.copy() if self.solver == "exact" else None

    @property
    def n_arms(self) -> int:
        return self.system.n_arms

    @property
    def mu_hat(self) -> np.ndarray:
        return self.c + self.s

    def V(self) -> sp.csr_array:
        """The current system matrix V_t (a copy)."""
        L = self.system.L_lambda
        return sp.csr_array((self.V_data.copy(), L.indices, L.indptr), shape=L.shape)

    def sigma2(self) -> np.ndarray:
        r""":math:`(\sigma_i^t)^2 = (V_t^{-1})_{ii}` (eq. 25); needs the exact solver."""
        if self.P is None:
            raise ValueError("sigma2 needs solver='exact' (it reads the diagonal of V^{-1})")
        return np.diag(self.P).copy()

    def update(self, i: int, x: float) -> None:
        i = check_index("i", i, self.n_arms)
        x = check_real("x", x)
        self.counts[i] += 1
        self.V_data[self.system.diag_pos[i]] += 1.0 / self.gamma
        self.b[i] += (x - self.c) / self.gamma
        if self.solver == "exact":
            u = self.P[:, i].copy()  # V_{t-1}^{-1} e_i
            k = self.gamma + u[i]
            self.logdet_ratio += np.log1p(u[i] / self.gamma)  # matrix determinant lemma
            self.s += u * ((x - self.c - self.s[i]) / k)
            self.P -= np.outer(u, u) * (1.0 / k)
        else:
            L = self.system.L_lambda
            its, ok = conjugate_gradient(L.indptr, L.indices, self.V_data, self.b, self.s, self.rtol, self.maxiter)
            self.cg_iterations = int(its)
            self.cg_converged = bool(ok)
