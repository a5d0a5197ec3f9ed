r"""The regret lower bound of complete side information (LP P1, Theorem 3 and Appendix D of
Xu et al. 2020), and its plug-in version that OSSB solves every round.

For a connected UIG with top class :math:`C_{\max} = C(i_{\max})` and bottom class
:math:`C_{\min} = C(i_{\min})`, a uniformly good policy plays arm i about :math:`\tau_i \log T`
times, where :math:`\tau` solves

.. math::
    &C_1 = \min_{\tau \ge 0} \sum_i \Delta_i \tau_i \quad\text{s.t.}\\
    &\qquad \sum_{j \notin C_{\max}} \tau_j\, \mathrm{KL}(\mu_j, \mu'_j) \ge 1, \qquad
    \tau_i \ge 1 / \mathrm{KL}(\mu_i, \mu^*) \ \ \forall i \in C_{\max} \setminus \mathcal A,

with the *mirrored* means (eq. 40) :math:`\mu'_j = \mu_j` on :math:`C_{\max}`,
:math:`\mu'_j = \mu^* + \min_{k \in C_{\max}} \mu_k - \mu_{i_{\min}}` on :math:`C_{\min}` and
:math:`\mu'_j = \mu^* + \min_{k \in C_{\max}} \mu_k - \mu_j` elsewhere: the graph seen upside
down, in which the bottom class would be the best. The first constraint is a single knapsack
row, so an optimum puts all its weight on one arm :math:`j^* = \arg\min_{j \notin C_{\max}}
\Delta_j / \mathrm{KL}(\mu_j, \mu'_j)` (:func:`lower_bound_rates`, the closed form);
:func:`lower_bound_rates_linprog` solves the same LP with HiGHS (what "OSSB solves an LP every
round" means here) and is checked against it.

**Tie rule (the book's; the UIG chapter's reproduction notes, row N6).** The LP can have several
optima, and then the closed form and HiGHS need not return the same one. This is no corner case
for OSSB's plug-in: an arm whose estimate lies above the leader's has clipped gap 0, so with two
such arms in a row the value is 0 whatever their split, yet the rates they imply differ by orders
of magnitude (1/KL with KL 1e-10 or 1e-3). OSSB (Combes et al. 2017) writes :math:`c(\theta)` for
*the* solution of its problem and does not say which optimum to take when there are several. Both
solvers here return the same canonical optimum:

1. among the optimal allocations, one of least total exploration :math:`\sum_i \tau_i` (OSSB's
   "minimal exploration"; in a knapsack row: among the arms of least :math:`\Delta_j/\mathrm{KL}_j`,
   the one of largest :math:`\mathrm{KL}_j`), a second LP over the optimal face for HiGHS;
2. arms the LP cannot tell apart (the same gap, bound and row coefficients) are interchangeable:
   the weight above the bound goes to the lowest arm id among them (:func:`merge_twins`, applied
   to both solvers' outputs).

A graph with several components (the book's construction, for OSSB's plug-in only; the UIG
chapter's reproduction notes, row N6): each
other component H is one more alternative, "shift H up until its best arm ties the leader",
which costs :math:`\tau_j = 1/\mathrm{KL}(\mu_j, \mu_j + \delta_H)` on the best arm of H,
:math:`\delta_H = \mu^* - \max_H \mu`.

KL is Gaussian with variance :math:`\sigma^2`: :math:`(a - b)^2 / (2\sigma^2)`.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linprog

from bandit_lib.checks import check_index, check_positive, check_vector
from bandit_lib.uig.candidates import candidate_set_complete
from bandit_lib.uig.problem import check_unit_interval_graph, closed_neighbourhoods, components


def gaussian_kl(a, b, sigma: float = 1.0):
    return (np.asarray(a) - np.asarray(b)) ** 2 / (2.0 * sigma * sigma)


class LowerBoundLP:
    """LP P1 for a fixed graph ``A``, evaluated at any means and any assumed best arm.

    The graph's components and neighbourhood classes are computed once, so that OSSB can solve
    the plug-in LP every round cheaply.
    """

    def __init__(self, A):
        self.A = check_unit_interval_graph(A)
        closed = closed_neighbourhoods(self.A)
        self.components = components(self.A)
        self.component_of = np.empty(len(self.A), dtype=np.int64)
        for c, comp in enumerate(self.components):
            self.component_of[comp] = c
        self.candidates = candidate_set_complete(self.A, check=False)
        # The other end class of each candidate's component (itself for a clique).
        self.class_of, self.other_end = {}, {}
        for comp in self.components:
            ends = [comp[(closed[comp] == closed[v]).all(axis=1)] for v in np.intersect1d(comp, self.candidates)]
            ends = list({tuple(e.tolist()): e for e in ends}.values())
            for i, end in enumerate(ends):
                for v in end:
                    self.class_of[int(v)] = end
                    self.other_end[int(v)] = ends[1 - i] if len(ends) == 2 else end

    def rows(self, means, best: int, sigma: float):
        """The LP's data at ``means``: objective gaps, lower bounds on tau, knapsack rows."""
        mu = means
        if best not in self.class_of:
            raise ValueError(f"best must be a candidate arm {self.candidates.tolist()}; got best={best}")
        comp = self.components[self.component_of[best]]
        top = self.class_of[best]
        bottom = self.other_end[best]
        # With estimated means (OSSB) an arm outside the candidate set may look better than
        # ``best``; its plug-in gap is taken as 0 (a free observation) rather than negative.
        gaps = np.maximum(mu[best] - mu, 0.0)
        lower = np.zeros(len(mu))
        below = top[mu[top] < mu[best]]
        lower[below] = 1.0 / gaussian_kl(mu[below], mu[best], sigma)
        rows = []
        others = np.setdiff1d(comp, top)
        if len(others):
            row = np.zeros(len(mu))
            row[others] = gaussian_kl(mu[others], mirror_means(mu, top, bottom, comp)[others], sigma)
            rows.append(row)
        for H in self.components:
            if H is comp:
                continue
            row = np.zeros(len(mu))
            row[H] = gaussian_kl(0.0, mu[best] - mu[H].max(), sigma)
            rows.append(row)
        return gaps, lower, rows

    def solve(self, means, best: int, sigma: float) -> tuple[np.ndarray, float]:
        """Closed-form canonical optimum (see the module docstring's tie rule): (tau, C1)."""
        gaps, lower, rows = self.rows(means, best, sigma)
        tau = lower.copy()
        for row in rows:
            if (tau * row).sum() >= 1.0:
                continue
            usable = np.flatnonzero(row > 0)
            if usable.size == 0:
                return np.full(len(means), np.inf), float("inf")
            # Cheapest way to fill the row: the arm with the least gap per unit of KL; among
            # those, the largest KL (least exploration), then the lowest id (lexsort is stable).
            k = row[usable]
            j = usable[np.lexsort((-k, gaps[usable] / k))[0]]
            tau[j] += (1.0 - (tau * row).sum()) / row[j]
        tau = merge_twins(tau, gaps, lower, rows)
        return tau, float((gaps * tau).sum())

    def solve_linprog(self, means, best: int, sigma: float) -> tuple[np.ndarray, float]:
        """The same LP solved by ``scipy.optimize.linprog`` (HiGHS), with the same tie rule: a
        second LP minimises :math:`\\sum_i \\tau_i` over the optimal face."""
        gaps, lower, rows = self.rows(means, best, sigma)
        if any(not (row > 0).any() for row in rows):
            return np.full(len(means), np.inf), float("inf")
        bounds = list(zip(lower, [None] * len(means)))
        A_ub = -np.array(rows) if rows else np.empty((0, len(means)))
        b_ub = -np.ones(len(rows))
        first = linprog(c=gaps, A_ub=A_ub if rows else None, b_ub=b_ub if rows else None, bounds=bounds, method="highs")
        if first.status != 0:
            raise RuntimeError(f"LP P1 failed: {first.message}")
        C1 = float(first.fun)
        # The optimal face: the same constraints and a cost of at most C1.
        second = linprog(
            c=np.ones(len(means)),
            A_ub=np.vstack([A_ub, gaps]),
            b_ub=np.append(b_ub, C1),
            bounds=bounds,
            method="highs",
        )
        if second.status != 0:
            raise RuntimeError(f"LP P1 (least exploration among optima) failed: {second.message}")
        tau = merge_twins(np.asarray(second.x), gaps, lower, rows)
        return tau, C1


def merge_twins(tau, gaps, lower, rows) -> np.ndarray:
    """Step 2 of the tie rule: the LP's arms that it cannot tell apart (equal gap, lower bound and
    coefficient in every row) are interchangeable, so any split of weight among them is optimal;
    the weight above the bound moves to the lowest arm id of each such group."""
    tau = np.array(tau, dtype=np.float64)
    extra = np.flatnonzero(tau > lower)
    if extra.size == 0:
        return tau
    cols = np.column_stack([gaps, lower, *rows])
    for j in extra:
        first = int(np.argmax((cols == cols[j]).all(axis=1)))
        if first != j:
            tau[first] += tau[j] - lower[j]
            tau[j] = lower[j]
    return tau


def mirror_means(means, top, bottom, comp) -> np.ndarray:
    """Eq. (40) on the arms of ``comp``: the mirrored means (other arms keep theirs)."""
    mu = np.array(means, dtype=np.float64)
    best = mu[top].max()
    pivot = best + mu[top].min()
    mirrored = mu.copy()
    rest = np.setdiff1d(comp, np.union1d(top, bottom))
    mirrored[rest] = pivot - mu[rest]
    mirrored[np.setdiff1d(bottom, top)] = pivot - mu[bottom].min()
    return mirrored


def _checked(A, means, best, sigma):
    lp = LowerBoundLP(A)
    mu = check_vector("means", means)
    if len(mu) != len(lp.A):
        raise ValueError(f"means must have one entry per arm ({len(lp.A)}); got {len(mu)}")
    sigma = check_positive("sigma", sigma)
    best = int(np.argmax(mu)) if best is None else check_index("best", best, len(mu))
    return lp, mu, best, sigma


def lower_bound_rates(A, means, *, best: int | None = None, sigma: float = 1.0) -> tuple[np.ndarray, float]:
    """Closed-form optimum of LP P1: (tau, C1). ``best`` defaults to argmax of ``means``.

    Arms of zero gap (other optimal arms) get no rate; a knapsack row whose arms all have KL 0
    (an alternative the data cannot tell apart) makes the bound infinite.
    """
    lp, mu, best, sigma = _checked(A, means, best, sigma)
    return lp.solve(mu, best, sigma)


def lower_bound_rates_linprog(A, means, *, best: int | None = None, sigma: float = 1.0) -> tuple[np.ndarray, float]:
    """LP P1 solved by ``scipy.optimize.linprog`` (HiGHS): (tau, C1)."""
    lp, mu, best, sigma = _checked(A, means, best, sigma)
    return lp.solve_linprog(mu, best, sigma)
