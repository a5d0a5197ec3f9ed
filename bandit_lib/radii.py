r"""Confidence radii shared by the five papers.

Every radius ``r`` is for an empirical mean :math:`\hat y` of ``m`` pulls and a level ``delta``:

=====================  ===========================================================  ===================
radius                 formula                                                      guarantee
=====================  ===========================================================  ===================
Hoeffding              :math:`R\sqrt{\ln(1/\delta)/(2m)}`                            each one-sided tail
                                                                                     :math:`\le\delta`,
                                                                                     rewards in a range R
sub-Gaussian           :math:`\sigma\sqrt{2\ln(1/\delta)/m}`                         each one-sided tail
                                                                                     :math:`\le\delta`
Agresti–Coull          :math:`z\sqrt{\tilde p(1-\tilde p)/m}`,                      none (heuristic,
                       :math:`\tilde p = (s + z^2/2)/(m + z^2)`                      Bernoulli rewards)
=====================  ===========================================================  ===================

``two_sided=True`` spends ``delta`` on both tails together (``ln(2/delta)``), so that
:math:`P(|\hat y - y| > r) \le \delta`.

The Agresti–Coull radius takes its quantile ``z`` from the caller, because the papers disagree on
it: ZHUANG17 prints :math:`z = \mathrm{erf}^{-1}(1 - \delta'/2)` (about 0.7 times the normal
quantile) and GOLD20 :math:`z = \mathrm{erf}^{-1}(1 - \delta')`. Compute these with
:func:`z_erfinv` / :func:`z_normal`, never as ``erfinv(1 - x)`` (infinite for x < ~1e-16).
"""

from __future__ import annotations

import numpy as np

from bandit_lib.checks import check_nonnegative, check_positive
from bandit_lib.special import erfinv_one_minus, normal_upper_quantile


def _levels(name: str, delta) -> np.ndarray:
    d = np.asarray(delta, dtype=np.float64)
    bad = ~((d > 0) & (d < 1))
    if bad.any():
        value = d.flat[int(np.flatnonzero(bad.ravel())[0])].item()
        raise ValueError(f"{name} must lie in the open interval (0, 1); got {name}={value!r}")
    return d


def _counts(m) -> np.ndarray:
    m = np.asarray(m, dtype=np.float64)
    bad = ~(np.isfinite(m) & (m >= 1))
    if bad.any():
        value = m.flat[int(np.flatnonzero(bad.ravel())[0])].item()
        raise ValueError(f"the number of pulls m must be >= 1; got m={value!r}")
    return m


def _scalar_or_array(x: np.ndarray):
    return float(x) if x.ndim == 0 else x


def hoeffding_radius(m, delta, R: float = 1.0, *, two_sided: bool = False):
    """Hoeffding radius ``R * sqrt(ln(1/delta) / (2 m))`` for rewards in an interval of length R."""
    R = check_positive("R", R)
    m, d = _counts(m), _levels("delta", delta)
    log_term = np.log(2.0 / d) if two_sided else -np.log(d)
    return _scalar_or_array(R * np.sqrt(log_term / (2.0 * m)))


def subgaussian_radius(m, delta, sigma: float = 1.0, *, two_sided: bool = False):
    """sigma-sub-Gaussian radius ``sigma * sqrt(2 ln(1/delta) / m)``.

    Rewards in [0, 1] are 1/2-sub-Gaussian, for which this equals the Hoeffding radius with R = 1.
    """
    sigma = check_positive("sigma", sigma)
    m, d = _counts(m), _levels("delta", delta)
    log_term = np.log(2.0 / d) if two_sided else -np.log(d)
    return _scalar_or_array(sigma * np.sqrt(2.0 * log_term / m))


def z_erfinv(x):
    r"""The literal papers' quantile :math:`\mathrm{erf}^{-1}(1 - x)`, computed as ``erfcinv(x)``."""
    x = np.asarray(x, dtype=np.float64)
    bad = ~((x > 0) & (x < 2))
    if bad.any():
        value = x.flat[int(np.flatnonzero(bad.ravel())[0])].item()
        raise ValueError(f"x must lie in (0, 2) for erf^-1(1 - x); got x={value!r}")
    return _scalar_or_array(np.asarray(erfinv_one_minus(x)))


def z_normal(x):
    r"""The upper x-quantile of N(0, 1), :math:`\Phi^{-1}(1 - x)`, computed as ``-ndtri(x)``."""
    x = _levels("x", x)
    return _scalar_or_array(np.asarray(normal_upper_quantile(x)))


def agresti_coull_radius(s, m, z):
    r"""Agresti–Coull radius :math:`z\sqrt{\tilde p(1-\tilde p)/m}` around :math:`\hat y = s/m`.

    ``s`` is the number of successes among ``m`` Bernoulli pulls. The interval is centred at the
    plain empirical mean (as every paper here uses it), not at :math:`\tilde p`; the denominator
    is ``m``, not ``m + z**2``.
    """
    m = _counts(m)
    s = np.asarray(s, dtype=np.float64)
    bad = ~(np.isfinite(s) & (s >= 0) & (s <= m))
    if bad.any():
        i = int(np.flatnonzero(bad.ravel())[0])
        raise ValueError(
            f"successes s must lie in [0, m]; got s={s.flat[i].item()!r} with m={np.broadcast_to(m, s.shape).flat[i].item()!r}"
        )
    z = np.asarray(z, dtype=np.float64)
    if not (np.all(np.isfinite(z)) and np.all(z >= 0)):
        raise ValueError(f"the quantile z must be finite and >= 0; got z={z!r}")
    z2 = z * z
    p_tilde = (s + z2 / 2.0) / (m + z2)
    return _scalar_or_array(z * np.sqrt(p_tilde * (1.0 - p_tilde) / m))


def hoeffding_level(m, radius, R: float = 1.0) -> float | np.ndarray:
    """Inverse of :func:`hoeffding_radius`: the delta at which the radius equals ``radius``."""
    R = check_positive("R", R)
    m = _counts(m)
    radius = np.asarray(radius, dtype=np.float64)
    check_nonnegative("radius", float(np.min(radius)))
    return _scalar_or_array(np.exp(-2.0 * m * (radius / R) ** 2))
