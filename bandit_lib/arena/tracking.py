r"""Track-and-Stop's sampling rule for k-sigma outlier identification (Garivier & Kaufmann 2016), GLR stop of :mod:`bandit_lib.arena.glr`.

**What it is, and what is proven.** Garivier & Kaufmann prove Track-and-Stop asymptotically optimal
when it tracks the optimal weights :math:`w^*` of the reward model and :math:`w^*` is unique and
continuous in the means. The arena runs it with ``weights="gaussian"`` on Bernoulli rewards, so it
tracks (an approximation of) the Gaussian weights with sigma = 1/2, and uniqueness and continuity
of :math:`w^*` are not shown for k-sigma outliers; the chapter therefore calls that configuration
**D-tracking**, and claims only delta-correctness, which the GLR stop gives for any sampling rule.

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
delta-correctness, and each check can cost n inner solves (O(n) each, :mod:`bandit_lib.arena.secular`)
when the cheap screen of :func:`~bandit_lib.arena.glr.glr_upper_bound` passes. C-tracking's
normalising sum is taken from left to right (as the fast engine's kernel adds it).

``engine="fast"`` (the default; :func:`track_and_stop`) runs the phases of the geometric schedule
in a numba kernel with the same decisions, tested pull for pull against this reference
(:func:`track_and_stop_reference`); it needs ``weights="gaussian"`` and the Gaussian stop, and
falls back to the reference otherwise (``Outcome.info["engine"]`` says which ran).
Ties go to the lowest arm index, so a run is a deterministic function of the tape. The GLR
threshold is valid for any allocation (see :mod:`bandit_lib.arena.glr`), so the stop is
delta-correct whatever the sampling rule.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from bandit_lib.arena.glr import CLIP, MARGIN, Threshold, c_gauss, check_detector, kk21_gaussian_threshold, should_stop
from bandit_lib.arena.lower_bound import _gap_sign, divergence_values, fixed_threshold_weights, optimal_weights
from bandit_lib.arena.secular import apex_is_minimiser_nb, arm_minimiser_nb, arm_values_nb
from bandit_lib.checks import check_choice, check_engine, check_int, check_positive, check_real, check_vector
from bandit_lib.ksigma import ksigma_outliers
from bandit_lib.runner import Outcome
from bandit_lib.tapes import RewardTape, new_cache, pull_sum

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
    :math:`\eta=1/2`, renormalised; the best iterate is returned. The inner values and the binding
    arm's minimiser come from the O(n) secular solver (:mod:`bandit_lib.arena.secular`: fixed
    bisections, no scipy solver, no eigendecomposition), so the target -- hence every Track-and-Stop run -- is the same for the same tape
    whatever the version of scipy, which the SLSQP and HiGHS iterates of
    :func:`~bandit_lib.arena.lower_bound.optimal_weights` are not. Tracking needs the direction,
    not many digits: on six planted instances of 20 arms, 50 steps reach 0.999-1.001 of the value
    ``optimal_weights`` finds at ``rtol=1e-3`` (measured with the eigendecomposition; the secular
    solver changes the iterates in the last bits only). Starts from
    :func:`~bandit_lib.arena.lower_bound.fixed_threshold_weights`; uniform weights while an arm
    sits on the threshold.
    """
    mu = check_vector("mu", mu, min_length=2)  # k and sigma: checked by fixed_threshold_weights
    n = len(mu)
    steps = check_int("steps", steps, minimum=1)
    w = fixed_threshold_weights(mu, k, "gaussian", sigma)
    if w is None:
        return np.full(n, 1.0 / n)
    outlier = _gap_sign(mu, k)
    values = np.empty(n)
    lam = np.empty(n)
    best, best_w = -math.inf, w
    for s in range(1, steps + 1):
        D = w / (2.0 * sigma * sigma)
        j = arm_values_nb(mu, D, k, outlier, values)  # F(w) = V_j(w), j the binding arm (lowest index)
        if values[j] > best:
            best, best_w = float(values[j]), w
        arm_minimiser_nb(mu, D, j, k, bool(outlier[j]), lam)
        g = divergence_values(mu, lam, "gaussian", sigma)
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
    engine: str = "fast",
) -> Outcome:
    """Track-and-Stop (see the module docstring; ``sub_gaussian``: see
    :func:`~bandit_lib.arena.glr.check_detector`).

    ``engine="reference"`` runs :func:`track_and_stop_reference` (pull by pull, ``tape.pull``).
    ``engine="fast"`` (the default) takes the same decisions with a numba kernel: a Python loop over
    the phases of the geometric schedule, the target of each phase computed by the same Python
    :func:`target_weights`, and one kernel call per phase doing the forced exploration, the D- or
    C-tracking, the pulls (read from the tape) and the GLR stop every ``check_every`` pulls. The
    kernel's stop: the single-arm screen (:func:`~bandit_lib.arena.glr.glr_upper_bound`: no stop when
    the bound is <= beta), then V_j by :func:`~bandit_lib.arena.secular.arm_minimiser_nb` in increasing
    order of the single-arm bounds, "no stop" at the first V_j below beta, a stop when every V_j is
    above it. Where the minimum falls within a relative ``MARGIN`` (1e-9)
    of beta, or rests on an apex that :func:`~bandit_lib.arena.secular.apex_is_minimiser_nb` does not
    certify, the kernel hands the pull back and the reference's own
    :func:`~bandit_lib.arena.glr.should_stop` decides, so rounding can never change a decision. A
    custom ``threshold=`` callable is evaluated in Python at every check (slower, same decisions);
    ``screen`` only affects the reference (the kernel always screens: same decisions).
    The fast engine needs the Gaussian target and the Gaussian stop (``weights="gaussian"``, and a
    Gaussian tape or ``sub_gaussian=s``); otherwise the reference runs, and
    ``Outcome.info["engine"]`` says ``"reference"``.
    """
    n, k, delta, cap, divergence, sigma, threshold = check_detector(tape, k, delta, cap, threshold, sub_gaussian)
    check_choice("tracking", tracking, TRACKINGS)
    check_choice("weights", weights, WEIGHTS)
    check_engine(engine)
    check_every = check_int("check_every", check_every, minimum=1)
    ratio = check_real("ratio", ratio)
    if not ratio > 1:
        raise ValueError(f"ratio must be > 1 (w* is recomputed when t grows by this factor); got ratio={ratio!r}")
    rtol = check_positive("rtol", rtol)
    args = (tape, n, k, delta, cap, divergence, sigma, threshold, tracking, ratio, rtol, screen, weights, check_every)
    if engine == "reference" or weights != "gaussian" or divergence != "gaussian":
        return track_and_stop_reference(*args)
    return _track_and_stop_fast(*args)


def _left_sum(x) -> float:
    """Sum from left to right (numpy's pairwise sum takes another order; the kernel adds in this one)."""
    total = 0.0
    for v in x:
        total += v
    return total


def track_and_stop_reference(
    tape, n, k, delta, cap, divergence, sigma, threshold, tracking, ratio, rtol, screen, weights, check_every
) -> Outcome:
    """Track-and-Stop, pull by pull (arguments already checked by :func:`track_and_stop`)."""
    w_div, w_sigma = (divergence, sigma) if weights == "exact" else ("gaussian", 0.5)
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
            cum += we / _left_sum(we)
            arm = int(np.argmax(cum - counts))  # line 9
        sums[arm] += tape.pull(arm)
        counts[arm] += 1
        t += 1


# kernel statuses
_CAPPED, _STOP, _ASK, _UPDATE, _NO_STOP = 0, 1, 2, 3, 4


@njit(cache=True)
def _glr_check(sums, counts, k, sigma, beta, ub, mu, D, lam, outlier):
    """The stop at the current counts: (_STOP | _NO_STOP | _ASK, Z or the screen's bound)."""
    n = sums.shape[0]
    two_s2 = 2.0 * sigma * sigma
    m = 0.0
    for i in range(n):
        mu[i] = sums[i] / counts[i]
        m += mu[i]
    m /= n
    ss = 0.0
    for i in range(n):
        ss += (mu[i] - m) ** 2
    # the screen: move arm j alone onto its leave-one-out threshold (glr_upper_bound)
    ub_min = math.inf
    for i in range(n):
        c = mu[i] - m
        a = -c / (n - 1)
        v = max((ss - c * c) / (n - 1) - a * a, 0.0)
        t_i = m + a + k * math.sqrt(n * v / (n - 1 - k * k))
        ub[i] = counts[i] * ((mu[i] - t_i) ** 2 / two_s2)
        ub_min = min(ub_min, ub[i])
    if ub_min <= beta * (1.0 - MARGIN):
        return _NO_STOP, ub_min
    sd = math.sqrt(ss / n)
    for i in range(n):
        D[i] = counts[i] / two_s2
        outlier[i] = mu[i] - m > k * sd
    z = math.inf
    unsure = False
    for j in np.argsort(ub):
        v = arm_minimiser_nb(mu, D, j, k, outlier[j], lam)
        if v < beta * (1.0 - MARGIN):
            return _NO_STOP, v
        z = min(z, v)
        if not outlier[j] and lam.max() == lam.min() and not apex_is_minimiser_nb(mu, D, j, k):
            unsure = True  # an apex not certified as the minimum: the reference decides
    if z > beta * (1.0 + MARGIN) and not unsure:
        return _STOP, z
    return _ASK, z


@njit(cache=True)
def _tas_kernel(
    kind, keys, means, scale, values, offsets, blocks, words,
    sums, counts, cum, w, t, next_update, cap, check_every, c_tracking, k, sigma, c_beta, ask,
):  # fmt: skip
    """Pulls of Track-and-Stop from pull t (stop already checked and target updated at t) until a
    stop, the cap, the next target update, or a check to hand back. Returns (status, t, Z, beta)."""
    n = sums.shape[0]
    ub = np.empty(n)
    mu = np.empty(n)
    D = np.empty(n)
    lam = np.empty(n)
    outlier = np.zeros(n, dtype=np.bool_)
    z = 0.0
    beta = 0.0
    while True:
        forced = math.sqrt(t) - n / 2  # line 6
        arm = -1
        for i in range(n):
            if counts[i] < forced and (arm < 0 or counts[i] < counts[arm]):
                arm = i  # line 7
        if arm < 0 and not c_tracking:  # line 8
            best = -math.inf
            for i in range(n):
                v = t * w[i] - counts[i]
                if v > best:
                    best = v
                    arm = i
        elif arm < 0:  # line 9
            eps = 0.5 / math.sqrt(n * n + t)
            total = 0.0
            for i in range(n):
                total += max(w[i], eps)
            best = -math.inf
            for i in range(n):
                cum[i] += max(w[i], eps) / total
                v = cum[i] - counts[i]
                if v > best:
                    best = v
                    arm = i
        sums[arm] = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, arm, counts[arm], 1, sums[arm])
        counts[arm] += 1
        t += 1
        if t % check_every == 0 or t >= cap:  # line 3
            if ask:
                return _ASK, t, z, beta
            beta = n * 2.0 * math.log(4.0 + math.log(max(t / n, 1.0))) + c_beta
            status, z = _glr_check(sums, counts, k, sigma, beta, ub, mu, D, lam, outlier)
            if status != _NO_STOP:
                return status, t, z, beta
        if t >= cap:  # line 4
            return _CAPPED, t, z, beta
        if t >= next_update:  # line 5
            return _UPDATE, t, z, beta


def _track_and_stop_fast(
    tape, n, k, delta, cap, divergence, sigma, threshold, tracking, ratio, rtol, screen, weights, check_every
) -> Outcome:
    """Track-and-Stop by phases (see :func:`track_and_stop`): same decisions as the reference."""
    ask = threshold is not kk21_gaussian_threshold
    c_beta = 0.0 if ask else n * c_gauss(math.log(1.0 / delta) / n)
    sums = np.zeros(n)
    counts = np.zeros(n, dtype=np.int64)
    for i in range(n):  # line 1
        sums[i] += tape.pull(i)
        counts[i] += 1
    t = n
    w = _weights(sums / counts, k, "gaussian", 0.5, rtol)
    next_update = ratio * t
    cum = np.zeros(n)
    updates = 1
    z = beta = 0.0
    blocks, words = new_cache(n)
    status = _ASK if t % check_every == 0 or t >= cap else _NO_STOP  # the first check: in Python
    while True:
        if status == _ASK:  # the reference's threshold and should_stop decide
            beta = float(threshold(t, n, delta))
            stop, z = should_stop(sums / counts, counts, k, divergence, sigma, beta, screen=screen)
            status = _STOP if stop else _NO_STOP
        if status != _STOP and t >= cap:
            status = _CAPPED
        if status in (_STOP, _CAPPED):
            tape.counts[:] = counts
            info = {"engine": "fast", "Z": float(z), "beta": float(beta), "w_updates": updates}
            return Outcome(ksigma_outliers(sums / counts, k), t, status == _CAPPED, counts.copy(), info)
        if t >= next_update:  # line 5, between two kernel calls
            w = _weights(sums / counts, k, "gaussian", 0.5, rtol)
            next_update = ratio * t
            updates += 1
        status, t, z, beta = _tas_kernel(
            *tape.arrays, blocks, words, sums, counts, cum, w, t, next_update, cap, check_every,
            tracking == "C", k, sigma, c_beta, ask,
        )  # fmt: skip
