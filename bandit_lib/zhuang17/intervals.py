r"""Confidence intervals of the k-sigma outlier problem (ZHUANG17 §4.1 and §4.3).

After :math:`T` pulls, with :math:`s_i, m_i` the reward sum and pull count of arm :math:`i`:

.. math::
   &\hat y_i = s_i/m_i,\quad \hat\mu = \tfrac1n\sum_i \hat y_i,\quad
   \hat\sigma = \sqrt{\tfrac1n\sum_i(\hat y_i-\hat\mu)^2},\\
   &\hat\theta = \hat\mu + k\hat\sigma,\quad
   \delta'(T) = \frac{6\delta}{\pi^2 (n+1) T^2}.

Every radius is recomputed with the current :math:`\delta'(T)` after every update
(the ZHUANG17 chapter's reproduction notes, row N6).

**Bounded rewards** (:class:`HoeffdingCI`; the family of the theorems), rewards in an interval of
length ``R``, :math:`L = \ln(1/\delta')`:

.. math::
   &\beta_i = R\sqrt{\frac{L}{2m_i}},\qquad
   \beta_\theta = R\sqrt{\frac{l(k)\,L}{2h}},\qquad h = \frac{n}{\sum_i 1/m_i},\\
   &l(k) = \Bigl[\frac{1+k\sqrt{n-1}}{\sqrt n} + \frac{k}{\sqrt{2\ln(\pi^2 n^3/(6\delta))}}\Bigr]^2 .

``l_inner="delta_prime"`` uses the ADE20 restatement, :math:`\delta'(T)` in place of
:math:`\delta` inside :math:`l(k)` (then :math:`l` shrinks slowly as :math:`T` grows).

**Bernoulli rewards** (:class:`AgrestiCoullCI`; every figure of the paper, heuristic):

.. math::
   &z = \mathrm{erf}^{-1}(1-\delta'/2)\ \text{(``z_mode="erfinv"``, literal)}\quad\text{or}\\
   &z = \Phi^{-1}(1-\delta'/2) = \sqrt2\,\mathrm{erfc}^{-1}(\delta')\ \text{(``"normal"``)},

.. math::
   &\tilde p_i = \frac{s_i + z^2/2}{m_i + z^2},\quad \beta_i = z\sqrt{\frac{\tilde p_i(1-\tilde p_i)}{m_i}},\\
   &\beta_\theta = \sqrt{\sum_i c_i^2\beta_i^2},\quad
   c_i = \tfrac1n\Bigl(1 + k\,\frac{\hat y_i-\hat\mu}{\hat\sigma}\Bigr)

(``threshold_ci="delta"``, the delta method: :math:`c_i = \partial\hat\theta/\partial\hat y_i`), or
:math:`c_i = \frac1n(1 + k\hat y_i/\sqrt{\hat\sigma})` (``"as_printed"``, the paper's glyphs);
:math:`c_i = 1/n` when :math:`\hat\sigma = 0`. ``z`` comes from ``erfcinv`` (never
``erfinv(1 - x)``, which is infinite once :math:`\delta'/2 < 2^{-53}`).

**Active arms and output** (Eq. 2–3): arm :math:`i` is active iff
:math:`\hat y_i - \beta_i < \hat\theta + \beta_\theta` when :math:`\hat y_i > \hat\theta`, and iff
:math:`\hat y_i + \beta_i > \hat\theta - \beta_\theta` otherwise (strict; a tie goes to the second
branch). The output is :math:`\hat\Omega = \{i : \hat y_i > \hat\theta\}`.

What ADE20 and GOLD20 reuse: the two families :class:`HoeffdingCI` and :class:`AgrestiCoullCI`
(``ci.evaluate(...)`` is one UPDATE() and returns an :class:`IntervalState`), and
:func:`delta_prime`, :func:`l_of_k` and :func:`rho_star`.

Exactness contract: the numba kernel :func:`evaluate_kernel` is the *only* place where these
quantities are computed (with the k-sigma kernels :func:`bandit_lib.ksigma.threshold_nb` and
:func:`bandit_lib.ksigma.is_active_nb`, which the arena's detectors share). The per-pull references call it after every update, and the fast
engines (``bandit_lib.zhuang17._engine``) call the very same kernel whenever their
certified bounds cannot settle a decision, so both engines compare the same floating-point
numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from bandit_lib.checks import check_choice, check_int, check_nonnegative, check_open_unit, check_positive
from bandit_lib.ksigma import is_active_nb, threshold_nb
from bandit_lib.special import erfcinv_nb

PI2 = math.pi * math.pi
SQRT2 = math.sqrt(2.0)

# Integer codes of the families and options, as the numba kernels see them.
HOEFFDING, AGRESTI_COULL = 0, 1
Z_ERFINV, Z_NORMAL = 0, 1
TH_DELTA, TH_PRINTED = 0, 1
L_DELTA, L_DELTA_PRIME = 0, 1


@njit(cache=True)
def delta_prime_nb(T: float, n: int, delta: float) -> float:
    """delta'(T) = 6 delta / (pi^2 (n + 1) T^2), Eq. (1)."""
    return 6.0 * delta / (PI2 * (n + 1.0) * (T * T))


@njit(cache=True)
def l_value_nb(n: int, k: float, inner_delta: float) -> float:
    """l(k) with ``inner_delta`` inside the logarithm (delta for ZHUANG17, delta' for ADE20)."""
    a = (1.0 + k * math.sqrt(n - 1.0)) / math.sqrt(float(n))
    b = k / math.sqrt(2.0 * math.log(PI2 * (n * n * float(n)) / (6.0 * inner_delta)))
    return (a + b) * (a + b)


@njit(cache=True)
def z_value_nb(dp: float, z_mode: int) -> float:
    """Quantile z of the Agresti–Coull radius at level dp = delta'."""
    if z_mode == Z_ERFINV:
        return erfcinv_nb(dp / 2.0)
    return SQRT2 * erfcinv_nb(dp)


@njit(cache=True)
def ac_beta_nb(s: float, m: float, z: float) -> float:
    """Agresti–Coull radius z sqrt(p~(1-p~)/m) around s/m."""
    z2 = z * z
    p = (s + z2 / 2.0) / (m + z2)
    return z * math.sqrt(p * (1.0 - p) / m)


@njit(cache=True)
def hoeffding_beta_nb(m: float, L: float, R: float) -> float:
    """Hoeffding radius R sqrt(L / (2 m))."""
    return R * math.sqrt(L / (2.0 * m))


@njit(cache=True)
def evaluate_kernel(s, m, T, k, delta, family, R, l_fixed, l_inner, z_mode, th_mode, yhat, beta, active):
    """One UPDATE(): fills ``yhat``, ``beta``, ``active``; returns (mu, sigma, theta, beta_th, n_active).

    ``l_fixed`` is l(k) for ``l_inner == L_DELTA`` (computed once per run by the caller).
    """
    n = s.shape[0]
    for i in range(n):
        yhat[i] = s[i] / m[i]
    mu, sig, theta = threshold_nb(yhat, k)
    dp = delta_prime_nb(float(T), n, delta)
    if family == HOEFFDING:
        L = -math.log(dp)
        lk = l_fixed if l_inner == L_DELTA else l_value_nb(n, k, dp)
        inv = 0.0
        for i in range(n):
            beta[i] = hoeffding_beta_nb(float(m[i]), L, R)
            inv += 1.0 / m[i]
        h = n / inv
        beta_th = R * math.sqrt(lk * L / (2.0 * h))
    else:
        z = z_value_nb(dp, z_mode)
        acc = 0.0
        for i in range(n):
            b = ac_beta_nb(s[i], float(m[i]), z)
            beta[i] = b
            if sig == 0.0:
                c = 1.0 / n
            elif th_mode == TH_DELTA:
                c = (1.0 + k * ((yhat[i] - mu) / sig)) / n
            else:
                c = (1.0 + k * (yhat[i] / math.sqrt(sig))) / n
            acc += (c * c) * (b * b)
        beta_th = math.sqrt(acc)
    n_active = 0
    for i in range(n):
        a = is_active_nb(yhat[i], beta[i], theta, beta_th)
        active[i] = a
        if a:
            n_active += 1
    return mu, sig, theta, beta_th, n_active


# --------------------------------------------------------------------------------------------
# Python API


def delta_prime(T: int, n: int, delta: float) -> float:
    """delta'(T) = 6 delta / (pi^2 (n + 1) T^2): the level of each interval after T pulls (Eq. 1)."""
    T = check_int("T", T, minimum=1)
    n = check_int("n", n, minimum=2)
    delta = check_open_unit("delta", delta)
    return float(delta_prime_nb(float(T), n, delta))


def l_of_k(n: int, k: float, delta: float) -> float:
    r"""McDiarmid factor :math:`l(k) = [(1 + k\sqrt{n-1})/\sqrt n + k/\sqrt{2\ln(\pi^2 n^3/(6\delta))}]^2`."""
    n = check_int("n", n, minimum=2)
    k = check_nonnegative("k", k)
    delta = check_open_unit("delta", delta)
    return float(l_value_nb(n, k, delta))


def rho_star(n: int, k: float, delta: float) -> float:
    r"""WRR's minimax weight, Eq. (6): :math:`\rho^* = \max(1, (n-1)^{2/3} / l(k)^{1/3})`.

    Example (the table of the ZHUANG17 chapter):

    >>> from bandit_lib.zhuang17 import rho_star
    >>> round(rho_star(20, 2.5, 0.1), 3)
    3.296
    """
    lk = l_of_k(n, k, delta)
    return max(1.0, (n - 1.0) ** (2.0 / 3.0) / lk ** (1.0 / 3.0))


@dataclass(frozen=True)
class IntervalState:
    """The estimates and intervals after one UPDATE() (all arrays have one entry per arm)."""

    yhat: np.ndarray
    mu: float
    sigma: float
    theta: float
    beta: np.ndarray
    beta_th: float
    active: np.ndarray

    @property
    def output(self) -> np.ndarray:
        """Eq. (3): sorted arms with yhat_i > thetahat."""
        return np.flatnonzero(self.yhat > self.theta)

    @property
    def any_active(self) -> bool:
        return bool(self.active.any())


def _check_state(s, m, T):
    s = np.ascontiguousarray(s, dtype=np.float64)
    m = np.ascontiguousarray(m, dtype=np.int64)
    if s.ndim != 1 or m.shape != s.shape or s.size < 2:
        raise ValueError(f"s and m must be 1-D arrays of the same length >= 2; got shapes {s.shape} and {m.shape}")
    if (m < 1).any():
        i = int(np.flatnonzero(m < 1)[0])
        raise ValueError(f"every arm needs m_i >= 1 pulls; got m[{i}]={int(m[i])}")
    if not np.isfinite(s).all():
        i = int(np.flatnonzero(~np.isfinite(s))[0])
        raise ValueError(f"reward sums must be finite; got s[{i}]={float(s[i])!r}")
    T = check_int("T", T, minimum=1)
    return s, m, T


class IntervalFamily:
    """What both interval families share: the integer codes the kernels take, and :meth:`evaluate`."""

    family: int

    def codes(self, n: int, k: float, delta: float) -> tuple:
        """(family, R, l_fixed, l_inner, z_mode, th_mode) for :func:`evaluate_kernel`."""
        raise NotImplementedError

    def evaluate(self, s, m, T: int, k: float, delta: float) -> IntervalState:
        """One UPDATE() from reward sums ``s``, pull counts ``m`` and ``T`` total pulls."""
        s, m, T = _check_state(s, m, T)
        k = check_nonnegative("k", k)
        delta = check_open_unit("delta", delta)
        self.check_rewards(s, m)
        n = s.size
        yhat, beta, active = np.empty(n), np.empty(n), np.empty(n, dtype=np.bool_)
        mu, sig, theta, bth, _ = evaluate_kernel(s, m, T, k, delta, *self.codes(n, k, delta), yhat, beta, active)
        return IntervalState(yhat, mu, sig, theta, beta, bth, active)

    def check_rewards(self, s, m) -> None:
        pass


@dataclass(frozen=True)
class HoeffdingCI(IntervalFamily):
    """Hoeffding arm radii and McDiarmid threshold radius for rewards in an interval of length R:
    the intervals of ZHUANG17's theorems (RR and WRR are then delta-correct).

    ``R=1.0`` (default): rewards in [0, 1], as in the paper (and ADE20: "R is set as 1").
    ``l_inner="delta"`` (default): Zhuang's l(k) with ln(pi^2 n^3/(6 delta)), fixed per run;
    ``"delta_prime"``: the ADE20 restatement with delta'(T) inside the log.

    Example (an interval family is passed to RR and WRR as ``ci``):

    >>> from bandit_lib.zhuang17 import HoeffdingCI
    >>> HoeffdingCI()
    HoeffdingCI(R=1.0, l_inner='delta')
    >>> HoeffdingCI(R=2.0, l_inner="delta_prime").R
    2.0
    """

    R: float = 1.0
    l_inner: str = "delta"
    family = HOEFFDING

    def __post_init__(self) -> None:
        check_positive("R", self.R)
        check_choice("l_inner", self.l_inner, ("delta", "delta_prime"))

    def codes(self, n, k, delta):
        inner = L_DELTA if self.l_inner == "delta" else L_DELTA_PRIME
        return (HOEFFDING, float(self.R), float(l_value_nb(n, k, delta)), inner, 0, 0)


@dataclass(frozen=True)
class AgrestiCoullCI(IntervalFamily):
    """Agresti–Coull arm radii and a delta-method threshold radius, for Bernoulli rewards: the
    intervals of every figure of ZHUANG17 (used "heuristically": no proof).

    ``z_mode``: ``"erfinv"`` (literal, default) or ``"normal"``; ``threshold_ci``: ``"delta"``
    (default) or ``"as_printed"`` (the ZHUANG17 chapter's reproduction notes say why).

    Example:

    >>> from bandit_lib.zhuang17 import AgrestiCoullCI
    >>> AgrestiCoullCI()
    AgrestiCoullCI(z_mode='erfinv', threshold_ci='delta')
    """

    z_mode: str = "erfinv"
    threshold_ci: str = "delta"
    family = AGRESTI_COULL

    def __post_init__(self) -> None:
        check_choice("z_mode", self.z_mode, ("erfinv", "normal"))
        check_choice("threshold_ci", self.threshold_ci, ("delta", "as_printed"))

    def codes(self, n, k, delta):
        z = Z_ERFINV if self.z_mode == "erfinv" else Z_NORMAL
        th = TH_DELTA if self.threshold_ci == "delta" else TH_PRINTED
        return (AGRESTI_COULL, 1.0, 0.0, 0, z, th)

    def check_rewards(self, s, m) -> None:
        bad = (s < 0) | (s > m)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"Agresti–Coull intervals need rewards in [0, 1]; got s[{i}]={float(s[i])!r} with m[{i}]={int(m[i])}"
            )


def check_ci(ci) -> IntervalFamily:
    """The interval family argument of the policies."""
    if not isinstance(ci, IntervalFamily):
        raise TypeError(f"ci must be HoeffdingCI(...) or AgrestiCoullCI(...); got ci={ci!r}")
    return ci
