r"""RR-CS and WRR-CS: per-arm anytime-valid confidence sequences, no joint test (the threshold ablation).

RR (ZHUANG17) stops with Hoeffding/McDiarmid intervals and a union bound over time; RR-GLR
(:mod:`~bandit_lib.arena.glr`) stops with a joint GLR test and the time-uniform threshold of
Kaufmann & Koolen (2021, "KK21"). Their gap mixes two effects: a tighter, time-uniform
confidence level, and joint reasoning over all arms. The detectors here keep ZHUANG17's
*per-arm boxes* (no joint test) but build them from KK21's time-uniform bound, so that

* RR (Hoeffding) vs RR-CS isolates the confidence level (union bound over time vs time-uniform),
* RR-CS vs RR-GLR isolates joint reasoning (same sampling, same threshold family, per-arm vs joint).

**Per-arm confidence sequences.** The rewards of arm i are :math:`\sigma`-sub-Gaussian
(:math:`\sigma = 1/2` for rewards in [0, 1], the default; a Gaussian tape's own scale). KK21's
Theorem 9 (Gaussian arms, divergence :math:`d(x,y) = (x-y)^2/(2\sigma^2)`; it holds for
sub-Gaussian rewards because the Gaussian mixture martingale stays a supermartingale when the
moment generating function is dominated by the Gaussian one, see
:func:`~bandit_lib.arena.glr.check_detector`) with the set :math:`S = \{i\}` of one arm says: for
every x > 0, with probability at least :math:`1 - e^{-x}`, for all t,

.. math:: N_i\,d(\hat\mu_i, \mu_i) \le 2\ln(4 + \ln N_i) + C^G(x).

A union bound over the n arms with :math:`x = \ln(n/\delta)` (each arm fails with probability
at most :math:`\delta/n`) gives the good event :math:`\mathcal E` of probability
:math:`\ge 1 - \delta`: for all t and all i, :math:`|\hat\mu_i - \mu_i| \le r_i`, with

.. math:: r_i = \sigma\sqrt{\frac{2\,\bigl(2\ln(4 + \ln N_i) + C^G(\ln(n/\delta))\bigr)}{N_i}}

(solve :math:`N_i(\hat\mu_i-\mu_i)^2/(2\sigma^2) \le B` for :math:`|\hat\mu_i-\mu_i|`:
:math:`\le \sigma\sqrt{2B/N_i}`). :math:`C^G` is :func:`~bandit_lib.arena.glr.c_gauss`, computed
once per run in Python and passed to numba as a constant (:func:`radius`).

**Threshold interval implied by the boxes** (deterministic: no extra probability). Write
:math:`\theta(\lambda) = \bar\lambda + k\,s(\lambda)` with :math:`\bar\lambda` the mean and
:math:`s(\lambda) = \|P\lambda\|/\sqrt n` the population standard deviation (P the centring
projection). Take any :math:`\lambda` in the boxes, :math:`e = \lambda - \hat\mu`,
:math:`|e_i| \le r_i`. Then

* :math:`|\bar e| \le \frac1n\sum_i|e_i| \le \bar r` (mean of the radii);
* :math:`s` is a seminorm, so by the triangle inequality
  :math:`|s(\hat\mu + e) - s(\hat\mu)| \le s(e) = \|Pe\|/\sqrt n \le \|e\|/\sqrt n \le
  \sqrt{\tfrac1n\sum_i r_i^2} = \mathrm{rms}(r)` (P is an orthogonal projection, so it does
  not increase norms);

hence :math:`|\theta(\lambda) - \theta(\hat\mu)| \le \beta_\theta = \bar r + k\,\mathrm{rms}(r)`
(``interval="triangle"``, the default). **A tighter option** (``interval="ball"``): with
:math:`m = \bar e` and :math:`q = \|e\|^2/n`, :math:`s(e)^2 = q - m^2`, so
:math:`|\Delta\theta| \le |m| + k\sqrt{q - m^2} \le g(|m|) := |m| + k\sqrt{Q - m^2}`, with
:math:`Q = \mathrm{rms}(r)^2 \ge q` and :math:`|m| \le \bar r \le \sqrt Q` (power means). g is
concave on :math:`[0, \sqrt Q]` with its maximum :math:`\sqrt{(1+k^2)Q}` at
:math:`m^* = \sqrt{Q/(1+k^2)}`, so
:math:`\beta_\theta^{ball} = g(\min(\bar r, m^*)) \le \bar r + k\,\mathrm{rms}(r)` (since
:math:`g(m) \le m + k\sqrt Q`). It is smaller than the triangle bound by up to the factor :math:`(1+k)/\sqrt{1+k^2}` (1.34 at
k = 2, reached with equal radii, as in round-robin). Neither is the exact supremum over the box:
the spread step is an equality only when :math:`Pe` is parallel to :math:`P\hat\mu`, which a
vertex of the box rarely is (the exact supremum of the convex :math:`\theta` is a maximum over
the :math:`2^n` vertices; for 11 equally spaced means at k = 2 with equal radii, random vertices
reach 87% of the ball bound, a test checks). The triangle bound stays the default because it is
the interval the ablation is specified with: mean term plus k times spread term, each bounded on
its own, as ZHUANG17's McDiarmid interval is; the ``"ball"`` option measures how much of the
remaining gap to RR-GLR is this interval's slack rather than the missing joint test. Both cost
O(1) from the running sums :math:`\sum_i r_i` and :math:`\sum_i r_i^2`.

**Stop and output; why delta-correct.** Arm i is *active* iff its box
:math:`[\hat\mu_i \pm r_i]` overlaps :math:`[\hat\theta \pm \beta_\theta]`, exactly as ZHUANG17's
Eq. (2) (:func:`bandit_lib.ksigma.is_active_nb`: strict, a tie
:math:`\hat\mu_i = \hat\theta` goes to the second branch). The detector stops when no arm is active
and outputs :math:`\hat\Omega = \{i : \hat\mu_i > \hat\theta\}`. On :math:`\mathcal E`,
:math:`\mu` lies in every box, so :math:`\theta(\mu) \in [\hat\theta \pm \beta_\theta]`. At a stop,
take an arm i:

* if :math:`\hat\mu_i > \hat\theta` (output), inactivity means
  :math:`\hat\mu_i - r_i \ge \hat\theta + \beta_\theta`, so
  :math:`\mu_i \ge \hat\mu_i - r_i \ge \hat\theta + \beta_\theta \ge \theta(\mu)`;
* otherwise (not output), :math:`\hat\mu_i + r_i \le \hat\theta - \beta_\theta`, so
  :math:`\mu_i \le \theta(\mu)`, i.e. :math:`i \notin \Omega(\mu)`.

In the first case :math:`\mu_i > \theta(\mu)` unless every inequality of the chain is an equality,
which needs :math:`\mu_i = \theta(\mu)`: an arm exactly on the threshold, the degenerate instance
that :func:`bandit_lib.ksigma.cap_or_refuse` refuses (no delta-correct detector stops on it). So on
non-degenerate instances the output equals :math:`\Omega(\mu)` on :math:`\mathcal E`, whatever the
sampling rule and whenever the stop happens: both detectors are delta-correct (exact arithmetic;
the floating-point rounding of the sums, ~1e-16 relative, is ignored as elsewhere in the library).

**RR-CS** (``rr_cs``)::

    RR-CS(arms, k, delta, sigma, T_max):
     1  C <- C^G(ln(n / delta))
     2  T <- 0
     3  repeat
     4      pull every arm once (arm 0, 1, ..., n-1); T <- T + n     # one round, as RR-GLR
     5      EXACT()                                                    # mu_hat, r, theta_hat, beta_theta
     6      if no arm is active: return Omega_hat, T
     7  until T + n > T_max                                            # capped: the next round would pass it
     8  return Omega_hat, T (capped)

The stop is checked once per round of n pulls, exactly where :func:`~bandit_lib.arena.glr.rr_glr`
checks its GLR stop, so RR-CS and RR-GLR differ only in the test.

**WRR-CS** (``wrr_cs``; ZHUANG17's WRR stride scheduling, :mod:`bandit_lib.zhuang17.wrr`)::

    WRR-CS(arms, k, delta, sigma, rho = rho*(n, k, delta), T_max):
     1  C <- C^G(ln(n / delta))
     2  pull every arm once; T <- n
     3  EXACT(); if no arm is active: return Omega_hat, T
     4  c[0..n-1] <- 0; i <- 0
     5  while T < T_max:
     6      i <- (i + 1) mod n; c_i <- c_i + rho
     7      repeat
     8          pull i; T <- T + 1; FOLD(i)                 # O(1): update the running sums
     9          if T mod n == 0:                             # the full stop check, once per n pulls
    10              EXACT(); if no arm is active: return Omega_hat, T
    11          if T >= T_max: break out of both loops
    12      until m_i >= c_i or not ACTIVE(i)                # O(1) from the running sums
    13  EXACT(); return Omega_hat, T (capped)

Running sums (state of FOLD/EXACT): :math:`c_0` (the mean of :math:`\hat\mu` at the last EXACT),
:math:`D_1 = \sum_i(\hat\mu_i - c_0)`, :math:`D_2 = \sum_i(\hat\mu_i - c_0)^2`,
:math:`R_1 = \sum_i r_i`, :math:`R_2 = \sum_i r_i^2`. From them (:func:`theta_beta_nb`)
:math:`\hat\theta = c_0 + D_1/n + k\sqrt{\max(D_2/n - (D_1/n)^2, 0)}` and :math:`\beta_\theta`
as above. EXACT() recomputes every :math:`\hat\mu_i` (and :math:`r_i` where its count changed) and the five sums from the sums and
counts, in index order (:func:`exact_nb`); FOLD(i) replaces arm i's old terms by its new ones
(:func:`fold_nb`). The shift :math:`c_0` keeps :math:`D_2` free of the cancellation of
:math:`\sum\hat\mu_i^2 - n\bar\mu^2`, and the exact recomputation every n pulls stops rounding
from accumulating. ACTIVE(i) (line 12) only steers the sampling: every stop is decided by
EXACT(), so the guarantee above does not depend on the running sums' rounding. m_i includes the
initial pull while c_i starts at 0, as in WRR.

**Engines.** ``engine="reference"`` runs the pseudocode in Python, one ``tape.pull`` at a time;
``"fast"`` (default) runs numba loops over the same tape. Exactness contract, as in
:mod:`bandit_lib.zhuang17.intervals`: the numba kernels :func:`radius_nb`, :func:`exact_nb`,
:func:`fold_nb` and :func:`theta_beta_nb` are the only places where the quantities are computed;
the reference calls them, and the fast loops call the very same kernels at the same points, so both
engines compare the same floating-point numbers and take the same decisions (tests check this pull
for pull).

``Outcome.output``: sorted :math:`\hat\Omega`; ``pulls``: T; ``capped``: stopped by the cap, not by
a full stop check; ``counts``: pulls per arm; ``info``: engine, the final
:math:`\hat\theta` and :math:`\beta_\theta`, the number of full stop checks ``checks``, C^G
(``C``), ``interval``, and ``rho`` (WRR-CS).
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numba import njit

from bandit_lib.arena.glr import c_gauss as _c_gauss
from bandit_lib.arena.secular import check_k_for
from bandit_lib.checks import (
    check_cap,
    check_choice,
    check_engine,
    check_int,
    check_nonnegative,
    check_open_unit,
    check_positive,
    check_real,
    check_vector,
)
from bandit_lib.ksigma import cap_or_refuse, is_active_nb
from bandit_lib.runner import DEFAULT_CAP, Outcome
from bandit_lib.tapes import BERNOULLI, GAUSSIAN, RewardTape, check_tape, philox_block, pull_sum, uniform_of
from bandit_lib.zhuang17.intervals import rho_star

#: Threshold intervals (integer codes for the kernels): the triangle bound (default) and the ball bound.
TRIANGLE, BALL = 0, 1
INTERVALS = {"triangle": TRIANGLE, "ball": BALL}

#: C^G(x) (:func:`bandit_lib.arena.glr.c_gauss`, a bounded scalar minimisation), memoised: the same
#: (n, delta) recurs across the runs of an experiment.
c_gauss = functools.lru_cache(maxsize=256)(_c_gauss)


# ------------------------------------------------------------------------------------------
# the shared kernels (the only places where the quantities are computed)


@njit(cache=True)
def radius_nb(m, sigma, C):
    """r = sigma sqrt(2 (2 ln(4 + ln m) + C) / m): the arm's time-uniform radius after m >= 1 pulls."""
    fm = float(m)
    return sigma * math.sqrt(2.0 * (2.0 * math.log(4.0 + math.log(fm)) + C) / fm)


@njit(cache=True)
def theta_beta_nb(c0, D1, D2, R1, R2, n, k, interval):
    """(theta_hat, beta_theta) from the running sums (see the module docstring)."""
    fn = float(n)
    d = D1 / fn
    mean = c0 + d
    var = D2 / fn - d * d
    theta = mean + k * math.sqrt(max(var, 0.0))
    rbar = R1 / fn
    rms = math.sqrt(max(R2 / fn, 0.0))
    if interval == TRIANGLE:
        return theta, rbar + k * rms
    kk = 1.0 + k * k
    mstar = rms / math.sqrt(kk)
    if rbar >= mstar:
        return theta, math.sqrt(kk) * rms
    return theta, rbar + k * math.sqrt(max(rms * rms - rbar * rbar, 0.0))


@njit(cache=True)
def exact_nb(s, m, sigma, C, yhat, r, radii_current):
    """EXACT(): fills ``yhat`` (and ``r``) from the sums and counts; returns (c0, D1, D2, R1, R2),
    summed in index order.

    ``r_i`` is a function of ``m_i`` alone, so it is recomputed only where it may have changed:
    not at all when ``radii_current`` (the caller keeps ``r_i`` = radius(``m_i``), as WRR-CS does),
    else once per run of equal counts (RR-CS: once per round). Same values, fewer logarithms.
    """
    n = s.shape[0]
    acc = 0.0
    for i in range(n):
        y = s[i] / float(m[i])
        yhat[i] = y
        acc += y
    c0 = acc / float(n)
    D1 = 0.0
    D2 = 0.0
    R1 = 0.0
    R2 = 0.0
    for i in range(n):
        d = yhat[i] - c0
        D1 += d
        D2 += d * d
        if not radii_current:
            if i > 0 and m[i] == m[i - 1]:
                r[i] = r[i - 1]
            else:
                r[i] = radius_nb(m[i], sigma, C)
        ri = r[i]
        R1 += ri
        R2 += ri * ri
    return c0, D1, D2, R1, R2


@njit(cache=True)
def fold_nb(c0, D1, D2, R1, R2, yo, yn, ro, rn):
    """FOLD(): the running sums with one arm's (yhat, r) moved from (yo, ro) to (yn, rn)."""
    do = yo - c0
    dn = yn - c0
    return D1 + (dn - do), D2 + (dn * dn - do * do), R1 + (rn - ro), R2 + (rn * rn - ro * ro)


@njit(cache=True)
def any_active_nb(yhat, r, theta, beta):
    """Whether some arm's box overlaps the threshold interval (ZHUANG17's Eq. 2 per arm)."""
    for i in range(yhat.shape[0]):
        if is_active_nb(yhat[i], r[i], theta, beta):
            return True
    return False


# ------------------------------------------------------------------------------------------
# Python API of the formulas


def radius(m: int, delta: float, n: int, sigma: float = 0.5) -> float:
    """The per-arm radius r after ``m`` pulls, at confidence ``delta`` over ``n`` arms (module docstring)."""
    m = check_int("m", m, minimum=1)
    n = check_int("n", n, minimum=1)
    delta = check_open_unit("delta", delta)
    sigma = check_positive("sigma", sigma)
    if not n / delta > 1.0:
        raise ValueError(f"n / delta must exceed 1 (x = ln(n / delta) > 0); got n={n}, delta={delta!r}")
    return float(radius_nb(m, sigma, c_gauss(math.log(n / delta))))


def threshold_interval(mu_hat, r, k: float, interval: str = "triangle") -> tuple[float, float]:
    """(theta_hat, beta_theta) for empirical means ``mu_hat`` and radii ``r`` (same arithmetic as the engines)."""
    mu_hat = check_vector("mu_hat", mu_hat, min_length=2)
    r = check_vector("r", r, low=0.0)
    if r.shape != mu_hat.shape:
        raise ValueError(f"r must have one radius per arm ({len(mu_hat)}); got {len(r)}")
    k = check_nonnegative("k", k)
    code = INTERVALS[check_choice("interval", interval, tuple(INTERVALS))]
    n = len(mu_hat)
    c0 = float(np.sum(mu_hat)) / n
    d = mu_hat - c0
    return theta_beta_nb(c0, float(d.sum()), float((d * d).sum()), float(r.sum()), float((r * r).sum()), n, k, code)


# ------------------------------------------------------------------------------------------
# arguments


def check_sigma_for_tape(sigma, tape: RewardTape) -> float:
    """sigma > 0, and not below what the tape's rewards need (1/2 for Bernoulli, the scale of a
    Gaussian tape, half the range of a replay tape): a smaller sigma would void the guarantee."""
    sigma = check_positive("sigma", sigma)
    tape = check_tape(tape, problem="the k-sigma problem")
    if tape.kind == BERNOULLI:
        need, what = 0.5, "Bernoulli rewards are 1/2-sub-Gaussian"
    elif tape.kind == GAUSSIAN:
        need, what = float(tape.scale), f"the Gaussian tape's rewards have standard deviation {float(tape.scale)!r}"
    else:
        v = np.asarray(tape.values, dtype=np.float64)
        need = float(v.max() - v.min()) / 2.0 if v.size else 0.0
        what = f"the replay tape's rewards span a range of {2.0 * need!r}"
    if sigma < need:
        raise ValueError(f"sigma must be at least {need!r} ({what}); got sigma={sigma!r}: the radii would not be valid")
    return sigma


def check_cs(tape, k, delta, cap, sigma, interval, engine, who):
    """Validate the shared arguments; returns (n, k, delta, cap, sigma, interval code, C)."""
    n = check_tape(tape, min_arms=2, fresh=True, problem="the k-sigma problem").n_arms
    k = check_k_for(k, n)
    delta = check_open_unit("delta", delta)
    sigma = check_sigma_for_tape(sigma, tape)
    code = INTERVALS[check_choice("interval", interval, tuple(INTERVALS))]
    check_engine(engine)
    cap = check_cap(cap_or_refuse(cap, tape, k, default=DEFAULT_CAP, who=who, delta=delta))
    if cap < n:
        raise ValueError(f"cap must allow one pull of every arm (n = {n}); got cap={cap}")
    return n, k, delta, cap, sigma, code, c_gauss(math.log(n / delta))


def _outcome(s, m, T, capped, k, sigma, C, code, checks, engine, extra=None) -> Outcome:
    n = len(s)
    yhat, r = np.empty(n), np.empty(n)
    theta, beta = theta_beta_nb(*exact_nb(s, m, sigma, C, yhat, r, False), n, k, code)
    info = {"engine": engine, "theta": theta, "beta_theta": beta, "checks": int(checks), "C": C}
    info["interval"] = "triangle" if code == TRIANGLE else "ball"
    info.update(extra or {})
    return Outcome(np.flatnonzero(yhat > theta), int(T), bool(capped), m.copy(), info)


# ------------------------------------------------------------------------------------------
# references (the pseudocode, one tape.pull at a time)


def rr_cs_reference(tape, k, cap, sigma, code, C) -> Outcome:
    """RR-CS, pull by pull (arguments already checked by :func:`rr_cs`)."""
    n = tape.n_arms
    s, m = np.zeros(n), np.zeros(n, dtype=np.int64)
    yhat, r = np.empty(n), np.empty(n)
    T = checks = 0
    while True:
        for i in range(n):  # line 4: one round
            s[i] += tape.pull(i)
            m[i] += 1
        T += n
        theta, beta = theta_beta_nb(*exact_nb(s, m, sigma, C, yhat, r, False), n, k, code)  # line 5
        checks += 1
        if not any_active_nb(yhat, r, theta, beta):  # line 6
            return _outcome(s, m, T, False, k, sigma, C, code, checks, "reference")
        if T + n > cap:  # line 7
            return _outcome(s, m, T, True, k, sigma, C, code, checks, "reference")


def wrr_cs_reference(tape, k, cap, sigma, code, C, rho) -> Outcome:
    """WRR-CS, pull by pull (arguments already checked by :func:`wrr_cs`)."""
    n = tape.n_arms
    s, m = np.zeros(n), np.zeros(n, dtype=np.int64)
    yhat, r = np.empty(n), np.empty(n)
    extra = {"rho": rho}
    for i in range(n):  # line 2
        s[i] += tape.pull(i)
        m[i] += 1
    T = n
    c0, D1, D2, R1, R2 = exact_nb(s, m, sigma, C, yhat, r, False)  # line 3
    theta, beta = theta_beta_nb(c0, D1, D2, R1, R2, n, k, code)
    checks = 1
    if not any_active_nb(yhat, r, theta, beta):
        return _outcome(s, m, T, False, k, sigma, C, code, checks, "reference", extra)
    c = np.zeros(n)  # line 4
    i = 0
    while T < cap:  # line 5
        i = (i + 1) % n  # line 6
        c[i] += rho
        while True:  # line 7
            s[i] += tape.pull(i)  # line 8
            m[i] += 1
            T += 1
            yo, ro = yhat[i], r[i]
            yhat[i], r[i] = s[i] / float(m[i]), radius_nb(m[i], sigma, C)
            D1, D2, R1, R2 = fold_nb(c0, D1, D2, R1, R2, yo, yhat[i], ro, r[i])
            if T % n == 0:  # line 9: the full stop check
                c0, D1, D2, R1, R2 = exact_nb(s, m, sigma, C, yhat, r, True)
                theta, beta = theta_beta_nb(c0, D1, D2, R1, R2, n, k, code)
                checks += 1
                if not any_active_nb(yhat, r, theta, beta):
                    return _outcome(s, m, T, False, k, sigma, C, code, checks, "reference", extra)
            if T >= cap:  # line 11
                break
            if m[i] >= c[i]:  # line 12
                break
            theta, beta = theta_beta_nb(c0, D1, D2, R1, R2, n, k, code)
            if not is_active_nb(yhat[i], r[i], theta, beta):
                break
    return _outcome(s, m, T, True, k, sigma, C, code, checks, "reference", extra)  # line 13


# ------------------------------------------------------------------------------------------
# fast engines (numba loops; the tape read of tapes.pull_sum written out for Bernoulli tapes, as in
# zhuang17._engine: through a helper function the read was measured 19 times slower, 7.6e6 against
# 1.4e8 Bernoulli reads/s at n = 1000 on the shared 2-core machine, issue 20)


@njit(cache=True)
def rr_cs_kernel(kind, keys, means, scale, values, offsets, k, cap, sigma, C, code, s, m):
    """RR-CS on a tape; fills s, m; returns (T, capped, checks)."""
    n = s.shape[0]
    blocks = np.full(n, -1, dtype=np.int64)
    words = np.zeros((n, 4), dtype=np.uint64)
    yhat = np.empty(n)
    r = np.empty(n)
    T = 0
    checks = 0
    while True:
        for i in range(n):
            j = m[i]
            if kind == BERNOULLI:
                blk = j >> 2
                if blocks[i] != blk:
                    w0, w1, w2, w3 = philox_block(keys[i, 0], keys[i, 1], blk)
                    words[i, 0] = w0
                    words[i, 1] = w1
                    words[i, 2] = w2
                    words[i, 3] = w3
                    blocks[i] = blk
                s[i] += 1.0 if uniform_of(words[i, j & 3]) < means[i] else 0.0
            else:
                s[i] = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, i, j, 1, s[i])
            m[i] = j + 1
        T += n
        c0, D1, D2, R1, R2 = exact_nb(s, m, sigma, C, yhat, r, False)
        theta, beta = theta_beta_nb(c0, D1, D2, R1, R2, n, k, code)
        checks += 1
        if not any_active_nb(yhat, r, theta, beta):
            return T, False, checks
        if T + n > cap:
            return T, True, checks


@njit(cache=True)
def wrr_cs_kernel(kind, keys, means, scale, values, offsets, k, cap, sigma, C, code, rho, s, m):
    """WRR-CS on a tape; fills s, m; returns (T, capped, checks)."""
    n = s.shape[0]
    blocks = np.full(n, -1, dtype=np.int64)
    words = np.zeros((n, 4), dtype=np.uint64)
    yhat = np.empty(n)
    r = np.empty(n)
    for i in range(n):
        s[i] = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, i, 0, 1, s[i])
        m[i] = 1
    T = n
    c0, D1, D2, R1, R2 = exact_nb(s, m, sigma, C, yhat, r, False)
    theta, beta = theta_beta_nb(c0, D1, D2, R1, R2, n, k, code)
    checks = 1
    if not any_active_nb(yhat, r, theta, beta):
        return T, False, checks
    c = np.zeros(n)
    i = 0
    while T < cap:
        i = (i + 1) % n
        c[i] += rho
        while True:
            mi = m[i]
            si = s[i]
            if kind == BERNOULLI:
                blk = mi >> 2
                if blocks[i] != blk:
                    w0, w1, w2, w3 = philox_block(keys[i, 0], keys[i, 1], blk)
                    words[i, 0] = w0
                    words[i, 1] = w1
                    words[i, 2] = w2
                    words[i, 3] = w3
                    blocks[i] = blk
                si += 1.0 if uniform_of(words[i, mi & 3]) < means[i] else 0.0
            else:
                si = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, i, mi, 1, si)
            mi += 1
            s[i] = si
            m[i] = mi
            T += 1
            yo = yhat[i]
            ro = r[i]
            yn = si / float(mi)
            rn = radius_nb(mi, sigma, C)
            yhat[i] = yn
            r[i] = rn
            D1, D2, R1, R2 = fold_nb(c0, D1, D2, R1, R2, yo, yn, ro, rn)
            if T % n == 0:
                c0, D1, D2, R1, R2 = exact_nb(s, m, sigma, C, yhat, r, True)
                theta, beta = theta_beta_nb(c0, D1, D2, R1, R2, n, k, code)
                checks += 1
                if not any_active_nb(yhat, r, theta, beta):
                    return T, False, checks
            if T >= cap:
                break
            if mi >= c[i]:
                break
            theta, beta = theta_beta_nb(c0, D1, D2, R1, R2, n, k, code)
            if not is_active_nb(yhat[i], r[i], theta, beta):
                break
    return T, True, checks


# ------------------------------------------------------------------------------------------
# public detectors


def rr_cs(
    tape: RewardTape,
    *,
    k: float,
    delta: float,
    cap: int | None = None,
    sigma: float = 0.5,
    interval: str = "triangle",
    engine: str = "fast",
) -> Outcome:
    """RR-CS: round-robin, stopped when no arm's time-uniform box overlaps the threshold interval
    (checked once per round of n pulls); see the module docstring. Without a ``cap``, a degenerate
    instance is refused. ``sigma=0.5``: rewards in [0, 1] are 1/2-sub-Gaussian.

    Example (the instance of :func:`~bandit_lib.arena.tracking.track_and_stop`'s example):

    >>> from bandit_lib.arena import rr_cs
    >>> from bandit_lib.tapes import gaussian_tape
    >>> out = rr_cs(gaussian_tape([0.1, 0.2, 0.25, 0.3, 0.9], 0.5, seed=1), k=1.5, delta=0.1)
    >>> out.output.tolist(), out.pulls, out.capped
    ([4], 21625, False)
    """
    n, k, delta, cap, sigma, code, C = check_cs(tape, k, delta, cap, sigma, interval, engine, "RR-CS")
    if engine == "reference":
        return rr_cs_reference(tape, k, cap, sigma, code, C)
    s, m = np.zeros(n), np.zeros(n, dtype=np.int64)
    T, capped, checks = rr_cs_kernel(*tape.arrays, k, cap, sigma, C, code, s, m)
    tape.counts[:] = m  # the tape is consumed exactly as the reference would have consumed it
    return _outcome(s, m, T, capped, k, sigma, C, code, checks, "fast")


def wrr_cs(
    tape: RewardTape,
    *,
    k: float,
    delta: float,
    cap: int | None = None,
    sigma: float = 0.5,
    rho: float | None = None,
    interval: str = "triangle",
    engine: str = "fast",
) -> Outcome:
    """WRR-CS: ZHUANG17's WRR stride scheduling (weight ``rho``, default rho*(n, k, delta)) with
    the time-uniform boxes; the full stop check once per n pulls (module docstring).

    Example (the instance of :func:`~bandit_lib.arena.tracking.track_and_stop`'s example):

    >>> from bandit_lib.arena import wrr_cs
    >>> from bandit_lib.tapes import gaussian_tape
    >>> out = wrr_cs(gaussian_tape([0.1, 0.2, 0.25, 0.3, 0.9], 0.5, seed=1), k=1.5, delta=0.1)
    >>> out.output.tolist(), out.pulls, out.capped
    ([4], 20410, False)
    """
    n, k, delta, cap, sigma, code, C = check_cs(tape, k, delta, cap, sigma, interval, engine, "WRR-CS")
    rho = rho_star(n, k, delta) if rho is None else check_real("rho", rho)
    if rho < 1:
        raise ValueError(f"rho must be >= 1 (active arms get rho times the pulls of inactive ones); got rho={rho!r}")
    if engine == "reference":
        return wrr_cs_reference(tape, k, cap, sigma, code, C, rho)
    s, m = np.zeros(n), np.zeros(n, dtype=np.int64)
    T, capped, checks = wrr_cs_kernel(*tape.arrays, k, cap, sigma, C, code, float(rho), s, m)
    tape.counts[:] = m
    return _outcome(s, m, T, capped, k, sigma, C, code, checks, "fast", {"rho": rho})


__all__ = [
    "BALL",
    "INTERVALS",
    "TRIANGLE",
    "any_active_nb",
    "check_sigma_for_tape",
    "exact_nb",
    "fold_nb",
    "radius",
    "radius_nb",
    "rr_cs",
    "theta_beta_nb",
    "threshold_interval",
    "wrr_cs",
]
