r"""Track-and-Stop for k-sigma outlier identification (Garivier & Kaufmann 2016), GLR stop of :mod:`bandit_lib.arena.glr`.

::

    TaS(arms, k, delta, beta, T_max, tracking, ratio):
     1  pull every arm once; t <- n; w <- w*(mu_hat); next <- ratio * t
     2  loop
     3      if m | t and Z(t) > beta(t, n, delta): return Omega(mu_hat), t   # GLR stop of RR-GLR; m = check_every
     4      if t >= T_max: return Omega(mu_hat), t (capped)
     5      if t >= next: w <- w*(mu_hat); next <- ratio * t            # geometric schedule
     6      U <- {i : N_i < sqrt(t) - n/2}                               # forced exploration
     7      if U is not empty: pull argmin_{i in U} N_i
     8      D-tracking: else pull argmax_i (t w_i - N_i)
     9      C-tracking: else pull argmax_i (sum_{s<=t} w^eps_s,i - N_i),  w^eps = w projected onto
                        {w_i >= eps_t = (n^2 + t)^{-1/2} / 2}
    10      t <- t + 1

``w*(mu_hat)`` is computed at the empirical means (Bernoulli means clipped into [CLIP, 1 - CLIP];
uniform weights while an arm sits on the threshold). ``weights="gaussian"`` (the suite's choice)
computes the target under the Gaussian divergence with sigma = 1/2 (the sub-Gaussian proxy of a
reward in [0, 1]) by the fixed scheme of :func:`target_weights`, so a run is the same on any scipy;
``weights="exact"`` uses :func:`bandit_lib.arena.lower_bound.optimal_weights` under the tape's own
divergence with a loose tolerance (``rtol``): for Bernoulli arms that costs 25-50 s per computation
at n = 20 (multi-start SLSQP), and its result depends on scipy's SLSQP and HiGHS iterates. Only the
sampling changes; the stop, hence delta-correctness, does not.
``check_every=m`` evaluates the stop only when t is a multiple of m (as RR-GLR, which checks once
per round of n pulls): the threshold is time-uniform, so checking less often keeps
delta-correctness, and each check can cost n eigendecompositions when the cheap screen of
:func:`~bandit_lib.arena.glr.glr_upper_bound` passes.
Ties go to the lowest arm index, so a run is a deterministic function of the tape. The GLR
threshold is valid for any allocation (see :mod:`bandit_lib.arena.glr`), so the stop is
delta-correct whatever the sampling rule.
"""

from __future__ import annotations

import math

import numpy as np

from bandit_lib.arena.glr import CLIP, Threshold, check_detector, should_stop
from bandit_lib.arena.lower_bound import _arm_values, divergence_values, optimal_weights
from bandit_lib.checks import check_choice, check_int, check_positive, check_real
from bandit_lib.ksigma import ksigma_outliers, ksigma_threshold
from bandit_lib.runner import Outcome
from bandit_lib.tapes import RewardTape

TRACKINGS = ("D", "C")
WEIGHTS = ("exact", "gaussian")


#: Steps of the fixed scheme that computes the Gaussian tracking target (:func:`target_weights`).
TARGET_STEPS = 50


def target_weights(mu, k: float, *, sigma: float = 0.5, steps: int = TARGET_STEPS) -> np.ndarray:
    r"""The tracking target: approximately optimal weights :math:`w^*(\mu)` for Gaussian arms of
    standard deviation ``sigma``, by a fixed scheme.

    From the fixed-threshold optimum :math:`w_i\propto1/d(\mu_i,\theta(\mu))`, ``steps``
    multiplicative supergradient steps on the concave :math:`F(w)=\min_jV_j(w)`: with :math:`j` the
    binding arm and :math:`g_i=d(\mu_i,\lambda^{(j)}_i)` (a supergradient, by the envelope theorem),
    :math:`w_i\leftarrow w_i\,(1-\tfrac{\eta}{\sqrt s}\,(\max g-g_i)/(\max g-\min g))`,
    :math:`\eta=1/2`, renormalised; the best iterate is returned. Every operation is plain
    floating-point arithmetic and numpy's eigendecomposition (the inner values use no scipy
    solver), so the target -- hence every Track-and-Stop run -- is the same for the same tape
    whatever the version of scipy, which the SLSQP and HiGHS iterates of
    :func:`~bandit_lib.arena.lower_bound.optimal_weights` are not. Tracking needs the direction,
    not many digits: on six planted instances of 20 arms, 50 steps reach 0.999-1.001 of the value
    ``optimal_weights`` finds at ``rtol=1e-3``. Uniform weights while an arm sits on the threshold.
    """
    mu = np.asarray(mu, dtype=np.float64)
    n = len(mu)
    steps = check_int("steps", steps, minimum=1)
    theta = ksigma_threshold(mu, k)
    d_theta = divergence_values(mu, np.full(n, theta), "gaussian", sigma)
    if not (d_theta > 0).all():
        return np.full(n, 1.0 / n)
    w = (1.0 / d_theta) / np.sum(1.0 / d_theta)
    best, best_w = -math.inf, w
    for s in range(1, steps + 1):
        av = _arm_values(mu, w, k, "gaussian", sigma, None)
        j = int(np.argmin(av.values))
        if av.values[j] > best:
            best, best_w = float(av.values[j]), w
        g = divergence_values(mu, av.lambdas[j], "gaussian", sigma)
        span = float(g.max() - g.min())
        if not span > 0:
            break
        w = w * (1.0 - (0.5 / math.sqrt(s)) * (g.max() - g) / span)
        w = np.maximum(w, 1e-12)
        w = w / w.sum()
    return best_w


def _weights(mu_hat, k, divergence, sigma, rtol) -> np.ndarray:
    n = len(mu_hat)
    m = np.clip(mu_hat, CLIP, 1 - CLIP) if divergence == "bernoulli" else mu_hat
    try:
        if divergence == "gaussian":
            return target_weights(m, k, sigma=sigma)
        ch = optimal_weights(m, k, divergence=divergence, sigma=sigma, rtol=rtol, max_iter=200)
    except (ValueError, FloatingPointError, np.linalg.LinAlgError):
        return np.full(n, 1.0 / n)
    if not math.isfinite(ch.T_star):
        return np.full(n, 1.0 / n)
    return ch.w_star


def track_and_stop(
    tape: RewardTape,
    *,
    k: float,
    delta: float,
    cap: int | None = None,
    threshold: Threshold | None = None,
    tracking: str = "D",
    ratio: float = 2.0,
    rtol: float = 1e-3,
    screen: bool = True,
    weights: str = "exact",
    check_every: int = 1,
    sub_gaussian: float | None = None,
) -> Outcome:
    """Track-and-Stop, pull by pull (see the module docstring; ``sub_gaussian``: see
    :func:`~bandit_lib.arena.glr.check_detector`)."""
    n, k, delta, cap, divergence, sigma, threshold = check_detector(tape, k, delta, cap, threshold, sub_gaussian)
    check_choice("tracking", tracking, TRACKINGS)
    check_choice("weights", weights, WEIGHTS)
    check_every = check_int("check_every", check_every, minimum=1)
    w_div, w_sigma = (divergence, sigma) if weights == "exact" else ("gaussian", 0.5)
    ratio = check_real("ratio", ratio)
    if not ratio > 1:
        raise ValueError(f"ratio must be > 1 (w* is recomputed when t grows by this factor); got ratio={ratio!r}")
    rtol = check_positive("rtol", rtol)
    sums = np.zeros(n)
    counts = np.zeros(n, dtype=np.int64)
    for i in range(n):  # line 1
        sums[i] += tape.pull(i)
        counts[i] += 1
    t = n
    w = _weights(sums / counts, k, w_div, w_sigma, rtol)
    next_update = ratio * t
    cum = np.zeros(n)
    updates = 1
    z = 0.0
    while True:
        mu_hat = sums / counts
        beta = float(threshold(t, n, delta))
        if t % check_every == 0 or t >= cap:
            stop, z = should_stop(mu_hat, counts, k, divergence, sigma, beta, screen=screen)  # line 3
        else:
            stop = False
        info = {"engine": "reference", "Z": z, "beta": beta, "w_updates": updates}
        if stop:
            return Outcome(ksigma_outliers(mu_hat, k), t, False, counts.copy(), info)
        if t >= cap:  # line 4
            return Outcome(ksigma_outliers(mu_hat, k), t, True, counts.copy(), info)
        if t >= next_update:  # line 5
            w = _weights(mu_hat, k, w_div, w_sigma, rtol)
            next_update = ratio * t
            updates += 1
        starved = np.flatnonzero(counts < math.sqrt(t) - n / 2)  # line 6
        if starved.size:
            arm = int(starved[np.argmin(counts[starved])])  # line 7
        elif tracking == "D":
            arm = int(np.argmax(t * w - counts))  # line 8
        else:
            eps = 0.5 / math.sqrt(n * n + t)
            we = np.maximum(w, eps)
            cum += we / we.sum()
            arm = int(np.argmax(cum - counts))  # line 9
        sums[arm] += tape.pull(arm)
        counts[arm] += 1
        t += 1
