r"""Frank-Wolfe sampling for k-sigma outlier identification, stopped by the GLR stop of :mod:`bandit_lib.arena.glr`.

Frank-Wolfe sampling (FWS) is from Wang, Tzeng & Proutiere (2021, "Fast pure exploration via
Frank-Wolfe", NeurIPS). It climbs the concave characteristic function
:math:`F(w)=\min_jV_j(w)`, :math:`V_j(w)=\inf_{\lambda\in A_j}\sum_iw_i\,d(\hat\mu_i,\lambda_i)`
(arm j changes side; :mod:`~bandit_lib.arena.lower_bound`), at the empirical allocation
:math:`w=N/t`, by Frank-Wolfe steps on its r-subdifferential, since F is not smooth where several
:math:`V_j` tie.

**What is and is not proven.** Wang et al. prove asymptotic optimality
(:math:`\limsup\mathbb E[\tau]/\ln(1/\delta)\le T^*(\mu)`) for pure-exploration problems whose
characteristic function satisfies their assumptions (a concave F with a smooth or finitely
nonsmooth structure, continuity of the optimal allocations, ...), together with their own
forced-exploration and sampling steps. Those assumptions have **not** been checked for k-sigma
outliers (whose sets :math:`A_j` of outlier arms are not convex), and this implementation departs
from their algorithm (deterministic tracking, the suite's forced exploration, lazy re-solving), so
its sample complexity here is **not** proven. Its only guarantee is **delta-correctness**, from the
GLR stop (time-uniform threshold, valid for any sampling rule).

**Gradients.** With :math:`\lambda^{(j)}` the minimiser of :math:`V_j`,
:math:`g^{(j)}_i=d(\hat\mu_i,\lambda^{(j)}_i)` is the gradient of the linear function
:math:`w\mapsto\sum_iw_id(\hat\mu_i,\lambda^{(j)}_i)`, which lies above :math:`V_j` and touches it at
w (envelope theorem). The divergence is Gaussian, :math:`d(x,y)=(x-y)^2/(2\sigma^2)`, with
:math:`\sigma=` ``sub_gaussian`` (1/2 for rewards in [0, 1]) or, with ``sub_gaussian=None``, a
Gaussian tape's own sigma.

::

    FWS(arms, k, delta, every, m = check_every, T_max):
     1  pull every arm once; t <- n; S <- N; next <- n
     2  loop
     3      if m | t and Z(t) > threshold(t, n, delta): return Omega(mu_hat), t     # GLR stop
     4      if t >= T_max: return Omega(mu_hat), t (capped)
     5      U <- {i : N_i < sqrt(t) - n/2}                                     # forced exploration
     6      if U is not empty: pull a = argmin_{i in U} N_i; S_a <- S_a + 1
     7      else
     8          if t >= next:                                                  # lazy re-solving
     9              w <- N / t; V_j <- V_j(N) for the arms near min V          # V_j(w) = V_j(N) / t
    10              H <- {j : V_j <= (1 + r_t) min_i V_i},  r_t = t^(-9/10)    # r-subdifferential
    11              g^(j) <- (d(mu_hat_i, lam^(j)_i))_i for j in H
    12              if |H| = 1: z <- e_{argmax_i g^(j)_i}                      # the FW vertex
    13              else: z <- argmax_{z in simplex} min_{j in H} <z - w, g^(j)>   # small game, fixed scheme
    14              next <- t + every
    15          S <- S + z; pull a = argmax_i (S_i - N_i)                      # C-tracking of the FW iterates
    16      t <- t + 1

Ties go to the lowest index (lines 6, 12, 15). **Normalisation of r_t** (line 10): the paper's
radius is absolute on F at normalised weights; here it is relative to F, :math:`V_j(w)\le(1+r_t)F(w)`,
which is the same inequality for :math:`V_j(N)=tV_j(w)` and is unchanged when means and sigma are
rescaled together (an absolute radius would depend on the units of the means). **The game** (line
13) is solved by ``game_nb``: ``GAME_STEPS`` rounds of
simultaneous Hedge, z the average of the maximiser's iterates (within
:math:`R(\sqrt{\ln n/2T}+\sqrt{\ln|H|/2T})` of the game's value, R the payoff range), a fixed
deterministic scheme with no library solver. **Sampling** (line 15): the paper's sampling step may be
randomised (drawing the arm from the FW iterate); here the pull is deterministic, C-tracking of the
cumulative FW vertices :math:`S`. Forced pulls add their own arm to S, so :math:`S-N` moves only at
FW steps and stays bounded (C-tracking's lemma).

**Lazy re-solving** (``every``). Lines 9-13 need the inner values of the arms near the minimum
(the secular solver of :mod:`~bandit_lib.arena.secular`: about 0.1 ms per arm at n = 20 and 1 ms at
n = 200; arms whose closed-form lower bound already exceeds :math:`(1+r_t)` times the smallest value
found are skipped, ``values_nb``, which leaves H unchanged),
the minimisers of the arms of H and the game. So z is recomputed only every ``every`` pulls and
reused in between. Default ``every = n``, i.e. at most one inner solve per arm per n pulls.
Measured (2-core machine shared with other jobs) on the planted cells at n = 20, c = 0, 1, 2: every
= n gives 94 220 / 9 120 / 21 000 pulls in 0.34 / 0.23 / 0.13 s; every = 5n gives +0.4% / +4% / +2%
pulls in a third of the time; every = 20n, +2% / +25% / +3%. On the planted cell at n = 100
(n = 200) the first 10^5 pulls run at about 5 200 (18 600) pulls/s. The stop is checked every
``check_every`` pulls (default n). The GLR threshold is time-uniform and valid for any allocation, so
neither schedule touches delta-correctness.

**Engines.** ``engine="reference"`` runs the loop above in Python; its sampling decisions use the
numba pieces of :mod:`~bandit_lib.arena._samplers_engine` (the same functions the fast engine calls)
and its stop is :func:`bandit_lib.arena.glr.should_stop`. ``engine="fast"`` (default) is a numba loop
that takes the same decisions (tested pull for pull). ``Outcome.info``: ``Z`` and ``threshold`` at
the last check, ``solves`` (line-9 re-solves), ``games`` (line-13 games), ``forced`` (forced pulls),
``engine``.
"""

from __future__ import annotations

import math

import numpy as np

from bandit_lib.arena import _samplers_engine as eng
from bandit_lib.arena.glr import Threshold, should_stop
from bandit_lib.checks import check_int
from bandit_lib.ksigma import ksigma_outliers
from bandit_lib.runner import Outcome
from bandit_lib.tapes import RewardTape


def frank_wolfe(
    tape: RewardTape,
    *,
    k: float,
    delta: float,
    cap: int | None = None,
    every: int | None = None,
    check_every: int | None = None,
    game_steps: int = eng.GAME_STEPS,
    threshold: Threshold | None = None,
    sub_gaussian: float | None = 0.5,
    engine: str = "fast",
) -> Outcome:
    """Frank-Wolfe sampling with the GLR stop (see the module docstring). ``every`` and
    ``check_every`` default to n; ``game_steps``: Hedge rounds of the game (line 13);
    ``threshold`` defaults to the KK21 Gaussian threshold (any callable ``(t, n, delta) -> float``
    is accepted; the fast engine then asks Python at every check)."""
    custom = threshold is not None
    n, k, delta, cap, sigma, threshold, check_every, every = eng.check_sampler(
        tape, k, delta, cap, threshold, sub_gaussian, check_every, every, engine
    )
    game_steps = check_int("game_steps", game_steps, minimum=1)
    if engine == "fast":
        return eng.run_fast(
            "frank_wolfe",
            tape,
            n,
            k,
            delta,
            cap,
            sigma,
            threshold,
            check_every,
            every,
            game_steps,
            custom,
            eng.STOP_MARGIN,
        )
    return _reference(tape, n, k, delta, cap, sigma, threshold, check_every, every, game_steps)


def _reference(tape, n, k, delta, cap, sigma, threshold, check_every, every, game_steps) -> Outcome:
    sums = np.zeros(n)
    counts = np.zeros(n, dtype=np.int64)
    for i in range(n):  # line 1
        sums[i] += tape.pull(i)
        counts[i] += 1
    t = n
    S = np.ones(n)
    z = np.zeros(n)
    next_solve = n
    solves = games = forced = 0
    stat = level = 0.0
    H = np.empty(n, dtype=np.int64)
    while True:
        mu_hat = sums / counts
        if t % check_every == 0 or t >= cap:  # line 3
            level = float(threshold(t, n, delta))
            stop, stat = should_stop(mu_hat, counts, k, "gaussian", sigma, level)
            if stop:
                return _outcome(mu_hat, k, t, False, counts, stat, level, solves, games, forced)
        if t >= cap:  # line 4
            return _outcome(mu_hat, k, t, True, counts, stat, level, solves, games, forced)
        starved = np.flatnonzero(counts < math.sqrt(t) - n / 2)  # line 5
        if starved.size:
            arm = int(starved[np.argmin(counts[starved])])  # line 6
            S[arm] += 1.0
            forced += 1
        else:
            if t >= next_solve:  # lines 8-14
                w = counts / t
                D = counts / (2.0 * sigma * sigma)
                outlier = eng.outlier_mask(mu_hat, k)
                radius = eng.radius_nb(t)  # r_t
                values, _ = eng.solve_values(mu_hat, D, k, outlier, radius)  # +inf: provably outside H
                m = eng.subdifferential_nb(values, radius, H)  # line 10
                G = np.array(
                    [eng.gradient(mu_hat, eng.solve_minimiser(mu_hat, D, j, k, outlier[j])[1], sigma) for j in H[:m]]
                )
                if m == 1:  # line 12
                    z = np.zeros(n)
                    z[eng.argmax_nb(G[0])] = 1.0
                else:  # line 13
                    z, _ = eng.game(G, w, game_steps)
                    games += 1
                next_solve = t + every
                solves += 1
            S += z  # line 15
            arm = eng.argmax_nb(S - counts)
        sums[arm] += tape.pull(arm)
        counts[arm] += 1
        t += 1


def _outcome(mu_hat, k, t, capped, counts, stat, level, solves, games, forced, engine="reference") -> Outcome:
    info = {
        "engine": engine,
        "Z": float(stat),
        "threshold": float(level),
        "solves": int(solves),
        "games": int(games),
        "forced": int(forced),
    }
    return Outcome(ksigma_outliers(mu_hat, k), int(t), bool(capped), counts.copy(), info)


__all__ = ["frank_wolfe"]
