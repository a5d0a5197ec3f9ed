r"""Exploration values of LSDT-PSI: the fractional minimum dominating set (LP P2).

For the similarity graph :math:`G' = (V', E'_S)` restricted to the arms that survive the
offline step, the exploration values solve

.. math:: C_2 = \min \sum_{i \in V'} z_i \quad\text{s.t.}\quad \sum_{j \in N'[i]} z_j \ge 1
          \ \ \forall i \in V', \qquad z \ge 0.

:math:`C_2` is at most the domination number :math:`\gamma(G')` (the same program in integers,
:func:`domination_number`) and at least 1; every optimal z has :math:`z_i \le 1`. HiGHS returns
tiny positive values for some arms that should be 0; those below ``ZERO = 1e-9`` are set to 0
(otherwise ``ceil`` in the epoch targets would play them once per epoch for nothing).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, linprog, milp

from bandit_lib.uig.problem import check_adjacency

ZERO = 1e-9


def _closed(S_sub) -> np.ndarray:
    S_sub = check_adjacency("S_sub", S_sub)
    return (S_sub | np.eye(len(S_sub), dtype=bool)).astype(np.float64)


def exploration_values(S_sub) -> np.ndarray:
    """Optimal z of LP P2 on the graph ``S_sub`` (HiGHS; values below 1e-9 set to 0)."""
    Cn = _closed(S_sub)
    n = len(Cn)
    res = linprog(c=np.ones(n), A_ub=-Cn, b_ub=-np.ones(n), bounds=(0, None), method="highs")
    if res.status != 0:  # cannot happen: z = 1 is feasible and the objective is bounded below
        raise RuntimeError(f"LP P2 failed: {res.message}")
    z = np.asarray(res.x, dtype=np.float64)
    z[z < ZERO] = 0.0
    return z


def domination_number(S_sub) -> int:
    """Size of a minimum dominating set (the integer version of LP P2, solved with MILP)."""
    Cn = _closed(S_sub)
    n = len(Cn)
    res = milp(
        c=np.ones(n), constraints=LinearConstraint(Cn, lb=np.ones(n)), integrality=np.ones(n), bounds=Bounds(0, 1)
    )
    if res.status != 0:
        raise RuntimeError(f"the dominating-set MILP failed: {res.message}")
    return int(round(res.fun))
