r"""Track-and-Stop's sampling rule for k-sigma outlier identification (Garivier & Kaufmann 2016), with the
GLR stop of :mod:`bandit_lib.arena.glr` or the per-arm confidence sequences of :mod:`bandit_lib.arena.anytime`.

**What it is, and what is proven.** Garivier & Kaufmann prove Track-and-Stop asymptotically optimal
when it tracks the optimal weights :math:`w^*` of the reward model and :math:`w^*` is unique and
continuous in the means. The arena runs it with ``weights="gaussian"`` on Bernoulli rewards, so it
tracks (an approximation of) the Gaussian weights with sigma = 1/2, and uniqueness and continuity
of :math:`w^*` are not shown for k-sigma outliers; the chapter therefore calls that configuration
**D-tracking**, and claims only delta-correctness, which the stop gives for any sampling rule.
The allocation's efficiency is *measured* (:mod:`bandit_lib.arena.efficiency`).

::

    TaS(arms, k, delta, stop, ratio, tracking, m = check_every, T_max):
     1  pull every arm once; t <- n; next <- n
     2  loop over blocks: the pulls from t to the next multiple of m (or T_max), B of them
     3      if m | t and the stop holds (GLR: Z(t) > beta(t, n, delta); CS: no active arm): return
     4      if t >= T_max: return Omega(mu_hat), t (capped)
     5      forced exploration: the arms with N_i < sqrt(t) - n/2 get the block's first pulls f
     6      if t >= next: w <- w*(mu_hat); next <- ratio * t                     # geometric schedule
     7      D-tracking: the block's R other pulls go to the arms below the target c = (t + B) w,
                        in proportion to (c_i - N_i - f_i)^+ (cumulative rounding)
     8      C-tracking: the same with c = the running sum of R w^eps per block,  w^eps = w projected
                        onto {w_i >= eps_t = (n^2 + t)^{-1/2} / 2}

The per-step rules of the paper (pull argmax_i (t w_i - N_i), or argmax_i (sum_s w^eps_s,i - N_i))
are applied to a block at a time (``bandit_lib.arena._samplers_engine``): with m = n, a block
costs O(n) bookkeeping, about a round of round robin, and its pulls keep each count within one
pull of its share. ``w*(mu_hat)`` is computed at the empirical means. ``weights="gaussian"`` (the
suite's choice) computes the target under the Gaussian divergence (sigma = 1/2, the sub-Gaussian
proxy of a reward in [0, 1]; the weights do not depend on sigma) by the fixed scheme of
:func:`target_weights` (``steps`` supergradient steps from the better -- by the smallest lower
bound on the values -- of the last target and the fixed-threshold weights; from the last target
the step sizes go on shrinking, so the target is refined over the re-solves), so a run is the
same on any scipy; ``weights="exact"``
uses :func:`bandit_lib.arena.lower_bound.optimal_weights` under the tape's own divergence with a
loose tolerance (``rtol``): for Bernoulli arms that costs 25-50 s per computation at n = 20
(multi-start SLSQP), and its result depends on scipy's SLSQP and HiGHS iterates. Only the
sampling changes; the stop, hence delta-correctness, does not.

**Cost of the target** (line 6): :math:`\log_r(T/n)` computations, each of ``steps``
supergradient steps of :math:`O(nG)` (lower bounds on all n values,
:func:`~bandit_lib.arena.secular.lower_bounds_nb`, G multipliers) plus one exact O(n) solve; the
amortised cost per pull falls as :math:`\log(T)/T`.

``engine="fast"`` (the default) runs the blocks in numba with the same decisions (tested pull for
pull against the reference, :func:`track_and_stop` with ``engine="reference"``, which pulls one
reward at a time with ``tape.pull``); it needs ``weights="gaussian"`` and the Gaussian divergence
(a Gaussian tape or ``sub_gaussian=s``), and the reference runs otherwise
(``Outcome.info["engine"]`` says which ran). Ties go to the lowest arm index, so a run is a
deterministic function of the tape.
"""

from __future__ import annotations

import math

import numpy as np

from bandit_lib.arena import _samplers_engine as eng
from bandit_lib.arena.glr import CLIP, Threshold, check_detector
from bandit_lib.arena.lower_bound import _check_problem, optimal_weights
from bandit_lib.checks import check_choice, check_engine, check_int, check_positive, check_real
from bandit_lib.runner import Outcome
from bandit_lib.tapes import RewardTape

TRACKINGS = ("D", "C")
WEIGHTS = ("exact", "gaussian")

#: Steps of the fixed scheme that computes the Gaussian tracking target (:func:`target_weights`).
TARGET_STEPS = 50


def target_weights(mu, k: float, *, sigma: float = 0.5, steps: int = TARGET_STEPS) -> np.ndarray:
    r"""The tracking target: approximately optimal weights :math:`w^*(\mu)` for Gaussian arms of
    standard deviation ``sigma``, by a fixed scheme.

    From the fixed-threshold optimum :math:`w_i\propto1/d(\mu_i,\theta(\mu))`, ``steps``
    multiplicative supergradient steps on the concave :math:`F(w)=\min_jV_j(w)`: with :math:`j` the
    arm of smallest lower bound on :math:`V_j(w)` (:func:`~bandit_lib.arena.secular.lower_bounds_nb`,
    within about 1% of the values; solving all n exactly would cost O(n) each) and
    :math:`g_i=d(\mu_i,\lambda^{(j)}_i)` at its exact minimiser (a supergradient of :math:`V_j`, by
    the envelope theorem), :math:`w_i\leftarrow w_i\,(1-\tfrac{\eta}{\sqrt s}\,(\max g-g_i)/(\max g-\min g))`,
    :math:`\eta=1/2`, renormalised; the iterate of largest :math:`\min_j` (lower bound) is returned.
    No scipy solver and no eigendecomposition, so the target -- hence every run -- is the same for
    the same tape whatever the version of scipy. Uniform weights while an arm sits on the threshold.
    (The samplers' engine runs the same kernel, ``target_steps_nb``.)
    """
    mu, k, _, sigma = _check_problem(mu, k, "gaussian", sigma)  # n >= 2, finite, 0 < k < sqrt(n - 1)
    mu = np.ascontiguousarray(mu, dtype=np.float64)
    steps = check_int("steps", steps, minimum=1)
    n = len(mu)
    w = np.empty(n)
    eng.fixed_threshold_start_nb(mu, k, w)
    if (w == 1.0 / n).all():
        return w
    eng.target_steps_nb(mu, k, sigma, w, 0, steps, eng.new_work(n))
    return w


def _exact_weights(mu_hat, k, divergence, sigma, rtol) -> np.ndarray:
    """``weights="exact"``: optimal_weights under the tape's divergence (uniform where it fails)."""
    n = len(mu_hat)
    m = np.clip(mu_hat, CLIP, 1 - CLIP) if divergence == "bernoulli" else mu_hat
    try:
        ch = optimal_weights(m, k, divergence=divergence, sigma=sigma, rtol=rtol, max_iter=200)
    except (ValueError, FloatingPointError, np.linalg.LinAlgError):
        return np.full(n, 1.0 / n)
    if not math.isfinite(ch.T_star):
        return np.full(n, 1.0 / n)
    return ch.w_star


def track_and_stop(
    tape: RewardTape,
    *,
    k: float,
    delta: float,
    cap: int | None = None,
    threshold: Threshold | None = None,
    tracking: str = "D",
    ratio: float = 2.0,
    rtol: float = 1e-3,
    screen: bool = True,
    weights: str = "exact",
    check_every: int = 1,
    sub_gaussian: float | None = None,
    engine: str = "fast",
    stop: str = "glr",
    interval: str = "triangle",
    steps: int = TARGET_STEPS,
) -> Outcome:
    """Track-and-Stop (see the module docstring; ``sub_gaussian``: see
    :func:`~bandit_lib.arena.glr.check_detector`). ``stop``: ``"glr"`` (default; the tape's
    divergence, or the Gaussian one with ``sub_gaussian``), ``"cs"`` (per-arm confidence sequences,
    threshold interval ``interval`` of :mod:`~bandit_lib.arena.anytime`; needs the Gaussian
    divergence) or ``"none"``; ``check_every``: the block length, where the stop is checked (the
    suite: n); ``steps``: supergradient steps of each target computation;
    ``screen`` only affects the reference's GLR statistic (same decisions).

    ``engine="fast"`` (the default) takes the reference's decisions with the numba block engine of
    ``bandit_lib.arena._samplers_engine``; it needs ``weights="gaussian"`` and the Gaussian
    divergence, and the reference runs otherwise (``Outcome.info["engine"]`` says which ran;
    ``info["w_updates"]``: target computations). A custom ``threshold=`` callable is evaluated in
    Python at every check (slower, same decisions).

    Example (five Gaussian arms, one outlier at k = 1.5; the arena's setting, ``weights="gaussian"``,
    which runs the fast engine):

    >>> from bandit_lib.arena import track_and_stop
    >>> from bandit_lib.tapes import gaussian_tape
    >>> tape = gaussian_tape([0.1, 0.2, 0.25, 0.3, 0.9], 0.5, seed=1)
    >>> out = track_and_stop(tape, k=1.5, delta=0.1, weights="gaussian")
    >>> out.output.tolist(), out.pulls, out.capped, out.info["engine"]
    ([4], 915, False, 'fast')
    """
    custom = threshold is not None
    n, k, delta, cap, divergence, sigma, threshold = check_detector(tape, k, delta, cap, threshold, sub_gaussian)
    tracking = check_choice("tracking", tracking, TRACKINGS)
    weights = check_choice("weights", weights, WEIGHTS)
    check_engine(engine)
    check_every = check_int("check_every", check_every, minimum=1)
    ratio = check_real("ratio", ratio)
    if not ratio > 1:
        raise ValueError(f"ratio must be > 1 (w* is recomputed when t grows by this factor); got ratio={ratio!r}")
    rtol = check_positive("rtol", rtol)
    params = {
        "ratio": ratio,
        "steps": check_int("steps", steps, minimum=1),
    }
    stop = check_choice("stop", stop, tuple(eng.STOPS))
    if divergence != "gaussian" and stop == "cs":
        raise ValueError(
            "stop='cs' needs the Gaussian divergence (per-arm sub-Gaussian confidence sequences): pass "
            f"sub_gaussian=s (s = 1/2 for rewards in [0, 1]) with a {tape.kind_name} tape; got sub_gaussian={sub_gaussian!r}"
        )
    a = eng.sampler_setup(tape, n, k, delta, cap, sigma, threshold, check_every, n, stop, interval)
    sampler = "d_tracking" if tracking == "D" else "c_tracking"
    if engine == "fast" and weights == "gaussian" and divergence == "gaussian":
        out = eng.run_fast(sampler, tape, a, params, custom)
    else:
        w_of = (lambda mu: _exact_weights(mu, k, divergence, sigma, rtol)) if weights == "exact" else None
        out = eng.run_reference(sampler, tape, a, params, weights=w_of, divergence=divergence, screen=screen)
    out.info["w_updates"] = out.info["solves"]
    return out


__all__ = ["TARGET_STEPS", "TRACKINGS", "WEIGHTS", "target_weights", "track_and_stop"]
