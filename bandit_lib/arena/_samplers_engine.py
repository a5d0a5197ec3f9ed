r"""Machinery shared by the Top-Two and Frank-Wolfe samplers (:mod:`~bandit_lib.arena.toptwo`,
:mod:`~bandit_lib.arena.frank_wolfe`): argument checks, the numeric pieces their sampling decisions
rest on, and the fast engines' stop.

**One set of numeric pieces for both engines.** A sampling decision compares floating-point numbers
(the values :math:`V_j`, the gradients, the game's iterates); two implementations of the same
formula can round differently and then pull different arms. So every number a sampling decision
reads is computed by a numba function of this module, which the readable references call through
Python and the fast engines call inside their loops: the outlier mask of :math:`\hat\mu`
(``outlier_mask_nb``), the inner values and minimisers (``solve_values``,
``solve_minimiser``), the gradient (``gradient_nb``), the challenger
(``challenger_nb``), the r-subdifferential (``subdifferential_nb``) and the game
(``game_nb``). The references' control flow (forced exploration, tracking, lazy re-solving, the
stop) is plain Python.

**The stop.** The references stop with :func:`bandit_lib.arena.glr.should_stop` (the eigh-based
inner solver of :mod:`~bandit_lib.arena.lower_bound`). A fast engine computes the same screen and
statistic in numba with its own solver; when its statistic lies within a relative
:data:`STOP_MARGIN` of the threshold, or with a threshold other than the default KK21 Gaussian one,
it hands the check back to Python, which calls ``should_stop`` itself (the fast check solves arms
in increasing order of a lower bound and exits at the first value below the threshold, so it
usually solves few arms). Away from the threshold the
two solvers agree far inside the margin (both are certified global minimisers), so the decision is
the reference's; the tests run with ``margin=inf`` (every check by ``should_stop``) and ``margin=0``
(none) and compare both with the reference.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numba import njit

from bandit_lib.arena.glr import c_gauss, check_detector, kk21_gaussian_threshold, should_stop
from bandit_lib.arena.secular import arm_minimiser_nb, arm_value_nb, isotropic_values_nb
from bandit_lib.checks import check_engine, check_int
from bandit_lib.ksigma import ksigma_outliers
from bandit_lib.runner import Outcome
from bandit_lib.tapes import new_cache, pull_sum
from bandit_lib.zhuang17.intervals import threshold_nb

#: Relative distance to the threshold within which a fast engine's stop check is decided by
#: :func:`bandit_lib.arena.glr.should_stop` in Python.
STOP_MARGIN = 1e-7

#: Rounds of the fixed optimistic multiplicative-weights scheme of ``game_nb``.
GAME_STEPS = 400

#: Exponent of the r-subdifferential radius r_t = t^(-KAPPA) of Frank-Wolfe sampling.
KAPPA = 0.9


# ------------------------------------------------------------------------------------------
# argument checks


def check_sampler(tape, k, delta, cap, threshold, sub_gaussian, check_every, every, engine):
    """Validate the arguments both samplers share; returns
    ``(n, k, delta, cap, sigma, threshold, check_every, every)``.

    The samplers need the Gaussian divergence: ``sub_gaussian=s`` (default 1/2, rewards in [0, 1])
    or, with ``sub_gaussian=None``, a Gaussian tape and its own sigma."""
    n, k, delta, cap, divergence, sigma, threshold = check_detector(tape, k, delta, cap, threshold, sub_gaussian)
    if divergence != "gaussian":
        raise ValueError(
            "the samplers use the Gaussian divergence: pass sub_gaussian=s (s = 1/2 for rewards in [0, 1]) with a "
            f"{tape.kind_name} tape; got sub_gaussian={sub_gaussian!r}"
        )
    check_every = n if check_every is None else check_int("check_every", check_every, minimum=1)
    every = n if every is None else check_int("every", every, minimum=1)
    check_engine(engine)
    return n, k, delta, cap, sigma, threshold, check_every, every


# ------------------------------------------------------------------------------------------
# numeric pieces shared by the references and the fast engines


@njit(cache=True)
def outlier_mask_nb(mu, k, out):
    """out[i] = arm i is an outlier of mu (c_i > k sqrt(mean c^2), c = mu - mean(mu), sums in index order)."""
    m, sig, _ = threshold_nb(mu, k)
    bar = k * sig
    for i in range(mu.shape[0]):
        out[i] = (mu[i] - m) > bar


@njit(cache=True)
def gradient_nb(mu, lam, sigma, out):
    """out[i] = d(mu_i, lam_i) = (mu_i - lam_i)^2 / (2 sigma^2): dV_j/dN_i at the minimiser lam of V_j."""
    two_s2 = 2.0 * sigma * sigma
    for i in range(mu.shape[0]):
        x = mu[i] - lam[i]
        out[i] = x * x / two_s2


@njit(cache=True)
def challenger_nb(g, leader):
    """argmax_{i != leader} g_i, ties to the lowest index."""
    best = -1
    for i in range(g.shape[0]):
        if i != leader and (best < 0 or g[i] > g[best]):
            best = i
    return best


@njit(cache=True)
def argmax_nb(x):
    """argmax_i x_i, ties to the lowest index."""
    best = 0
    for i in range(1, x.shape[0]):
        if x[i] > x[best]:
            best = i
    return best


@njit(cache=True)
def radius_nb(t):
    """r_t = t^(-KAPPA), the relative radius of the r-subdifferential."""
    return float(t) ** -KAPPA


@njit(cache=True)
def subdifferential_nb(values, radius, out):
    """The r-subdifferential of F = min_j V_j: the arms j with V_j <= (1 + radius) min V, in index
    order, written to out[:m]; returns m."""
    f = values[0]
    for j in range(1, values.shape[0]):
        if values[j] < f:
            f = values[j]
    bar = f * (1.0 + radius)
    m = 0
    for j in range(values.shape[0]):
        if values[j] <= bar:
            out[m] = j
            m += 1
    return m


@njit(cache=True)
def game_nb(G, m, w, steps, z):
    r"""max over the simplex of min_{r < m} <z - w, G[r]>, approximately, by a fixed scheme: ``steps``
    rounds of optimistic Hedge (multiplicative weights whose step uses twice the current payoff minus
    the previous one; Rakhlin & Sridharan 2013) for both players at once, the row player (a
    distribution q over the m rows) minimising and the column player (z) maximising the payoff
    :math:`A_{ri}=G_{ri}-\langle w,G_r\rangle`, both with learning rate 1/R, R the payoff range;
    z is the average of the column player's iterates. Optimistic steps bring the average to the
    game's value faster than plain Hedge's :math:`O(1/\sqrt T)` (measured against a grid on
    3-4 arms: within 0.5% of R after 400 rounds, where plain Hedge was 2.5% away). A zero range
    (every payoff equal) gives the uniform z. Writes z; returns its value :math:`\min_r\langle z-w,G_r\rangle`."""
    n = w.shape[0]
    A = np.empty((m, n))
    lo = math.inf
    hi = -math.inf
    for r in range(m):
        base = 0.0
        for i in range(n):
            base += w[i] * G[r, i]
        for i in range(n):
            a = G[r, i] - base
            A[r, i] = a
            if a < lo:
                lo = a
            if a > hi:
                hi = a
    rng = hi - lo
    for i in range(n):
        z[i] = 0.0
    if not rng > 0.0:
        for i in range(n):
            z[i] = 1.0 / n
    else:
        eta = 1.0 / rng
        lz = np.zeros(n)
        lq = np.zeros(m)
        gz = np.zeros(n)  # the column player's previous gains
        gq = np.zeros(m)  # the row player's previous losses
        p = np.empty(n)
        q = np.empty(m)
        for _ in range(steps):
            mx = lz[0]
            for i in range(1, n):
                if lz[i] > mx:
                    mx = lz[i]
            s = 0.0
            for i in range(n):
                p[i] = math.exp(lz[i] - mx)
                s += p[i]
            for i in range(n):
                p[i] /= s
            mx = lq[0]
            for r in range(1, m):
                if lq[r] > mx:
                    mx = lq[r]
            s = 0.0
            for r in range(m):
                q[r] = math.exp(lq[r] - mx)
                s += q[r]
            for r in range(m):
                q[r] /= s
            for i in range(n):
                z[i] += p[i]
                gain = 0.0
                for r in range(m):
                    gain += q[r] * A[r, i]
                lz[i] += eta * (2.0 * gain - gz[i])
                gz[i] = gain
            for r in range(m):
                loss = 0.0
                for i in range(n):
                    loss += A[r, i] * p[i]
                lq[r] -= eta * (2.0 * loss - gq[r])
                gq[r] = loss
        for i in range(n):
            z[i] /= steps
    value = math.inf
    for r in range(m):
        v = 0.0
        for i in range(n):
            v += z[i] * A[r, i]
        if v < value:
            value = v
    return value


# ------------------------------------------------------------------------------------------
# the inner solver the sampling decisions use

#: Lower bounds are shrunk by this relative amount before they prune an arm (rounding).
PRUNE_SLACK = 1e-12


@njit(cache=True)
def values_nb(mu, D, k, outlier, radius, values):
    r"""The values :math:`V_j` of every arm that can lie within a factor ``1 + radius`` of
    :math:`F=\min_jV_j`, +inf for the others; returns :math:`\arg\min_jV_j` (ties to the lowest index).

    Since :math:`D\ge D_{\min}I` entrywise, :math:`V_j(D)\ge D_{\min}V_j(I)`, and :math:`V_j(I)` has a
    closed form for all arms at once (:func:`bandit_lib.arena.secular.isotropic_values_nb`, O(n)). The
    exact values (:func:`bandit_lib.arena.secular.arm_value_nb`) are computed in increasing order of
    that lower bound, until it exceeds ``1 + radius`` times the smallest value found: every later arm
    is then provably outside. The argmin and the arms within the radius are those of solving all n
    arms. With one arm much closer to the threshold than the others (the capped benchmark cells) a
    few solves replace n; near the optimal allocation, where the binding values tie, and while
    most arms have one pull (D_min small), little is saved.
    """
    n = mu.shape[0]
    dmin = D[0]
    for i in range(1, n):
        if D[i] < dmin:
            dmin = D[i]
    lb = np.empty(n)
    isotropic_values_nb(mu, k, lb)
    for i in range(n):
        lb[i] *= dmin * (1.0 - PRUNE_SLACK)
        values[i] = math.inf
    order = np.argsort(lb, kind="mergesort")
    best = -1
    for r in range(n):
        j = order[r]
        if best >= 0 and lb[j] > values[best] * (1.0 + radius):
            break
        values[j] = arm_value_nb(mu, D, j, k, outlier[j])
        if best < 0 or values[j] < values[best] or (values[j] == values[best] and j < best):
            best = j
    return best


def solve_values(mu, D, k, outlier, radius: float = 0.0) -> tuple[np.ndarray, int]:
    """(V_j, +inf for the arms provably beyond (1 + radius) min V; argmin_j V_j with ties to the lowest
    index), D = N / (2 sigma^2): :func:`values_nb`."""
    values = np.empty(len(mu))
    j = values_nb(mu, D, k, outlier, float(radius), values)
    return values, int(j)


def solve_minimiser(mu, D, j, k, outlier_j) -> tuple[float, np.ndarray]:
    """(V_j, a minimiser lam^(j)) of min over A_j of sum_i D_i (lam_i - mu_i)^2:
    :func:`bandit_lib.arena.secular.arm_minimiser_nb`."""
    lam = np.empty(len(mu))
    v = arm_minimiser_nb(mu, D, j, k, bool(outlier_j), lam)
    return float(v), lam


def outlier_mask(mu, k) -> np.ndarray:
    out = np.empty(len(mu), dtype=np.bool_)
    outlier_mask_nb(mu, k, out)
    return out


def gradient(mu, lam, sigma) -> np.ndarray:
    out = np.empty(len(mu))
    gradient_nb(mu, lam, sigma, out)
    return out


def game(G, w, steps: int = GAME_STEPS) -> tuple[np.ndarray, float]:
    """(z, its value) for the game of ``game_nb`` on the rows of G."""
    G = np.ascontiguousarray(G, dtype=np.float64)
    w = np.ascontiguousarray(w, dtype=np.float64)
    steps = check_int("steps", steps, minimum=1)
    if G.ndim != 2 or G.shape[1] != len(w) or G.shape[0] < 1:
        raise ValueError(f"G must be an (m, n) array with n = len(w) = {len(w)}; got G.shape={G.shape}")
    z = np.empty(len(w))
    value = game_nb(G, G.shape[0], w, steps, z)
    return z, float(value)


@functools.lru_cache(maxsize=64)
def threshold_constant(n: int, delta: float) -> float:
    """n C^G(ln(1/delta) / n), the t-free part of :func:`~bandit_lib.arena.glr.kk21_gaussian_threshold`."""
    return n * c_gauss(math.log(1.0 / delta) / n)


__all__ = ["GAME_STEPS", "KAPPA", "STOP_MARGIN", "check_sampler", "game", "kk21_gaussian_threshold"]


# ------------------------------------------------------------------------------------------
# the fast engines


@njit(cache=True)
def _screen_nb(mu, counts, k, sigma):
    """min_j N_j d(mu_j, t_j), t_j the leave-one-out threshold of arm j (glr.glr_upper_bound, Gaussian)."""
    n = mu.shape[0]
    s = 0.0
    for i in range(n):
        s += mu[i]
    m = s / n
    ss = 0.0
    for i in range(n):
        ss += (mu[i] - m) * (mu[i] - m)
    two_s2 = 2.0 * sigma * sigma
    best = math.inf
    for j in range(n):
        c = mu[j] - m
        a = -c / (n - 1)
        v = max((ss - c * c) / (n - 1) - a * a, 0.0)
        tj = m + a + k * math.sqrt(n * v / (n - 1 - k * k))
        x = counts[j] * (mu[j] - tj) * (mu[j] - tj) / two_s2
        if x < best:
            best = x
    return best


@njit(cache=True)
def _stop_nb(mu, counts, D, k, sigma, level, margin, outlier, values):
    """(code, statistic): code 0 = go on, 1 = stop, 2 = too close to call (Python decides).

    The screen first; then the exact values in increasing order of their isotropic lower bound
    (:func:`values_nb`), stopping as soon as one lies below ``level * (1 - margin)`` (no stop: Z is
    below it too) or every remaining lower bound lies above ``level * (1 + margin)``. The statistic
    returned is then an upper bound on Z, not Z itself."""
    ub = _screen_nb(mu, counts, k, sigma)
    lo_bar = level * (1.0 - margin)
    hi_bar = level * (1.0 + margin)
    if ub < lo_bar:
        return 0, ub
    outlier_mask_nb(mu, k, outlier)
    n = mu.shape[0]
    dmin = D[0]
    for i in range(1, n):
        if D[i] < dmin:
            dmin = D[i]
    lb = np.empty(n)
    isotropic_values_nb(mu, k, lb)
    for i in range(n):
        lb[i] *= dmin * (1.0 - PRUNE_SLACK)
    order = np.argsort(lb, kind="mergesort")
    z = math.inf
    for r in range(n):
        j = order[r]
        if lb[j] > hi_bar:
            break
        v = arm_value_nb(mu, D, j, k, outlier[j])
        if v < z:
            z = v
        if z < lo_bar:
            return 0, z
    if z > hi_bar:
        return 1, min(z, ub)
    return 2, z


# state vector indices (int64): shared by both kernels
_T, _NEXT, _SOLVES, _FORCED, _SKIP, _LEADER, _CHALLENGER, _GAMES = range(8)
# float state: statistic and threshold at the last check
_STAT, _LEVEL = 0, 1

STOPPED, CAPPED, ASK = 0, 1, 2


@njit(cache=True)
def _check_nb(t, n, cap, check_every, ist, fst, mu, counts, D, k, sigma, cg, margin, python_stop, outlier, values):
    """The stop check at t (line 3 of both samplers): -1 = no decision needed, else a return code."""
    if (t % check_every == 0 or t >= cap) and t != ist[_SKIP]:
        if python_stop:
            return ASK
        level = n * 2.0 * math.log(4.0 + math.log(max(t / n, 1.0))) + cg
        for i in range(n):
            D[i] = counts[i] / (2.0 * sigma * sigma)
        code, stat = _stop_nb(mu, counts, D, k, sigma, level, margin, outlier, values)
        fst[_STAT] = stat
        fst[_LEVEL] = level
        if code == 1:
            return STOPPED
        if code == 2:
            return ASK
    if t >= cap:
        return CAPPED
    return -1


@njit(cache=True)
def _forced_nb(counts, t):
    """argmin_{i : N_i < sqrt(t) - n/2} N_i (ties to the lowest index), or -1."""
    n = counts.shape[0]
    bar = math.sqrt(t) - n / 2
    arm = -1
    for i in range(n):
        if counts[i] < bar and (arm < 0 or counts[i] < counts[arm]):
            arm = i
    return arm


@njit(cache=True)
def _toptwo_nb(
    kind,
    keys,
    means,
    scale,
    tv,
    offsets,
    blocks,
    words,
    sums,
    counts,
    lead_steps,
    lead_pulls,
    ist,
    fst,
    k,
    sigma,
    cap,
    check_every,
    every,
    beta,
    cg,
    margin,
    python_stop,
):
    n = sums.shape[0]
    mu = np.empty(n)
    D = np.empty(n)
    outlier = np.empty(n, dtype=np.bool_)
    values = np.empty(n)
    lam = np.empty(n)
    g = np.empty(n)
    t = ist[_T]
    while True:
        for i in range(n):
            mu[i] = sums[i] / counts[i]
        code = _check_nb(
            t, n, cap, check_every, ist, fst, mu, counts, D, k, sigma, cg, margin, python_stop, outlier, values
        )
        if code >= 0:
            ist[_T] = t
            return code
        arm = _forced_nb(counts, t)
        if arm >= 0:
            ist[_FORCED] += 1
        else:
            if t >= ist[_NEXT]:
                for i in range(n):
                    D[i] = counts[i] / (2.0 * sigma * sigma)
                outlier_mask_nb(mu, k, outlier)
                leader = values_nb(mu, D, k, outlier, 0.0, values)
                arm_minimiser_nb(mu, D, leader, k, outlier[leader], lam)
                gradient_nb(mu, lam, sigma, g)
                ist[_LEADER] = leader
                ist[_CHALLENGER] = challenger_nb(g, leader)
                ist[_NEXT] = t + every
                ist[_SOLVES] += 1
            leader = ist[_LEADER]
            lead_steps[leader] += 1
            if lead_pulls[leader] < beta * lead_steps[leader]:
                arm = leader
                lead_pulls[leader] += 1
            else:
                arm = ist[_CHALLENGER]
        sums[arm] = pull_sum(kind, keys, means, scale, tv, offsets, blocks, words, arm, counts[arm], 1, sums[arm])
        counts[arm] += 1
        t += 1


@njit(cache=True)
def _frank_wolfe_nb(
    kind,
    keys,
    means,
    scale,
    tv,
    offsets,
    blocks,
    words,
    sums,
    counts,
    S,
    z,
    ist,
    fst,
    k,
    sigma,
    cap,
    check_every,
    every,
    game_steps,
    cg,
    margin,
    python_stop,
):
    n = sums.shape[0]
    mu = np.empty(n)
    D = np.empty(n)
    w = np.empty(n)
    outlier = np.empty(n, dtype=np.bool_)
    values = np.empty(n)
    lam = np.empty(n)
    H = np.empty(n, dtype=np.int64)
    G = np.empty((n, n))
    t = ist[_T]
    while True:
        for i in range(n):
            mu[i] = sums[i] / counts[i]
        code = _check_nb(
            t, n, cap, check_every, ist, fst, mu, counts, D, k, sigma, cg, margin, python_stop, outlier, values
        )
        if code >= 0:
            ist[_T] = t
            return code
        arm = _forced_nb(counts, t)
        if arm >= 0:
            S[arm] += 1.0
            ist[_FORCED] += 1
        else:
            if t >= ist[_NEXT]:
                for i in range(n):
                    w[i] = counts[i] / t
                    D[i] = counts[i] / (2.0 * sigma * sigma)
                outlier_mask_nb(mu, k, outlier)
                radius = radius_nb(t)
                values_nb(mu, D, k, outlier, radius, values)
                m = subdifferential_nb(values, radius, H)
                for r in range(m):
                    arm_minimiser_nb(mu, D, H[r], k, outlier[H[r]], lam)
                    gradient_nb(mu, lam, sigma, G[r])
                if m == 1:
                    for i in range(n):
                        z[i] = 0.0
                    z[argmax_nb(G[0])] = 1.0
                else:
                    game_nb(G, m, w, game_steps, z)
                    ist[_GAMES] += 1
                ist[_NEXT] = t + every
                ist[_SOLVES] += 1
            best = 0
            for i in range(n):
                S[i] += z[i]
                if S[i] - counts[i] > S[best] - counts[best]:
                    best = i
            arm = best
        sums[arm] = pull_sum(kind, keys, means, scale, tv, offsets, blocks, words, arm, counts[arm], 1, sums[arm])
        counts[arm] += 1
        t += 1


@njit(cache=True)
def _initial_pulls_nb(kind, keys, means, scale, tv, offsets, blocks, words, sums, counts):
    for i in range(sums.shape[0]):
        sums[i] = pull_sum(kind, keys, means, scale, tv, offsets, blocks, words, i, 0, 1, 0.0)
        counts[i] = 1


def run_fast(which, tape, n, k, delta, cap, sigma, threshold, check_every, every, param, custom, margin):
    """The fast engine of ``which`` ("toptwo": ``param`` = beta; "frank_wolfe": ``param`` = game steps):
    numba loops, with the stop checks they cannot settle handed to :func:`~bandit_lib.arena.glr.should_stop`."""
    arrays = tape.arrays
    blocks, words = new_cache(n)
    sums = np.zeros(n)
    counts = np.zeros(n, dtype=np.int64)
    _initial_pulls_nb(*arrays, blocks, words, sums, counts)
    ist = np.zeros(8, dtype=np.int64)
    ist[_T] = ist[_NEXT] = n
    ist[_SKIP] = -1
    ist[_LEADER] = ist[_CHALLENGER] = -1
    fst = np.zeros(2)
    cg = 0.0 if custom else threshold_constant(n, delta)
    margin = float(margin)
    if which == "toptwo":
        lead_steps = np.zeros(n, dtype=np.int64)
        lead_pulls = np.zeros(n, dtype=np.int64)
        step = lambda: _toptwo_nb(  # noqa: E731
            *arrays,
            blocks,
            words,
            sums,
            counts,
            lead_steps,
            lead_pulls,
            ist,
            fst,
            k,
            sigma,
            cap,
            check_every,
            every,
            float(param),
            cg,
            margin,
            custom,
        )
    else:
        S = np.ones(n)
        z = np.zeros(n)
        step = lambda: _frank_wolfe_nb(  # noqa: E731
            *arrays,
            blocks,
            words,
            sums,
            counts,
            S,
            z,
            ist,
            fst,
            k,
            sigma,
            cap,
            check_every,
            every,
            int(param),
            cg,
            margin,
            custom,
        )
    while True:
        code = step()
        if code == ASK:
            t = int(ist[_T])
            mu_hat = sums / counts
            level = float(threshold(t, n, delta))
            stop, stat = should_stop(mu_hat, counts, k, "gaussian", sigma, level)
            fst[_STAT], fst[_LEVEL] = stat, level
            if stop:
                code = STOPPED
            else:
                ist[_SKIP] = t  # resume at t, past its check
                continue
        break
    tape.counts[:] = counts  # the tape is consumed exactly as the reference would have consumed it
    info = {
        "engine": "fast",
        "Z": float(fst[_STAT]),
        "threshold": float(fst[_LEVEL]),
        "solves": int(ist[_SOLVES]),
        "forced": int(ist[_FORCED]),
    }
    if which != "toptwo":
        info["games"] = int(ist[_GAMES])
    return Outcome(ksigma_outliers(sums / counts, k), int(ist[_T]), code == CAPPED, counts.copy(), info)
