"""Metrics of the experiments: set recovery, costs and regret.

Empty-set conventions (ZHUANG17 D9, used by every chapter): precision is 1 when the estimate is
empty, recall is 1 when the truth is empty, and F1 is 0 when precision + recall is 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from bandit_lib.checks import check_in_range, check_index_set, check_int, check_vector


def _as_set(name: str, values) -> frozenset[int]:
    return frozenset(check_index_set(name, values).tolist())


def exactly_correct(estimate, truth) -> bool:
    """True when the estimated set equals the true set."""
    return _as_set("estimate", estimate) == _as_set("truth", truth)


@dataclass(frozen=True)
class SetScores:
    precision: float
    recall: float
    f1: float
    exact: bool


def set_scores(estimate, truth) -> SetScores:
    """Precision, recall, F1 and exact correctness of an estimated set against the truth."""
    est, tru = _as_set("estimate", estimate), _as_set("truth", truth)
    hits = len(est & tru)
    precision = 1.0 if not est else hits / len(est)
    recall = 1.0 if not tru else hits / len(tru)
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    return SetScores(precision, recall, f1, est == tru)


def cost_reduction(cost, baseline_cost):
    """1 - cost / baseline_cost (negative when the method is costlier than the baseline)."""
    cost = np.asarray(cost, dtype=np.float64)
    base = np.asarray(baseline_cost, dtype=np.float64)
    if np.any(base <= 0) or np.any(cost < 0):
        raise ValueError(f"costs must be >= 0 and baseline costs > 0; got cost={cost!r}, baseline_cost={base!r}")
    out = 1.0 - cost / base
    return float(out) if out.ndim == 0 else out


def survival_curve(values, grid) -> np.ndarray:
    """Fraction of ``values`` that are >= each point of ``grid`` (e.g. cost reductions over cases)."""
    values = check_vector("values", values)
    grid = check_vector("grid", grid)
    return (values[None, :] >= grid[:, None]).mean(axis=1)


def pseudo_regret(means, arms) -> np.ndarray:
    r"""Cumulative pseudo-regret :math:`\sum_{s\le t} (\mu^* - \mu_{\pi_s})` after each step t."""
    means = check_vector("means", means)
    arms = np.asarray(arms)
    if arms.ndim != 1 or (arms.size and not np.issubdtype(arms.dtype, np.integer)):
        raise TypeError(f"arms must be a 1-D sequence of integer arm indices; got {arms!r}")
    if arms.size and (arms.min() < 0 or arms.max() >= len(means)):
        bad = arms[(arms < 0) | (arms >= len(means))][0].item()
        raise ValueError(f"arms must be indices in 0..{len(means) - 1}; got {bad!r}")
    return np.cumsum(means.max() - means[arms])


def binomial_interval(successes: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """Exact (Clopper–Pearson) interval for a success probability, e.g. an empirical error rate."""
    trials = check_int("trials", trials, minimum=1)
    successes = check_int("successes", successes, minimum=0, maximum=trials)
    level = check_in_range("level", level, 0.0, 1.0)
    ci = stats.binomtest(successes, trials).proportion_ci(confidence_level=level, method="exact")
    return float(ci.low), float(ci.high)


def error_rate_within(errors: int, trials: int, delta: float, level: float = 0.95) -> bool:
    """Whether an observed error count is consistent with an error probability <= delta.

    True unless the exact one-sided binomial test rejects ``p <= delta`` at ``1 - level``: the
    verdict a theory check uses for "empirical error <= delta".
    """
    trials = check_int("trials", trials, minimum=1)
    errors = check_int("errors", errors, minimum=0, maximum=trials)
    delta = check_in_range("delta", delta, 0.0, 1.0)
    p_value = stats.binomtest(errors, trials, delta, alternative="greater").pvalue
    return bool(p_value >= 1.0 - level)
