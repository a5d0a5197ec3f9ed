r"""WRR: Weighted Round-Robin (ZHUANG17 Algorithm 2).

::

    WRR(arms, k, delta, ci, T_max, rho = rho*(n, k, delta)):
     1  for i in 0..n-1: pull i (init_pulls times)     # T = n * init_pulls
     2  UPDATE()
     3  c[0..n-1] <- 0
     4  i <- 0
     5  while A is not empty and T < T_max:
     6      i <- (i + 1) mod n                          # next regular pull
     7      c_i <- c_i + rho * batch
     8      repeat:
     9          pull i (batch times); UPDATE()
    10      until (i not in A) or (m_i >= c_i) or (T >= T_max)
    11  return OUTPUT(), T

Stride scheduling: active arms get about :math:`\rho` times the pulls of inactive ones. The
regular pull is always made, even for an inactive arm; :math:`c_i` grows on every visit, active
or not, so an arm that becomes active again gets a catch-up burst of up to :math:`c_i - m_i`
pulls (as the pseudocode says). :math:`m_i` includes the initial pulls while :math:`c_i` starts
at 0. The default weight is :math:`\rho^* = (n-1)^{2/3}/l(k)^{1/3}` (Eq. 6,
:func:`bandit_lib.zhuang17.intervals.rho_star`). With :math:`\rho = 1`, WRR makes exactly RR's pulls.
Theorem 3 bounds its pulls by :func:`bandit_lib.zhuang17.theory.bound_wrr`.

``batch > 1`` (ADE20's speed-up; see the ADE20 chapter's reproduction notes): every regular and every extra pull becomes a batch, and
:math:`c_i` grows by :math:`\rho\cdot` ``batch`` per visit, compared with the pull count
:math:`m_i`.

``rho=None`` means :math:`\rho^*`; ``Outcome.info["rho"]`` records the weight used. Engines and
the Outcome as in :mod:`bandit_lib.zhuang17.rr`.
"""

from __future__ import annotations

import numpy as np

from bandit_lib.checks import check_real
from bandit_lib.ksigma import cap_or_refuse
from bandit_lib.runner import DEFAULT_CAP, Outcome
from bandit_lib.tapes import RewardTape
from bandit_lib.zhuang17._engine import KSigmaRun, check_ci_for_tape, check_common, check_count, run_wrr_fast
from bandit_lib.zhuang17.intervals import check_ci, rho_star


def wrr_reference(
    tape: RewardTape,
    *,
    k: float,
    delta: float,
    cap: int | None = None,
    ci,
    rho: float,
    batch: int = 1,
    init_pulls: int = 1,
    t_unit: int = 1,
) -> Outcome:
    """Algorithm 2, pull by pull (other arguments already checked by :func:`wrr`; without a ``cap``, a degenerate instance is refused)."""
    cap = cap_or_refuse(cap, tape, k, default=DEFAULT_CAP, who="WRR", delta=delta)
    n = tape.n_arms
    run = KSigmaRun(tape, k, delta, ci, t_unit)
    for i in range(n):  # line 1
        run.pull(i, init_pulls)
    state = run.update()  # line 2
    c = np.zeros(n)  # line 3
    i = 0  # line 4
    while state.any_active and run.T < cap:  # line 5
        i = (i + 1) % n  # line 6
        c[i] += rho * batch  # line 7
        while True:  # line 8
            run.pull(i, min(batch, cap - run.T))  # line 9
            state = run.update()
            if not state.active[i] or run.m[i] >= c[i] or run.T >= cap:  # line 10
                break
    return Outcome(state.output, run.T, state.any_active, run.m.copy(), {"engine": "reference", "rho": rho})


def wrr(
    tape: RewardTape,
    *,
    k: float,
    delta: float,
    cap: int | None = None,
    ci,
    rho: float | None = None,
    batch: int = 1,
    init_pulls: int = 1,
    engine: str = "fast",
    count: str = "pulls",
) -> Outcome:
    """Weighted Round-Robin (Algorithm 2; see the module docstring): RR that gives the arms still
    active about ``rho`` times the pulls of the others.

    ``ci`` is the family of confidence intervals, and the paper leaves it open, so it has no
    default: ``HoeffdingCI(R=1.0)`` (:class:`~bandit_lib.zhuang17.intervals.HoeffdingCI`) is
    the Hoeffding/McDiarmid family of the theorems (delta-correct for rewards in an interval of
    length ``R``), ``AgrestiCoullCI()`` (:class:`~bandit_lib.zhuang17.intervals.AgrestiCoullCI`)
    the Agresti–Coull family of every figure of the paper (Bernoulli rewards, heuristic: no
    proof). The paper's other settings are the defaults: one initial pull per arm, one pull per
    round (``batch=1``, ``init_pulls=1``), T counted in pulls.
    ``rho=None`` (the default) is the paper's weight rho* (Eq. 6,
    :func:`~bandit_lib.zhuang17.intervals.rho_star`). ``cap``, ``batch``, ``count`` and
    ``engine`` as in :func:`~bandit_lib.zhuang17.rr.rr`.

    Example (the instance of :func:`~bandit_lib.zhuang17.rr.rr`'s example):

    >>> from bandit_lib.tapes import bernoulli_tape
    >>> from bandit_lib.zhuang17 import AgrestiCoullCI, wrr
    >>> out = wrr(bernoulli_tape([0.1, 0.2, 0.25, 0.3, 0.9], seed=1), k=1.5, delta=0.1, ci=AgrestiCoullCI())
    >>> out.output.tolist(), out.pulls, round(out.info["rho"], 3)
    ([4], 1515, 1.502)
    """
    n, k, delta, cap, init_pulls, batch = check_common(
        tape, k, delta, cap, init_pulls=init_pulls, batch=batch, engine=engine
    )
    ci = check_ci_for_tape(check_ci(ci), tape)
    t_unit = check_count(count, n, delta, batch, init_pulls)
    rho = rho_star(n, k, delta) if rho is None else check_real("rho", rho)
    if rho < 1:
        raise ValueError(f"rho must be >= 1 (active arms get rho times the pulls of inactive ones); got rho={rho!r}")
    if engine == "reference":
        return wrr_reference(
            tape, k=k, delta=delta, cap=cap, ci=ci, rho=rho, batch=batch, init_pulls=init_pulls, t_unit=t_unit
        )
    out = run_wrr_fast(
        tape, k=k, delta=delta, cap=cap, ci=ci, rho=rho, batch=batch, init_pulls=init_pulls, t_unit=t_unit
    )
    out.info["rho"] = rho
    return out
