r"""RR: Round-Robin (ZHUANG17 Algorithm 1).

::

    RR(arms, k, delta, ci, T_max):
     1  for i in 0..n-1: pull i (init_pulls times)     # T = n * init_pulls
     2  UPDATE()                                        # estimates, radii at delta'(T), active set A
     3  i <- 0
     4  while A is not empty and T < T_max:
     5      i <- (i + 1) mod n                          # first pull after init: arm 1 (0-based)
     6      pull i (batch times); UPDATE()
     7  return OUTPUT() = {i : yhat_i > thetahat}, T

UPDATE() is :func:`bandit_lib.zhuang17.intervals.evaluate_kernel` with the chosen interval family
(Hoeffding/McDiarmid: the theorems; Agresti–Coull: the paper's experiments). The active set is
recomputed from scratch after every pull, arms are never eliminated, and the run stops at the
first pull after which no arm is active. With probability at least :math:`1-\delta` (valid
intervals) the output is the true outlier set (Theorem 1), after at most
:func:`bandit_lib.zhuang17.theory.bound_rr` pulls (Theorem 2).

``batch > 1`` is the ADE20 speed-up ("pull an arm 1,000 times at each round"; see the ADE20
chapter's reproduction notes): every round-robin pull becomes ``batch``
pulls of the same arm, and estimates, :math:`\delta'(T)` (T counted in pulls) and the active set
are updated after each batch; the initialisation stays at ``init_pulls`` pulls per arm. A batch
is cut short at the cap, so ``T`` never exceeds ``cap``.

``engine="reference"`` runs :func:`rr_reference` (this pseudocode, one ``tape.pull`` at a time);
``"fast"`` runs the certified numba engine of ``bandit_lib.zhuang17._engine``, which
makes exactly the same pulls and stops at exactly the same pull (tests check this). The tape must
be fresh (``tape.rewind()``); afterwards its read positions are the arms' pull counts.
``Outcome.output``: sorted estimated outlier set; ``pulls``: T including initialisation;
``capped``: the cap stopped a run whose active set was not empty; ``counts``: pulls per arm.
"""

from __future__ import annotations

from bandit_lib.ksigma import cap_or_refuse
from bandit_lib.runner import DEFAULT_CAP, Outcome
from bandit_lib.tapes import RewardTape
from bandit_lib.zhuang17._engine import KSigmaRun, check_ci_for_tape, check_common, check_count, run_wrr_fast
from bandit_lib.zhuang17.intervals import check_ci


def rr_reference(
    tape: RewardTape,
    *,
    k: float,
    delta: float,
    cap: int | None = None,
    ci,
    batch: int = 1,
    init_pulls: int = 1,
    t_unit: int = 1,
) -> Outcome:
    """Algorithm 1, pull by pull (other arguments already checked by :func:`rr`; without a ``cap``, a degenerate instance is refused)."""
    cap = cap_or_refuse(cap, tape, k, default=DEFAULT_CAP, who="RR", delta=delta)
    n = tape.n_arms
    run = KSigmaRun(tape, k, delta, ci, t_unit)
    for i in range(n):  # line 1
        run.pull(i, init_pulls)
    state = run.update()  # line 2
    i = 0  # line 3
    while state.any_active and run.T < cap:  # line 4
        i = (i + 1) % n  # line 5
        run.pull(i, min(batch, cap - run.T))  # line 6
        state = run.update()
    return Outcome(state.output, run.T, state.any_active, run.m.copy(), {"engine": "reference"})


def rr(
    tape: RewardTape,
    *,
    k: float,
    delta: float,
    cap: int | None = None,
    ci,
    batch: int = 1,
    init_pulls: int = 1,
    engine: str = "fast",
    count: str = "pulls",
) -> Outcome:
    """Round-Robin (Algorithm 1; see the module docstring): the k-sigma outliers of the arms of
    ``tape`` with confidence ``1 - delta``, sampling the arms in turn.

    ``ci`` is the family of confidence intervals, and the paper leaves it open, so it has no
    default: ``HoeffdingCI(R=1.0)`` (:class:`~bandit_lib.zhuang17.intervals.HoeffdingCI`) is
    the Hoeffding/McDiarmid family of the theorems (delta-correct for rewards in an interval of
    length ``R``), ``AgrestiCoullCI()`` (:class:`~bandit_lib.zhuang17.intervals.AgrestiCoullCI`)
    the Agresti–Coull family of every figure of the paper (Bernoulli rewards, heuristic: no
    proof). The paper's other settings are the defaults: one initial pull per arm, one pull per
    round (``batch=1``, ``init_pulls=1``), T counted in pulls.

    ``cap``: the most pulls (default: a cap with a warning, or an error naming the instance when
    the run could not end); ``batch``: pulls per round-robin turn (ADE20's 1,000);
    ``count="batches"`` counts T in batches inside delta'(T) (ADE20's ablation B3; the theory
    needs the default "pulls"); ``engine``: ``"fast"`` (numba) or ``"reference"`` (pull by pull,
    the same pulls).

    Example (five Bernoulli arms, one outlier at k = 1.5):

    >>> from bandit_lib.tapes import bernoulli_tape
    >>> from bandit_lib.zhuang17 import AgrestiCoullCI, HoeffdingCI, rr
    >>> means = [0.1, 0.2, 0.25, 0.3, 0.9]
    >>> out = rr(bernoulli_tape(means, seed=1), k=1.5, delta=0.1, ci=AgrestiCoullCI())
    >>> out.output.tolist(), out.pulls, out.capped
    ([4], 1964, False)
    >>> rr(bernoulli_tape(means, seed=1), k=1.5, delta=0.1, ci=HoeffdingCI(R=1.0)).pulls
    41120
    """
    n, k, delta, cap, init_pulls, batch = check_common(
        tape, k, delta, cap, init_pulls=init_pulls, batch=batch, engine=engine
    )
    ci = check_ci_for_tape(check_ci(ci), tape)
    t_unit = check_count(count, n, delta, batch, init_pulls)
    if engine == "reference":
        return rr_reference(tape, k=k, delta=delta, cap=cap, ci=ci, batch=batch, init_pulls=init_pulls, t_unit=t_unit)
    return run_wrr_fast(
        tape, k=k, delta=delta, cap=cap, ci=ci, rho=1.0, batch=batch, init_pulls=init_pulls, t_unit=t_unit
    )
