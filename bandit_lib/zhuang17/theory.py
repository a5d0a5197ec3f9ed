r"""Hardness of a k-sigma outlier instance and the RR/WRR sample-complexity bounds (ZHUANG17 §4).

With the true threshold :math:`\theta = \mu_y + k\sigma_y` and gaps :math:`\Delta_i = |y_i - \theta|`:

.. math::
   H_1 = \frac{n}{\min_i \Delta_i^2},\qquad H_2 = \sum_i \frac{1}{\Delta_i^2},\qquad
   \frac{H_1}{n} \le H_2 \le H_1,

.. math::
   H_{RR} = H_1\bigl(1+\sqrt{l(k)}\bigr)^2,\qquad
   H_{WRR} = \bigl(1+\sqrt{\rho\, l(k)}\bigr)^2\,\frac{H_1 + (\rho-1)H_2}{\rho}.

Theorems 2 and 3 (bounded rewards in an interval of length R, Hoeffding/McDiarmid intervals):
with probability at least :math:`1-\delta`,

.. math::
   &T_{RR} \le 8R^2H_{RR}\Bigl[\ln\frac{2R^2\pi^2(n+1)H_{RR}}{3\delta} + 1\Bigr] + 4n,\\
   &T_{WRR} \le 8R^2H_{WRR}\Bigl[\ln\frac{2R^2\pi^2(n+1)H_{WRR}}{3\delta} + 1\Bigr] + 2(\rho+2)n.

The hardness measures :func:`H1`, :func:`H2`, :func:`H_RR`, :func:`H_WRR`, the bounds
:func:`bound_rr`, :func:`bound_wrr` and their ratio :func:`wrr_rr_ratio` (Eq. 7). ``l(k)`` and :math:`\rho^*` live in :mod:`bandit_lib.zhuang17.intervals`.
"""

from __future__ import annotations

import math

import numpy as np

from bandit_lib.checks import check_open_unit, check_positive, check_real, check_vector
from bandit_lib.ksigma import ksigma_gaps
from bandit_lib.zhuang17.intervals import l_of_k


def _gaps2(y, k) -> np.ndarray:
    y = check_vector("y", y, min_length=2)
    gaps = ksigma_gaps(y, k)
    if (gaps == 0).any():
        i = int(np.flatnonzero(gaps == 0)[0])
        raise ValueError(f"arm {i} (y[{i}]={float(y[i])!r}) sits exactly on the threshold; the hardness is infinite")
    return gaps * gaps


def H1(y, k: float) -> float:
    """n / min_i Delta_i^2."""
    g2 = _gaps2(y, k)
    return float(len(g2) / g2.min())


def H2(y, k: float) -> float:
    """sum_i 1 / Delta_i^2."""
    return float(np.sum(1.0 / _gaps2(y, k)))


def _check_rho(rho) -> float:
    rho = check_real("rho", rho)
    if rho < 1:
        raise ValueError(f"rho must be >= 1; got rho={rho!r}")
    return rho


def H_RR(y, k: float, delta: float) -> float:
    """H1 (1 + sqrt(l(k)))^2."""
    return H1(y, k) * (1.0 + math.sqrt(l_of_k(len(y), k, delta))) ** 2


def H_WRR(y, k: float, delta: float, rho: float) -> float:
    """(1 + sqrt(rho l(k)))^2 (H1 + (rho - 1) H2) / rho."""
    rho = _check_rho(rho)
    lk = l_of_k(len(y), k, delta)
    return (1.0 + math.sqrt(rho * lk)) ** 2 * (H1(y, k) + (rho - 1.0) * H2(y, k)) / rho


def _bound(H: float, n: int, delta: float, R: float, extra: float) -> float:
    R2 = R * R
    return 8.0 * R2 * H * (math.log(2.0 * R2 * math.pi**2 * (n + 1) * H / (3.0 * delta)) + 1.0) + extra


def bound_rr(y, k: float, delta: float, R: float = 1.0) -> float:
    """Theorem 2: the RR pull bound (bounded rewards of range R)."""
    delta = check_open_unit("delta", delta)
    R = check_positive("R", R)
    n = len(check_vector("y", y, min_length=2))
    return _bound(H_RR(y, k, delta), n, delta, R, 4.0 * n)


def bound_wrr(y, k: float, delta: float, rho: float, R: float = 1.0) -> float:
    """Theorem 3: the WRR pull bound (bounded rewards of range R)."""
    delta = check_open_unit("delta", delta)
    R = check_positive("R", R)
    rho = _check_rho(rho)
    n = len(check_vector("y", y, min_length=2))
    return _bound(H_WRR(y, k, delta, rho), n, delta, R, 2.0 * (rho + 2.0) * n)


def wrr_rr_ratio(y, k: float, delta: float, rho: float) -> float:
    """Eq. (7): H_WRR / H_RR."""
    return H_WRR(y, k, delta, rho) / H_RR(y, k, delta)
