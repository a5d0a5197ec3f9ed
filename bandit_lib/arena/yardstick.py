r"""Certified yardsticks: brackets on the characteristic time :math:`T^*` at every scale.

:math:`1/T^*=\sup_{w\in\Sigma_n}F(w)`, :math:`F(w)=\inf_{\lambda\in\mathrm{Alt}(\mu)}\sum_iw_id(\mu_i,\lambda_i)`
(:mod:`bandit_lib.arena.lower_bound`). Two facts give a bracket whatever produced its ingredients:

* **Upper value of** :math:`T^*`: for any :math:`w`, :math:`T^*\le1/F(w)` -- certified when
  :math:`F(w)` is a certified *lower* bound on the inner infimum (the Gaussian inner values are exact
  global minima; Bernoulli values of normal arms come from a convex solve, certified only up to its
  tolerance);
* **Lower bound on** :math:`T^*` (:func:`mixture_certificate`): for alternatives
  :math:`\lambda^{(1)},\dots,\lambda^{(M)}\in\mathrm{Alt}(\mu)` and a mixture :math:`p\in\Sigma_M`,

  .. math::
     \begin{aligned}
     F(w)&\le\min_m\sum_iw_id(\mu_i,\lambda^{(m)}_i)\\
     &\le\sum_iw_i\sum_mp_md(\mu_i,\lambda^{(m)}_i)\le\max_i\sum_mp_md(\mu_i,\lambda^{(m)}_i)
     \end{aligned}

  for every :math:`w`, so :math:`T^*\ge1/\max_i(p^\top\!D)_i`, :math:`D_{mi}=d(\mu_i,\lambda^{(m)}_i)`.
  Checking it takes one pass over the alternatives (is each in Alt(mu), with a margin? then a
  matrix-vector product): no LP solver, no trust in how the alternatives were found. The best
  :math:`p` is the dual of the cutting-plane LP :math:`\max_w\min_m\sum_iw_iD_{mi}`, whose value it
  then equals.

**Bernoulli alternatives inside the box** (:func:`box_arm_values`, :func:`certified_lower_T_box`).
kl is infinite outside :math:`(0,1)^n`, so an alternative must stay inside. Arm j changes side iff
it crosses its leave-one-out threshold :math:`t_j(x)=\bar x+k\sqrt{n\,v(x)/(n-1-k^2)}`, where
:math:`x=\lambda_{-j}` and :math:`\bar x, v(x)` are the others' mean and population variance
(:func:`~bandit_lib.arena.lower_bound.leave_one_out_thresholds`). Hence

.. math::
   \begin{aligned}
   V_j(w)&=\min_{x\in(0,1)^{n-1}}\ \sum_{i\ne j}w_i\,\mathrm{kl}(\mu_i,x_i)+w_j\,\mathrm{kl}(\mu_j,\ell_j(x)),\\
   \ell_j(x)&=\max(\mu_j,t_j(x))\ \text{(normal arm)},\quad \min(\mu_j,t_j(x))\ \text{(outlier)},
   \end{aligned}

a smooth problem in n - 1 bounded variables (L-BFGS-B). For a normal arm :math:`t_j` is convex (a
mean plus a norm) and :math:`\mathrm{kl}(\mu_j,\max(\mu_j,\cdot))` convex and non-decreasing, so
the problem is convex and the computed value is the global minimum to the solver's tolerance;
for an outlier arm it is a local one. This reaches the instances where no arm can change side
alone (ADE20's window family: U[0, 1] means, k = 2.5, the threshold above 1): the others shrink
towards their mean until :math:`t_j<1`. Arm j is placed ``margin`` beyond :math:`t_j`, and every
alternative is checked (:func:`is_alternative`) before it becomes a cut. The outer maximisation is
the stabilised Kelley scheme of :func:`~bandit_lib.arena.lower_bound.optimal_weights` (LP over
all cuts, then F evaluated halfway between the LP maximiser and the best point).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit
from scipy import optimize

from bandit_lib.arena.lower_bound import (
    _check_problem,
    _cut_lp,
    _gap_sign,
    _gauss_all,
    _refuse_degenerate,
    check_k_for,
    check_w_floor,
    divergence_values,
    kl_bernoulli,
    single_arm_bound,
)
from bandit_lib.arena.secular import arm_centred_nb as _arm
from bandit_lib.arena.secular import centred_nb as _centred
from bandit_lib.arena.secular import check_weights
from bandit_lib.arena.secular import cj_nb as _cj
from bandit_lib.arena.secular import halfspace_nb as _halfspace
from bandit_lib.arena.secular import mean_ss_nb as _mean_ss
from bandit_lib.arena.secular import objective_nb as _f
from bandit_lib.arena.secular import positive_definite_nb as _pd
from bandit_lib.arena.secular import q_nb as _q
from bandit_lib.arena.secular import ss_nb as _ss
from bandit_lib.arena.secular import stationary_point_nb as _lam
from bandit_lib.blas_threads import single_blas_thread
from bandit_lib.checks import (
    check_in_range,
    check_index,
    check_index_set,
    check_int,
    check_nonnegative,
    check_positive,
    check_vector,
)

#: Bernoulli alternatives stay in [BOX, 1 - BOX]
BOX = 1e-9
#: half-space iterations of a normal arm's refined bound (``_normal_hs``)
HS_ITERS = 6


@dataclass(frozen=True)
class Certificate:
    """Alternatives ``lambdas`` (M x n, each in Alt(mu)) and a mixture ``p`` over them:
    :func:`mixture_certificate` turns them into ``T_lower`` without any solver. ``T_upper`` is
    1 / F(w) at the weights ``w`` (see ``upper_certified``); ``info`` holds counts and timings."""

    T_lower: float
    T_upper: float
    upper_certified: bool
    w: np.ndarray
    lambdas: np.ndarray
    p: np.ndarray
    info: dict = field(default_factory=dict)


def is_alternative(mu, k: float, lam, *, margin: float = 1e-12) -> bool:
    """Whether ``lam`` lies in Alt(mu) with a margin: some arm lies on the other side of theta(lam)
    than of theta(mu) by more than ``margin`` (relative to the spread of lam), i.e. the outlier
    sets differ however the threshold is rounded. ``lam``: n finite numbers (else an error)."""
    mu = check_vector("mu", mu, min_length=2)
    k = check_k_for(k, len(mu))
    lam = check_vector("lam", lam)
    if lam.shape != mu.shape:
        raise ValueError(f"lam must hold one value per arm (n = {len(mu)}); got len(lam)={len(lam)}")
    margin = check_nonnegative("margin", margin)
    return _is_alternative(mu, k, lam, margin)


def _is_alternative(mu, k, lam, margin) -> bool:
    """:func:`is_alternative` on checked arguments (False for a point with a NaN)."""
    if not np.isfinite(lam).all():
        return False
    out_mu = _gap_sign(mu, k)
    c = lam - lam.mean()
    s = math.sqrt(float(c @ c) / len(lam))
    gap = c - k * s
    tol = margin * max(s, float(np.abs(c).max()), 1e-300)
    flipped = (out_mu & (gap < -tol)) | (~out_mu & (gap > tol))
    return bool(flipped.any())


def mixture_certificate(
    mu, k: float, lambdas, p, *, divergence: str = "gaussian", sigma: float = 1.0, margin: float = 1e-12
) -> float:
    r"""The certified lower bound :math:`T^*\ge1/\max_i\sum_mp_md(\mu_i,\lambda^{(m)}_i)` (module docstring).

    Every row of ``lambdas`` must pass :func:`is_alternative` (else ValueError naming it), and Bernoulli
    alternatives must lie in [0, 1]^n; ``p`` >= 0 is normalised. Independent of how the rows were found.
    """
    mu, k, divergence, sigma = _check_problem(mu, k, divergence, sigma)
    margin = check_nonnegative("margin", margin)
    try:
        lambdas = np.atleast_2d(np.asarray(lambdas, dtype=np.float64))
        p = np.asarray(p, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"lambdas and p must be arrays of numbers; got lambdas={lambdas!r}, p={p!r}") from exc
    if lambdas.ndim != 2 or lambdas.shape[1] != len(mu) or p.shape != (lambdas.shape[0],):
        raise ValueError(f"need lambdas of shape (M, {len(mu)}) and p of shape (M,); got {lambdas.shape}, {p.shape}")
    if not (p >= 0).all() or not p.sum() > 0 or not np.isfinite(p).all():
        raise ValueError(f"p must be a non-negative mixture with positive mass; got p={p!r}")
    for m, lam in enumerate(lambdas):
        if p[m] > 0 and not np.isfinite(lam).all():
            raise ValueError(f"lambdas[{m}] holds a non-finite value: not a point")
        if p[m] > 0 and not _is_alternative(mu, k, lam, margin):
            raise ValueError(f"lambdas[{m}] is not in Alt(mu): its outlier set is that of mu")
        if divergence == "bernoulli" and p[m] > 0 and not ((lam >= 0) & (lam <= 1)).all():
            raise ValueError(f"lambdas[{m}] leaves [0, 1]^n: kl is infinite there")
    keep = p > 0
    dmat = np.array([divergence_values(mu, lam, divergence, sigma) for lam in lambdas[keep]])
    top = float(np.max((p[keep] / p[keep].sum()) @ dmat))
    return 1.0 / top if top > 0 else math.inf


def _nudge(mu, k, lam, j, outlier, margin):
    """A minimiser on the boundary of A_j (arm j on the threshold) moved just inside Alt(mu): arm j
    pushed outwards by delta, which moves c_j - k s by delta (n - 1 - k^2) / n > 0 (also from the
    apex); delta doubles until :func:`is_alternative` agrees. None if it never does."""
    lam = np.array(lam, dtype=np.float64)
    scale = max(float(np.abs(lam - lam.mean()).max()), float(np.abs(lam).max()), 1e-12)
    delta = 1e-10 * scale
    for _ in range(60):
        trial = lam.copy()
        trial[j] += -delta if outlier else delta
        if _is_alternative(mu, k, trial, margin):
            return trial
        delta *= 2.0
    return None


def _lp_dual(rows: np.ndarray):
    """max_w min_m rows[m] . w over the simplex (HiGHS): (value, w, p) with p the normalised dual of
    the cut constraints, a mixture for :func:`mixture_certificate`."""
    n = rows.shape[1]
    res = _cut_lp(list(rows), n)
    if res.status != 0:
        raise RuntimeError(f"the cutting-plane LP failed with {len(rows)} cuts: {res.message}")
    p = np.maximum(-np.asarray(res.ineqlin.marginals), 0.0)
    return -float(res.fun), res.x[:n], p / p.sum()


# ------------------------------------------------------------------------------------------
# Bernoulli alternatives inside the box


def _box_arm(mu, w, j, k, outlier, x0, margin):
    """(value, lam) of min over the box of the cost of making arm j change side (module docstring)."""
    n = len(mu)
    others = np.arange(n) != j
    mo, wo, mj, wj = mu[others], w[others], mu[j], w[j]
    K = k * math.sqrt(n / (n - 1 - k * k))
    sgn = -1.0 if outlier else 1.0

    def place(x):
        a = x.mean()
        c = x - a
        sd = math.sqrt(max(float(c @ c) / (n - 1), 1e-300))
        t = a + K * sd + sgn * margin
        return t, c, sd

    # kl(mo, x) = h - mo ln x - (1 - mo) ln(1 - x) with h = mo ln mo + (1 - mo) ln(1 - mo), mo in
    # (0, 1) and x in the box: two logarithms an element, no checks (the solver's hot loop)
    h = float(wo @ (mo * np.log(mo) + (1.0 - mo) * np.log1p(-mo)))
    wm, wn = wo * mo, wo * (1.0 - mo)

    def fun(x):
        t, c, sd = place(x)
        val = h - float(wm @ np.log(x)) - float(wn @ np.log1p(-x))
        grad = wo * (x - mo) / (x * (1 - x))
        moved = (t > mj) if not outlier else (t < mj)
        if moved:
            tc = min(max(t, BOX), 1 - BOX)
            val += wj * float(kl_bernoulli(mj, tc))
            dt = 1.0 / (n - 1) + K * c / ((n - 1) * sd)
            grad = grad + wj * (tc - mj) / (tc * (1 - tc)) * dt
            if t != tc:  # outside the box: a steep penalty leads the solver back
                val += 1e6 * (t - tc) ** 2
                grad = grad + 2e6 * (t - tc) * dt
        return val, grad

    res = optimize.minimize(
        fun,
        np.clip(x0, 1e-6, 1 - 1e-6),
        jac=True,
        method="L-BFGS-B",
        bounds=[(BOX, 1 - BOX)] * (n - 1),
        options={"maxiter": 2000, "ftol": 1e-13, "gtol": 1e-10},
    )
    x = res.x
    t = place(x)[0]
    lam = np.empty(n)
    lam[others] = x
    lam[j] = (max(mj, t) if not outlier else min(mj, t)) if BOX <= t <= 1 - BOX else np.nan
    return float(w @ kl_bernoulli(mu, np.clip(lam, 0, 1))) if np.isfinite(lam).all() else math.inf, lam


def _kl_conjugate(mu, w, y):
    r"""f^*(y) = \sup_{x\in[0,1]}\ yx - w\,\mathrm{kl}(\mu, x) (elementwise, w > 0, mu in (0, 1)): the
    maximiser solves y x (1 - x) = w (x - mu), i.e. x = 2 w mu / ((w - y) + sqrt((w - y)^2 + 4 y w mu))
    (the root in (0, 1), written without cancellation)."""
    x = 2.0 * w * mu / ((w - y) + np.sqrt((w - y) ** 2 + 4.0 * y * w * mu))
    return y * x - w * kl_bernoulli(mu, x)


def box_dual_bound(mu, w, k: float, j: int, lam) -> float:
    r"""A certified lower bound on a *normal* arm's Bernoulli value
    :math:`V_j(w)=\min_{\lambda\in K_j\cap[0,1]^n}\sum_iw_i\,\mathrm{kl}(\mu_i,\lambda_i)`, from the
    conic dual at the point ``lam`` (a computed minimiser).

    :math:`K_j=\{c_j\ge k\|c\|/\sqrt n\}` (c the centred :math:`\lambda`) is a convex cone, so for every
    y in its dual cone :math:`K_j^*` (centred, :math:`\hat u^\top y\ge\|y\|\sqrt{(n-1-k^2)/(n-1)}`,
    :math:`\hat u` the unit centred :math:`e_j`), weak duality gives
    :math:`V_j\ge-\sum_if_i^*(y_i)` with :math:`f_i^*` the conjugate of :math:`w_i\mathrm{kl}(\mu_i,\cdot)`
    on [0, 1] (``_kl_conjugate``). y is the centred gradient of the objective at ``lam`` moved
    along :math:`\hat u` into :math:`K_j^*`; at an exact minimiser it already lies there (KKT) and
    the bound equals the value. The bound holds whatever ``lam`` is: a poor point gives a poor bound,
    never a false one. (Outlier arms: :math:`A_j` is not convex, and no such bound is offered.)"""
    mu, k, _, _ = _check_problem(mu, k, "bernoulli", 1.0)
    n = len(mu)
    w = check_weights(w, n)
    j = check_index("j", j, n)
    lam = check_vector("lam", lam, low=0.0, high=1.0)
    if len(lam) != n:
        raise ValueError(f"lam must hold one value per arm (n = {n}); got len(lam)={len(lam)}")
    _refuse_degenerate(mu, k)
    if _gap_sign(mu, k)[j]:
        raise ValueError(
            f"arm j={j} is an outlier of mu: A_j is not convex, and the dual bound holds for normal arms only"
        )
    return _box_dual_bound(mu, w, k, j, lam)


def _box_dual_bound(mu, w, k, j, lam) -> float:
    """:func:`box_dual_bound` on checked arguments."""
    n = len(mu)
    lam = np.clip(lam, BOX, 1.0 - BOX)
    grad = w * (lam - mu) / (lam * (1.0 - lam))
    y = grad - grad.mean()
    u = -np.full(n, 1.0 / n)
    u[j] += 1.0
    u /= math.sqrt(float(u @ u))
    a = float(u @ y)
    r = math.sqrt(max(float(y @ y) - a * a, 0.0))
    if k > 0:
        need = r * math.sqrt(n - 1.0 - k * k) / k * (1.0 + 1e-9)
        y = y + max(0.0, need - a) * u
    else:  # K_j is the half-space c_j >= 0: its dual cone is the ray along u
        y = max(a, 0.0) * u
    y -= y.mean()  # centred to rounding: K_j holds the line of 1
    return float(-np.sum(_kl_conjugate(mu, w, y)))


def box_arm_values(mu, w, k: float, *, margin: float = 1e-9, starts=None, arms=None):
    """For each arm j (or each j in ``arms``; the others get inf and NaN), (V_j, lam_j): the Bernoulli
    cost of the cheapest found alternative inside the box in which arm j changes side. ``starts``
    (n x n, row j the start for arm j, its j-th entry unused) warm-starts the solves; default: the
    others shrunk halfway towards their mean. The instance must not be degenerate (all means equal,
    an arm on the threshold: T* is infinite, refused); ``w`` > 0, one weight per arm."""
    mu, k, _, _ = _check_problem(mu, k, "bernoulli", 1.0)
    n = len(mu)
    w = check_weights(w, n)
    margin = check_positive("margin", margin)
    if starts is not None:
        starts = np.asarray(starts, dtype=np.float64)
        if starts.shape != (n, n):
            raise ValueError(f"starts must be an n x n array (n = {n}); got shape {starts.shape}")
    if arms is not None:
        arms = check_index_set("arms", arms, n)
    _refuse_degenerate(mu, k)
    return _box_arm_values(mu, w, k, margin, starts, arms)


def _box_arm_values(mu, w, k, margin, starts, arms):
    """:func:`box_arm_values` on checked arguments."""
    n = len(mu)
    outlier = _gap_sign(mu, k)
    values = np.full(n, math.inf)
    lambdas = np.full((n, n), np.nan)
    for j in range(n) if arms is None else arms:
        others = np.arange(n) != j
        if starts is None or not np.isfinite(starts[j][others]).all():
            x0 = mu[others].mean() + 0.5 * (mu[others] - mu[others].mean())
        else:
            x0 = starts[j][others]
        values[j], lambdas[j] = _box_arm(mu, w, j, k, bool(outlier[j]), x0, margin)
    return values, lambdas


@single_blas_thread()
def certified_lower_T_box(
    mu,
    k: float,
    *,
    rtol: float = 1e-2,
    max_iter: int = 60,
    margin: float = 1e-9,
    w_floor: float = 1e-6,
    active: int = 12,
    patience: int = 4,
) -> tuple[float, np.ndarray, Certificate]:
    r"""A certified positive lower bound on the Bernoulli :math:`T^*` from alternatives inside the box:
    ``(T_lower, w, certificate)``.

    Cuts from :func:`box_arm_values` at the stabilised Kelley points; every alternative is checked by
    :func:`is_alternative` and kept only inside :math:`[0,1]^n`; ``T_lower`` is
    :func:`mixture_certificate` of the LP's dual mixture (recomputed from the alternatives).
    Each Kelley step re-solves only the ``active`` arms whose last values were least (the cuts that
    bind); every arm is solved at the uniform start and at the end. ``certificate.T_upper`` =
    1 / F(w) at the best fully evaluated weights: where every arm is normal (each V_j a convex
    problem) F is the least of the arms' conic dual bounds (:func:`box_dual_bound`) at the solves'
    points, so ``T_upper`` is a certified upper value of the Bernoulli :math:`T^*` (``upper_certified``
    True; ``info["F_best"]`` holds the solves' own F, ``info["F_dual"]`` the certified one); where an
    arm is an outlier, F of the local solves, not certified (False). Stops when the LP value has improved by less than ``rtol`` (relative) ``patience`` times
    in a row, or after ``max_iter`` evaluations: an iteration budget, never a wall-clock limit, so the
    result is the same on any machine under any load. It runs on one BLAS thread whatever the
    caller's process allows (:func:`~bandit_lib.blas_threads.single_blas_thread`): scipy's optimisers
    sum differently on two threads, and the Kelley steps amplify the last bits (window n = 100,
    case 1: T_box 35.778 on one thread, 35.266 on two, issue 39).

    The LP's rows are scaled by 1 / F(w) of the best weights (HiGHS's tolerances are absolute; the
    kl rows of the window family are of order 10^-2). Every accepted alternative is stored as a copy:
    the warm starts of the next solves live in another array, which those solves overwrite (an
    alternative once held as a view into it was later replaced by another arm's point, or by the
    NaN of a failed solve, before it reached the certificate).
    """
    mu, k, _, _ = _check_problem(mu, k, "bernoulli", 1.0)
    rtol = check_positive("rtol", rtol)
    max_iter = check_int("max_iter", max_iter, minimum=1)
    margin = check_positive("margin", margin)
    w_floor = check_w_floor(w_floor, len(mu))
    active = check_int("active", active, minimum=1)
    patience = check_int("patience", patience, minimum=1)
    _refuse_degenerate(mu, k)
    start = time.perf_counter()
    n = len(mu)
    rows: list[np.ndarray] = []
    lams: list[np.ndarray] = []
    info = {"rejected": 0, "evaluations": 0}
    best = {"F": -math.inf, "w": np.full(n, 1.0 / n)}

    state = {"values": None}

    def evaluate(w, full):
        w = np.maximum(w, w_floor)
        w = w / w.sum()
        arms = None
        if not full:  # the arms near the minimum at the last evaluation give the cuts that bind
            order = np.argsort(state["values"])
            arms = order[: max(active, int(np.sum(state["values"] <= 2.0 * state["values"][order[0]])))]
            arms = arms[:active]
        values, lambdas = _box_arm_values(mu, w, k, margin, state.get("lam"), arms)
        info["evaluations"] += 1
        for j in range(n) if arms is None else arms:
            lam = lambdas[j].copy()  # a copy: ``lambdas`` becomes the warm starts, overwritten later
            if np.isfinite(lam).all() and _is_alternative(mu, k, lam, margin * 1e-3):
                lams.append(lam)
                rows.append(kl_bernoulli(mu, lam))
            else:
                info["rejected"] += 1
        if full:
            state["values"] = values
            state["lam"] = lambdas.copy()
            F = float(values.min())
            if F > best["F"]:
                best.update(F=F, w=w, lam=lambdas.copy())
        else:
            state["values"][arms] = values[arms]
            state["lam"][arms] = lambdas[arms]

    def lp():
        scale = 1.0 / best["F"] if math.isfinite(best["F"]) and best["F"] > 0 else 1.0
        value, w_new, p_new = _lp_dual(np.array(rows) * scale)  # rows of order 1 (HiGHS: absolute tolerances)
        return value / scale, w_new, p_new

    evaluate(np.full(n, 1.0 / n), True)
    if not rows:
        raise ValueError("no alternative inside (0, 1)^n found: no arm can change side inside the box")
    upper, w_lp, p = lp()
    w_centre = w_lp
    while info["evaluations"] < max_iter:
        evaluate(0.5 * (w_lp + w_centre), False)
        value, w_new, p_new = lp()
        stale = upper - value <= rtol * upper
        if value < upper:
            upper, w_lp, p = value, w_new, p_new
        w_centre = 0.5 * (w_centre + w_lp)
        if stale:
            info["stale"] = info.get("stale", 0) + 1
            if info["stale"] >= patience:
                break
        else:
            info["stale"] = 0
    evaluate(w_lp, True)  # the upper value: F at the LP's weights, every arm
    upper, w_lp, p = lp()
    lambdas = np.array(lams)
    T_lower = mixture_certificate(mu, k, lambdas, p, divergence="bernoulli", margin=margin * 1e-3)
    # the upper value: where every arm is normal (each V_j convex), the conic dual bound of every arm
    # at the best weights certifies F from below; otherwise F of the local solves, uncertified
    convex = not bool(_gap_sign(mu, k).any())
    F_upper = best["F"]
    if convex:
        points = np.where(np.isfinite(best["lam"]), best["lam"], mu)  # any point gives a valid bound
        dual = np.array([_box_dual_bound(mu, best["w"], k, j, points[j]) for j in range(n)])
        # an arm whose solve ended on the box's edge has a poor dual point: Pinsker's bound (the
        # Gaussian value with sigma^2 = 1/4, exact) is certified too, and the larger of the two holds
        pinsker = _gauss_all(mu, 2.0 * best["w"], k, np.zeros(n, dtype=bool), {})[0]
        F_upper = float(np.min(np.maximum(dual, pinsker)))
        info["dual_arms"] = int(np.sum(dual >= pinsker))
    info.update(lp_value=upper, F_best=best["F"], F_dual=F_upper if convex else math.nan)
    info["seconds"] = time.perf_counter() - start
    T_upper = 1.0 / F_upper if F_upper > 0 else math.inf
    cert = Certificate(T_lower, T_upper, convex, best["w"], lambdas, p, info)
    return T_lower, w_lp, cert


# ------------------------------------------------------------------------------------------
# the Gaussian bracket


def gaussian_bracket(
    mu,
    k: float,
    *,
    sigma: float = 0.5,
    rtol: float = 0.1,
    max_iter: int = 200,
    w_floor: float = 1e-9,
    slack: float = 0.05,
    active: int = 64,
) -> tuple[float, float, np.ndarray, Certificate]:
    r"""A certified bracket ``(T_lo, T_hi, w, certificate)`` on the Gaussian :math:`T^*` (``sigma``).

    ``T_hi`` = 1 / F(w), F a certified lower bound on :math:`\min_jV_j(w)` from the O(n)-per-arm
    machinery of :mod:`bandit_lib.arena.secular` (``_evaluate_nb``: Lagrangian dual bounds,
    valid at any admissible multiplier and maximised from warm starts; the arms whose dual point
    is not tight, and only those near the minimum, are solved exactly); ``T_lo`` =
    :func:`mixture_certificate` of the near-binding arms' points (each nudged into Alt(mu) and
    checked by :func:`is_alternative`) under the cutting-plane LP's dual mixture. Outer scheme:
    stabilised Kelley steps from the fixed-threshold weights :math:`w_i\propto1/d(\mu_i,\theta(\mu))`,
    F evaluated halfway between the LP maximiser and a running centre, each evaluation adding the
    cuts of at most ``active`` arms within (1 + ``slack``) of its minimum, until
    ``T_lo >= (1 - rtol) T_hi`` or after ``max_iter`` evaluations (an iteration budget, never a
    wall-clock limit: the same bracket on any machine under any load). ``T_lo`` is the
    larger of that certificate and the Gaussian single-arm bound
    (:func:`~bandit_lib.arena.lower_bound.single_arm_bound`, also a mixture certificate: the n
    single-arm moves with weights proportional to 1/d), which is close to T* where most arms bind,
    as at n = 10^4 (``info["lower"]`` says which). The LP is
    HiGHS (``_cut_lp``): the yardstick decides no pull, and its
    result is certified whatever the LP's iterates. With :math:`\sigma=1/2` (Pinsker), ``T_hi`` is
    also an upper value of the Bernoulli T*. ``certificate.info``: evaluations, cuts, exact
    solves, seconds spent in the evaluations, the LP and the certificate.
    """
    mu, k, _, sigma = _check_problem(mu, k, "gaussian", sigma)
    rtol = check_in_range("rtol", rtol, 0.0, 1.0)
    max_iter = check_int("max_iter", max_iter, minimum=1)
    w_floor = check_w_floor(w_floor, len(mu))
    slack = check_nonnegative("slack", slack)
    active = check_int("active", active, minimum=1)
    _refuse_degenerate(mu, k)
    start = time.perf_counter()
    n = len(mu)
    outlier = _gap_sign(mu, k)
    c = mu - mu.mean()
    theta = mu.mean() + k * math.sqrt(float(c @ c) / n)
    dd = (mu - theta) ** 2
    if (dd <= 0).any():
        raise ValueError("an arm sits on the threshold: T* is infinite")
    rows: list[np.ndarray] = []
    lams: list[np.ndarray] = []
    best = {"F": -math.inf, "w": None}
    t_single = single_arm_bound(mu, k, divergence="gaussian", sigma=sigma)
    info: dict = {"evaluations": 0, "exact": 0, "rejected": 0, "eval_s": 0.0, "lp_s": 0.0}
    eta = np.zeros(n)
    values = np.empty(n)
    kind = np.zeros(n, dtype=np.int64)
    two_s2 = 2.0 * sigma * sigma

    def evaluate(w):
        t0 = time.perf_counter()
        w = np.maximum(w, w_floor)
        w = w / w.sum()
        D = w / two_s2
        F = _evaluate_nb(mu, D, k, outlier, eta, slack, 3, 12, values, kind)
        near = np.flatnonzero((kind > 0) & (values <= (1.0 + slack) * F))
        near = near[np.argsort(values[near], kind="stable")][:active]
        info["exact"] += int(np.sum(kind == 2))
        for j, lam in zip(near, _alternatives_nb(mu, D, k, outlier, eta, kind, near), strict=True):
            lam = _nudge(mu, k, lam, int(j), bool(outlier[j]), 1e-12)
            if lam is None:
                info["rejected"] += 1
                continue
            lams.append(lam)
            rows.append((mu - lam) ** 2 / two_s2)
        info["evaluations"] += 1
        if F > best["F"]:
            best.update(F=F, w=w)
        info["eval_s"] += time.perf_counter() - t0

    def lp():
        t0 = time.perf_counter()
        scale = 1.0 / best["F"]  # HiGHS's tolerances are absolute: rows of order 1
        value, w_lp, p = _lp_dual(np.array(rows) * scale)
        info["lp_s"] += time.perf_counter() - t0
        return value / scale, w_lp, p

    evaluate((1.0 / dd) / np.sum(1.0 / dd))
    upper, w_lp, p = lp()
    w_centre = best["w"]
    while best["F"] < (1.0 - rtol) * min(upper, 1.0 / t_single) and info["evaluations"] < max_iter:
        evaluate(0.5 * (w_lp + w_centre))
        value, w_new, p_new = lp()
        if value < upper:
            upper, w_lp, p = value, w_new, p_new
        w_centre = 0.5 * (best["w"] + w_centre)
    t0 = time.perf_counter()
    lambdas = np.array(lams)
    p = np.concatenate([p, np.zeros(len(lams) - len(p))])  # p may come from an LP over fewer cuts
    keep = p > 0
    T_mix = mixture_certificate(mu, k, lambdas[keep], p[keep], sigma=sigma)
    T_lo = max(T_mix, t_single)
    T_hi = 1.0 / best["F"]
    info.update(
        lower="mixture" if T_mix >= t_single else "single-arm",
        mixture=T_mix,
        single_arm=t_single,
        lp_value=upper,
        cuts=len(rows),
        certificate_s=time.perf_counter() - t0,
        seconds=time.perf_counter() - start,
    )
    return T_lo, T_hi, best["w"], Certificate(T_lo, T_hi, True, best["w"], lambdas[keep], p[keep], info)


# ------------------------------------------------------------------------------------------
# the Gaussian bracket: screened evaluation of F(w) with the secular solver (numba)


@njit(cache=True)
def _multiplier(mc, D, j, k, s, lam):
    """The multiplier eta of a KKT point lam of arm j's Lagrangian (least squares on the stationarity
    D_i (lam_i - mu_i) = s eta (c_j + k^2 c_i), i != j; mc centred): a warm start for the next
    screen. Any value is safe there (the dual bound is valid at every admissible eta)."""
    n = mc.shape[0]
    m = 0.0
    for i in range(n):
        m += lam[i]
    m /= n
    cj = lam[j] - m
    num = 0.0
    den = 0.0
    for i in range(n):
        if i != j:
            a = cj + k * k * (lam[i] - m)
            num += D[i] * (lam[i] - mc[i]) * a
            den += a * a
    return s * num / den if den > 0.0 else 0.0


@njit(cache=True)
def _dual(mc, D, j, k, outlier, eta, work):
    """dual_lower_nb on centred means (no allocation): 0 where eta is not admissible."""
    s = 1.0 if outlier else -1.0
    if not (eta > 0.0) or not _pd(D, j, k, eta, s):
        return 0.0
    qv = _lam(mc, D, j, k, eta, s, work)
    bound = _f(mc, D, work) + s * eta * qv
    if outlier:
        bound = min(bound, _halfspace(mc, D, j, work))
    return max(0.0, bound)


@njit(cache=True)
def _screened_values(mu, D, k, outlier, eta, values, exact):
    """F(w) = min_j V_j exactly, solving only the arms whose certified lower bound is below the
    running minimum. ``eta`` (per arm; updated in place) warm-starts the dual bound of each arm
    (:func:`~bandit_lib.arena.secular.dual_lower_nb`); arms are solved in increasing order of their
    bound, and an arm whose bound is at least the running minimum cannot be the minimum.
    ``values[j]``: V_j where ``exact[j]``, else its lower bound. Returns (lowest argmin, solved)."""
    n = mu.shape[0]
    mc, _ = _centred(mu)
    work = np.empty(n)
    out = np.empty(n)
    work2 = np.empty(n)
    # the scale of a guess: D_j |theta - mu_j| / ((n - 1 - k^2) k sd) (arm j alone on the threshold)
    ss = 0.0
    for i in range(n):
        ss += mc[i] * mc[i]
    sd = math.sqrt(ss / n)
    theta = k * sd
    for j in range(n):
        e = eta[j]
        if not (e > 0.0):
            e = D[j] * abs(theta - mc[j]) / ((n - 1.0 - k * k) * k * sd)
        s = 1.0 if outlier[j] else -1.0
        for _ in range(40):  # shrink into the admissible range
            if _pd(D, j, k, e, s):
                break
            e *= 0.5
        eta[j] = e
        values[j] = _dual(mc, D, j, k, outlier[j], e, work)
        exact[j] = False
    order = np.argsort(values)
    best = math.inf
    arg = -1
    solved = 0
    for r in range(n):
        j = order[r]
        if values[j] >= best:
            break
        v = _arm(mc, D, j, k, outlier[j], out, work, work2)
        solved += 1
        values[j] = v
        exact[j] = True
        e = _multiplier(mc, D, j, k, 1.0 if outlier[j] else -1.0, out)
        if e > 0.0:
            eta[j] = e
        if v < best or (v == best and j < arg):
            best = v
            arg = j
    return arg, solved


@njit(cache=True)
def _near_values(mu, D, k, outlier, eta, values, exact, limit):
    """Solve exactly every arm whose lower bound is below ``limit`` (the near-binding arms)."""
    n = mu.shape[0]
    mc, _ = _centred(mu)
    out = np.empty(n)
    work = np.empty(n)
    work2 = np.empty(n)
    for j in range(n):
        if not exact[j] and values[j] < limit:
            values[j] = _arm(mc, D, j, k, outlier[j], out, work, work2)
            exact[j] = True
            e = _multiplier(mc, D, j, k, 1.0 if outlier[j] else -1.0, out)
            if e > 0.0:
                eta[j] = e


@njit(cache=True)
def _refine(mc, D, j, k, outlier, eta0, steps, out, work):
    """A certified lower bound on V_j: the Lagrangian dual g(eta) = f(lam(eta)) + s eta q(lam(eta))
    (weak duality: valid at every admissible eta) maximised approximately by a safeguarded
    regula falsi (Illinois) on g'(eta) = s q(lam(eta)) from the warm start ``eta0``, at most
    ``steps`` O(n) evaluations. Returns (bound, eta of the best point); ``out`` holds lam there
    (or the half-space minimiser of an outlier arm where that piece is the smaller)."""
    s = 1.0 if outlier else -1.0
    best = 0.0
    best_eta = 0.0
    e = eta0 if eta0 > 0.0 else 1e-300
    lo, glo = 0.0, 1.0  # g' > 0 at 0 (the arm is on its own side)
    hi, ghi = math.inf, -1.0
    have = False
    for _ in range(steps):
        if not (e > 0.0) or not _pd(D, j, k, e, s):
            hi, ghi = e, math.nan  # beyond the admissible range
        else:
            qv = _lam(mc, D, j, k, e, s, work)
            g = _f(mc, D, work) + s * e * qv
            if not have or g > best:
                best, best_eta, have = g, e, True
                out[:] = work
            gp = s * qv
            if gp == 0.0:
                break
            if gp > 0.0:
                lo, glo = e, gp
            else:
                hi, ghi = e, gp
        # next point
        if hi == math.inf:
            e = 2.0 * e if e > 0.0 else 1e-300
        elif math.isnan(ghi) or lo == 0.0:
            e = 0.5 * (lo + hi)
        else:
            e = (lo * (-ghi) + hi * glo) / (glo - ghi)  # secant inside [lo, hi]
            if not (lo < e < hi):
                e = 0.5 * (lo + hi)
            # Illinois-style guard: pull towards the middle if one end lags
            if (e - lo) < 1e-3 * (hi - lo) or (hi - e) < 1e-3 * (hi - lo):
                e = 0.5 * (e + 0.5 * (lo + hi))
        if hi < math.inf and (hi - lo) <= 1e-15 * hi:
            break
    if outlier:
        h = _halfspace(mc, D, j, work)
        if h < best:
            best = h
            out[:] = work
    return max(best, 0.0), best_eta


@njit(cache=True)
def _normal_hs(mc, D, j, k, iters, lam, out):
    """A certified lower bound on a normal arm's V_j (mc centred): A_j is the convex cone
    C = {sqrt(n) c_j >= k ||c||}, inside every half-space H_y = {sqrt(n) c_j - k y'c >= 0},
    ||y|| <= 1, so V_j >= dist_D(mu, H_y)^2 = (b'mu)^2 / (b'D^{-1}b), b = sqrt(n) u_j - k P y, for
    every unit y (and sup_y of it is V_j, by convex duality). y is the direction of the centred
    ``lam`` (start: arm j alone on the threshold), then of each projection in turn (``iters``
    times; 3-5 reach 1e-9 on planted instances). ``out``: the projection at the best bound."""
    n = mc.shape[0]
    rn = math.sqrt(n)
    best = 0.0
    for _ in range(iters):
        m, nc = _mean_ss(lam)
        nc = math.sqrt(nc)
        if not nc > 0.0:
            break
        bm = 0.0
        bdb = 0.0
        for i in range(n):
            b = rn * ((1.0 if i == j else 0.0) - 1.0 / n) - k * (lam[i] - m) / nc
            bm += b * mc[i]
            bdb += b * b / D[i]
        if not bm < 0.0:
            break
        t = bm / bdb
        for i in range(n):
            b = rn * ((1.0 if i == j else 0.0) - 1.0 / n) - k * (lam[i] - m) / nc
            lam[i] = mc[i] - t * b / D[i]
        v = bm * bm / bdb
        if v > best:
            best = v
            out[:] = lam
    return best


@njit(cache=True)
def _normal_bound(mc, D, j, k, sd, iters, out, work):
    """``_normal_hs`` from arm j alone on the threshold k sd."""
    work[:] = mc
    work[j] = k * sd
    return _normal_hs(mc, D, j, k, iters, work, out)


@njit(cache=True)
def _evaluate_nb(mu, D, k, outlier, eta, slack, screen_steps, steps, values, kind):
    """A certified lower bound on F(w) = min_j V_j (returned) and the near-binding arms.

    Every arm gets a cheap dual bound (``screen_steps`` evaluations from its warm multiplier
    ``eta[j]``, updated in place). In increasing order of that bound, while the bound is below
    (1 + ``slack``) times the running minimum, the arm's bound is refined (``steps``); where the
    refined dual point is not tight (its lam is off q = 0, or on the wrong nappe: the S-lemma
    bound ignores the sign of c_j) the arm is solved exactly by the secular solver. ``values[j]``:
    the final certified lower bound on V_j (exact where ``kind[j]`` = 2, a tight dual where 1,
    a screen where 0)."""
    n = mu.shape[0]
    mc, _ = _centred(mu)
    out = np.empty(n)
    work = np.empty(n)
    work2 = np.empty(n)
    ss = 0.0
    for i in range(n):
        ss += mc[i] * mc[i]
    sd = math.sqrt(ss / n)
    for j in range(n):
        e = eta[j]
        if not (e > 0.0):
            e = D[j] * abs(k * sd - mc[j]) / ((n - 1.0 - k * k) * k * sd)
        if outlier[j]:
            values[j], e2 = _refine(mc, D, j, k, outlier[j], e, screen_steps, out, work)
            if e2 > 0.0:
                eta[j] = e2
        else:
            values[j] = _normal_bound(mc, D, j, k, sd, 1, out, work)
        kind[j] = 0
    order = np.argsort(values)
    cur = math.inf
    for r in range(n):
        j = order[r]
        if values[j] >= (1.0 + slack) * cur:
            break
        s = 1.0 if outlier[j] else -1.0
        if not outlier[j]:
            v = _normal_bound(mc, D, j, k, sd, HS_ITERS, out, work)
            # tight when the last projection lies on the cone (q = 0, c_j > 0); else solve exactly
            if abs(_q(out, j, k)) <= 1e-9 * k * k * _ss(out) and _cj(out, j) > 0.0:
                values[j] = max(values[j], v)
                kind[j] = 1
            else:
                values[j] = _arm(mc, D, j, k, False, out, work, work2)
                kind[j] = 2
            cur = min(cur, values[j])
            continue
        v, e2 = _refine(mc, D, j, k, outlier[j], eta[j], steps, out, work)
        tight = False
        if e2 > 0.0:
            eta[j] = e2
            # tight: the dual point is (nearly) on q = 0, a scale-free test
            tight = abs(_q(out, j, k)) <= 1e-9 * k * k * _ss(out) and (outlier[j] or _cj(out, j) > 0.0)
        if tight:
            values[j] = v
            kind[j] = 1
        else:
            values[j] = _arm(mc, D, j, k, outlier[j], out, work, work2)
            kind[j] = 2
            e3 = _multiplier(mc, D, j, k, s, out)
            if e3 > 0.0:
                eta[j] = e3
        cur = min(cur, values[j])
    return cur


@njit(cache=True)
def _alternatives_nb(mu, D, k, outlier, eta, kind, idx):
    """The points behind the bounds of the arms ``idx`` (rows, uncentred): lam(eta_j) for a tight
    dual (or the half-space minimiser where that piece is smaller), the exact minimiser for kind 2."""
    n = mu.shape[0]
    mc, m = _centred(mu)
    rows = np.empty((idx.shape[0], n))
    ss = 0.0
    for i in range(n):
        ss += mc[i] * mc[i]
    sd = math.sqrt(ss / n)
    out = np.empty(n)
    work = np.empty(n)
    work2 = np.empty(n)
    for r in range(idx.shape[0]):
        j = idx[r]
        if kind[j] == 2:
            _arm(mc, D, j, k, outlier[j], out, work, work2)
        elif not outlier[j]:
            _normal_bound(mc, D, j, k, sd, HS_ITERS, out, work)
        else:
            _refine(mc, D, j, k, outlier[j], eta[j], 1, out, work)
        for i in range(n):
            rows[r, i] = out[i] + m
    return rows
