r"""Machinery shared by the Top-Two and Frank-Wolfe samplers (:mod:`~bandit_lib.arena.toptwo`,
:mod:`~bandit_lib.arena.frank_wolfe`): argument checks, the numeric pieces their sampling decisions
rest on, and the fast engines' stop.

**One set of numeric pieces for both engines.** A sampling decision compares floating-point numbers
(the values :math:`V_j`, the gradients, the game's iterates); two implementations of the same
formula can round differently and then pull different arms. So every number a sampling decision
reads is computed by a numba function of this module, which the readable references call through
Python and the fast engines call inside their loops: the outlier mask of :math:`\hat\mu`
(:func:`outlier_mask_nb`), the inner values and minimisers (:func:`solve_values`,
:func:`solve_minimiser`), the gradient (:func:`gradient_nb`), the challenger
(:func:`challenger_nb`), the r-subdifferential (:func:`subdifferential_nb`) and the game
(:func:`game_nb`). The references' control flow (forced exploration, tracking, lazy re-solving, the
stop) is plain Python.

**The stop.** The references stop with :func:`bandit_lib.arena.glr.should_stop` (the eigh-based
inner solver of :mod:`~bandit_lib.arena.lower_bound`). A fast engine computes the same screen and
statistic in numba with its own solver; when its statistic lies within a relative
:data:`STOP_MARGIN` of the threshold, or with a threshold other than the default KK21 Gaussian one,
it hands the check back to Python, which calls ``should_stop`` itself. Away from the threshold the
two solvers agree far inside the margin (both are certified global minimisers), so the decision is
the reference's; the tests run with ``margin=inf`` (every check by ``should_stop``) and ``margin=0``
(none) and compare both with the reference.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from bandit_lib.arena.glr import c_gauss, check_detector, kk21_gaussian_threshold
from bandit_lib.arena.lower_bound import _gauss_arm
from bandit_lib.checks import check_engine, check_int

#: Relative distance to the threshold within which a fast engine's stop check is decided by
#: :func:`bandit_lib.arena.glr.should_stop` in Python.
STOP_MARGIN = 1e-7

#: Iterations of the fixed multiplicative-weights scheme of :func:`game_nb`.
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
    n = mu.shape[0]
    s = 0.0
    for i in range(n):
        s += mu[i]
    m = s / n
    ss = 0.0
    for i in range(n):
        c = mu[i] - m
        ss += c * c
    bar = k * math.sqrt(ss / n)
    for i in range(n):
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
def subdifferential_nb(values, t, out):
    """The r-subdifferential of F = min_j V_j: the arms j with V_j <= (1 + t^-KAPPA) min V, in index
    order, written to out[:m]; returns m."""
    f = values[0]
    for j in range(1, values.shape[0]):
        if values[j] < f:
            f = values[j]
    bar = f * (1.0 + float(t) ** -KAPPA)
    m = 0
    for j in range(values.shape[0]):
        if values[j] <= bar:
            out[m] = j
            m += 1
    return m


@njit(cache=True)
def game_nb(G, m, w, steps, z):
    r"""max over the simplex of min_{r < m} <z - w, G[r]>, approximately, by a fixed scheme: ``steps``
    rounds of simultaneous Hedge (multiplicative weights) for the row player (a distribution q over
    the m rows, who minimises) and the column player (z, who maximises), on the payoff
    :math:`A_{ri}=G_{ri}-\langle w,G_r\rangle` with learning rates
    :math:`\sqrt{8\ln(\cdot)/T}/R`, R the payoff range; z is the average of the column player's
    iterates. Hedge's regret bound gives
    :math:`\min_rA_r\bar z\ge v-R\,(\sqrt{\ln n/(2T)}+\sqrt{\ln m/(2T)})`, v the value of the game.
    A zero range (every payoff equal) gives the uniform z. Writes z; returns its value
    :math:`\min_r\langle z-w,G_r\rangle`."""
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
        eta_z = math.sqrt(8.0 * math.log(n) / steps) / rng
        eta_q = math.sqrt(8.0 * math.log(max(m, 2)) / steps) / rng
        lz = np.zeros(n)
        lq = np.zeros(m)
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
                lz[i] += eta_z * gain
            for r in range(m):
                loss = 0.0
                for i in range(n):
                    loss += A[r, i] * p[i]
                lq[r] -= eta_q * loss
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


def solve_values(mu, D, k, outlier) -> tuple[np.ndarray, int]:
    """(V_j for every arm j, argmin_j V_j with ties to the lowest index), D = N / (2 sigma^2)."""
    n = len(mu)
    values = np.empty(n)
    for j in range(n):
        values[j] = _gauss_arm(mu, D, j, k, bool(outlier[j]), {})[0]
    return values, int(np.argmin(values))


def solve_minimiser(mu, D, j, k, outlier_j) -> tuple[float, np.ndarray]:
    """(V_j, a minimiser lam^(j)) of min over A_j of sum_i D_i (lam_i - mu_i)^2."""
    v, lam = _gauss_arm(mu, D, j, k, bool(outlier_j), {})
    return float(v), np.asarray(lam, dtype=np.float64)


def outlier_mask(mu, k) -> np.ndarray:
    out = np.empty(len(mu), dtype=np.bool_)
    outlier_mask_nb(mu, k, out)
    return out


def gradient(mu, lam, sigma) -> np.ndarray:
    out = np.empty(len(mu))
    gradient_nb(mu, lam, sigma, out)
    return out


def game(G, w, steps: int = GAME_STEPS) -> tuple[np.ndarray, float]:
    """(z, its value) for the game of :func:`game_nb` on the rows of G."""
    G = np.ascontiguousarray(G, dtype=np.float64)
    w = np.ascontiguousarray(w, dtype=np.float64)
    steps = check_int("steps", steps, minimum=1)
    if G.ndim != 2 or G.shape[1] != len(w) or G.shape[0] < 1:
        raise ValueError(f"G must be an (m, n) array with n = len(w) = {len(w)}; got G.shape={G.shape}")
    z = np.empty(len(w))
    value = game_nb(G, G.shape[0], w, steps, z)
    return z, float(value)


def threshold_constant(n: int, delta: float) -> float:
    """n C^G(ln(1/delta) / n), the t-free part of :func:`~bandit_lib.arena.glr.kk21_gaussian_threshold`."""
    return n * c_gauss(math.log(1.0 / delta) / n)


__all__ = ["GAME_STEPS", "KAPPA", "STOP_MARGIN", "check_sampler", "game", "kk21_gaussian_threshold"]
