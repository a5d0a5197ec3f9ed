r"""ADE20's guarantees in checkable form, and the closed-form cost model.

* :func:`theorem2_bound`: the explicit constants of the proof of Theorem 2 (the paper's Appendix C:
  :math:`M_i` is its Ineq. (37), the bound on :math:`m_\theta` its Ineq. (30) at the last arm). With
  :math:`c = 1 + \sqrt2 C_s k/(R\sigma_y)` and
  :math:`C = (n+4)\pi^2(1 + 4c^2)^2`,

  .. math::
     &M_i = \frac{32R^2}{\Delta_i^2}\ln\frac{16R^2}{\Delta_i^2} + \frac{16R^2}{\Delta_i^2}\ln\frac{C}{3\delta} + 2,\\
     &m_i \le M_i,\qquad m_{\theta} \le 4c^2\max_i M_i,

  so the total is at most :math:`\sum_i M_i + 8c^2\max_i M_i` pulls (a threshold round pulls
  twice; this sum is the book's, the paper states only the O(.) form), with probability
  :math:`\ge 1 - \delta`.
* :func:`ade_cost_model` (the book's model, not the paper's): what ADE costs when its two radii
  stay balanced. An arm is decided once
  :math:`r_a + r_\theta \approx \Delta_i`, with :math:`r_a \approx r_\theta`, so
  :math:`m_i \approx 2L/\Delta_i^2` sweeps, :math:`m_a \approx 2L/\Delta_{\min}^2`, and
  :math:`m_\theta \approx c^2 m_a` pairs (the two radii equal): in pulls,

  .. math:: \mathrm{ADE} \approx 2c^2\,\frac{2L}{\Delta_{\min}^2} + \sum_i \max\Bigl(1, \frac{2L}{\Delta_i^2}\Bigr),

  with :math:`L = L_t` at the model's own final round (a fixed point, a few iterations).
  Threshold pulls dominate; nothing in the leading term grows with ``n`` except through ``L``.
* :func:`rr_cost_model`: RR pulls every arm until the hardest is decided, and its threshold
  radius is :math:`\sqrt{l(k)}` times an arm's (equal pull counts), so with
  :math:`L' = \ln(1/\delta'(T))` at its own final ``T``,

  .. math:: \mathrm{RR} \approx n\,(1 + \sqrt{l(k)})^2\,\frac{R^2L'}{2\Delta_{\min}^2}.

* :func:`crossover_closed_form`: equating the two leading terms,
  :math:`n^* \approx 8c^2/(1 + \sqrt{l(k)})^2 \cdot L/L'`.

The hypotheses of Theorems 1 and 2, checked on every instance a theorem row uses, are in
:mod:`bandit_lib.ade20.report.hypotheses` (they are the scorecard's objects).
"""

from __future__ import annotations

import math

import numpy as np

from bandit_lib.ade20.ade import PI2, variance_constant
from bandit_lib.checks import check_int, check_nonnegative, check_open_unit, check_positive, check_vector
from bandit_lib.ksigma import ksigma_gaps
from bandit_lib.zhuang17.intervals import l_of_k


def _instance(y, k):
    y = check_vector("y", y, min_length=2)
    k = check_nonnegative("k", k)
    gaps = ksigma_gaps(y, k)
    if gaps.min() <= 0:
        raise ValueError(f"an arm sits on the threshold (Delta_min = 0), so no algorithm stops; got y={y!r}, k={k!r}")
    return y, k, gaps, float(y.std())  # Delta_min > 0 implies sigma_y > 0


def balance_factor(sigma_y: float, k: float, a: float = 0.0, b: float = 1.0) -> float:
    r""":math:`c = 1 + \sqrt2 kC_s/(R\sigma_y)`; in balance :math:`m_\theta/m_a \approx c^2`."""
    sigma_y = check_nonnegative("sigma_y", sigma_y)
    if sigma_y == 0:
        raise ValueError(f"sigma_y must be > 0; got sigma_y={sigma_y!r}")
    k = check_nonnegative("k", k)
    R, Cs = variance_constant(a, b)
    return 1.0 + math.sqrt(2.0) * k * Cs / (R * sigma_y)


def theorem2_bound(y, k: float, delta: float, a: float = 0.0, b: float = 1.0) -> dict:
    """The explicit Theorem 2 bound (see the module docstring): per-arm ``M_i`` and totals.

    Example (the bound is loose: ADE takes about 4e6 pulls on this instance):

    >>> from bandit_lib.ade20 import theorem2_bound
    >>> f"{theorem2_bound([0.1, 0.2, 0.25, 0.3, 0.9], 1.5, 0.1)['total']:.3g}"
    '1.56e+08'
    """
    y, k, gaps, sigma = _instance(y, k)
    delta = check_open_unit("delta", delta)
    R, _ = variance_constant(a, b)
    n = y.size
    c = balance_factor(sigma, k, a, b)
    C = (n + 4) * PI2 * (1.0 + 4.0 * c * c) ** 2
    q = R * R / gaps**2
    M = 32.0 * q * np.log(16.0 * q) + 16.0 * q * math.log(C / (3.0 * delta)) + 2.0
    m_th = 4.0 * c * c * M.max()
    return {"M_i": M, "m_th": m_th, "total": float(M.sum() + 2.0 * m_th), "c": c}


def ade_cost_model(y, k: float, delta: float, a: float = 0.0, b: float = 1.0, iterations: int = 50) -> dict:
    """The balanced-radii cost model of ADE (module docstring): pulls, its parts and the log ``L``."""
    y, k, gaps, sigma = _instance(y, k)
    delta = check_open_unit("delta", delta)
    R, _ = variance_constant(a, b)
    n = y.size
    c = balance_factor(sigma, k, a, b)
    t = 3.0
    for _ in range(iterations):
        L = math.log((n + 4) * PI2 * t * t / (3.0 * delta))
        m_a = 2.0 * L * R * R / gaps.min() ** 2
        m_th = c * c * m_a
        t_next = m_a + m_th + 1.0
        if abs(t_next - t) <= 1e-9 * t:
            break
        t = t_next
    arms = float(np.maximum(1.0, 2.0 * L * R * R / gaps**2).sum())
    return {"total": 2.0 * m_th + arms, "threshold": 2.0 * m_th, "arms": arms, "m_th": m_th, "m_a": m_a, "L": L, "c": c}


def rr_cost_model(y, k: float, delta: float, R: float = 1.0, iterations: int = 50) -> dict:
    """RR's cost when every arm is pulled until the hardest is decided (module docstring)."""
    y, k, gaps, _ = _instance(y, k)
    delta = check_open_unit("delta", delta)
    R = check_positive("R", R)
    n = y.size
    lk = l_of_k(n, k, delta)
    T = float(n)
    for _ in range(iterations):
        L = math.log(PI2 * (n + 1) * T * T / (6.0 * delta))
        T_next = n * (1.0 + math.sqrt(lk)) ** 2 * R * R * L / (2.0 * gaps.min() ** 2)
        if abs(T_next - T) <= 1e-9 * T:
            break
        T = T_next
    return {"total": T_next, "L": L, "l": lk}


def crossover_closed_form(n: int, k: float, delta: float, sigma_y: float, L_ratio: float = 1.0) -> float:
    """``n* = 8 c^2 / (1 + sqrt(l(k)))^2 * L/L'`` for ``n`` arms (l(k) depends weakly on n)."""
    n = check_int("n", n, minimum=2)
    L_ratio = check_positive("L_ratio", L_ratio)
    c = balance_factor(sigma_y, k)
    return 8.0 * c * c / (1.0 + math.sqrt(l_of_k(n, k, delta))) ** 2 * L_ratio
