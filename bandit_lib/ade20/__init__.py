"""ADE20: Adaptive Double Exploration for outlier arms (Zhang, Zhuang, Zhang & Zhou, AAAI
2020). The problem is ZHUANG17's (:mod:`bandit_lib.ksigma`); the baselines RR and WRR
come from :mod:`bandit_lib.zhuang17`.

* :mod:`~bandit_lib.ade20.ade` — ADE (Algorithm 1): the per-pull reference and the exact engine;
* :mod:`~bandit_lib.ade20.theory` — Theorem 2's explicit bound and the closed-form cost model;
* :mod:`~bandit_lib.ade20.instances` — the synthetic instances, the real HCB error rates and their stand-in;
* :mod:`~bandit_lib.ade20.square` — loader of crowdsourcing data in the SQUARE format (HCB);
* :mod:`~bandit_lib.ade20.experiments` — Figs 1–3, theory checks, the sensitivity panel;
* :mod:`~bandit_lib.ade20.report` — mean costs, the crossover and the scorecard of the chapter;
  :mod:`~bandit_lib.ade20.report.gates` — the calibration gates of the HCB-like stand-in;
  :mod:`~bandit_lib.ade20.report.hypotheses` — Theorems 1–2's hypotheses, checked in code on every instance.

Short imports (each with an example in its docstring)::

    from bandit_lib.ade20 import ade, uniform_window, theorem2_bound

``bandit_lib.ade20.ade`` is then the function; its module stays importable by its full name
(``from bandit_lib.ade20.ade import ade_reference``).
"""

from bandit_lib.ade20.ade import ade
from bandit_lib.ade20.instances import uniform_window
from bandit_lib.ade20.theory import theorem2_bound

__all__ = ["ade", "uniform_window", "theorem2_bound"]
