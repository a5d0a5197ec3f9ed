r"""The change-of-measure lower bound for k-sigma outlier identification (fixed confidence).

Problem. Arms with means :math:`\mu\in\mathbb R^n`, threshold :math:`\theta(\mu)=m(\mu)+k\,s(\mu)`
(population std, :mod:`bandit_lib.ksigma`), outlier set :math:`\Omega(\mu)=\{i:\mu_i>\theta(\mu)\}`.
Every algorithm that returns :math:`\Omega(\mu)` with probability :math:`\ge 1-\delta` on every
instance (Garivier & Kaufmann 2016, Lemma 1 / Theorem 1) satisfies

.. math::
   \mathbb E_\mu[T] \ge T^*(\mu)\,\mathrm{kl}(\delta,1-\delta),\qquad
   \frac1{T^*(\mu)} = \sup_{w\in\Sigma_n}\ \inf_{\lambda\in\mathrm{Alt}(\mu)}\ \sum_i w_i\,d(\mu_i,\lambda_i),

with :math:`\mathrm{Alt}(\mu)=\{\lambda:\Omega(\lambda)\ne\Omega(\mu)\}` (its closure: the
infimum is attained), :math:`d` the Gaussian divergence :math:`(x-y)^2/(2\sigma^2)` or the
Bernoulli :math:`\mathrm{kl}(x,y)`, and :math:`\mathrm{kl}(\delta,1-\delta)` the binary relative
entropy (:func:`kl_delta`).

**Inner problem** (:func:`arm_values`, :func:`inner_value`). Write :math:`c=P\lambda` (centred,
:math:`P=I-\mathbf 1\mathbf 1^\top/n`), :math:`u_j=Pe_j`, so :math:`\lambda_j-\theta(\lambda)=c_j-k\|c\|/\sqrt n`.
The closure of Alt is :math:`\bigcup_j A_j`, where arm j changes side:

* normal arm j (:math:`\mu_j\le\theta(\mu)`): :math:`A_j=K_j=\{c_j\ge k\|c\|/\sqrt n\}`, a convex
  second-order cone (its axis is :math:`u_j`, plus the free direction :math:`\mathbf 1`); non-empty
  interior iff :math:`k<\sqrt{n-1}` (otherwise no arm can ever be an outlier, which is refused);
* outlier arm j: :math:`A_j=\{c_j\le k\|c\|/\sqrt n\}`, the closed complement of the interior of
  :math:`K_j` -- not convex.

With the indefinite quadratic form :math:`q(\lambda)=n(u_j^\top\lambda)^2-k^2\|P\lambda\|^2`
(:math:`Q=nu_ju_j^\top-k^2P`: one positive eigenvalue :math:`n-1-k^2`, :math:`n-2` equal to
:math:`-k^2`, one zero on :math:`\mathbf 1`) one has exactly
:math:`K_j=\{q\ge0\}\cap\{c_j\ge0\}` and :math:`A_j^{\rm outlier}=\{q\le0\}\cup\{c_j\le0\}`.

*Gaussian* (:math:`f(\lambda)=(\lambda-\mu)^\top D(\lambda-\mu)`, :math:`D=\mathrm{diag}(w)/(2\sigma^2)`,
:math:`w>0`). Let :math:`D^{-1/2}QD^{-1/2}=V\Lambda V^\top`, :math:`z=V^\top D^{1/2}\mu` and, for a
multiplier :math:`\eta`, :math:`\lambda(\eta)=D^{-1/2}V(I\pm\eta\Lambda)^{-1}z`, the stationary point
of :math:`f\pm\eta q`; then :math:`q(\lambda(\eta))=\sum_k\Lambda_kz_k^2/(1\pm\eta\Lambda_k)^2` (a secular function).

* Outlier arm, piece :math:`\{q\le0\}`: one quadratic constraint on a quadratic objective, Slater
  point when :math:`n\ge3`, so the S-lemma gives strong duality (Pólik & Terlaky 2007): the
  value is :math:`\max_{0\le\eta\le\eta_{\max}}\varphi(\eta)` with :math:`\varphi` concave,
  :math:`\eta_{\max}=1/\max_k(-\Lambda_k)` (where :math:`D+\eta Q\succeq0` ends) and
  :math:`\varphi'(\eta)=q(\lambda(\eta))` decreasing from :math:`q(\mu)>0`. Its unique root
  (found by multisection, a fixed scheme that no library version changes) is the global minimiser; if there is none ("hard case" of trust-region
  problems) the optimum is at :math:`\eta_{\max}` plus the null direction scaled to :math:`q=0`.
  Piece :math:`\{c_j\le0\}`: a half-space, closed form :math:`(u_j^\top\mu)^2/(u_j^\top D^{-1}u_j)`.
  The value is the smaller of the two: a certified global minimum of the non-convex problem.
* Normal arm (convex problem): a root :math:`\eta\ge0` of :math:`q(\lambda(\eta))=0` (sign
  :math:`-`) at which :math:`c_j>0` is a KKT point of :math:`\min f` s.t. :math:`c_j-k\|c\|/\sqrt n\ge0`
  (on that boundary :math:`\nabla q` is a positive multiple of the gradient of the concave
  constraint), hence the global minimiser. The secular function is increasing on
  :math:`[0,1/\Lambda_+)` (one root there, the nearest point of the double cone
  :math:`\{q\ge0\}`); if that point lies on the wrong nappe (:math:`c_j<0`, e.g. arm j is a low
  outlier) the roots on :math:`(1/\Lambda_+,\infty)` are bracketed on a log grid. The apex
  (all :math:`\lambda_i` equal, the only non-regular point) is always a candidate; if no
  KKT root is found, a convex SLSQP solve is the fallback (counted in ``info``).

*Which solver runs.* The linear algebra above is the reference (``_gauss_arm``, one
eigendecomposition per arm). :func:`arm_values`, :func:`optimal_weights`, :func:`certified_lower_T`
and the Bernoulli starts call the O(n) secular solver of :mod:`bandit_lib.arena.secular` instead
(same case analysis, Woodbury instead of eigh; :data:`GAUSS_SOLVER` = ``"eigh"`` switches back, as
the tests do to compare: values equal to a relative 1e-9). Certification is unchanged, with one
case made explicit: where no KKT root is found and the apex is the best candidate, the secular
solver returns the apex without an SLSQP confirmation. The apex lies in :math:`A_j`, so its value is
always an upper bound on :math:`V_j`; it is *certified* as the minimum only when
:func:`~bandit_lib.arena.secular.apex_is_minimiser_nb` holds (the apex's gradient lies in the
dual cone of :math:`K_j`, an exact O(n) optimality test), and where that test fails the arm is
re-solved by ``_gauss_arm`` (SLSQP fallback included; counted in ``info["apex_fallback"]``).
So ``ArmValues.lower`` and ``Characteristic.bracket`` certify what they certified before. (On 400
random instances, the test passed on every one of the 101 apex cases.) The normal arm's KKT root
(and its wrong-nappe roots on the log grid) is certified as before: a KKT point of a convex problem.

*Bernoulli* (:math:`f(\lambda)=\sum_iw_i\,\mathrm{kl}(\mu_i,\lambda_i)`, :math:`\mu\in(0,1)^n`):
the apex (all :math:`\lambda_i` equal to :math:`a`; :math:`\sum_iw_i\,\mathrm{kl}(\mu_i,a)` is least at the
w-weighted mean :math:`a=\sum_iw_i\mu_i/\sum_iw_i`) is always a candidate, and SLSQP on
:math:`\lambda\in[\epsilon,1-\epsilon]^n` starts from the Gaussian solution with local variances
:math:`\mu_i(1-\mu_i)`, the apex and the half-space point. Normal arms: the problem is convex (kl is
convex in its second argument), but the constraint is not differentiable at the apex, so a KKT point
is global only among regular points. The apex is the minimiser iff the gradient there,
:math:`g\propto w\circ(a-\mu)` (centred), lies in the dual cone of :math:`K_j`:
:math:`g_j\ge\|g\|\sqrt{(n-1-k^2)/n}`; this is tested exactly, and otherwise the minimiser is
a regular point, where SLSQP's KKT point is global (to its tolerance). Outlier arms: **not
certified** (multi-start); a certified lower bound comes from Pinsker,
:math:`\mathrm{kl}(x,y)\ge2(x-y)^2`, i.e. the Gaussian value with :math:`\sigma^2=1/4`
(``ArmValues.lower``).

With ``fixed_threshold=theta`` the threshold is held fixed: :math:`A_j=\{\lambda:\lambda_j=\theta\}`
(its closure), value :math:`w_jd(\mu_j,\theta)`, and :math:`T^*=\sum_i 1/d(\mu_i,\theta)`,
which for Gaussians is :func:`fixed_threshold_bound` :math:`=\sum_i2\sigma^2/\Delta_i^2`.

**Outer problem** (:func:`optimal_weights`). :math:`F(w)=\min_j V_j(w)` is concave (an infimum
of linear functions of w), and for every computed minimiser :math:`\lambda^{(j)}` the linear
function :math:`w\mapsto\sum_iw_id(\mu_i,\lambda^{(j)}_i)` lies above :math:`F` everywhere. We
maximise the epigraph form :math:`\max z` s.t. :math:`V_j(w)\ge z` with SLSQP, the gradient of
:math:`V_j` being :math:`(d(\mu_i,\lambda^{(j)}_i))_i` (envelope theorem), keeping every computed
cut; then the LP (HiGHS) :math:`\max_{w\in\Sigma_n}\min_{\rm cuts}` gives an upper bound on
:math:`1/T^*` and, while the bracket is wider than ``rtol``, stabilised Kelley steps (F evaluated
halfway between the LP maximiser and the best point) add cuts. Every evaluation of F is a lower
bound on :math:`1/T^*`: the result carries the bracket.
Weights are kept :math:`\ge` ``w_floor`` (the Gaussian inner problem needs :math:`w>0`).

Invariances (tested): permuting arms permutes :math:`w^*`; for Gaussians :math:`T^*` is unchanged
by a common shift of the means and by scaling means and :math:`\sigma` together.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import optimize

from bandit_lib.arena.secular import (  # the argument checks live there: secular sits below this module
    apex_is_minimiser_nb,
    arm_minimiser_nb,
    arm_minimisers_nb,
    check_k_for,
    check_weights,
)
from bandit_lib.checks import check_choice, check_int, check_open_unit, check_positive, check_real, check_vector
from bandit_lib.ksigma import degenerate_reason, ksigma_threshold

DIVERGENCES = ("gaussian", "bernoulli")

#: Bernoulli means are kept in [EPS, 1 - EPS] inside the divergence.
EPS = 1e-9


# ------------------------------------------------------------------------------------------
# divergences and argument checks


def kl_bernoulli(x, y):
    """Binary relative entropy kl(x, y) = x ln(x/y) + (1-x) ln((1-x)/(1-y)) (elementwise, 0 ln 0 = 0;
    ``y`` is kept in [EPS, 1 - EPS]). Both must be means of Bernoulli arms: in [0, 1]."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    try:
        np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        raise ValueError(
            f"kl_bernoulli needs x and y of the same length (or shapes that broadcast); got shapes {x.shape} and {y.shape}"
        ) from None
    for name, v in (("x", x), ("y", y)):
        bad = ~((v >= 0.0) & (v <= 1.0))  # NaN fails both comparisons
        if bad.any():
            raise ValueError(
                f"kl_bernoulli needs {name} in [0, 1] (Bernoulli means); got {name}={float(v[bad].flat[0])!r}"
            )
    y = np.clip(y, EPS, 1.0 - EPS)
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(x > 0, x * np.log(np.where(x > 0, x, 1.0) / y), 0.0)
        b = np.where(x < 1, (1 - x) * np.log(np.where(x < 1, 1 - x, 1.0) / (1 - y)), 0.0)
    return a + b


def kl_delta(delta: float) -> float:
    """kl(delta, 1 - delta) = (1 - 2 delta) ln((1 - delta) / delta), the factor of the lower bound."""
    delta = check_open_unit("delta", delta)
    return float((1 - 2 * delta) * math.log((1 - delta) / delta))


def divergence_values(mu, lam, divergence: str = "gaussian", sigma: float = 1.0) -> np.ndarray:
    """d(mu_i, lam_i) for each arm: ``"gaussian"`` (with ``sigma``) or ``"bernoulli"`` (kl)."""
    check_choice("divergence", divergence, DIVERGENCES)
    for name, v in (("mu", mu), ("lam", lam)):
        if isinstance(v, (str, bytes)):
            raise TypeError(f"{name} must be numbers; got {name}={v!r}")
    mu = np.asarray(mu, dtype=np.float64)
    lam = np.asarray(lam, dtype=np.float64)
    for name, v in (("mu", mu), ("lam", lam)):
        if not np.isfinite(v).all():
            i = int(np.flatnonzero(~np.isfinite(v.ravel()))[0])
            raise ValueError(f"{name} must be finite; got {name}[{i}]={float(v.ravel()[i])!r}")
    if mu.shape != lam.shape:
        raise ValueError(f"mu and lam must have the same length; got shapes {mu.shape} and {lam.shape}")
    if divergence == "gaussian":
        sigma = check_positive("sigma", sigma)
        return (mu - lam) ** 2 / (2.0 * sigma * sigma)
    return kl_bernoulli(mu, lam)


def _check_problem(mu, k, divergence, sigma, *, closed: bool = False):
    divergence = check_choice("divergence", divergence, DIVERGENCES)
    if divergence == "bernoulli":
        mu = check_vector("mu", mu, low=0.0, high=1.0, min_length=2)
        # the solvers need interior means; a closed form (closed=True) takes 0 and 1 as well
        bad = np.zeros(len(mu), dtype=bool) if closed else (mu <= 0) | (mu >= 1)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"Bernoulli means must lie in the open interval (0, 1); got mu[{i}]={float(mu[i])!r}")
    else:
        mu = check_vector("mu", mu, min_length=2)
    sigma = check_positive("sigma", sigma)
    k = check_k_for(k, len(mu))
    return mu, k, divergence, sigma


def check_w_floor(w_floor, n: int) -> float:
    """The weight floor: 0 < w_floor < 1/n (at 1/n and above no weights are left to choose)."""
    w_floor = check_real("w_floor", w_floor)
    if not 0.0 < w_floor < 1.0 / n:
        raise ValueError(f"w_floor must lie in (0, 1/n) = (0, {1.0 / n!r}) for n = {n} arms; got w_floor={w_floor!r}")
    return w_floor


def _refuse_degenerate(mu: np.ndarray, k: float) -> None:
    """An error saying why T* is infinite where it is: all means equal, or an arm exactly on the
    threshold (no delta-correct algorithm can stop; :func:`bandit_lib.ksigma.degenerate_reason`)."""
    reason = degenerate_reason(mu, k)
    if reason:
        raise ValueError(f"T* is infinite on this instance: {reason}")


def _gap_sign(mu: np.ndarray, k: float) -> np.ndarray:
    """True for the outlier arms of mu (c_j > k ||c|| / sqrt n, computed on centred means)."""
    c = mu - mu.mean()
    return c > k * np.sqrt(np.mean(c * c))


# ------------------------------------------------------------------------------------------
# the inner problem, one arm at a time


@dataclass(frozen=True)
class ArmValues:
    """``values[j]``: inf over A_j (arm j changes side); ``lambdas[j]``: a minimiser;
    ``outlier[j]``: whether arm j is an outlier of mu; ``lower[j]``: a certified lower bound on
    ``values[j]`` (equal to it where the method is certified); ``info``: solver counts."""

    values: np.ndarray
    lambdas: np.ndarray
    outlier: np.ndarray
    lower: np.ndarray
    info: dict = field(default_factory=dict)


def _q(lam: np.ndarray, j: int, k: float) -> float:
    c = lam - lam.mean()
    n = len(lam)
    return float(n * c[j] ** 2 - k * k * (c @ c))


def _apex(mu: np.ndarray, D: np.ndarray) -> np.ndarray:
    return np.full(len(mu), float(D @ mu / D.sum()))


def _root(fun, lo: float, hi: float, xtol: float, points: int = 32) -> float:
    """A root of ``fun`` in [lo, hi], where it changes sign, to ``xtol``, by multisection:
    ``fun`` takes an array of points, and each step keeps the first of ``points`` sub-intervals
    with a sign change. A fixed scheme of plain floating-point operations, so the root is the same
    whatever the version of scipy (whose ``brentq`` may take other steps, and stop elsewhere within
    its tolerance, from one version to the next); about ten vectorised steps reach 1e-15."""
    f_lo = float(fun(np.array([lo]))[0])
    for _ in range(200):
        if hi - lo <= xtol:
            break
        grid = np.linspace(lo, hi, points + 1)[1:-1]
        values = fun(grid)
        if (values == 0.0).any():
            return float(grid[np.flatnonzero(values == 0.0)[0]])
        change = np.flatnonzero((values < 0) != (f_lo < 0))
        if change.size:
            i = int(change[0])
            new_lo, new_hi = (float(grid[i - 1]), float(grid[i])) if i else (lo, float(grid[0]))
            new_f_lo = float(values[i - 1]) if i else f_lo
        else:  # the sign changes between the last point and hi
            new_lo, new_hi, new_f_lo = float(grid[-1]), hi, float(values[-1])
        if (new_lo, new_hi) == (lo, hi):
            break  # no floating-point number left between the points
        lo, hi, f_lo = new_lo, new_hi, new_f_lo
    return 0.5 * (lo + hi)


def _gauss_arm(mu: np.ndarray, D: np.ndarray, j: int, k: float, outlier: bool, info: dict):
    """(value, minimiser) of min (lam - mu)' D (lam - mu) over A_j; see the module docstring."""
    n = len(mu)
    f = lambda lam: float(D @ (lam - mu) ** 2)  # noqa: E731
    u = -np.full(n, 1.0 / n)
    u[j] += 1.0
    sd = np.sqrt(D)
    Q = n * np.outer(u, u) - k * k * (np.eye(n) - 1.0 / n)
    S = Q / np.outer(sd, sd)
    Lam, V = np.linalg.eigh((S + S.T) / 2)
    b = sd * mu
    z = V.T @ b

    def lam_of(eta: float, sign: float) -> np.ndarray:
        return (V @ (z / (1.0 + sign * eta * Lam))) / sd

    def secular(eta: float, sign: float) -> float:
        return float(np.sum(Lam * z * z / (1.0 + sign * eta * Lam) ** 2))

    z2 = z * z

    def seculars(etas: np.ndarray, sign: float) -> np.ndarray:
        return np.sum(Lam * z2 / (1.0 + sign * np.outer(etas, Lam)) ** 2, axis=1)

    if outlier:
        # half-space piece {c_j <= 0}
        Dinv = 1.0 / D
        t = (u @ mu) / (u @ (Dinv * u))
        best_lam = mu - t * Dinv * u
        best = f(best_lam)
        if n >= 3:
            neg = -Lam.min()
            eta_max = 1.0 / neg
            hi = eta_max * (1 - 1e-13)
            if secular(hi, 1.0) < 0:
                eta = _root(lambda e: seculars(e, 1.0), 0.0, hi, 1e-15 * eta_max)
                lam = lam_of(eta, 1.0)
            else:  # hard case: the stationary point at eta_max plus the null direction
                info["hard_case"] = info.get("hard_case", 0) + 1
                den = 1.0 + eta_max * Lam
                sing = np.abs(den) < 1e-9
                coef = np.where(sing, 0.0, z / np.where(sing, 1.0, den))
                rest = float(np.sum(Lam * coef * coef))
                tau = math.sqrt(max(rest, 0.0) / neg)
                kmin = int(np.argmin(Lam))
                coef[kmin] = tau
                lam = (V @ coef) / sd
            val = f(lam)
            if val < best:
                best, best_lam = val, lam
        return best, best_lam

    # normal arm: convex problem over K_j
    c = mu - mu.mean()
    if c[j] >= 0 and _q(mu, j, k) >= 0:
        return 0.0, mu.copy()  # mu is in K_j already (arm j on the threshold)
    cands = [_apex(mu, D)]
    lam_plus = Lam.max()
    e1 = 1.0 / lam_plus
    roots = []
    hi = e1 * (1 - 1e-13)
    # no sign change when z has (almost) no weight on the positive eigenvector (tied means): no
    # root on this branch, and the second branch or the apex takes over
    if secular(0.0, -1.0) < 0 < secular(hi, -1.0):
        roots.append(_root(lambda e: seculars(e, -1.0), 0.0, hi, 1e-15 * e1))
    ok = [r for r in roots if (lam_of(r, -1.0) - lam_of(r, -1.0).mean())[j] > 0]
    if not ok:
        info["second_branch"] = info.get("second_branch", 0) + 1
        grid = e1 * (1.0 + np.logspace(-12, 12, 481))
        vals = np.sum(Lam * z * z / (1.0 - np.outer(grid, Lam)) ** 2, axis=1)
        for a in np.flatnonzero(np.sign(vals[:-1]) != np.sign(vals[1:])):
            r = _root(lambda e: seculars(e, -1.0), grid[a], grid[a + 1], 1e-15 * grid[a])
            lam = lam_of(r, -1.0)
            if (lam - lam.mean())[j] > 0:
                ok.append(r)
    for r in ok:
        cands.append(lam_of(r, -1.0))
    vals = [f(lam) for lam in cands]
    i = int(np.argmin(vals))
    if not ok and i == 0:
        # no regular KKT point found: the apex should be optimal; confirm with a convex solve
        info["slsqp_fallback"] = info.get("slsqp_fallback", 0) + 1
        lam = _slsqp(mu, lambda x: (f(x), 2 * D * (x - mu)), j, k, outlier=False, starts=[cands[0] + 1e-6 * u])
        if lam is not None and f(lam) < vals[0]:
            return f(lam), lam
    return vals[i], cands[i]


#: The Gaussian inner solver behind :func:`arm_values`, :func:`optimal_weights`,
#: :func:`certified_lower_T` and the Bernoulli starts: ``"secular"`` (O(n) per arm,
#: :mod:`bandit_lib.arena.secular`) or ``"eigh"`` (``_gauss_arm``, the eigendecomposition
#: reference, O(n^3) per arm; tests switch to it to compare).
GAUSS_SOLVER = "secular"


def _gauss_secular(mu: np.ndarray, D: np.ndarray, k: float, outlier: np.ndarray, info: dict):
    """(values, minimisers) of the Gaussian inner problem for every arm by the secular solver; an apex that :func:`~bandit_lib.arena.secular.apex_is_minimiser_nb`
    cannot certify is re-solved by ``_gauss_arm`` (counted in ``info["apex_fallback"]``)."""
    n = len(mu)
    values = np.empty(n)
    lambdas = np.empty((n, n))
    arm_minimisers_nb(mu, D, k, outlier, values, lambdas)
    for j in range(n):
        lam = lambdas[j]
        if not outlier[j] and lam.max() == lam.min() and not apex_is_minimiser_nb(mu, D, j, k):
            info["apex_fallback"] = info.get("apex_fallback", 0) + 1
            values[j], lambdas[j] = _gauss_arm(mu, D, j, k, False, info)
    return values, lambdas


def _gauss_all(mu: np.ndarray, D: np.ndarray, k: float, outlier: np.ndarray, info: dict):
    """(values, minimisers) of the Gaussian inner problem for every arm, by :data:`GAUSS_SOLVER`."""
    if GAUSS_SOLVER == "eigh":
        n = len(mu)
        values = np.empty(n)
        lambdas = np.empty((n, n))
        for j in range(n):
            values[j], lambdas[j] = _gauss_arm(mu, D, j, k, bool(outlier[j]), info)
        return values, lambdas
    return _gauss_secular(mu, D, k, np.asarray(outlier, dtype=bool), info)


def _gauss_one(mu: np.ndarray, D: np.ndarray, j: int, k: float, outlier: bool, info: dict):
    """(value, minimiser) of the Gaussian inner problem for arm j, by :data:`GAUSS_SOLVER`."""
    if GAUSS_SOLVER == "eigh":
        return _gauss_arm(mu, D, j, k, outlier, info)
    lam = np.empty(len(mu))
    v = arm_minimiser_nb(mu, D, j, k, outlier, lam)
    if not outlier and lam.max() == lam.min() and not apex_is_minimiser_nb(mu, D, j, k):
        info["apex_fallback"] = info.get("apex_fallback", 0) + 1
        return _gauss_arm(mu, D, j, k, False, info)
    return v, lam


def _slsqp(mu, fun, j, k, *, outlier: bool, starts, bounds=None):
    """Best local minimiser of fun over A_j from the given starts (SLSQP), or None."""
    n = len(mu)

    def g(x):
        c = x - x.mean()
        s = math.sqrt(max(float(c @ c) / n, 1e-300))
        val = c[j] - k * s
        return val if not outlier else -val

    def g_grad(x):
        c = x - x.mean()
        s = math.sqrt(max(float(c @ c) / n, 1e-300))
        grad = -np.full(n, 1.0 / n)
        grad[j] += 1.0
        grad -= k * c / (n * s)
        return grad if not outlier else -grad

    best, best_x = np.inf, None
    for x0 in starts:
        res = optimize.minimize(
            fun,
            x0,
            jac=True,
            method="SLSQP",
            bounds=bounds,
            constraints=[{"type": "ineq", "fun": g, "jac": g_grad}],
            options={"maxiter": 500, "ftol": 1e-14},
        )
        x = res.x
        if g(x) >= -1e-9 and res.fun < best:
            best, best_x = float(res.fun), x
    return best_x


def _apex_is_optimal(mu: np.ndarray, w: np.ndarray, j: int, k: float) -> bool:
    """Whether the apex (all lam_i = the w-weighted mean a) minimises sum_i w_i kl(mu_i, lam_i) over
    the cone K_j of a normal arm j. The problem is convex, so the apex is optimal iff the gradient
    there, proportional to v = w (a - mu) (centred: sum v = 0), lies in the dual cone of K_j. In the
    centred subspace K_j = {c : u_j . c >= (k / sqrt n) norm(c)} is a circular cone about u_j = P e_j
    (norm(u_j)^2 = (n-1)/n) of half-angle alpha, cos alpha = k / sqrt(n-1); its dual is the cone of
    half-angle pi/2 - alpha: u_j . v = v_j >= norm(u_j) norm(v) sin alpha = norm(v) sqrt((n-1-k^2)/n)."""
    n = len(mu)
    a = float(w @ mu / w.sum())
    v = w * (a - mu)
    v -= v.mean()  # exactly centred up to rounding; remove the rounding
    return bool(v[j] >= float(np.sqrt(v @ v)) * math.sqrt((n - 1 - k * k) / n) * (1.0 + 1e-12))


def _bern_arm(mu, w, j, k, outlier, info):
    n = len(mu)
    bounds = [(EPS, 1 - EPS)] * n

    def fun(x):
        x = np.clip(x, EPS, 1 - EPS)
        return float(w @ kl_bernoulli(mu, x)), w * (x - mu) / (x * (1 - x))

    # the apex: all lam_i = a, in the closure of every A_j; sum_i w_i kl(mu_i, a) has derivative
    # sum_i w_i (a - mu_i) / (a (1 - a)), zero at the w-weighted mean
    apex = _apex(mu, w)
    apex_val = fun(apex)[0]
    if not outlier and _apex_is_optimal(mu, w, j, k):
        info["bernoulli_apex"] = info.get("bernoulli_apex", 0) + 1
        return apex_val, apex
    D_loc = w / (2 * mu * (1 - mu))
    g_val, g_lam = _gauss_one(mu, D_loc, j, k, outlier, {})
    starts = [np.clip(g_lam, 1e-6, 1 - 1e-6), apex]
    u = -np.full(n, 1.0 / n)
    u[j] += 1.0
    if outlier:
        starts.append(np.clip(mu - (u @ mu) / (u @ (u / D_loc)) * u / D_loc, 1e-6, 1 - 1e-6))
        rng = np.random.default_rng(j)
        for _ in range(4):
            starts.append(np.clip(mu + 0.1 * rng.standard_normal(n), 1e-3, 1 - 1e-3))
    x = _slsqp(mu, fun, j, k, outlier=outlier, starts=starts, bounds=bounds)
    if x is None:
        info["bernoulli_failed"] = info.get("bernoulli_failed", 0) + 1
    if x is None or fun(x)[0] >= apex_val:
        return apex_val, apex
    return fun(x)[0], np.clip(x, EPS, 1 - EPS)


def arm_values(
    mu,
    w,
    k: float,
    *,
    divergence: str = "gaussian",
    sigma: float = 1.0,
    fixed_threshold: float | None = None,
) -> ArmValues:
    """inf over A_j of sum_i w_i d(mu_i, lam_i), for every arm j; see the module docstring.

    An arm exactly on the threshold (all means equal included) lies in its own A_j: its value is
    0, on purpose (mu is in the closure of Alt(mu))."""
    mu, k, divergence, sigma = _check_problem(mu, k, divergence, sigma)
    w = check_weights(w, len(mu))
    return _arm_values(mu, w, k, divergence, sigma, fixed_threshold)


def _arm_values(mu, w, k, divergence, sigma, fixed_threshold) -> ArmValues:
    n = len(mu)
    info: dict = {}
    lambdas = np.empty((n, n))
    values = np.empty(n)
    lower = np.empty(n)
    if fixed_threshold is not None:
        theta = check_real("fixed_threshold", fixed_threshold)
        outlier = mu > theta
        for j in range(n):
            lam = mu.copy()
            lam[j] = theta
            lambdas[j] = lam
        values = w * divergence_values(mu, np.full(n, theta), divergence, sigma)
        return ArmValues(values, lambdas, outlier, values.copy(), info)
    outlier = _gap_sign(mu, k)
    if divergence == "gaussian":
        values, lambdas = _gauss_all(mu, w / (2.0 * sigma * sigma), k, outlier, info)
        return ArmValues(values, lambdas, outlier, values.copy(), info)
    for j in range(n):
        values[j], lambdas[j] = _bern_arm(mu, w, j, k, bool(outlier[j]), info)
    # Pinsker: kl >= 2 (x - y)^2, the Gaussian value with sigma^2 = 1/4 (certified for both cases)
    lower = np.minimum(values, _gauss_all(mu, 2.0 * w, k, outlier, {})[0])
    return ArmValues(values, lambdas, outlier, lower, info)


def inner_value(
    mu,
    w,
    k: float,
    *,
    divergence: str = "gaussian",
    sigma: float = 1.0,
    fixed_threshold: float | None = None,
) -> float:
    """inf over Alt(mu) of sum_i w_i d(mu_i, lam_i) (= min_j of :func:`arm_values`)."""
    return float(arm_values(mu, w, k, divergence=divergence, sigma=sigma, fixed_threshold=fixed_threshold).values.min())


# ------------------------------------------------------------------------------------------
# the outer problem


@dataclass(frozen=True)
class Characteristic:
    """``T_star`` = 1 / sup_w F(w); ``w_star`` the best weights found; ``arm_values`` the inner
    values V_j(w_star); ``bracket`` = (lower, upper) bounds on 1 / T_star (lower: F(w_star), certified
    for the Gaussian divergence; upper: the cutting-plane LP value); ``iterations`` evaluations of F."""

    T_star: float
    w_star: np.ndarray
    arm_values: np.ndarray
    bracket: tuple[float, float]
    iterations: int
    info: dict = field(default_factory=dict)


def _cut_lp(cuts: list[np.ndarray], n: int) -> optimize.OptimizeResult:
    """The cutting-plane LP max over the simplex of min over cuts of cut . w, as max z subject to
    cut . w >= z (HiGHS); ``x`` holds (w, z) and ``-fun`` the value. The caller reads ``status``."""
    A = np.hstack([-np.array(cuts), np.ones((len(cuts), 1))])
    c_obj = np.zeros(n + 1)
    c_obj[-1] = -1.0
    return optimize.linprog(
        c_obj,
        A_ub=A,
        b_ub=np.zeros(len(cuts)),
        A_eq=np.append(np.ones(n), 0.0)[None, :],
        b_eq=[1.0],
        bounds=[(0, 1)] * n + [(0, None)],
        method="highs",
    )


def fixed_threshold_weights(
    mu, k: float, divergence: str = "gaussian", sigma: float = 1.0, *, theta: float | None = None
) -> np.ndarray | None:
    r"""The optimal weights with the threshold held fixed at ``theta`` (default :math:`\theta(\mu)`):
    :math:`w_i\propto1/d(\mu_i,\theta)`, or None when an arm sits on the threshold (some
    :math:`d(\mu_i,\theta)=0`). The start of :func:`optimal_weights` and of Track-and-Stop's
    :func:`~bandit_lib.arena.tracking.target_weights`."""
    mu, k, divergence, sigma = _check_problem(mu, k, divergence, sigma, closed=True)
    theta = ksigma_threshold(mu, k) if theta is None else check_real("theta", theta)
    d_theta = divergence_values(mu, np.full(len(mu), theta), divergence, sigma)
    if not (d_theta > 0).all():
        return None
    return (1.0 / d_theta) / np.sum(1.0 / d_theta)


def optimal_weights(
    mu,
    k: float,
    *,
    divergence: str = "gaussian",
    sigma: float = 1.0,
    fixed_threshold: float | None = None,
    rtol: float = 1e-8,
    max_iter: int = 2000,
    w_floor: float = 1e-12,
) -> Characteristic:
    """sup over the simplex of min_j V_j(w), by cutting planes; see the module docstring.

    Where an arm sits exactly on the threshold (all means equal included), mu lies in the closure
    of Alt(mu), F = 0 for every w and T* is infinite: returned on purpose as ``T_star = inf`` with
    the bracket (0, 0) and ``info["on_threshold"]``. ``max_iter`` >= 1, 0 < ``w_floor`` < 1/n.
    ``info["stalled"]``: the cutting planes stopped adding cuts (a Kelley step landed on the point
    evaluated last) before the bracket closed to ``rtol``; the bracket returned is still certified.
    ``info["lp_failed"]``: HiGHS failed on the cut LP (the last certified upper value is kept)."""
    mu, k, divergence, sigma = _check_problem(mu, k, divergence, sigma)
    if fixed_threshold is not None:
        fixed_threshold = check_real("fixed_threshold", fixed_threshold)
    rtol = check_positive("rtol", rtol)
    max_iter = check_int("max_iter", max_iter, minimum=1)
    n = len(mu)
    w_floor = check_w_floor(w_floor, n)

    def evaluate(w):
        av = _arm_values(mu, w, k, divergence, sigma, fixed_threshold)
        return av, np.array([divergence_values(mu, lam, divergence, sigma) for lam in av.lambdas])

    w0 = fixed_threshold_weights(mu, k, divergence, sigma, theta=fixed_threshold)
    if w0 is None:  # an arm on the threshold: nothing can be certified, T* is infinite
        w0 = np.full(n, 1.0 / n)
        av, _ = evaluate(w0)
        return Characteristic(math.inf, w0, av.values, (0.0, 0.0), 0, {"on_threshold": True})
    cuts: list[np.ndarray] = []
    state = {"best": -np.inf, "w": w0, "av": None, "certified": 0.0, "calls": 0}
    cache: dict = {}
    info: dict = {}

    def at(w):
        key = w.tobytes()
        if key not in cache:
            ww = np.maximum(w, w_floor)
            av, dmat = evaluate(ww / ww.sum())
            state["calls"] += 1
            for name, v in av.info.items():
                info[name] = info.get(name, 0) + v
            cuts.extend(dmat)
            val = float(av.values.min())
            if val > state["best"]:
                state.update(best=val, w=ww / ww.sum(), av=av, certified=float(av.lower.min()))
            cache.clear()
            cache[key] = (av, dmat)
        return cache[key]

    # epigraph form: max z s.t. V_j(w) >= z, w in the simplex; dV_j/dw_i = d(mu_i, lam^(j)_i) (envelope theorem)
    scale = 1.0 / float(np.min(at(w0)[0].values) + 1e-300)

    def constraint(x):
        av, _ = at(x[:n])
        return (av.values - x[n]) * scale

    def constraint_jac(x):
        _, dmat = at(x[:n])
        return np.hstack([dmat, -np.ones((n, 1))]) * scale

    x0 = np.append(w0, float(at(w0)[0].values.min()))
    optimize.minimize(
        lambda x: -x[n] * scale,
        x0,
        jac=lambda x: np.append(np.zeros(n), -scale),
        method="SLSQP",
        bounds=[(w_floor, 1.0)] * n + [(0.0, None)],
        constraints=[
            {"type": "ineq", "fun": constraint, "jac": constraint_jac},
            {"type": "eq", "fun": lambda x: np.sum(x[:n]) - 1.0, "jac": lambda x: np.append(np.ones(n), 0.0)},
        ],
        options={"maxiter": max_iter, "ftol": rtol * 1e-3},
    )
    # certified upper bound on 1/T*: every cut w -> cut . w lies above F; maximise their minimum (LP)
    upper = np.inf
    for _ in range(max_iter):
        lp = _cut_lp(cuts, n)
        if lp.status != 0:
            # HiGHS can fail on thousands of nearly parallel cuts (seen at n = 100): the bracket then
            # keeps the last certified upper value (inf if none), and says so
            info["lp_failed"] = lp.message
            break
        upper = min(upper, -lp.fun)
        if upper - state["best"] <= rtol * state["best"]:
            break
        # Kelley step: evaluate F at the LP maximiser, averaged with the best point (stabilised)
        calls = state["calls"]
        at(0.5 * (lp.x[:n] + state["w"]))
        if state["calls"] == calls:
            # the step landed on the point evaluated last: no new cut, so the same LP, the same step
            # and the same bracket at every further iteration. Stop with the bracket as it is (the
            # loop used to run on to max_iter: 2000 identical LPs, 18 s on 5 arms at rtol 1e-6)
            info["stalled"] = True
            break
    it = state["calls"]
    best_val, best_w, best_av, certified = state["best"], state["w"], state["av"], state["certified"]
    return Characteristic(1.0 / best_val, best_w, best_av.values, (certified, upper), it, info)


def lower_bound(
    mu,
    k: float,
    delta: float,
    *,
    divergence: str = "gaussian",
    sigma: float = 1.0,
    fixed_threshold: float | None = None,
    rtol: float = 1e-8,
) -> float:
    """T*(mu) kl(delta, 1 - delta): a lower bound on E[pulls] of every delta-correct algorithm
    (infinite, on purpose, where an arm sits on the threshold: see :func:`optimal_weights`)."""
    delta = check_open_unit("delta", delta)
    ch = optimal_weights(mu, k, divergence=divergence, sigma=sigma, fixed_threshold=fixed_threshold, rtol=rtol)
    return ch.T_star * kl_delta(delta)


def leave_one_out_thresholds(mu, k: float) -> np.ndarray:
    r"""For each arm j, the value :math:`t_j` at which arm j, moved alone, sits exactly on the threshold.

    With the other arms' mean :math:`a_j` and population variance :math:`v_j` fixed, arm j at x is
    above :math:`\theta` iff :math:`x - a_j > k\sqrt{n v_j/(n-1-k^2)}` (square
    :math:`c_j = k s` with :math:`c_j = (n-1)(x-a_j)/n` and
    :math:`s^2 = \tfrac{n-1}{n}v_j + \tfrac{n-1}{n^2}(x-a_j)^2`: one root with :math:`x > a_j`), so
    :math:`t_j = a_j + k\sqrt{n v_j/(n-1-k^2)}`.
    """
    mu = check_vector("mu", mu, min_length=2)
    k = check_k_for(k, len(mu))
    n = len(mu)
    c = mu - mu.mean()  # centred first: the leave-one-out variance is scale-safe and shift-free
    a = -c / (n - 1)
    v = np.maximum((np.sum(c * c) - c * c) / (n - 1) - a * a, 0.0)
    return mu.mean() + a + k * np.sqrt(n * v / (n - 1 - k * k))


def single_arm_bound(mu, k: float, *, divergence: str = "gaussian", sigma: float = 1.0) -> float:
    r"""A certified lower bound on :math:`T^*(\mu)` in closed form, for any n: :math:`\sum_j 1/d(\mu_j, t_j)`.

    The alternative that moves arm j alone onto its :func:`leave_one_out_thresholds` value
    :math:`t_j` lies in :math:`\mathrm{Alt}(\mu)`, so :math:`F(w)\le\min_j w_j d(\mu_j,t_j)`
    for every w, whose maximum over the simplex is :math:`1/\sum_j 1/d(\mu_j,t_j)`; hence
    :math:`T^*\ge\sum_j1/d(\mu_j,t_j)`. It ignores the cheaper alternatives that move several
    arms at once (they shift the threshold), so it can be loose: measured 0.27-0.85 of
    :math:`T^*` on planted instances with n = 20-50 (the arena chapter). Bernoulli arms whose
    :math:`t_j` falls outside (0, 1) cannot change side alone and contribute nothing. Bernoulli
    means of exactly 0 or 1 are allowed here (real error rates can be 0): kl(0, t) = -ln(1 - t)
    is finite for t < 1, so the change of measure still holds.
    """
    mu, k, divergence, sigma = _check_problem(mu, k, divergence, sigma, closed=True)
    _refuse_degenerate(mu, k)
    t = leave_one_out_thresholds(mu, k)
    if divergence == "bernoulli":
        inside = (t > 0) & (t < 1)
        d = np.where(inside, kl_bernoulli(mu, np.where(inside, t, 0.5)), np.inf)
    else:
        d = divergence_values(mu, t, divergence, sigma)
    if (d <= 0).any():
        i = int(np.flatnonzero(d <= 0)[0])
        raise ValueError(f"arm {i} sits on the threshold (mu[{i}]={float(mu[i])!r}): T* is infinite")
    return float(np.sum(1.0 / d))


def fixed_threshold_bound(mu, theta: float, sigma: float = 1.0) -> float:
    """Closed-form T* of Gaussian thresholding with the threshold held fixed: sum_i 2 sigma^2 / Delta_i^2.

    The alternative for arm i is lam_i = theta, so F(w) = min_i w_i Delta_i^2 / (2 sigma^2), whose
    maximum over the simplex equalises the terms: 1 / T* = 1 / sum_i (2 sigma^2 / Delta_i^2).
    (Multiply by kl(delta, 1 - delta) for the bound on expected pulls.)
    """
    mu = check_vector("mu", mu)
    theta = check_real("theta", theta)
    sigma = check_positive("sigma", sigma)
    gaps = mu - theta
    if (gaps == 0).any():
        i = int(np.flatnonzero(gaps == 0)[0])
        raise ValueError(f"arm {i} sits on the threshold (mu[{i}]={float(mu[i])!r} = theta): T* is infinite")
    return float(np.sum(2 * sigma * sigma / gaps**2))


def certified_lower_T(
    mu,
    k: float,
    *,
    divergence: str = "bernoulli",
    sigma: float = 1.0,
    rtol: float = 1e-3,
    max_iter: int = 200,
    patience: int = 5,
    refine: int = 2,
) -> tuple[float, np.ndarray, int]:
    r"""A certified lower bound on :math:`T^*` from cutting planes whose alternatives come from the fast
    Gaussian solver: ``(T_lower, w, cuts)``.

    Every point :math:`\lambda\in\mathrm{Alt}(\mu)` gives a linear function
    :math:`w\mapsto\sum_iw_id(\mu_i,\lambda_i)` above :math:`F`, so the LP
    :math:`\max_{w\in\Sigma_n}\min_{\rm cuts}` bounds :math:`1/T^*` from above *whatever produced the
    points*. The points here are the single-arm moves (:func:`leave_one_out_thresholds`) and, at the
    LP's maximisers (stabilised Kelley steps), the exact minimisers of the Gaussian problem with the
    local variances :math:`v_i=\mu_i(1-\mu_i)` (Bernoulli) or :math:`\sigma^2` -- one eigendecomposition
    per arm instead of a multi-start SLSQP; with ``refine=r > 1`` each Bernoulli point is re-solved
    r - 1 times with the variances at the midpoint of mu and the point. Bernoulli points outside :math:`(0,1)^n` are skipped (kl is
    infinite there). The loop stops when the LP value has improved by less than ``rtol`` (relative)
    for ``patience`` iterations, or after ``max_iter``. The bound is certified, not tight: compare with
    :func:`optimal_weights`' bracket where that is affordable. Measured on the arena's planted case 0
    at n = 20 (Bernoulli): 475.1 in 6.5 s (refine = 2; 395.7 in 1.4 s with refine = 1), against
    the single-arm bound's 72.2 and the exact LP's certified 501 (36 s at rtol = 0.1).
    """
    mu, k, divergence, sigma = _check_problem(mu, k, divergence, sigma)
    rtol = check_positive("rtol", rtol)
    max_iter = check_int("max_iter", max_iter, minimum=1)
    patience = check_int("patience", patience, minimum=1)
    refine = check_int("refine", refine, minimum=1)
    _refuse_degenerate(mu, k)
    n = len(mu)
    outlier = _gap_sign(mu, k)
    var = mu * (1.0 - mu) if divergence == "bernoulli" else np.full(n, sigma * sigma)

    def row(lam):
        if divergence == "bernoulli" and not ((lam > 0) & (lam < 1)).all():
            return None
        return divergence_values(mu, lam, divergence, sigma)

    cuts = []
    t = leave_one_out_thresholds(mu, k)
    for j in range(n):
        lam = mu.copy()
        lam[j] = t[j]
        r = row(lam)
        if r is not None:
            cuts.append(r)
    refine = check_int("refine", refine, minimum=1)

    def lp():
        res = _cut_lp(cuts, n)
        if res.status != 0:
            raise RuntimeError(f"the cutting-plane LP failed with {len(cuts)} cuts: {res.message}")
        return -res.fun, res.x[:n]

    if not cuts:
        raise ValueError("no feasible alternative found to start from (every single-arm move leaves (0, 1))")
    upper, w_lp = lp()
    w_centre = w_lp.copy()
    stale = iterations = 0
    while iterations < max_iter:
        iterations += 1
        w = np.maximum(0.5 * (w_lp + w_centre), 1e-12)
        D = w / w.sum() / (2.0 * var)
        lams = _gauss_all(mu, D, k, outlier, {})[1]
        for j in range(n):
            lam = lams[j]
            for _ in range(refine):
                r = row(lam)
                if r is not None:
                    cuts.append(r)
                if divergence != "bernoulli":
                    break
                # kl(mu, lam) is closer to (mu - lam)^2 / (2 v) with v at the midpoint than at mu
                mid = np.clip(0.5 * (mu + lam), 1e-6, 1 - 1e-6)
                lam = _gauss_one(mu, w / w.sum() / (2.0 * mid * (1 - mid)), j, k, bool(outlier[j]), {})[1]
        new_upper, w_lp = lp()
        stale = stale + 1 if upper - new_upper <= rtol * upper else 0
        upper = min(upper, new_upper)
        w_centre = 0.5 * (w_centre + w_lp)
        if stale >= patience:
            break
    return 1.0 / upper, w_lp, iterations
