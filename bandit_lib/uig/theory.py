r"""The UIG paper's results in checkable form: each theorem's hypotheses, checked on an instance,
and the numbers its statement gives.

A theorem row of the chapter's scorecard is decisive on an instance that satisfies the theorem's
hypotheses and says nothing on one that does not (the book's verdict policy). The functions
``*_hypotheses`` return one :class:`Condition` per hypothesis, computed from the instance, with the
numbers that decided it; the chapter's report turns them into the scorecard's hypotheses.

Notation (the paper's): K arms, equivalence classes :math:`C_1, \dots, C_m` of the similarity
graph :math:`G^*_\epsilon` ordered by mean, revelation probabilities :math:`p_S, p_D`.

* **Assumption 3**: every middle class :math:`C_i` (:math:`1 < i < m`) has classes
  :math:`C_j, C_k`, :math:`j < i < k`, both connected to :math:`C_i` and not to each other.
* **Assumptions 4–5**: one :math:`\kappa > 0` with :math:`|C_i| \ge \kappa \log K` for every
  class and :math:`p_S^2 p_D \ge 1 - e^{-2/\kappa}`. Assumption 4 allows at most
  :math:`\kappa_4 = \min_i |C_i| / \log K`, Assumption 5 needs at least
  :math:`\kappa_5 = 2 / (-\log(1 - p_S^2 p_D))`: both hold for some κ iff :math:`\kappa_5 \le \kappa_4`.
  (With p = 0.8, :math:`\kappa_5 = 2.79`.)
* **Theorem 5** (proof, App. G, Eqs. (58)–(59)): an arm outside :math:`\mathcal B^*` survives
  PSI-OFF with probability at most :math:`(1 - p_S^2 p_D)^N \le 1/K^2`, N the smaller of the two
  classes of Assumption 3; the statement reads "with probability at least :math:`1 - 1/K^2`,
  every arm :math:`i \notin \mathcal B^*` is eliminated".
* **Corollary 1** adds :math:`\Delta_i > 4\epsilon` on the bottom class; its proof's Eq. (94),
  :math:`\mathbb E[C_L] \le 2/p + 1` for the dominating-set LP on the bottom class, is the branch
  :math:`p_S > \sqrt{4 \log L/(L-1)}` (L the bottom class's size).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy import stats

from bandit_lib.checks import check_in_range, check_int, check_positive, check_vector
from bandit_lib.metrics import binomial_interval
from bandit_lib.uig.problem import (
    check_adjacency,
    components,
    equivalence_classes,
    is_umbrella_ordering,
    similarity_graph,
)


class Condition(NamedTuple):
    """One hypothesis of a result checked on an instance: its name (with the paper's label), whether
    it holds, and the numbers that decided it."""

    name: str
    holds: bool
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.name}: {'holds' if self.holds else 'VIOLATED'}" + (f" ({self.detail})" if self.detail else "")


def ordered_classes(means, eps: float) -> tuple[np.ndarray, list[np.ndarray]]:
    """The similarity graph of ``means`` at ``eps`` and its equivalence classes, ordered by mean."""
    means = check_vector("means", means)
    A = similarity_graph(means, eps)
    classes = sorted(equivalence_classes(A), key=lambda c: float(means[c].mean()))
    return A, classes


def kappa_bounds(means, eps: float, p_s: float, p_d: float) -> tuple[float, float]:
    r"""(:math:`\kappa_4`, :math:`\kappa_5`): the largest κ Assumption 4 allows and the smallest
    Assumption 5 needs (``inf`` when :math:`p_S^2 p_D = 0`)."""
    p_s = check_in_range("p_s", p_s, 0.0, 1.0, low_open=False, high_open=False)
    p_d = check_in_range("p_d", p_d, 0.0, 1.0, low_open=False, high_open=False)
    _, classes = ordered_classes(means, eps)
    K = len(check_vector("means", means))
    if K < 2:
        raise ValueError(f"the assumptions need at least 2 arms; got {K}")
    q = p_s * p_s * p_d
    kappa4 = min(len(c) for c in classes) / math.log(K)
    kappa5 = math.inf if q == 0 else 0.0 if q == 1 else 2.0 / -math.log1p(-q)
    return kappa4, kappa5


def assumption3(means, eps: float) -> Condition:
    """Assumption 3 on the classes of ``means`` at ``eps``."""
    A, classes = ordered_classes(means, eps)
    m = len(classes)
    adjacent = np.array([[bool(A[a[0], b[0]]) for b in classes] for a in classes])
    failing = [
        i
        for i in range(1, m - 1)
        if not any(adjacent[j, i] and adjacent[k, i] and not adjacent[j, k] for j in range(i) for k in range(i + 1, m))
    ]
    detail = f"{m} classes, {max(m - 2, 0)} middle"
    if failing:
        detail += f"; middle class {failing[0] + 1} (of {m}, by mean) has no two dissimilar neighbouring classes"
    return Condition("Assumption 3 (every middle class between two mutually dissimilar classes)", not failing, detail)


def assumptions_4_5(means, eps: float, p_s: float, p_d: float) -> Condition:
    """Assumptions 4 and 5 together: one κ that satisfies both."""
    kappa4, kappa5 = kappa_bounds(means, eps, p_s, p_d)
    _, classes = ordered_classes(means, eps)
    smallest, K = min(len(c) for c in classes), len(means)
    return Condition(
        "Assumptions 4–5 (one κ with |C_i| ≥ κ ln K for every class and p_S² p_D ≥ 1 − e^(−2/κ))",
        bool(kappa5 <= kappa4),
        f"p_S² p_D = {p_s * p_s * p_d:.3f} needs κ ≥ {kappa5:.2f}; the smallest class ({smallest} of the K = {K} "
        f"arms) allows κ ≤ {kappa4:.2f}",
    )


def smallest_p(means, eps: float) -> float:
    r"""The smallest :math:`p = p_S = p_D` for which Assumptions 4–5 hold on ``means`` at ``eps``:
    :math:`p^3 \ge 1 - K^{-2/\min_i |C_i|}` (κ at the largest value Assumption 4 allows)."""
    means = check_vector("means", means)
    _, classes = ordered_classes(means, eps)
    K = len(means)
    if K < 2:
        raise ValueError(f"the assumptions need at least 2 arms; got {K}")
    return float((1.0 - K ** (-2.0 / min(len(c) for c in classes))) ** (1.0 / 3.0))


def theorem5_hypotheses(means, eps: float, p_s: float, p_d: float) -> list[Condition]:
    """Theorem 5's hypotheses (Assumptions 3–5) on ``means`` at ``eps`` revealed at ``p_s``, ``p_d``
    (independently per pair, as :func:`bandit_lib.uig.problem.reveal` draws them)."""
    return [assumption3(means, eps), assumptions_4_5(means, eps, p_s, p_d)]


def corollary1_hypotheses(means, eps: float, p_s: float, p_d: float) -> list[Condition]:
    r"""Corollary 1's hypotheses (Assumptions 3–5 and :math:`\Delta_i > 4\epsilon` on the bottom
    class) and the condition of the branch of its proof that gives Eq. (94)."""
    means = check_vector("means", means)
    _, classes = ordered_classes(means, eps)
    bottom = classes[0]
    gap = float(means.max() - means[bottom].max())
    L = len(bottom)
    need = math.sqrt(4 * math.log(L) / (L - 1)) if L > 1 else math.inf
    return [
        *theorem5_hypotheses(means, eps, p_s, p_d),
        Condition(
            "Corollary 1: Δ_i > 4ε on the bottom class",
            bool(gap > 4 * eps),
            f"smallest gap of the bottom class {gap:.3g} against 4ε = {4 * eps:.3g}",
        ),
        Condition(
            "Eq. (94)'s branch of App. I: p_S > √(4 ln L/(L − 1)), L = |C_min|",
            bool(p_s > need),
            f"L = {L}: needs p_S > {need:.3f}; p_S = {p_s:g}",
        ),
    ]


def _connected(A) -> Condition:
    parts = len(components(A))
    return Condition("G*_ε connected", parts == 1, f"{parts} component(s)")


def theorem2_hypotheses(means, eps: float, *, sigma: float, alpha: float) -> list[Condition]:
    """Theorem 2 (LSDT-CSI's upper bound): G* connected, rewards sub-Gaussian with σ = 1 (Gaussian
    rewards of standard deviation ``sigma``), LSDT-CSI's index constant ``alpha`` = 8."""
    sigma = check_positive("sigma", sigma)
    alpha = check_positive("alpha", alpha)
    A = similarity_graph(check_vector("means", means), eps)
    return [
        _connected(A),
        Condition("rewards 1-sub-Gaussian (σ = 1)", sigma <= 1.0, f"Gaussian rewards, σ = {sigma:g}"),
        Condition("LSDT-CSI's constant 8 (Eqs. (7)–(8))", alpha == 8.0, f"α = {alpha:g}"),
    ]


def theorem3_hypotheses(means, eps: float, *, sigma: float, alpha: float) -> list[Condition]:
    """Theorem 3 (the lower bound) applied to LSDT-CSI: G* connected; a parametric family meeting
    Assumptions 1–2 with means free in R (Gaussian with known σ: KL = (a − b)²/2σ², finite,
    positive between distinct means and continuous); a uniformly good policy (LSDT-CSI, by Theorem
    2, whose hypotheses hold on every connected instance with σ = 1 and α = 8)."""
    means = check_vector("means", means)
    sigma = check_positive("sigma", sigma)
    distinct = np.unique(means)
    kl = (distinct[:, None] - distinct[None, :]) ** 2 / (2 * sigma**2)
    off = ~np.eye(len(distinct), dtype=bool)
    kl_ok = bool(np.isfinite(kl).all() and (kl[off] > 0).all())
    theorem2 = theorem2_hypotheses(means, eps, sigma=sigma, alpha=alpha)
    return [
        theorem2[0],
        Condition(
            "Assumptions 1–2 (Gaussian location family, means in R)",
            kl_ok,
            f"KL between the {len(distinct)} distinct means finite and positive",
        ),
        Condition(
            "the policy is uniformly good (LSDT-CSI under Theorem 2)",
            all(h.holds for h in theorem2[1:]),
            "Theorem 2's σ = 1 and constant 8",
        ),
    ]


def theorem6_hypotheses(means, eps: float, A_true, S, D) -> list[Condition]:
    """Theorem 6 (LSDT-PSI's upper bound): rewards in [0, 1] (σ = 1/2 sub-Gaussian; Bernoulli), and
    side information that is a partial revelation of the true graph at the policy's ε (E_S ⊆ E*,
    E_D ∩ E* = ∅)."""
    means = check_vector("means", means)
    A = check_adjacency("A_true", A_true)
    S, D = check_adjacency("S", S), check_adjacency("D", D)
    wrong_s, wrong_d = int((S & ~A).sum() // 2), int((D & A).sum() // 2)
    same = bool(np.array_equal(similarity_graph(means, eps), A))
    return [
        Condition(
            "rewards in [0, 1] (σ = 1/2)",
            bool(means.min() >= 0 and means.max() <= 1),
            f"Bernoulli means in [{means.min():.2f}, {means.max():.2f}]",
        ),
        Condition(
            "side information a revelation of G*_ε at the policy's ε",
            same and wrong_s == 0 and wrong_d == 0,
            f"{wrong_s} S-pair(s) outside G*, {wrong_d} D-pair(s) inside",
        ),
    ]


def remark1_hypotheses(instances) -> list[Condition]:
    r"""Remark 1 (regret :math:`O((1 + |\mathcal B^*_{i_{\max}} \setminus \mathcal A|) \log T)` for
    fixed gaps) across a family ``instances`` of (means, eps, candidates): each graph connected
    (Theorem 2), and the candidate set's gaps the same in every instance."""
    parts, gaps = [], []
    for means, eps, candidates in instances:
        means = check_vector("means", means)
        parts.append(len(components(similarity_graph(means, eps))))
        gaps.append(tuple(np.round(np.sort(means.max() - means[np.asarray(candidates)]), 12)))
    if not parts:
        raise ValueError("remark1_hypotheses needs at least one instance")
    return [
        Condition("G*_ε connected at every n", all(p == 1 for p in parts), f"components {sorted(set(parts))}"),
        Condition(
            "the gaps of B* fixed as n grows",
            len(set(gaps)) == 1,
            f"{len(set(gaps))} distinct gap set(s) over {len(gaps)} values of n",
        ),
    ]


def theorem1_hypotheses(graphs) -> list[Condition]:
    """Theorem 1 on a family ``graphs`` of (A, means): each graph a unit interval graph (checked
    against the mean order), and connected, or else taken per component as Sec. 5.1 extends it."""
    n, uig, connected = 0, 0, 0
    for A, means in graphs:
        n += 1
        uig += bool(is_umbrella_ordering(A, np.argsort(check_vector("means", means), kind="stable")))
        connected += len(components(A)) == 1
    if n == 0:
        raise ValueError("theorem1_hypotheses needs at least one graph")
    return [
        Condition("G*_ε a unit interval graph", uig == n, f"{uig}/{n} instances"),
        Condition(
            "connected, or per component (Sec. 5.1)",
            True,
            f"{connected}/{n} connected; the others checked per component",
        ),
    ]


def survival_probability(below: int, above: int, p_s: float, p_d: float) -> float:
    r"""Exact probability that an arm of a middle class survives PSI-OFF when its only dissimilar
    pairs of neighbours are the ``below`` × ``above`` pairs across its two neighbouring classes
    (clustered instances): :math:`\mathbb E[(1 - p_D)^{ab}]`, a ~ Bin(below, p_S), b ~ Bin(above, p_S)
    the numbers of its S-edges into each class. Theorem 5's proof bounds it by
    :math:`(1 - p_S^2 p_D)^{\min(below, above)}`."""
    below = check_int("below", below, minimum=1)
    above = check_int("above", above, minimum=1)
    p_s = check_in_range("p_s", p_s, 0.0, 1.0, low_open=False, high_open=False)
    p_d = check_in_range("p_d", p_d, 0.0, 1.0, low_open=False, high_open=False)
    a = np.arange(below + 1)
    b = np.arange(above + 1)
    pa = stats.binom.pmf(a, below, p_s)
    pb = stats.binom.pmf(b, above, p_s)
    # Summed by math.fsum (correctly rounded), not by BLAS, whose order, hence last bit, depends
    # on the processor: the chapter compares this probability with an empirical interval.
    return math.fsum((pa[:, None] * np.power(1.0 - p_d, np.outer(a, b)) * pb[None, :]).ravel())


def bound_decision(events: int, trials: int, bound: float, level: float = 0.95) -> tuple[str, tuple[float, float]]:
    """Whether an event's probability is at most ``bound``, from ``events`` in ``trials``: 'below'
    when the exact (Clopper–Pearson) interval at ``level`` lies at or below it, 'above' when it lies
    above, 'undecided' otherwise (too few trials); and the interval."""
    bound = check_in_range("bound", bound, 0.0, 1.0, low_open=False, high_open=False)
    low, high = binomial_interval(events, trials, level)
    return ("below" if high <= bound else "above" if low > bound else "undecided"), (low, high)


def trials_to_confirm(bound: float, level: float = 0.95) -> int:
    """The fewest event-free trials whose exact interval at ``level`` lies below ``bound``."""
    bound = check_in_range("bound", bound, 0.0, 1.0)
    return int(math.ceil(math.log((1 - level) / 2) / math.log1p(-bound)))
