"""ZHUANG17 chapter: why rho* is or is not near-optimal (a sensitivity study of Fig. 3).

rho* = (n-1)^(2/3) / l(k)^(1/3) minimises the worst case of the *bounded-reward* bound of
Theorem 3, where the threshold radius is sqrt(l(k)) (about 3) times an arm radius. The paper's
Fig. 3 uses the Bernoulli intervals, whose delta-method threshold radius is only about
sqrt((1 + k^2)/n) times an arm radius. ``RHO_FAMILIES`` reruns the sweep, on a wider grid of rho,
with three interval families:

* ``ac-delta``: the default of the chapter (the same 10 cases as Fig. 3);
* ``ac-printed``: the printed threshold interval (same cases);
* ``hoeffding``: Hoeffding/McDiarmid intervals (R = 1), on 10 cases of the same generator with
  every gap at least 0.1, since the bounded intervals need far more pulls.
"""

from __future__ import annotations

from bandit_lib.infra.experiment import Experiment, Figure, Unit
from bandit_lib.zhuang17.experiments import CHAPTER, PAPER, case_seed, rho_sweep
from bandit_lib.zhuang17.instances import planted_outliers
from bandit_lib.zhuang17.intervals import AgrestiCoullCI, HoeffdingCI

FAMILIES = {
    "ac-delta": (AgrestiCoullCI(), "rho", {}),
    "ac-printed": (AgrestiCoullCI(threshold_ci="as_printed"), "rho", {}),
    "hoeffding": (HoeffdingCI(), "rho-hoeffding", {"min_gap": 0.1}),
}
PROFILES = {
    "quick": {"rhos": (1.5, 3.0, 6.0), "cases": 2, "runs": 2, "cap": 10**6},
    "full": {"rhos": (1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 13.0), "cases": 10, "runs": 10, "cap": 10**7},
}


def compute_rho_family(seed, family: str, case: int, rhos: list, runs: int, cap: int) -> dict:
    n, k = 15, 2.5
    ci, stream, gen = FAMILIES[family]
    c = planted_outliers(n, k, case_seed(stream, n, k, case), **gen)
    return rho_sweep(seed, c, ci, rhos, runs, cap, n, k, family=family)


def plan_rho_family(**cfg) -> list[Unit]:
    return [
        Unit(
            f"{family},case={c}",
            {"family": family, "case": c, "rhos": list(cfg["rhos"]), "runs": cfg["runs"], "cap": cfg["cap"]},
        )
        for family in FAMILIES
        for c in range(cfg["cases"])
    ]


RHO_FAMILIES = Experiment(
    paper=PAPER,
    name="rho_families",
    title="WRR's weight under three interval families (Fig. 3, sensitivity)",
    compute=compute_rho_family,
    plan=plan_rho_family,
    grid={profile: PROFILES[profile] for profile in PROFILES},
    entropy=201706,
    chapter=CHAPTER,
    figures=(Figure("Fig. Z.2", "T_rho / T_rho* for the Agresti–Coull (delta, printed) and Hoeffding intervals"),),
)
