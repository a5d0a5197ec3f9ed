"""ZHUANG17: identifying outlier arms with the k-sigma rule (Zhuang, Wang & Wang, NeurIPS 2017).
The problem's definitions are the shared :mod:`bandit_lib.ksigma`.

Algorithms (each ``name(tape, ..., engine="fast")`` with a readable ``name_reference``):

* :mod:`~bandit_lib.zhuang17.rr` — RR, Round-Robin (Algorithm 1);
* :mod:`~bandit_lib.zhuang17.wrr` — WRR, Weighted Round-Robin (Algorithm 2);
* :mod:`~bandit_lib.zhuang17.nrr` — NRR, the naive round-robin baseline;
* :mod:`~bandit_lib.zhuang17.ib` — IB, iterative best-arm identification with CLUCB;
* ``bandit_lib.zhuang17._engine`` — (private) the reference state and numba engines of RR,
  WRR and NRR.

Theory and intervals:

* :mod:`~bandit_lib.zhuang17.intervals` — the arm and threshold confidence intervals
  (Hoeffding/McDiarmid and Agresti–Coull), l(k), rho*;
* :mod:`~bandit_lib.zhuang17.theory` — hardness H1, H2 and the RR/WRR sample-complexity bounds.

Instances and data:

* :mod:`~bandit_lib.zhuang17.instances` — synthetic test cases with planted outliers;
* :mod:`~bandit_lib.zhuang17.twitter_like` — the Twitter-like stand-in (47 regions, 20 keywords);
* :mod:`~bandit_lib.zhuang17.tweets` — loader of a local copy of geotagged tweets.

Chapter:

* :mod:`~bandit_lib.zhuang17.experiments` — Figs 1–3, theory checks and ablations;
  :mod:`~bandit_lib.zhuang17.experiments.rho_families` — the rho* study;
  :mod:`~bandit_lib.zhuang17.experiments.natural` — Figs 1 and 3 on i.i.d. Beta(2, 5) means;
  :mod:`~bandit_lib.zhuang17.experiments.theory_hard` — the theorems near the threshold;
* :mod:`~bandit_lib.zhuang17.report` — the chapter's tables (one row per run, averages per case),
  its calibration gates (:mod:`~bandit_lib.zhuang17.report.gates`) and the theorems' hypotheses
  checked in code (:mod:`~bandit_lib.zhuang17.report.hypotheses`).

RR and WRR are the baselines of ADE20 and GOLD20, which import them from here.

Short imports (each with an example in its docstring)::

    from bandit_lib.zhuang17 import rr, wrr, nrr, ib, HoeffdingCI, AgrestiCoullCI, rho_star, planted_outliers

``bandit_lib.zhuang17.rr`` is then the function; its module stays importable by its full name
(``from bandit_lib.zhuang17.rr import rr_reference``).
"""

from bandit_lib.zhuang17.ib import ib
from bandit_lib.zhuang17.instances import planted_outliers
from bandit_lib.zhuang17.intervals import AgrestiCoullCI, HoeffdingCI, rho_star
from bandit_lib.zhuang17.nrr import nrr
from bandit_lib.zhuang17.rr import rr
from bandit_lib.zhuang17.wrr import wrr

__all__ = ["rr", "wrr", "nrr", "ib", "HoeffdingCI", "AgrestiCoullCI", "rho_star", "planted_outliers"]
