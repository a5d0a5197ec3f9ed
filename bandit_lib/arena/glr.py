r"""RR-GLR: round-robin sampling with a generalized-likelihood-ratio stop (and the GLR machinery).

::

    RR-GLR(arms, k, delta, beta, T_max):
     1  t <- 0
     2  repeat
     3      pull every arm once (arm 0, 1, ..., n-1); t <- t + n     # one round, as RR
     4      mu_hat <- empirical means; N <- pull counts (all t / n)
     5      Z(t) <- inf_{lam in Alt(mu_hat)} sum_i N_i d(mu_hat_i, lam_i)      # inner_value(mu_hat, N, k)
     6  until Z(t) > beta(t, n, delta) or the next round would pass T_max
     7  return Omega(mu_hat), t

**Why it is delta-correct.** If the answer is wrong, :math:`\Omega(\hat\mu)\ne\Omega(\mu)`, so the
true :math:`\mu` lies in :math:`\mathrm{Alt}(\hat\mu)` and
:math:`Z(t)\le\sum_iN_i\,d(\hat\mu_i,\mu_i)`. So it suffices that, with probability
:math:`\ge1-\delta`, :math:`\sum_{i=1}^nN_i(t)d(\hat\mu_i(t),\mu_i)\le\beta(t,n,\delta)` for all t at
once. Kaufmann & Koolen, *Mixture martingales revisited with applications to sequential tests and
confidence intervals* (JMLR 22, 2021) prove such time-uniform deviation bounds for a sum over a
set S of arms (here S = all n arms, since the alternative moves every arm):

* Gaussian arms, :math:`d=(x-y)^2/(2\sigma^2)` (their Theorem 9): the sum is at most
  :math:`\sum_{i\in S}2\ln(4+\ln N_i)+|S|\,C^G(x/|S|)` for all t with probability :math:`\ge1-e^{-x}`, where
  :math:`C^G(x)=\min_{\lambda\in(1/2,1)}\bigl(g_G(\lambda)+x\bigr)/\lambda` and
  :math:`g_G(\lambda)=2\lambda-2\lambda\ln(4\lambda)+\ln\zeta(2\lambda)-\tfrac12\ln(1-\lambda)`
  (:func:`kk21_gaussian_threshold`);
* one-parameter exponential families, e.g. Bernoulli with :math:`d=\mathrm{kl}` (their Theorem 7):
  :math:`\sum_{i\in S}3\ln(1+\ln N_i)+|S|\,\mathcal T(x/|S|)`, with
  :math:`\mathcal T(x)=2\tilde h_{3/2}\bigl((h^{-1}(1+x)+\ln(2\zeta(2)))/2\bigr)`, :math:`h(u)=u-\ln u`,
  :math:`\tilde h_z(x)=e^{1/h^{-1}(x)}h^{-1}(x)` if :math:`x\ge h^{-1}(1/\ln z)`, else
  :math:`z(x-\ln\ln z)` (:func:`kk21_threshold`).

We take :math:`x=\ln(1/\delta)`. Both per-arm terms are concave in :math:`N_i\ge1`, so by Jensen
:math:`\sum_if(N_i)\le nf(t/n)`: the thresholds below depend on (t, n, delta) only and stay valid
for any allocation (Track-and-Stop uses them too). **Checked:** the constants of the Gaussian threshold (Theorem 9, the one every detector of the
suite uses) agree with two public restatements of the theorem to 1e-11 (the arena chapter, "the GLR
stop"); those of the exponential-family threshold (Theorem 7, used only with ``divergence`` kl on
Bernoulli tapes) were not checked against such a restatement. The statistical test of ``tests/test_arena_detectors.py``
and the chapter's 1000-run error checks measure the error rate, but these thresholds are
conservative (about 30 against :math:`\ln(1/\delta)\approx2.3` at n = 5), so they would catch only
a grossly wrong constant, not a slightly wrong one. ``threshold=`` accepts any callable ``(t, n, delta) -> float``; its values are checked
(:class:`CheckedThreshold`: a NaN, with which ``Z > beta`` is never true, is an error).

**Divergence.** A Gaussian tape uses :math:`(x-y)^2/(2\sigma^2)` with the tape's sigma; a
Bernoulli tape uses kl, with the empirical means clipped into :math:`[\epsilon,1-\epsilon]`
(:data:`CLIP`) *inside the divergence only* (kl(0, y) is finite but the inner solver needs interior
means); the run stops only if clipping leaves the outlier set unchanged, and then
:math:`\mathrm{kl}(\mathrm{clip}(\hat\mu),\mu)\le\mathrm{kl}(\hat\mu,\mu)` for
:math:`\mu\in[\epsilon,1-\epsilon]`, so the argument above still holds. Replay tapes are refused.

**Cheap screening.** Moving arm j alone onto the threshold gives a point of :math:`A_j`, hence an
upper bound on Z (:func:`glr_upper_bound`); Z is computed only when that bound exceeds beta, so
the decisions are those of computing Z after every round (a test checks this).

``Outcome.output``: sorted :math:`\Omega(\hat\mu)`; ``pulls`` a multiple of n; ``capped``: stopped
because the next round would pass the cap; ``info``: the last Z and beta.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numba import njit
from scipy import optimize, special

from bandit_lib.arena.lower_bound import (
    DIVERGENCES,
    EPS,
    _arm_values,
    divergence_values,
    leave_one_out_thresholds,
)
from bandit_lib.arena.secular import check_k_for, isotropic_values_nb
from bandit_lib.checks import (
    check_cap,
    check_choice,
    check_engine,
    check_int,
    check_open_unit,
    check_positive,
    check_vector,
)
from bandit_lib.ksigma import cap_or_refuse, ksigma_outliers
from bandit_lib.runner import DEFAULT_CAP, Outcome
from bandit_lib.tapes import BERNOULLI, GAUSSIAN, RewardTape, check_tape, new_cache, pull_sum

#: Empirical Bernoulli means are clipped into [CLIP, 1 - CLIP] inside the divergence.
CLIP = 1e-6

Threshold = Callable[[int, int, float], float]


# ------------------------------------------------------------------------------------------
# thresholds


def _g_gauss(lam: float) -> float:
    return 2 * lam - 2 * lam * math.log(4 * lam) + math.log(special.zeta(2 * lam)) - 0.5 * math.log(1 - lam)


def c_gauss(x: float) -> float:
    """C^G(x) = min over lambda in (1/2, 1) of (g_G(lambda) + x) / lambda (Kaufmann & Koolen 2021)."""
    x = check_positive("x", x)
    res = optimize.minimize_scalar(
        lambda l: (_g_gauss(l) + x) / l, bounds=(0.5 + 1e-10, 1 - 1e-12), method="bounded", options={"xatol": 1e-12}
    )
    return float(res.fun)


def _h_inv(y: float) -> float:
    """Inverse of h(u) = u - ln u on u >= 1 (y >= 1): -W_{-1}(-e^{-y})."""
    return float(-special.lambertw(-math.exp(-y), k=-1).real)


def _h_tilde(x: float, z: float = 1.5) -> float:
    if x >= _h_inv(1.0 / math.log(z)):
        hi = _h_inv(x)
        return math.exp(1.0 / hi) * hi
    return z * (x - math.log(math.log(z)))


def t_expfam(x: float) -> float:
    """T(x) = 2 h~_{3/2}((h^{-1}(1 + x) + ln(2 zeta(2))) / 2) (Kaufmann & Koolen 2021)."""
    x = check_positive("x", x)
    return 2.0 * _h_tilde((_h_inv(1.0 + x) + math.log(2 * special.zeta(2.0))) / 2.0)


def _check_threshold_args(t, n, delta) -> tuple[int, int, float]:
    n = check_int("n", n, minimum=1)
    return check_int("t", t, minimum=n), n, check_open_unit("delta", delta)


def kk21_gaussian_threshold(t: int, n: int, delta: float) -> float:
    """n * 2 ln(4 + ln(t / n)) + n C^G(ln(1/delta) / n): Gaussian arms, any allocation with N_i >= 1
    (so t >= n pulls)."""
    t, n, delta = _check_threshold_args(t, n, delta)
    return n * 2.0 * math.log(4.0 + math.log(max(t / n, 1.0))) + n * c_gauss(math.log(1.0 / delta) / n)


def kk21_threshold(t: int, n: int, delta: float) -> float:
    """n * 3 ln(1 + ln(t / n)) + n T(ln(1/delta) / n): one-parameter exponential families (Bernoulli),
    any allocation with N_i >= 1 (so t >= n pulls)."""
    t, n, delta = _check_threshold_args(t, n, delta)
    return n * 3.0 * math.log(1.0 + math.log(max(t / n, 1.0))) + n * t_expfam(math.log(1.0 / delta) / n)


# ------------------------------------------------------------------------------------------
# the GLR statistic


def tape_divergence(tape: RewardTape) -> tuple[str, float]:
    """("gaussian", sigma) or ("bernoulli", 1.0) for the tape's reward model; replay is refused, and
    so is a Gaussian tape with sigma = 0 (its divergence (x - y)^2 / (2 sigma^2) is undefined)."""
    tape = check_tape(tape, problem="the k-sigma problem")
    if tape.kind == GAUSSIAN:
        if not tape.scale > 0:
            raise ValueError(
                f"the GLR detectors need a Gaussian tape with sigma > 0 (the divergence divides by sigma^2); "
                f"got a tape with sigma={float(tape.scale)!r} (pass sub_gaussian=s to use another sigma)"
            )
        return "gaussian", float(tape.scale)
    if tape.kind == BERNOULLI:
        return "bernoulli", 1.0
    raise ValueError(
        f"the GLR detectors need a Gaussian or Bernoulli tape (a known divergence); got a {tape.kind_name} tape"
    )


def _div_means(mu_hat: np.ndarray, divergence: str) -> np.ndarray:
    return np.clip(mu_hat, CLIP, 1 - CLIP) if divergence == "bernoulli" else mu_hat


def _check_statistic(mu_hat, counts, k, divergence, sigma):
    """The arguments of the GLR statistic: n >= 2 finite means (in [0, 1] for Bernoulli), one
    finite pull count >= 1 per arm, k in (0, sqrt(n - 1)), a known divergence, sigma > 0."""
    divergence = check_choice("divergence", divergence, DIVERGENCES)
    low, high = (0.0, 1.0) if divergence == "bernoulli" else (None, None)
    mu_hat = check_vector("mu_hat", mu_hat, low=low, high=high, min_length=2)
    counts = check_vector("counts", counts)
    if counts.shape != mu_hat.shape or not (counts >= 1).all():
        raise ValueError(
            f"counts must hold one pull count >= 1 per arm ({len(mu_hat)} arms); got counts={counts.tolist()!r}"
        )
    k = check_k_for(k, len(mu_hat))
    sigma = check_positive("sigma", sigma)
    return mu_hat, counts, k, divergence, sigma


def glr_upper_bound(mu_hat: np.ndarray, counts: np.ndarray, k: float, divergence: str, sigma: float) -> float:
    """min_j of sum_i N_i d(mu_hat_i, lam_i) at the point that moves arm j alone onto the threshold
    (a point of A_j, so an upper bound on Z): lam_j is :func:`~bandit_lib.arena.lower_bound.leave_one_out_thresholds`.
    Bernoulli arms whose crossing lies outside (0, 1) cannot cross alone and give no bound."""
    return _glr_upper_bound(*_check_statistic(mu_hat, counts, k, divergence, sigma))


def _glr_upper_bound(mu_hat, counts, k, divergence, sigma) -> float:
    t = leave_one_out_thresholds(mu_hat, k)
    inside = (t > 0.0) & (t < 1.0) if divergence == "bernoulli" else np.ones(len(t), dtype=bool)
    d = divergence_values(_div_means(mu_hat, divergence), np.where(inside, t, 0.5), divergence, sigma)
    return float(np.min(np.where(inside, counts * d, math.inf)))


def glr_statistic(mu_hat: np.ndarray, counts: np.ndarray, k: float, divergence: str, sigma: float) -> float:
    """Z = inf over Alt(mu_hat) of sum_i N_i d(mu_hat_i, lam_i); 0 if an arm sits on the threshold
    or (Bernoulli) clipping changes the outlier set. Every arm needs a pull (``counts >= 1``)."""
    return _glr_statistic(*_check_statistic(mu_hat, counts, k, divergence, sigma))


def _glr_statistic(mu_hat, counts, k, divergence, sigma) -> float:
    m = _div_means(mu_hat, divergence)
    if not np.array_equal(ksigma_outliers(m, k), ksigma_outliers(mu_hat, k)):
        return 0.0
    av = _arm_values(m, counts.astype(np.float64), k, divergence, sigma, None)
    return float(av.values.min())


def should_stop(mu_hat, counts, k, divergence, sigma, beta: float, *, screen: bool = True) -> tuple[bool, float]:
    """(Z > beta, Z or its upper bound when the screen already says no). ``beta`` may be +inf (never
    stop), not NaN (Z > NaN is never true: the test would silently never stop)."""
    args = _check_statistic(mu_hat, counts, k, divergence, sigma)
    beta = _check_beta_value("beta", beta)
    if screen:
        ub = _glr_upper_bound(*args)
        if not ub > beta:
            return False, ub
    z = _glr_statistic(*args)
    return z > beta, z


def _check_beta_value(name: str, beta) -> float:
    try:
        beta = float(beta)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a real number; got {name}={beta!r}") from None
    if math.isnan(beta):
        raise ValueError(f"{name} must be a number, not NaN (a NaN threshold never lets the test stop); got {name}=nan")
    return beta


class CheckedThreshold:
    """A caller's threshold ``(t, n, delta) -> float`` whose every value is checked: NaN raises an
    error naming it (``Z > NaN`` is never true, so the run would go on to its cap)."""

    def __init__(self, threshold: Threshold) -> None:
        self.threshold = threshold

    def __call__(self, t, n, delta) -> float:
        value = self.threshold(t, n, delta)
        try:
            return _check_beta_value("threshold(t, n, delta)", value)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{exc} at t={t!r}, n={n!r}, delta={delta!r} (threshold={self.threshold!r})") from None


def check_detector(tape, k, delta, cap, threshold, sub_gaussian=None):
    """Validate the arguments both detectors share; returns (n, k, delta, cap, divergence, sigma, threshold).

    ``sub_gaussian=s`` treats the rewards as s-sub-Gaussian (s = 1/2 for rewards in [0, 1]): the
    Gaussian divergence with sigma = s and the Gaussian threshold, whatever the tape. The Gaussian
    mixture martingale behind that threshold stays a supermartingale when the reward's moment
    generating function is bounded by the Gaussian one, so the stop keeps its guarantee; the
    statistic then costs one eigendecomposition per arm instead of a multi-start SLSQP
    (measured for Bernoulli arms at n = 5: 40 s per RR-GLR run with kl, well under a second with s = 1/2).
    """
    n = check_tape(tape, min_arms=2, fresh=True, problem="the k-sigma problem").n_arms
    k = check_k_for(k, n)
    delta = check_open_unit("delta", delta)
    divergence, sigma = tape_divergence(tape)
    if sub_gaussian is not None:
        divergence, sigma = "gaussian", check_positive("sub_gaussian", sub_gaussian)
    if threshold is None:
        threshold = kk21_gaussian_threshold if divergence == "gaussian" else kk21_threshold
    elif not callable(threshold):
        raise TypeError(f"threshold must be a callable (t, n, delta) -> float; got threshold={threshold!r}")
    elif threshold not in (kk21_gaussian_threshold, kk21_threshold) and not isinstance(threshold, CheckedThreshold):
        threshold = CheckedThreshold(threshold)
    cap = check_cap(cap_or_refuse(cap, tape, k, default=DEFAULT_CAP, who="this detector", delta=delta))
    if cap < n:
        raise ValueError(f"cap must allow one pull of every arm (n = {n}); got cap={cap}")
    return n, k, delta, cap, divergence, sigma, threshold


def rr_glr(
    tape: RewardTape,
    *,
    k: float,
    delta: float,
    cap: int | None = None,
    threshold: Threshold | None = None,
    screen: bool = True,
    sub_gaussian: float | None = None,
    engine: str = "fast",
) -> Outcome:
    """RR-GLR (see the module docstring). ``screen=False`` computes Z after every round (same
    decisions, slower); ``sub_gaussian``: see :func:`check_detector`.

    ``engine="reference"`` runs :func:`rr_glr_reference` (round by round, ``tape.pull``);
    ``"fast"`` runs a numba kernel that takes the same decisions: the counts are equal after every
    round, so Z is the isotropic closed form of :func:`bandit_lib.arena.secular.isotropic_values_nb`
    (O(n) per round instead of n eigendecompositions), and the default Gaussian threshold is
    computed inside the kernel (C^G depends only on (n, delta): computed once in Python). Where Z
    falls within a relative 1e-9 of beta, the kernel hands the round back and the reference's own
    :func:`should_stop` (with the Python threshold) decides, so a rounding difference between the
    two statistics can never change a decision. A custom ``threshold=`` callable is evaluated in
    Python once per round (the kernel runs one round per call: slower, same decisions). The fast
    engine needs the Gaussian divergence (a Gaussian tape, or ``sub_gaussian=s``): with Bernoulli kl
    it falls back to the reference, and ``Outcome.info["engine"]`` says ``"reference"``."""
    n, k, delta, cap, divergence, sigma, threshold = check_detector(tape, k, delta, cap, threshold, sub_gaussian)
    check_engine(engine)
    if engine == "reference" or divergence != "gaussian":
        return rr_glr_reference(tape, n, k, delta, cap, divergence, sigma, threshold, screen)
    return _rr_glr_fast(tape, n, k, delta, cap, sigma, threshold, screen)


def rr_glr_reference(tape, n, k, delta, cap, divergence, sigma, threshold, screen) -> Outcome:
    """RR-GLR, round by round (arguments already checked by :func:`rr_glr`)."""
    sums = np.zeros(n)
    counts = np.zeros(n, dtype=np.int64)
    z = beta = 0.0
    while True:
        for i in range(n):  # line 3: one round
            sums[i] += tape.pull(i)
            counts[i] += 1
        t = int(counts.sum())
        mu_hat = sums / counts  # line 4
        beta = float(threshold(t, n, delta))
        stop, z = should_stop(mu_hat, counts, k, divergence, sigma, beta, screen=screen)  # lines 5-6
        if stop:
            return Outcome(
                ksigma_outliers(mu_hat, k), t, False, counts.copy(), {"engine": "reference", "Z": z, "beta": beta}
            )
        if t + n > cap:
            return Outcome(
                ksigma_outliers(mu_hat, k), t, True, counts.copy(), {"engine": "reference", "Z": z, "beta": beta}
            )


#: Relative band around beta inside which the fast engines let the reference's statistic decide.
MARGIN = 1e-9

# kernel statuses
_CAPPED, _STOP, _ASK = 0, 1, 2


@njit(cache=True)
def _rr_glr_kernel(kind, keys, means, scale, values, offsets, blocks, words, sums, rounds, k, sigma, c_beta, ask, cap):
    """Rounds of RR-GLR from ``rounds`` done until a stop, the cap, or a round to hand back
    (``ask``: every round; else only when Z is within MARGIN of beta). Returns (status, rounds, Z, beta)."""
    n = sums.shape[0]
    mu = np.empty(n)
    vals = np.empty(n)
    while True:
        for i in range(n):
            sums[i] = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, i, rounds, 1, sums[i])
        rounds += 1
        t = rounds * n
        for i in range(n):
            mu[i] = sums[i] / rounds
        jmin = isotropic_values_nb(mu, k, vals)
        z = vals[jmin] * (rounds / (2.0 * sigma * sigma))
        if ask:
            return _ASK, rounds, z, 0.0
        beta = n * 2.0 * math.log(4.0 + math.log(max(t / n, 1.0))) + c_beta
        if z > beta * (1.0 + MARGIN):
            return _STOP, rounds, z, beta
        if z >= beta * (1.0 - MARGIN):
            return _ASK, rounds, z, beta
        if t + n > cap:
            return _CAPPED, rounds, z, beta


def _rr_glr_fast(tape, n, k, delta, cap, sigma, threshold, screen) -> Outcome:
    ask = threshold is not kk21_gaussian_threshold
    c_beta = 0.0 if ask else n * c_gauss(math.log(1.0 / delta) / n)
    blocks, words = new_cache(n)
    sums = np.zeros(n)
    rounds = 0
    while True:
        status, rounds, z, beta = _rr_glr_kernel(*tape.arrays, blocks, words, sums, rounds, k, sigma, c_beta, ask, cap)
        t = rounds * n
        counts = np.full(n, rounds, dtype=np.int64)
        mu_hat = sums / counts
        if status == _ASK:  # the threshold in Python; the reference's statistic near beta
            beta = float(threshold(t, n, delta))
            if z > beta * (1.0 + MARGIN):
                stop = True
            elif z < beta * (1.0 - MARGIN):
                stop = False
            else:
                stop, z = should_stop(mu_hat, counts, k, "gaussian", sigma, beta, screen=screen)
            if not stop and t + n <= cap:
                continue
            status = _STOP if stop else _CAPPED
        tape.counts[:] = rounds
        info = {"engine": "fast", "Z": float(z), "beta": float(beta)}
        return Outcome(ksigma_outliers(mu_hat, k), t, status == _CAPPED, counts, info)


__all__ = [
    "CLIP",
    "CheckedThreshold",
    "EPS",
    "c_gauss",
    "check_detector",
    "glr_statistic",
    "glr_upper_bound",
    "kk21_gaussian_threshold",
    "kk21_threshold",
    "rr_glr",
    "rr_glr_reference",
    "should_stop",
    "t_expfam",
    "tape_divergence",
]
