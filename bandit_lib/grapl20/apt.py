r"""APT, the Anytime Parameter-free Thresholding algorithm (Locatelli et al. 2016), as GRAPL20 runs it.

No graph: each arm's estimate is its empirical mean :math:`\hat\mu_i = s_i / n_i`. After a
warm-up of ``warmup`` pulls of every arm (two in GRAPL20 and the authors' code, one in the
original APT; the warm-up is not counted in t), each round pulls

.. math:: \pi_t = \arg\min_i \sqrt{n_i}\,(|\hat\mu_i - \tau| + \varepsilon)

(lowest index on ties). The output is :math:`\hat S = \{i : \hat\mu_i \ge \tau\}`.
:func:`apt_reference` is the readable reference; :func:`apt` runs it (``engine="reference"``) or a
numba engine with the same pulls (``engine="fast"``, the default).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bandit_lib.checks import check_engine, check_int, check_nonnegative, check_real
from bandit_lib.grapl20.problem import (
    ThresholdRun,
    check_horizon,
    classes_paper,
    classes_ref,
    n_judged_paper,
    wrong_counts,
)
from bandit_lib.tapes import RewardTape, check_tape, tape_reward


def _check(tape, horizon, tau, eps, warmup):
    check_tape(tape)
    return (
        check_horizon(horizon, arrays=3),
        check_real("tau", tau),
        check_nonnegative("eps", eps),
        check_int("warmup", warmup, minimum=1),
    )


def apt_reference(tape: RewardTape, horizon: int, *, tau: float, eps: float, warmup: int = 2) -> ThresholdRun:
    """APT for ``horizon`` rounds after the warm-up, on a fresh tape, pull by pull (the readable
    reference; the same as ``apt(..., engine="reference")``)."""
    horizon, tau, eps, warmup = _check(tape, horizon, tau, eps, warmup)
    tape.require_fresh()
    n = tape.n_arms
    sums, counts = np.zeros(n), np.zeros(n, dtype=np.int64)
    for _ in range(warmup):
        for i in range(n):
            sums[i] += tape.pull(i)
            counts[i] += 1
    pulls, wrong = np.empty(horizon, dtype=np.int64), np.empty((horizon, 2), dtype=np.int64)
    for t in range(horizon):
        mu_hat = sums / counts
        i = int(np.argmin(np.sqrt(counts) * (np.abs(mu_hat - tau) + eps)))
        sums[i] += tape.pull(i)
        counts[i] += 1
        pulls[t] = i
        wrong[t] = wrong_counts(sums / counts, tape.means, tau, eps)
    return ThresholdRun(
        tau=tau,
        pulls=pulls,
        counts=counts,
        mu_hat=sums / counts,
        wrong_ref=wrong[:, 0],
        wrong_paper=wrong[:, 1],
        n_judged_paper=n_judged_paper(tape.means, tau, eps),
    )


@njit(cache=True)
def _apt_kernel(
    kind,
    keys,
    means,
    scale,
    values,
    offsets,
    horizon,
    tau,
    eps,
    warmup,
    cls_ref,
    cls_paper,
    sums,
    counts,
    pulls,
    wrong_ref,
    wrong_paper,
):
    n = sums.shape[0]
    for j in range(warmup):
        for i in range(n):
            sums[i] += tape_reward(kind, keys, means, scale, values, offsets, i, j)
            counts[i] += 1
    mu = np.empty(n)
    for i in range(n):
        mu[i] = sums[i] / counts[i]
    for t in range(horizon):
        best, best_b = 0, np.inf
        for a in range(n):
            b = np.sqrt(np.float64(counts[a])) * (abs(mu[a] - tau) + eps)
            if b < best_b:
                best_b, best = b, a
        i = best
        sums[i] += tape_reward(kind, keys, means, scale, values, offsets, i, counts[i])
        counts[i] += 1
        mu[i] = sums[i] / counts[i]
        pulls[t] = i
        correct, wp = 0, 0
        for a in range(n):
            d = mu[a] - tau
            if (cls_ref[a] == 1 and d > 0) or (cls_ref[a] == -1 and d < 0):
                correct += 1
            if (cls_paper[a] == 1 and d < 0) or (cls_paper[a] == -1 and d >= 0):
                wp += 1
        wrong_ref[t], wrong_paper[t] = n - correct, wp


def apt(
    tape: RewardTape, horizon: int, *, tau: float, eps: float, warmup: int = 2, engine: str = "fast"
) -> ThresholdRun:
    """APT for ``horizon`` rounds after the warm-up, on a fresh tape. ``engine="fast"`` (the default)
    runs a numba engine with the same pulls and estimate as :func:`apt_reference` (``engine="reference"``).

    APT (Locatelli et al. 2016) ignores the graph; ``warmup=2`` pulls per arm first, as the
    paper's runs (the original APT pulls once).

    Example (the arms of :func:`~bandit_lib.grapl20.grapl.grapl`'s example, without their graph):

    >>> from bandit_lib.grapl20 import apt, two_block_sbm
    >>> from bandit_lib.tapes import gaussian_tape
    >>> _, means = two_block_sbm(20, seed=1)
    >>> run = apt(gaussian_tape(means, 1.0, seed=1), 100, tau=0.0, eps=0.01)
    >>> run.horizon, int(run.counts.sum()), int(run.wrong_ref[-1])
    (100, 140, 0)
    """
    if check_engine(engine) == "reference":
        return apt_reference(tape, horizon, tau=tau, eps=eps, warmup=warmup)
    horizon, tau, eps, warmup = _check(tape, horizon, tau, eps, warmup)
    tape.require_fresh()
    n = tape.n_arms
    cls_ref, cls_paper = classes_ref(tape.means, tau, eps), classes_paper(tape.means, tau, eps)
    sums, counts = np.zeros(n), np.zeros(n, dtype=np.int64)
    pulls = np.empty(horizon, dtype=np.int64)
    wrong_ref, wrong_paper = np.empty(horizon, dtype=np.int64), np.empty(horizon, dtype=np.int64)
    _apt_kernel(
        *tape.arrays, horizon, tau, eps, warmup, cls_ref, cls_paper, sums, counts, pulls, wrong_ref, wrong_paper
    )
    tape.counts[:] = counts
    return ThresholdRun(
        tau=tau,
        pulls=pulls,
        counts=counts,
        mu_hat=sums / counts,
        wrong_ref=wrong_ref,
        wrong_paper=wrong_paper,
        n_judged_paper=int(np.count_nonzero(cls_paper)),
    )
