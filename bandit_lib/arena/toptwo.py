r"""Top-Two sampling for k-sigma outlier identification, stopped by the GLR stop of :mod:`bandit_lib.arena.glr`.

**What is and is not proven.** Top-Two algorithms were designed and analysed for *best-arm*
identification: Russo (2016, "Simple Bayesian algorithms for best arm identification"); Jourdan,
Degenne, Baudry, de Heide & Kaufmann (2022, "Top two algorithms revisited"); Jourdan & Degenne
(2023, TTUCB, "Non-asymptotic analysis of a UCB-based top two algorithm"). This module adapts the
idea to k-sigma outliers. Its only guarantee here is **delta-correctness**, which comes from the GLR
stop (time-uniform threshold, valid for any sampling rule; see :mod:`~bandit_lib.arena.glr`). Its
sample complexity on this problem -- asymptotic optimality or any bound -- is **not** proven.

**Notation.** Counts :math:`N`, empirical means :math:`\hat\mu`, and for each arm j
:math:`V_j(N)=\inf_{\lambda\in A_j}\sum_iN_i\,d(\hat\mu_i,\lambda_i)` (arm j changes side;
:mod:`~bandit_lib.arena.lower_bound`), the GLR statistic :math:`Z=\min_jV_j`, the arm
:math:`j^*=\arg\min_jV_j` whose side the GLR is least sure of, the minimiser :math:`\lambda^*` of
:math:`V_{j^*}`, and :math:`g_i=d(\hat\mu_i,\lambda^*_i)=\partial V_{j^*}/\partial N_i` (envelope
theorem): how much one more pull of arm i would raise the binding value. The divergence is Gaussian,
:math:`d(x,y)=(x-y)^2/(2\sigma^2)`, with :math:`\sigma=` ``sub_gaussian`` (1/2 for rewards in [0, 1])
or, with ``sub_gaussian=None``, a Gaussian tape's own sigma.

::

    TopTwo(arms, k, delta, beta, every, m = check_every, T_max):
     1  pull every arm once; t <- n; L <- 0; N^lead <- 0; next <- n     # L, N^lead: one counter per arm
     2  loop
     3      if m | t and Z(t) > threshold(t, n, delta): return Omega(mu_hat), t     # GLR stop
     4      if t >= T_max: return Omega(mu_hat), t (capped)
     5      U <- {i : N_i < sqrt(t) - n/2}                                     # forced exploration
     6      if U is not empty: pull argmin_{i in U} N_i
     7      else
     8          if t >= next:                                                  # lazy re-solving
     9              leader <- argmin_j V_j(N); lam* <- minimiser of V_leader
    10              g_i <- d(mu_hat_i, lam*_i); challenger <- argmax_{i != leader} g_i
    11              next <- t + every
    12          L(leader) <- L(leader) + 1
    13          if N^lead(leader) < beta * L(leader): pull leader; N^lead(leader) <- N^lead(leader) + 1
    14          else: pull challenger
    15      t <- t + 1

Ties go to the lowest index (lines 6, 9, 10). Line 13 is the deterministic per-leader tracking of
TTUCB (Jourdan & Degenne 2023) in place of Russo's coin of bias beta: over the steps where j leads,
the leader's share of the pulls stays within one pull of :math:`\beta L(j)`. The leader is the arm
whose side is least certain; the challenger is the other arm that the most confusing alternative
:math:`\lambda^*` moves most (in divergence), i.e. the arm whose next pull raises :math:`V_{j^*}`
most besides the leader's own.

**Lazy re-solving** (``every``). Line 9 needs the smallest of n inner values (the secular solver
of :mod:`~bandit_lib.arena.secular`, O(n) arithmetic per arm but a few hundred passes: about 0.1 ms
per arm at n = 20 and 1 ms at n = 200). Arms are solved in increasing order of a closed-form lower
bound (``values_nb``), and those whose bound exceeds the
smallest value found are skipped: the same leader, usually far fewer solves, except near the optimal
allocation, where the binding values tie and most arms must be solved. So the leader and
challenger are recomputed only every ``every`` pulls and kept in between (L still counts every
non-forced step). Default ``every = n``, i.e. at most one inner solve per arm per n pulls. Measured
(2-core machine shared with other jobs) on the planted cells at n = 20, c = 0, 1, 2: every = n gives
125 080 / 11 220 / 26 160 pulls in 0.45 / 0.40 / 0.21 s; every = 5n gives +5% / -1% / +2% pulls in
a third of the time; every = 20n, +5% / +1% / +3%. On the planted cell at n = 100 (n = 200) the
first 10^5 pulls run at about 7 600 (15 000) pulls/s. The stop is checked every ``check_every``
pulls (default n, as the suite's Track-and-Stop). The GLR threshold is time-uniform and valid for
any allocation, so neither schedule touches delta-correctness.

**Engines.** ``engine="reference"`` runs the loop above in Python; its sampling decisions use the
numba pieces of :mod:`~bandit_lib.arena._samplers_engine` (the same functions the fast engine calls)
and its stop is :func:`bandit_lib.arena.glr.should_stop`. ``engine="fast"`` (default) is a numba loop
that takes the same decisions (tested pull for pull). ``Outcome.info``: ``Z`` and ``threshold`` at
the last check, ``solves`` (line-9 re-solves), ``forced`` (forced pulls), ``engine``.
"""

from __future__ import annotations

import math

import numpy as np

from bandit_lib.arena import _samplers_engine as eng
from bandit_lib.arena.glr import Threshold, should_stop
from bandit_lib.checks import check_real
from bandit_lib.ksigma import ksigma_outliers
from bandit_lib.runner import Outcome
from bandit_lib.tapes import RewardTape


def check_beta(beta) -> float:
    beta = check_real("beta", beta)
    if not 0.0 < beta < 1.0:
        raise ValueError(
            f"beta must lie in the open interval (0, 1) (the leader's share of its steps); got beta={beta!r}"
        )
    return beta


def top_two(
    tape: RewardTape,
    *,
    k: float,
    delta: float,
    cap: int | None = None,
    beta: float = 0.5,
    every: int | None = None,
    check_every: int | None = None,
    threshold: Threshold | None = None,
    sub_gaussian: float | None = 0.5,
    engine: str = "fast",
) -> Outcome:
    """Top-Two sampling with the GLR stop (see the module docstring). ``every`` and ``check_every``
    default to n; ``threshold`` to the KK21 Gaussian threshold (any callable ``(t, n, delta) -> float``
    is accepted; the fast engine then asks Python at every check)."""
    custom = threshold is not None
    n, k, delta, cap, sigma, threshold, check_every, every = eng.check_sampler(
        tape, k, delta, cap, threshold, sub_gaussian, check_every, every, engine
    )
    beta = check_beta(beta)
    if engine == "fast":
        return eng.run_fast(
            "toptwo", tape, n, k, delta, cap, sigma, threshold, check_every, every, beta, custom, eng.STOP_MARGIN
        )
    return _reference(tape, n, k, delta, cap, sigma, threshold, check_every, every, beta)


def _reference(tape, n, k, delta, cap, sigma, threshold, check_every, every, beta) -> Outcome:
    sums = np.zeros(n)
    counts = np.zeros(n, dtype=np.int64)
    for i in range(n):  # line 1
        sums[i] += tape.pull(i)
        counts[i] += 1
    t = n
    lead_steps = np.zeros(n, dtype=np.int64)  # L(j)
    lead_pulls = np.zeros(n, dtype=np.int64)  # N^lead(j)
    next_solve = n
    leader = challenger = -1
    solves = forced = 0
    z = level = 0.0
    while True:
        mu_hat = sums / counts
        if t % check_every == 0 or t >= cap:  # line 3
            level = float(threshold(t, n, delta))
            stop, z = should_stop(mu_hat, counts, k, "gaussian", sigma, level)
            if stop:
                return _outcome(mu_hat, k, t, False, counts, z, level, solves, forced)
        if t >= cap:  # line 4
            return _outcome(mu_hat, k, t, True, counts, z, level, solves, forced)
        starved = np.flatnonzero(counts < math.sqrt(t) - n / 2)  # line 5
        if starved.size:
            arm = int(starved[np.argmin(counts[starved])])  # line 6
            forced += 1
        else:
            if t >= next_solve:  # lines 8-11
                D = counts / (2.0 * sigma * sigma)
                outlier = eng.outlier_mask(mu_hat, k)
                _, leader = eng.solve_values(mu_hat, D, k, outlier)
                _, lam = eng.solve_minimiser(mu_hat, D, leader, k, outlier[leader])
                challenger = eng.challenger_nb(eng.gradient(mu_hat, lam, sigma), leader)
                next_solve = t + every
                solves += 1
            lead_steps[leader] += 1  # line 12
            if lead_pulls[leader] < beta * lead_steps[leader]:  # line 13
                arm = leader
                lead_pulls[leader] += 1
            else:  # line 14
                arm = challenger
        sums[arm] += tape.pull(arm)
        counts[arm] += 1
        t += 1


def _outcome(mu_hat, k, t, capped, counts, z, level, solves, forced, engine="reference") -> Outcome:
    info = {"engine": engine, "Z": float(z), "threshold": float(level), "solves": int(solves), "forced": int(forced)}
    return Outcome(ksigma_outliers(mu_hat, k), int(t), bool(capped), counts.copy(), info)


__all__ = ["check_beta", "top_two"]
