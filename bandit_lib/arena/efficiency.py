r"""Asymptotic efficiency of the arena's samplers, measured two ways on Gaussian tapes.

The lower bound (:mod:`~bandit_lib.arena.lower_bound`) says
:math:`\mathbb E[\tau]\ge T^*(\mu)\,\mathrm{kl}(\delta,1-\delta)` for every delta-correct detector,
with :math:`1/T^*=\max_wF(w)`, :math:`F(w)=\min_jV_j(w)`. A sampler is asymptotically efficient when
its allocation :math:`N_t/t` maximises F, and then a GLR stop with threshold :math:`\beta(t,\delta)`
stops near :math:`T^*\beta(\tau,\delta)`. Hence two measurements, both against an independent
:math:`T^*` (:func:`characteristic_time`: the cutting-plane bracket of
:func:`~bandit_lib.arena.lower_bound.optimal_weights` for n <= :data:`EXACT_MAX_N`, the yardstick's
certified Gaussian bracket above), whose bracket :math:`[T_{lo},T_{hi}]` they carry:

* :func:`allocation_efficiency` -- the stop switched off, the sampler runs t pulls and
  :math:`F(N_t/t)\,T^*\in[F\,T_{lo},F\,T_{hi}]` is read at checkpoints (1 for an allocation that
  reaches :math:`w^*`; :math:`F(N_t/t)` is computed exactly at the true means by the secular solver);
* :func:`stopping_ratio` -- the GLR stop on, :math:`\delta\to0` (down to 1e-300):
  :math:`\mathbb E[\tau]/(T^*\,\mathbb E[\beta(\tau,\delta)])` over independent runs (towards 1 for
  an efficient sampler as :math:`\delta\to0`; at moderate delta the forced exploration and the
  lower-order terms of the threshold count too).

Gaussian tapes with sigma = 1/2 (the sub-Gaussian proxy the suite's detectors use for rewards in
[0, 1]), so that the divergence the samplers use is the rewards' own and :math:`T^*` is the
Gaussian one. The samplers (:data:`SAMPLERS`) are those of the suite: D-tracking, Top-Two (the
information-directed rule, and the fixed beta = 1/2 of the book's first adaptation), Frank-Wolfe,
and round robin (whose allocation is uniform: :math:`F(\mathbf 1/n)\,T^*`).
"""

from __future__ import annotations

import math

import numpy as np

from bandit_lib.arena import _samplers_engine as eng
from bandit_lib.arena.glr import kk21_gaussian_threshold
from bandit_lib.arena.lower_bound import _refuse_degenerate, optimal_weights
from bandit_lib.arena.secular import arm_values_nb, check_k_for, outlier_mask
from bandit_lib.arena.toptwo import LAZY
from bandit_lib.checks import check_choice, check_int, check_open_unit, check_positive, check_real, check_vector
from bandit_lib.ksigma import cap_or_refuse
from bandit_lib.tapes import gaussian_tape

#: The samplers measured: name -> (engine sampler, its parameters).
SAMPLERS = {
    "D-Tracking": ("d_tracking", {}),
    "Top-Two": ("top_two", {"rule": "ids", "lazy": LAZY}),
    "Top-Two (β = ½)": ("top_two", {"rule": "fixed", "beta": 0.5, "lazy": LAZY}),
    "Frank–Wolfe": ("frank_wolfe", {"lazy": LAZY}),
    "round robin": ("rr", {}),
}
#: T* by optimal_weights' cutting planes up to this n, by the yardstick's Gaussian bracket above.
EXACT_MAX_N = 50
#: the standard deviation of the Gaussian tapes (and the samplers' sigma)
SIGMA = 0.5


def characteristic_time(means, k: float, *, sigma: float = SIGMA, rtol: float = 1e-4) -> tuple[float, float]:
    """(T_lo, T_hi): a bracket on the Gaussian :math:`T^*` with standard deviation sigma, from
    :func:`~bandit_lib.arena.lower_bound.optimal_weights` (n <= :data:`EXACT_MAX_N`; its LP value
    and best point, relative gap ``rtol``) or :func:`~bandit_lib.arena.yardstick.gaussian_bracket`
    (certified at both ends). Refuses an instance whose T* is infinite (equal means, an arm on the
    threshold); where a bound on 1/T* is 0 (an arm within rounding of it) that end is inf."""
    means = check_vector("means", means, min_length=2)
    k = check_k_for(k, len(means))
    sigma = check_positive("sigma", sigma)
    _refuse_degenerate(means, k)
    if len(means) <= EXACT_MAX_N:
        ch = optimal_weights(means, k, divergence="gaussian", sigma=sigma, rtol=rtol)
        # a bound of 0 on 1/T* (an arm within rounding of the threshold): T* unbounded above, on purpose
        ends = [1.0 / b if b > 0 else math.inf for b in ch.bracket]
        # where the bracket has closed to rounding its ends can cross by an ulp or so: order them
        return min(ends), max(ends)
    from bandit_lib.arena.yardstick import gaussian_bracket

    g_lo, g_hi, _, _ = gaussian_bracket(means, k, sigma=sigma, rtol=rtol)
    return float(g_lo), float(g_hi)


def allocation_value(means, k: float, counts, *, sigma: float = SIGMA) -> float:
    """F(N / t) = min_j V_j(N / t) at the true means (Gaussian, exact: the secular solver). Counts of
    zero are allowed (an arm never pulled); 0 where all means are equal or an arm sits on the threshold."""
    means = check_vector("means", means, min_length=2)
    k = check_k_for(k, len(means))
    sigma = check_positive("sigma", sigma)
    w = check_vector("counts", counts, low=0.0)
    if len(w) != len(means):
        raise ValueError(f"counts must hold one count per arm (n = {len(means)}); got len(counts)={len(w)}")
    if not w.sum() > 0:
        raise ValueError(f"counts must not all be zero (no pulls to allocate); got counts={w.tolist()!r}")
    means = np.ascontiguousarray(means, dtype=np.float64)
    w = w / w.sum()
    values = np.empty(len(means))
    j = arm_values_nb(means, w / (2.0 * sigma * sigma), k, outlier_mask(means, k), values)
    return float(values[j])


def _check_T_star(T_star, means, k) -> tuple[float, float]:
    """(T_lo, T_hi): ``T_star`` checked (0 < T_lo <= T_hi < inf), or :func:`characteristic_time`."""
    if T_star is None:
        _refuse_degenerate(means, k)
        return characteristic_time(means, k)
    try:
        t_lo, t_hi = (check_real("T_star", float(x)) for x in T_star)
    except TypeError:
        raise ValueError(f"T_star must be a pair (T_lo, T_hi); got T_star={T_star!r}") from None
    if not 0.0 < t_lo <= t_hi < math.inf:
        raise ValueError(f"T_star must satisfy 0 < T_lo <= T_hi < inf; got T_star={T_star!r}")
    return t_lo, t_hi


def _setup(tape, name, k, delta, cap, stop):
    sampler, params = SAMPLERS[check_choice("sampler", name, tuple(SAMPLERS))]
    n = tape.n_arms
    a = eng.sampler_setup(tape, n, k, delta, cap, SIGMA, kk21_gaussian_threshold, n, n, stop, "triangle")
    return sampler, params, a


def allocation_efficiency(means, k: float, sampler: str, pulls, *, seed=0, T_star=None) -> dict:
    """The allocation's efficiency with the stop switched off: ``sampler`` (a key of :data:`SAMPLERS`)
    runs on a Gaussian tape (sigma = 1/2, ``seed``) and at each of ``pulls`` (increasing multiples of
    n) gives :math:`F(N_t/t)\\,T^*`, bracketed by ``T_star`` = (T_lo, T_hi) (default
    :func:`characteristic_time`). Returns {"pulls", "F", "efficiency_lo", "efficiency_hi", "T_lo",
    "T_hi", "counts"}."""
    means = check_vector("means", means, min_length=2)
    n = len(means)
    k = check_k_for(k, n)
    pulls = [check_int("pulls", p, minimum=n) for p in pulls]
    if not pulls or any(b <= a for a, b in zip(pulls, pulls[1:])):
        raise ValueError(f"pulls must be a non-empty increasing list of checkpoints; got pulls={pulls!r}")
    if any(p % n for p in pulls):
        raise ValueError(f"pulls must be multiples of n = {n} (the block length of the engines); got pulls={pulls!r}")
    check_choice("sampler", sampler, tuple(SAMPLERS))
    t_lo, t_hi = _check_T_star(T_star, means, k)
    tape = gaussian_tape(means, SIGMA, seed)
    name, params, a = _setup(tape, sampler, k, 0.5, max(pulls), "none")
    counts = eng.run_trajectory(name, tape, a, params, pulls)
    F = [allocation_value(means, k, c) for c in counts]
    return {
        "pulls": list(pulls),
        "F": F,
        "efficiency_lo": [f * t_lo for f in F],
        "efficiency_hi": [f * t_hi for f in F],
        "T_lo": t_lo,
        "T_hi": t_hi,
        "counts": counts,
    }


#: stopping_ratio's pull cap per run when none is given (an instance whose estimated cost exceeds it is refused)
STOP_CAP = 10**10


def stopping_ratio(means, k: float, sampler: str, delta: float, runs: int, *, seed=0, T_star=None, cap=None) -> dict:
    """:math:`\\mathbb E[\\tau]/(T^*\\,\\mathbb E[\\beta(\\tau,\\delta)])` of ``sampler`` with the GLR stop
    (KK21 Gaussian threshold :math:`\\beta`) over ``runs`` independent Gaussian tapes (sigma = 1/2;
    run r reads the tape of seed ``(seed, r)``), T* bracketed as in :func:`allocation_efficiency`.
    Returns {"delta", "tau", "beta", "ratio_lo", "ratio_hi", "errors", "T_lo", "T_hi"} (``tau`` and
    ``beta`` per run; ``errors``: runs whose output is not the outlier set). ``cap``: pulls per run;
    by default :data:`STOP_CAP`, after :func:`bandit_lib.ksigma.cap_or_refuse` refuses an instance
    whose estimated cost exceeds it (an arm 1e-13 off the threshold would otherwise run for hours)."""
    means = check_vector("means", means, min_length=2)
    n = len(means)
    k = check_k_for(k, n)
    delta = check_open_unit("delta", delta)
    runs = check_int("runs", runs, minimum=1)
    check_choice("sampler", sampler, tuple(SAMPLERS))
    _refuse_degenerate(means, k)  # an infinite T*: the stop would never fire
    cap = cap_or_refuse(cap, means, k, default=STOP_CAP, who="stopping_ratio", delta=delta, sigma=SIGMA)
    cap = check_int("cap", cap, minimum=n)
    t_lo, t_hi = _check_T_star(T_star, means, k)
    truth = np.flatnonzero(outlier_mask(means, k))
    taus, betas, errors = [], [], 0
    for r in range(runs):
        tape = gaussian_tape(means, SIGMA, np.random.SeedSequence([int(seed), r]))
        name, params, a = _setup(tape, sampler, k, delta, cap, "glr")
        out = eng.run_fast(name, tape, a, params, custom=False)
        taus.append(out.pulls)
        betas.append(kk21_gaussian_threshold(out.pulls, n, delta))
        errors += not np.array_equal(out.output, truth)
    mean_tau, mean_beta = float(np.mean(taus)), float(np.mean(betas))
    return {
        "delta": delta,
        "tau": taus,
        "beta": betas,
        "ratio_lo": mean_tau / (t_hi * mean_beta),
        "ratio_hi": mean_tau / (t_lo * mean_beta),
        "errors": errors,
        "T_lo": t_lo,
        "T_hi": t_hi,
    }


def log_grid(first: int, last: int, points: int, multiple: int) -> list[int]:
    """``points`` checkpoints from ``first`` to ``last`` on a log scale, each a multiple of ``multiple``."""
    first = check_int("first", first, minimum=1)
    last = check_int("last", last, minimum=first)
    points = check_int("points", points, minimum=1)
    multiple = check_int("multiple", multiple, minimum=1)
    xs = np.geomspace(first, last, points)
    out = sorted({int(math.ceil(x / multiple)) * multiple for x in xs})
    return out


__all__ = [
    "EXACT_MAX_N",
    "STOP_CAP",
    "SAMPLERS",
    "SIGMA",
    "allocation_efficiency",
    "allocation_value",
    "characteristic_time",
    "log_grid",
    "stopping_ratio",
]
