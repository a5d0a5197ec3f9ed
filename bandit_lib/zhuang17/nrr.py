r"""NRR: Naive Round-Robin, ZHUANG17's first baseline (§5.2; the ZHUANG17 chapter's reproduction notes, row N8).

Round-robin sampling with a heuristic stop and no confidence intervals: stop as soon as the
estimated outlier set :math:`\hat\Omega = \{i : \hat y_i > \hat\theta\}` has not changed during
the last :math:`L = \lceil 1/\delta\rceil` consecutive pulls (10 for :math:`\delta = 0.1`)::

    NRR(arms, k, delta, T_max):
     1  pull each arm once; T = n; prev <- OUTPUT(); run <- 0; L <- ceil(1/delta); i <- 0
     2  while run < L and T < T_max:
     3      i <- (i + 1) mod n; pull i; T += 1
     4      cur <- OUTPUT()
     5      run <- run + 1 if cur == prev else 0; prev <- cur
     6  return prev, T

The count starts after initialisation. NRR usually stops after about n + 10 pulls.

``Outcome.capped`` is true when the cap stopped the run before L unchanged pulls.
"""

from __future__ import annotations

import math

import numpy as np

from bandit_lib.ksigma import cap_or_refuse
from bandit_lib.runner import DEFAULT_CAP, Outcome
from bandit_lib.tapes import RewardTape
from bandit_lib.zhuang17._engine import KSigmaRun, check_common, run_nrr_fast


def nrr_reference(tape: RewardTape, *, k: float, delta: float, cap: int | None = None) -> Outcome:
    """The pseudocode above, pull by pull (other arguments already checked by :func:`nrr`; without a ``cap``, a degenerate instance is refused)."""
    cap = cap_or_refuse(cap, tape.means, k, default=DEFAULT_CAP, who="NRR")
    n = tape.n_arms
    run = KSigmaRun(tape, k, delta)
    for i in range(n):  # line 1
        run.pull(i)
    yhat, theta = run.theta()
    prev = yhat > theta
    streak, L, i = 0, math.ceil(1.0 / delta), 0
    while streak < L and run.T < cap:  # line 2
        i = (i + 1) % n  # line 3
        run.pull(i)
        yhat, theta = run.theta()  # line 4
        cur = yhat > theta
        streak = streak + 1 if np.array_equal(cur, prev) else 0  # line 5
        prev = cur
    return Outcome(np.flatnonzero(prev), run.T, streak < L, run.m.copy(), {"engine": "reference", "L": L})


def nrr(tape: RewardTape, *, k: float, delta: float, cap: int | None = None, engine: str = "fast") -> Outcome:
    """Naive Round-Robin (the paper's first baseline; see the module docstring): round robin until
    the estimated outlier set has not changed for ``ceil(1/delta)`` consecutive pulls. A heuristic
    stop, with no guarantee.

    Example:

    >>> from bandit_lib.tapes import bernoulli_tape
    >>> from bandit_lib.zhuang17 import nrr
    >>> out = nrr(bernoulli_tape([0.1, 0.2, 0.25, 0.3, 0.9], seed=1), k=1.5, delta=0.1)
    >>> out.output.tolist(), out.pulls
    ([4], 15)
    """
    n, k, delta, cap, _, _ = check_common(tape, k, delta, cap, engine=engine, heuristic=True)
    if engine == "reference":
        return nrr_reference(tape, k=k, delta=delta, cap=cap)
    return run_nrr_fast(tape, k=k, cap=cap, L=math.ceil(1.0 / delta))
