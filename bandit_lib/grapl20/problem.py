r"""The thresholding bandit problem (GRAPL20 §2.1): classes, error metrics and complexities.

Arms have means :math:`\mu_i`; the goal is the superlevel set :math:`S_\tau = \{i : \mu_i \ge
\tau\}`, estimated by :math:`\hat S = \{i : \hat\mu_i \ge \tau\}`. Arms within ε of τ are not
judged. Two error metrics are in use:

* **eq. 23 (the paper's definition)**: the fraction of misclassified arms among the judged ones,
  :math:`E = |(S_{\tau+\varepsilon} \cap \hat S^c) \cup (S^c_{\tau-\varepsilon} \cap \hat S)|
  \,/\, |S_{\tau+\varepsilon} \cup S^c_{\tau-\varepsilon}|`;
* **E_ref (the authors' code, which drew the published figures)**:
  :math:`E_{\rm ref} = 1 - \#\{i : |\mu_i - \tau| > \varepsilon,\ (\hat\mu_i - \tau)(\mu_i - \tau)
  > 0\} / N`. Arms within ε count as permanent errors, and an estimate exactly equal to τ counts
  as an error for either class.

Each arm gets an integer class per metric (+1 above, −1 below, 0 not judged); the engines count
errors from these classes, so both metrics are exact integer counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bandit_lib.checks import check_choice, check_int, check_nonnegative, check_real, check_same_length, check_vector

#: Bytes of memory a run of ``horizon`` rounds may use for its per-round arrays, at most.
HORIZON_MEMORY = 2**34


def check_horizon(horizon, *, arrays: int) -> int:
    """A horizon (whole rounds >= 1) whose ``arrays`` per-round int64 arrays fit in
    :data:`HORIZON_MEMORY` bytes (16 GiB): refused with the size it would need, not allocated."""
    horizon = check_int("horizon", horizon, minimum=1)
    need = 8 * arrays * horizon
    if need > HORIZON_MEMORY:
        raise ValueError(
            f"horizon={horizon!r} would need {need / 2**30:,.0f} GiB for its {arrays} per-round arrays "
            f"(at most {HORIZON_MEMORY / 2**30:.0f} GiB); choose a smaller horizon"
        )
    return horizon


def classes_ref(means, tau: float, eps: float) -> np.ndarray:
    """+1 where mu - tau > eps, -1 where tau - mu > eps, 0 otherwise (E_ref's judged arms)."""
    means = check_vector("means", means)
    tau, eps = check_real("tau", tau), check_nonnegative("eps", eps)
    d = means - tau
    return np.where(np.abs(d) > eps, np.sign(d), 0).astype(np.int64)


def classes_paper(means, tau: float, eps: float) -> np.ndarray:
    """+1 where mu >= tau + eps, -1 where mu < tau - eps, 0 otherwise (eq. 23's judged arms)."""
    means = check_vector("means", means)
    tau, eps = check_real("tau", tau), check_nonnegative("eps", eps)
    return np.where(means >= tau + eps, 1, np.where(means < tau - eps, -1, 0)).astype(np.int64)


def wrong_counts(mu_hat, means, tau: float, eps: float) -> tuple[int, int]:
    """``(wrong_ref, wrong_paper)``: the numerators of E_ref (over N) and of eq. 23."""
    mu_hat = check_vector("mu_hat", mu_hat)
    means = check_vector("means", means)
    check_same_length(("mu_hat", "means"), mu_hat, means)
    tau, eps = check_real("tau", tau), check_nonnegative("eps", eps)
    d = mu_hat - tau
    cr, cp = classes_ref(means, tau, eps), classes_paper(means, tau, eps)
    correct_ref = ((cr == 1) & (d > 0)) | ((cr == -1) & (d < 0))
    wrong_paper = ((cp == 1) & (d < 0)) | ((cp == -1) & (d >= 0))
    return int(len(means) - correct_ref.sum()), int(wrong_paper.sum())


def n_judged_paper(means, tau: float, eps: float) -> int:
    """``|S_{tau+eps} ∪ S^c_{tau-eps}|``, the denominator of eq. 23 (must be > 0 for the metric)."""
    return int(np.count_nonzero(classes_paper(means, tau, eps)))


def error_ref(mu_hat, means, tau: float, eps: float) -> float:
    """E_ref, the error of the authors' code (see the module docstring)."""
    return wrong_counts(mu_hat, means, tau, eps)[0] / len(np.asarray(means))


def error_paper(mu_hat, means, tau: float, eps: float) -> float:
    """The misclassification error of eq. 23."""
    judged = n_judged_paper(means, tau, eps)
    if judged == 0:
        raise ValueError(f"eq. 23 is undefined: every arm lies within eps={eps!r} of tau={tau!r}")
    return wrong_counts(mu_hat, means, tau, eps)[1] / judged


def loss(mu_hat, means, tau: float, eps: float) -> bool:
    """The loss L_T of eq. 2: whether some judged arm is on the wrong side of tau."""
    return wrong_counts(mu_hat, means, tau, eps)[1] > 0


# ----------------------------------------------------------------------------------- complexities
def _gaps(means, tau, eps):
    means = check_vector("means", means)
    return np.abs(means - check_real("tau", tau)), check_nonnegative("eps", eps)


def complexity_H(means, tau: float, eps: float) -> float:
    r"""H = Σ_i (``|μ_i − τ|`` + ε)^{-2} (eq. 3)."""
    d, eps = _gaps(means, tau, eps)
    if eps == 0 and np.any(d == 0):
        raise ValueError("H is infinite: an arm sits exactly at tau and eps = 0")
    return float(np.sum((d + eps) ** -2.0))


def complexity_H_tilde(means, tau: float, eps: float) -> float:
    r"""H̃ = N / min{``|μ_i − τ|²`` : ``|μ_i − τ|`` ≥ ε} (Prop. 2.2, non-adaptive sampling)."""
    d, eps = _gaps(means, tau, eps)
    far = d[(d >= eps) & (d > 0)]
    if far.size == 0:
        raise ValueError(f"H_tilde is undefined: no arm lies at least eps={eps!r} from tau")
    return float(len(d) / far.min() ** 2)


def complexity_H_star(means, tau: float, eps: float) -> float:
    r""":math:`H_* = \sum_{j: |\mu_j - \tau| \ge \epsilon} |\mu_j - \tau|^{-2}` (Prop. 3.6, oracle allocation)."""
    d, eps = _gaps(means, tau, eps)
    far = d[(d >= eps) & (d > 0)]
    return float(np.sum(far**-2.0))


def n_small(means, tau: float, eps: float) -> int:
    """N_small = ``|{i : |μ_i − τ| < ε}|`` (eq. 20)."""
    d, eps = _gaps(means, tau, eps)
    return int(np.count_nonzero(d < eps))


# ----------------------------------------------------------------------------------- a run
@dataclass(eq=False)
class ThresholdRun:
    """What a fixed-budget thresholding run returns (GrAPL, Algorithm 1, APT, the no-graph
    baseline): the one result type of the thresholding family (see :mod:`bandit_lib.runner`).

    ``pulls[t-1]`` is the arm pulled at round t (warm-up pulls excluded), ``counts`` the pulls
    per arm (warm-up included), ``mu_hat`` the final estimate, ``wrong_ref[t-1]`` and
    ``wrong_paper[t-1]`` the numerators of E_ref and eq. 23 after round t, and
    ``cg_iterations[t-1]`` the CG iterations of round t (None for other solvers).
    """

    tau: float
    pulls: np.ndarray
    counts: np.ndarray
    mu_hat: np.ndarray
    wrong_ref: np.ndarray
    wrong_paper: np.ndarray
    n_judged_paper: int
    cg_iterations: np.ndarray | None = None
    cg_unconverged: int = 0

    @property
    def horizon(self) -> int:
        return len(self.pulls)

    @property
    def n_arms(self) -> int:
        return len(self.mu_hat)

    def errors(self, metric: str = "ref") -> np.ndarray:
        """E(t) for t = 1..T under ``metric`` = "ref" (E_ref) or "paper" (eq. 23)."""
        check_choice("metric", metric, ("ref", "paper"))
        if metric == "ref":
            return self.wrong_ref / self.n_arms
        if self.n_judged_paper == 0:
            raise ValueError("eq. 23 is undefined for this instance: no arm is judged")
        return self.wrong_paper / self.n_judged_paper

    def output(self) -> np.ndarray:
        """The estimated superlevel set {i : mu_hat_i >= tau} (sorted arm indices)."""
        return np.flatnonzero(self.mu_hat >= self.tau)

    def same_decisions(self, other: "ThresholdRun") -> bool:  # noqa: UP037  (unchanged: an edit of the syntax tree would make cached results stale)
        """Same arms pulled in the same order, same counts and the same output set."""
        return (
            np.array_equal(self.pulls, other.pulls)
            and np.array_equal(self.counts, other.counts)
            and np.array_equal(self.output(), other.output())
        )
