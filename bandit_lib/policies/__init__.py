"""Policies, one per module: pure exploration (ZHUANG17, ADE20), regret minimisation (UIG)
and fixed-budget thresholding (GRAPL20).

ZHUANG17 (outlier arms with the k-sigma rule):

* :mod:`bandit_lib.policies.rr` — RR, Round-Robin (Algorithm 1);
* :mod:`bandit_lib.policies.wrr` — WRR, Weighted Round-Robin (Algorithm 2);
* :mod:`bandit_lib.policies.nrr` — NRR, naive round-robin baseline;
* :mod:`bandit_lib.policies.ib` — IB, iterative best-arm identification with CLUCB.

ADE20 (outlier arms, threshold sampled separately):

* :mod:`bandit_lib.policies.ade` — ADE, Adaptive Double Exploration (Algorithm 1):
  ``ade_reference(tape, *, k, delta, ...)`` and the exact numba engine ``ade(tape, *, k, delta, ...)``.

Each module has a readable per-pull reference (``engine="reference"``) that mirrors the
pseudocode, and a numba engine (``engine="fast"``, the default) that makes exactly the same pulls
and stops at exactly the same pull on the same reward tape (tests/test_zhuang17_engines.py).
Shared machinery: :mod:`bandit_lib.ksigma_ci` (intervals, l(k), rho*),
:mod:`bandit_lib.ksigma_hardness` (H1, H2, Theorems 2–3), ``_ksigma_engine``
(private).

Reusing the baselines (ADE20, GOLD20)
-------------------------------------
The signatures below are stable::

    from bandit_lib.ksigma_ci import AgrestiCoullCI, HoeffdingCI, rho_star, l_of_k
    from bandit_lib.policies.rr import rr
    from bandit_lib.policies.wrr import wrr
    from bandit_lib.policies.nrr import nrr
    from bandit_lib.policies.ib import ib

    rr(tape, *, k, delta, cap, ci, batch=1, init_pulls=1, engine="fast") -> Outcome
    wrr(tape, *, k, delta, cap, ci, rho=None, batch=1, init_pulls=1, engine="fast") -> Outcome
    nrr(tape, *, k, delta, cap, engine="fast") -> Outcome
    ib(tape, *, k, delta, cap, R_sg=0.5, engine="fast") -> Outcome

* ``tape``: a fresh :class:`bandit_lib.tapes.RewardTape` (``Instance(means).tape(seed)``); pass
  ``tape.rewind()`` to run several methods on the same rewards. After a run the tape's read
  positions equal the pulls per arm, for both engines.
* ``ci``: ``HoeffdingCI(R=1.0, l_inner="delta")`` (bounded rewards; the theorems; ADE20's
  baselines, with ``l_inner="delta_prime"`` for ADE20's restatement of l(k)) or
  ``AgrestiCoullCI(z_mode="erfinv", threshold_ci="delta")`` (Bernoulli; ZHUANG17's and GOLD20's
  experiments; ``z_mode="normal"``, ``threshold_ci="as_printed"`` are the spec's ablations).
* ``batch``: pulls per round-robin visit (ADE20 uses 1000: every regular and extra WRR pull
  becomes a batch, estimates, delta'(T) with T in pulls, and the active set are updated after
  each batch; WRR's credit grows by rho * batch; initialisation stays ``init_pulls`` per arm).
  A batch is cut short at ``cap``, so ``Outcome.pulls <= cap`` always; pass e.g. ``cap=10**9``
  for "no practical cap" (the fast engine then runs about 2e8 pulls/s with batch=1000).
* ``rho=None`` means rho* (Eq. 6); ``Outcome.info["rho"]`` records it.
* ``Outcome.output``: sorted estimated outlier set {i : yhat_i > thetahat}; ``pulls``: T
  including initialisation; ``capped``: stopped by the cap with the active set non-empty (IB,
  NRR: stopped by the cap); ``counts``: pulls per arm; ``info``: engine statistics, and for IB
  the stages and the arms removed.
* Speed (fast engine, one core): RR/WRR 10–30 M pulls/s with batch=1, IB 10–17 M pulls/s.

Errors name the bad argument (e.g. ``cap must allow the initial pulls ...; got cap=5``).

GOLD20 (generic outlier arms: high, low and intermediate; the definitions, labels and the
ranking-to-set conversion are in :mod:`bandit_lib.generic_outliers`):

* :mod:`bandit_lib.policies.gold` — GOLD (Algorithm 1 of Ban & He 2020)::

      gold(tape, *, eps, rho, delta, cap, width="bernoulli", reading="inclusive", R=1.0,
           log_edges=False, engine="fast") -> Outcome
      gold_reference(tape, *, eps, rho, delta, cap, ...) -> Outcome

  ``Outcome.output`` is the ranking Omega (all arms, best first); ``info["S"]`` the pull at which
  each arm became terminal (inf if never). The exact numba engine is in ``_gold_engine``
  (private); tests/test_gold20_policy.py checks it against the all-edges reference.

UIG (regret minimisation on unit interval graphs; the ``select``/``update`` protocol of
:mod:`bandit_lib.policies.base`, run by ``base.simulate`` on a reward tape or by
:func:`bandit_lib.recommendation.replay` on logged data):

* :mod:`bandit_lib.policies.lsdt_csi` — LSDT-CSI's online step (two-level UCB), numba engines;
* :mod:`bandit_lib.policies.lsdt_psi` — LSDT-PSI's online step (epochs, pooled bounds, UCB);
* :mod:`bandit_lib.policies.lsdt_ts` — LSDT with Thompson sampling (CSI and PSI);
* :mod:`bandit_lib.policies.ucb1`, :mod:`bandit_lib.policies.ts` — UCB1 and Thompson sampling,
  optionally on a subset of the arms, with numba engines (UCB1) and replay engines (both);
* :mod:`bandit_lib.policies.ckl_ucb`, :mod:`bandit_lib.policies.osub`,
  :mod:`bandit_lib.policies.ossb` — the structured baselines CKL-UCB, OSUB and OSSB.

GRAPL20 (thresholding with a smoothness graph, fixed budget; readable per-pull references here,
exact numba engines in :mod:`bandit_lib.grapl_engine`, estimator and solvers in
:mod:`bandit_lib.graph_estimator`):

* :mod:`bandit_lib.policies.grapl` — GrAPL (Algorithm 2);
* :mod:`bandit_lib.policies.algorithm1` — the non-adaptive Algorithm 1 (iid-uniform, permutation
  and round-robin schedules);
* :mod:`bandit_lib.policies.apt` — APT (Locatelli et al. 2016), with two warm-up pulls per arm;
* :mod:`bandit_lib.policies.no_graph` — the "no graph" line of Fig. 3.
"""
