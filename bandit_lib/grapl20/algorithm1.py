r"""Algorithm 1 of GRAPL20: thresholding with the graph estimator and non-adaptive sampling.

The arms to pull are fixed in advance by a schedule that never looks at the data; each reward
updates the same Laplacian-regularised estimate as GrAPL (:mod:`bandit_lib.grapl20.estimator`), and
after T rounds the output is :math:`\hat S = \{i : \hat\mu_i \ge \tau\}`. Schedules:

* :func:`iid_uniform_schedule`: each round an arm uniformly at random, with replacement (the
  authors' code for the SBM and small-world figures);
* :func:`permutation_schedule`: a uniformly random permutation, a fresh one every N rounds (the
  political-blogs figure, where T = N: each arm exactly once);
* :func:`round_robin_schedule`: arms 0, 1, ..., N−1, 0, ... (what Prop. 2.2 analyses).

:func:`algorithm1_reference` is the readable per-pull reference; :func:`algorithm1` runs it
(``engine="reference"``) or the numba engine (``engine="fast"``, the default; same estimate bit for bit).
"""

from __future__ import annotations

import numpy as np

from bandit_lib.checks import check_engine, check_int
from bandit_lib.grapl20._engine import check_common, run_fast
from bandit_lib.grapl20.estimator import GraphEstimator
from bandit_lib.grapl20.grapl import as_system
from bandit_lib.grapl20.problem import ThresholdRun, n_judged_paper, wrong_counts
from bandit_lib.seeding import SeedLike, as_seed_sequence
from bandit_lib.tapes import RewardTape


def iid_uniform_schedule(n_arms: int, horizon: int, seed: SeedLike) -> np.ndarray:
    """``horizon`` arms drawn uniformly from 0..n_arms-1 with replacement."""
    n_arms = check_int("n_arms", n_arms, minimum=1)
    horizon = check_int("horizon", horizon, minimum=1)
    return np.random.default_rng(as_seed_sequence(seed)).integers(n_arms, size=horizon, dtype=np.int64)


def permutation_schedule(n_arms: int, horizon: int, seed: SeedLike) -> np.ndarray:
    """Concatenated uniformly random permutations of the arms, cut at ``horizon``.

    Example:

    >>> from bandit_lib.grapl20 import permutation_schedule
    >>> schedule = permutation_schedule(4, 6, seed=1)
    >>> len(schedule), sorted(schedule[:4].tolist())
    (6, [0, 1, 2, 3])
    """
    n_arms = check_int("n_arms", n_arms, minimum=1)
    horizon = check_int("horizon", horizon, minimum=1)
    rng = np.random.default_rng(as_seed_sequence(seed))
    blocks = [rng.permutation(n_arms) for _ in range(-(-horizon // n_arms))]
    return np.concatenate(blocks)[:horizon].astype(np.int64)


def round_robin_schedule(n_arms: int, horizon: int) -> np.ndarray:
    """Arms 0..n_arms-1 in turn."""
    n_arms = check_int("n_arms", n_arms, minimum=1)
    horizon = check_int("horizon", horizon, minimum=1)
    return np.arange(horizon, dtype=np.int64) % n_arms


def algorithm1_reference(
    tape: RewardTape,
    graph,
    schedule,
    *,
    tau: float,
    eps: float,
    gamma: float,
    lam: float | None = None,
    offset: bool = True,
    solver: str = "exact",
    rtol: float = 1e-5,
    maxiter: int | None = None,
    horizon: int | None = None,
) -> ThresholdRun:
    """Algorithm 1 along ``schedule`` (its first ``horizon`` entries; all by default), pull by pull
    (the readable reference; the same as ``algorithm1(..., engine="reference")``)."""
    system = as_system(graph, lam)
    horizon = len(np.asarray(schedule)) if horizon is None else horizon
    horizon, tau, eps, gamma, offset, rtol, maxiter, schedule = check_common(
        tape, system, horizon, tau, eps, gamma, offset, solver, rtol, maxiter, schedule
    )
    tape.require_fresh()
    est = GraphEstimator(system, gamma=gamma, tau=tau, offset=offset, solver=solver, rtol=rtol, maxiter=maxiter)
    wrong = np.empty((horizon, 2), dtype=np.int64)
    iterations, unconverged = np.empty(horizon, dtype=np.int64), 0
    for t in range(horizon):
        i = int(schedule[t])  # determined non-adaptively
        est.update(i, tape.pull(i))
        wrong[t] = wrong_counts(est.mu_hat, tape.means, tau, eps)
        iterations[t] = est.cg_iterations
        unconverged += not est.cg_converged
    return ThresholdRun(
        tau=tau,
        pulls=schedule.copy(),
        counts=est.counts.copy(),
        mu_hat=est.mu_hat,
        wrong_ref=wrong[:, 0],
        wrong_paper=wrong[:, 1],
        n_judged_paper=n_judged_paper(tape.means, tau, eps),
        cg_iterations=iterations if solver == "cg" else None,
        cg_unconverged=unconverged,
    )


def algorithm1(
    tape: RewardTape,
    graph,
    schedule,
    *,
    tau: float,
    eps: float,
    gamma: float,
    lam: float | None = None,
    offset: bool = True,
    solver: str = "exact",
    rtol: float = 1e-5,
    maxiter: int | None = None,
    horizon: int | None = None,
    engine: str = "fast",
) -> ThresholdRun:
    """Algorithm 1 along ``schedule`` (its first ``horizon`` entries; all by default).
    ``engine="fast"`` (the default) runs the numba engine, which computes the same estimate as
    :func:`algorithm1_reference` (``engine="reference"``), much faster.

    Algorithm 1 pulls along a schedule fixed in advance (the paper's: random permutations of the
    arms, :func:`permutation_schedule`) and estimates with the graph; ``tau``, ``eps`` and
    ``gamma`` as in :func:`~bandit_lib.grapl20.grapl.grapl` (no default: see its advice).

    Example (the instance of :func:`~bandit_lib.grapl20.grapl.grapl`'s example):

    >>> from bandit_lib.grapl20 import algorithm1, permutation_schedule, two_block_sbm
    >>> from bandit_lib.tapes import gaussian_tape
    >>> graph, means = two_block_sbm(20, seed=1)
    >>> schedule = permutation_schedule(20, 100, seed=1)
    >>> run = algorithm1(gaussian_tape(means, 1.0, seed=1), graph, schedule, tau=0.0, eps=0.01, gamma=10.0)
    >>> run.horizon, int(run.wrong_ref[-1])
    (100, 2)
    """
    if check_engine(engine) == "reference":
        return algorithm1_reference(
            tape,
            graph,
            schedule,
            tau=tau,
            eps=eps,
            gamma=gamma,
            lam=lam,
            offset=offset,
            solver=solver,
            rtol=rtol,
            maxiter=maxiter,
            horizon=horizon,
        )
    horizon = len(np.asarray(schedule)) if horizon is None else horizon
    return run_fast(
        tape,
        as_system(graph, lam),
        horizon,
        tau=tau,
        eps=eps,
        gamma=gamma,
        offset=offset,
        solver=solver,
        rtol=rtol,
        maxiter=maxiter,
        schedule=schedule,
    )
