"""GOLD20: generic outlier detection with GOLD (Ban & He, KDD 2020). The
baselines RR, WRR, NRR and IB come from :mod:`bandit_lib.zhuang17`.

* :mod:`~bandit_lib.gold20.problem` — Definitions 3.1 and 3.2, the ground-truth labels, K, b(ε) and the
  ranking-to-set conversion;
* :mod:`~bandit_lib.gold20.gold` — GOLD (Algorithm 1): the all-edges per-pull reference and the
  public ``gold``; ``bandit_lib.gold20._engine`` (private) its exact numba engine;
* :mod:`~bandit_lib.gold20.instances` — the synthetic generator (the paper's §6.1);
* :mod:`~bandit_lib.gold20.twitter_like` and :mod:`~bandit_lib.gold20.yahoo_like` — the labelled
  stand-ins of the paper's Twitter and Yahoo! data (§6.1);
* :mod:`~bandit_lib.gold20.experiments` — Figs 2–6, theory checks and ablations; its module
  ``audit`` the experiments that decide rows the first runs left undecided (Theorem 5.7 with a cap
  above its bound, the theory at the (ε, ρ) boundary, the Hoeffding baselines in all 10 runs);
* :mod:`~bandit_lib.gold20.theory` — the theorems' hypotheses, checked in code on every instance;
* :mod:`~bandit_lib.gold20.report` — the chapter's tables: the baselines' k rules, cost ratios split
  by whether the baseline is correct, what is published of the real data beside the stand-ins, and
  the cost claims' rows.

Short imports (each with an example in its docstring)::

    from bandit_lib.gold20 import gold, gold_synthetic

``bandit_lib.gold20.gold`` is then the function; its module stays importable by its full name
(``from bandit_lib.gold20.gold import gold_reference``).
"""

from bandit_lib.gold20.gold import gold
from bandit_lib.gold20.instances import gold_synthetic

__all__ = ["gold", "gold_synthetic"]
