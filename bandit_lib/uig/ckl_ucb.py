r"""CKL-UCB (Magureanu, Combes and Proutière 2014), the Lipschitz-bandit baseline of the UIG paper,
which uses the similarity relations only.

A metric over the arms comes from the similarity graph: an S-edge says :math:`|\mu_k - \mu_j| < \epsilon`,
so :math:`|\mu_k - \mu_j| < \epsilon\, h(k, j)` with :math:`h` a hop count. The index of arm k
after :math:`t` plays is

.. math::
    &b_k(t) = \sup\Bigl\{q : \sum_{j:\, n_j > 0} n_j\, d^+\bigl(\bar x_j,\, q - \epsilon h(k, j)\bigr) \le \log t\Bigr\},\\
    &d^+(a, b) = \mathrm{KL}(a, b)\,\mathbb 1\{a < b\},

("if arm k had mean q, the arms near it would have to be this far above their estimates"), and
the policy plays :math:`\arg\max_k b_k`, ties to the fewest plays, then the lowest id.

The paper gives neither the metric, nor the threshold, nor an initialisation (the UIG chapter's
reproduction notes, row N3):

* ``metric="one_hop"`` (default): :math:`h = 1` on direct S-edges, :math:`h(k, k) = 0`, and
  every other term dropped; ``metric="hop"`` (the other reading): :math:`h` = shortest-path length in the
  similarity graph (unreachable arms dropped);
* threshold :math:`\log t` (no log log term);
* ``init=True`` (default): play every arm once in ascending id first; ``init=False`` (a sensitivity run).

KL: ``"gaussian"`` :math:`(a - b)^2 / (2\sigma^2)` (Fig. 6, σ = 1), ``"squared"`` :math:`(a - b)^2`
(the Jester experiment, as the paper says), ``"bernoulli"`` (Fig. 7; arguments clipped to
:math:`[10^{-12}, 1 - 10^{-12}]`, :math:`q \in [0, 1]`).

Solvers. For the squared KLs the left-hand side :math:`F_k(q)` is piecewise quadratic in q with
breakpoints :math:`\bar x_j + \epsilon h(k, j)`: sort them, and on each segment solve the
quadratic exactly For the Bernoulli KL, :math:`F_k` is convex and nondecreasing: 12 halvings of [0, 1], then
Newton steps from the right end of the bracket, which converge to the root from the right (to
about 1e-15) in a few steps, where 40 halvings alone would need 40 evaluations for 1e-12. Both
solvers are in :func:`ckl_indices`.

:func:`ckl_indices` is plain Python (the readable reference) compiled with numba. The policy's
``engine="reference"`` runs their Python source (``.py_func``), ``engine="fast"`` the compiled
code; both evaluate the same floating-point operations in the same order, and the tests check
that they take the same decisions.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from scipy.sparse.csgraph import shortest_path

from bandit_lib.checks import check_choice, check_int, check_nonnegative, check_positive
from bandit_lib.tapes import DecisionStream
from bandit_lib.uig.problem import check_adjacency
from bandit_lib.uig.protocol import argmin_ties, check_stream

METRICS = ("one_hop", "hop")
KLS = ("gaussian", "squared", "bernoulli")
ENGINES = ("fast", "reference")
CLIP = 1e-12
_KL_CODE = {"gaussian": 0, "squared": 1, "bernoulli": 2}


def hop_matrix(S, metric: str) -> np.ndarray:
    """h(k, j): 0 on the diagonal, 1 on S-edges, and for ``"hop"`` the shortest-path length;
    ``inf`` where the metric says nothing."""
    S = check_adjacency("S", S)
    check_choice("metric", metric, METRICS)
    if metric == "hop":
        return shortest_path(S.astype(np.float64), unweighted=True, directed=False)
    h = np.where(S, 1.0, np.inf)
    np.fill_diagonal(h, 0.0)
    return h


def metric_groups(shift: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The terms of each arm k grouped by their shift ``eps h(k, j)``: ``group_of[k, j]`` is the
    group of j in k's index (-1: no term), ``group_shift[k, g]`` its shift, ``n_groups[k]`` how
    many groups k has (groups in increasing shift)."""
    K = len(shift)
    group_of = np.full((K, K), -1, dtype=np.int64)
    values = [np.unique(shift[k][np.isfinite(shift[k])]) for k in range(K)]
    n_groups = np.array([len(v) for v in values], dtype=np.int64)
    group_shift = np.full((K, max(1, int(n_groups.max()))), np.inf)
    for k in range(K):
        group_shift[k, : n_groups[k]] = values[k]
        for g, value in enumerate(values[k]):
            group_of[k, shift[k] == value] = g
    return group_of, group_shift, n_groups


@njit(cache=True)
def ckl_indices(xbar, n, group_of, group_shift, n_groups, threshold, kl_code, scale, iters):
    """b_k for every arm k (the readable reference is this function's Python source).

    The terms of arm k come in groups of equal shift ``eps h(k, j)`` (see :func:`metric_groups`);
    only played arms count. ``kl_code`` 0/1: squared KL times ``scale`` (1/(2 sigma^2) for
    Gaussian, 1 for "squared"), solved exactly; 2: Bernoulli KL, bisection with ``iters`` halvings
    then Newton steps. The body calls no other compiled function, so its ``py_func`` is pure Python.

    """
    K = xbar.shape[0]
    out = np.empty(K)
    # Played arms by increasing mean (ties: lower id first); each group is filled in this order,
    # so every group comes out sorted.
    played = np.flatnonzero(n > 0)
    by_mean = played[np.argsort(xbar[played], kind="mergesort")]
    # Work arrays, allocated once.
    x = np.empty(K)
    w = np.empty(K)
    c = np.empty(K)
    order = np.empty(K, dtype=np.int64)
    pw = np.empty(K + 1)
    px = np.empty(K + 1)
    pneg = np.empty(K + 1)
    off = np.empty(group_shift.shape[1] + 1, dtype=np.int64)
    head = np.empty(group_shift.shape[1], dtype=np.int64)
    for k in range(K):
        G = n_groups[k]
        off[: G + 1] = 0
        for j in by_mean:
            g = group_of[k, j]
            if g >= 0:
                off[g + 1] += 1
        for g in range(G):
            off[g + 1] += off[g]
        total = off[G]
        if total == 0:
            out[k] = np.inf
            continue
        head[:G] = off[:G]
        for j in by_mean:
            g = group_of[k, j]
            if g >= 0:
                x[head[g]] = xbar[j]
                w[head[g]] = n[j]
                head[g] += 1
        if kl_code == 2:
            # F(q) = sum over groups of sum_{x_i < q - shift} w_i KL(x_i, q - shift), and
            # KL(x, y) = x log x + (1-x) log(1-x) - x log y - (1-x) log(1-y) (clipped to
            # [CLIP, 1 - CLIP]), so prefix sums over each sorted group give F with two logs per group.
            pw[0] = 0.0
            px[0] = 0.0
            pneg[0] = 0.0
            for i in range(total):
                xc = min(max(x[i], CLIP), 1.0 - CLIP)
                pw[i + 1] = pw[i] + w[i]
                px[i + 1] = px[i] + w[i] * xc
                pneg[i + 1] = pneg[i] + w[i] * (xc * math.log(xc) + (1.0 - xc) * math.log(1.0 - xc))
            # sup{q in [0, 1] : F(q) <= threshold}: F is convex and nondecreasing in q, so after
            # ``iters`` halvings of [0, 1], Newton steps from the right end of the bracket approach
            # the root from the right without overshooting it.
            lo = 0.0
            hi = 1.0
            q = 1.0
            F_hi = 0.0
            dF_hi = 0.0
            step = 0
            while True:
                F = 0.0
                dF = 0.0
                for g in range(G):
                    y = q - group_shift[k, g]
                    a = off[g]
                    b = a + np.searchsorted(x[off[g] : off[g + 1]], y)  # members with x < y
                    if b > a:
                        yc = min(max(y, CLIP), 1.0 - CLIP)
                        sw = pw[b] - pw[a]
                        sx = px[b] - px[a]
                        F += (pneg[b] - pneg[a]) - sx * math.log(yc) - (sw - sx) * math.log(1.0 - yc)
                        dF += (sw - sx) / (1.0 - yc) - sx / yc
                if F <= threshold:
                    lo = q
                    if step == 0 or step > iters:
                        break  # all of [0, 1] qualifies, or a Newton step reached the root
                else:
                    hi = q
                    F_hi = F
                    dF_hi = dF
                step += 1
                if step <= iters:
                    q = 0.5 * (lo + hi)
                    continue
                nxt = hi - (F_hi - threshold) / dF_hi if dF_hi > 0.0 else hi
                if not (lo < nxt < hi - 1e-15) or step > iters + 60:
                    q = hi  # converged: the root to rounding, approached from the right
                    break
                q = nxt
            out[k] = q
            continue
        # Squared KL: F(q) = sum_i scale w_i (q - c_i)_+^2 with breakpoints c_i = x_i + shift_i,
        # piecewise quadratic; sort the breakpoints and solve on the segment holding the root.
        # Each group's breakpoints are already sorted: merge them (ties to the lower group).
        for g in range(G):
            head[g] = off[g]
            for i in range(off[g], off[g + 1]):
                c[i] = x[i] + group_shift[k, g]
        for r in range(total):
            pick = -1
            for g in range(G):
                if head[g] < off[g + 1] and (pick < 0 or c[head[g]] < c[head[pick]]):
                    pick = g
            order[r] = head[pick]
            head[pick] += 1
        if threshold <= 0.0:
            out[k] = c[order[0]]
            continue
        # Walk up the breakpoints keeping W = sum w, B = sum w c, C = sum w c^2 of the terms
        # switched on, and F at the current breakpoint; stop at the segment where F reaches the
        # threshold, where F(q) = W ((q - mean)^2 + var) gives the root right of mean.
        W = 0.0
        B = 0.0
        C = 0.0
        F = 0.0
        for r in range(total):
            i = order[r]
            wi = scale * w[i]
            W += wi
            B += wi * c[i]
            C += wi * c[i] * c[i]
            if r + 1 < total:
                nxt = c[order[r + 1]]
                # F(next) - F(this) = (next - this) (W (next + this) - 2 B)
                F_next = F + (nxt - c[i]) * (W * (nxt + c[i]) - 2.0 * B)
                if F_next < threshold:
                    F = F_next
                    continue
            mean = B / W
            var = max(C / W - mean * mean, 0.0)
            out[k] = mean + math.sqrt(max(threshold / W - var, 0.0))
            break
    return out


class CKLUCB:
    """CKL-UCB on the similarity graph ``graph`` (S; see the module docstring for the options).

    CKL-UCB makes no random choice: among the arms of largest index it plays the fewest-pulled,
    then the lowest-numbered. With a ``stream`` (a DecisionStream) the ties left after the
    fewest-pulled rule are broken at random instead, as the other policies break theirs.

    Example (the arms of :class:`~bandit_lib.uig.ucb1.UCB1`'s example, 80 % of their graph revealed; 300 rounds; the plays of each arm):

    >>> import numpy as np
    >>> from bandit_lib.tapes import decision_stream, gaussian_tape
    >>> means = [0.1, 0.2, 0.3, 0.45, 0.6, 0.7, 0.9]
    >>> from bandit_lib.uig import CKLUCB, reveal, similarity_graph, simulate
    >>> A = similarity_graph(means, 0.16)  # the unit interval graph at eps = 0.16
    >>> S, _ = reveal(A, 0.8, 0.8, np.random.default_rng(1))
    >>> arms = simulate(CKLUCB(S, eps=0.16, sigma=0.5), gaussian_tape(means, 0.5, seed=1), 300)
    >>> np.bincount(arms, minlength=7).tolist()
    [4, 4, 1, 13, 10, 32, 236]
    """

    def __init__(
        self,
        graph,
        stream: DecisionStream | None = None,
        *,
        eps: float,
        kl: str = "gaussian",
        metric: str = "one_hop",
        init: bool = True,
        sigma: float = 1.0,
        iters: int = 12,
        engine: str = "fast",
    ):
        S = check_adjacency("graph", graph)
        self.stream = None if stream is None else check_stream(stream)
        self.eps = check_nonnegative("eps", eps)
        self.kl = check_choice("kl", kl, KLS)
        self.metric = check_choice("metric", metric, METRICS)
        self.init = bool(init)
        sigma = check_positive("sigma", sigma)
        self.scale = 1.0 / (2.0 * sigma * sigma) if kl == "gaussian" else 1.0
        self.iters = check_int("iters", iters, minimum=1)
        engine = check_choice("engine", engine, ENGINES)
        self._indices = ckl_indices if engine == "fast" else ckl_indices.py_func
        h = hop_matrix(S, metric)
        shift = np.full(h.shape, np.inf)
        shift[np.isfinite(h)] = self.eps * h[np.isfinite(h)]
        self.groups = metric_groups(shift)
        K = len(S)
        self.n = np.zeros(K, dtype=np.int64)
        self.s = np.zeros(K)
        self.t = 0
        self._choice: int | None = None  # CKL-UCB is deterministic: no update, same choice

    def indices(self) -> np.ndarray:
        xbar = np.divide(self.s, self.n, out=np.zeros_like(self.s), where=self.n > 0)
        threshold = math.log(self.t) if self.t > 0 else 0.0
        return self._indices(xbar, self.n, *self.groups, threshold, _KL_CODE[self.kl], self.scale, self.iters)

    def select(self) -> int:
        if self._choice is None:
            if self.init and (self.n == 0).any():
                self._choice = int(np.argmax(self.n == 0))
            else:
                b = self.indices()
                top = np.flatnonzero(b == b.max())
                if self.stream is None:
                    self._choice = int(top[np.argmin(self.n[top])])  # the first argmin: the lowest id
                else:
                    fewest = top[self.n[top] == self.n[top].min()]
                    self._choice = int(fewest[argmin_ties(np.zeros(len(fewest)), self.stream)])
        return self._choice

    def update(self, arm: int, reward: float) -> None:
        self._choice = None
        self.n[arm] += 1
        self.s[arm] += reward
        self.t += 1
