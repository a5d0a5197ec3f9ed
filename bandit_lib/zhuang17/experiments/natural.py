"""ZHUANG17 chapter: Figs. 1 and 3 on i.i.d. Beta(2, 5) means, the reading of the synthetic
generator whose cases pass the calibration gate (the chapter's reproduction notes, row N1).

The paper does not say how its synthetic means were drawn (§5.1). The one statistic it gives of
them is the range of H1/H2 over the 10 test cases of Fig. 3 (n = 15, k = 2.5): "vary from 3 to 14"
(§5.3). The chapter's planted-outlier generator never draws a case with H1/H2 below 4.5 at that
setting, so it is outside that gate (:mod:`bandit_lib.zhuang17.report.gates`). The library's i.i.d.
generator :func:`~bandit_lib.zhuang17.instances.natural`, with its default Beta(2, 5) and no
parameter changed, spans the paper's range. These experiments rerun Figs. 1 and 3 on it:

* ``SYNTHETIC_NATURAL`` (Fig. 1): the paper's grid, n in {20, 50, 100, 200} x k in {2, 2.5, 3},
  10 cases per configuration, NRR/IB/RR/WRR with Agresti–Coull intervals, delta = 0.1, cap 1e7;
  ``runs`` runs per case (the paper: 10). No Hoeffding runs. One unit per case.
* ``RHO_NATURAL`` (Fig. 3): n = 15, k = 2.5, 10 cases, 10 runs, WRR with each preset rho and rho*.

The cases come from their own seed streams (``"natural"``, ``"rho-natural"`` of
:func:`~bandit_lib.zhuang17.experiments.case_seed`), fixed before any run; nothing is redrawn, so a
case may have no outlier or a gap far below 0.01.
"""

from __future__ import annotations

from bandit_lib.infra.experiment import Experiment, Figure, Unit
from bandit_lib.zhuang17.experiments import CHAPTER, PAPER, _summary, case_seed, four_methods, rho_sweep
from bandit_lib.zhuang17.instances import Case, natural
from bandit_lib.zhuang17.intervals import AgrestiCoullCI

PROFILES = {
    "quick": {
        "synthetic": {"n": (20,), "k": (2.5,), "cases": 2, "runs": 2, "cap": 200_000},
        "rho": {"rhos": (1.5, 3.0), "cases": 2, "runs": 2, "cap": 200_000},
    },
    "full": {
        "synthetic": {"n": (20, 50, 100, 200), "k": (2.0, 2.5, 3.0), "cases": 10, "runs": 10, "cap": 10**7},
        "rho": {"rhos": (1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0), "cases": 10, "runs": 10, "cap": 10**7},
    },
}
FIG3_N, FIG3_K = 15, 2.5


def natural_case(stream: str, n: int, k: float, case: int) -> Case:
    """Test case ``case`` of the i.i.d. Beta(2, 5) reading (``stream``: "natural" for Fig. 1,
    "rho-natural" for Fig. 3)."""
    return natural(n, k, case_seed(stream, n, k, case))


def fig3_cases(stream: str = "rho-natural", cases: int = 10) -> list[Case]:
    """The Fig. 3 cases (n = 15, k = 2.5) of this reading: the stand-in its gate is measured on."""
    return [natural_case(stream, FIG3_N, FIG3_K, c) for c in range(cases)]


def compute_synthetic_natural(seed, n: int, k: float, case: int, runs: int, cap: int) -> dict:
    c = natural_case("natural", n, k, case)
    return {"case": {**_summary(c.means, k), "tries": c.tries}, "rows": four_methods(seed, c.means, k, runs, cap)}


def plan_synthetic_natural(**cfg) -> list[Unit]:
    return [
        Unit(f"n={n},k={k},case={c}", {"n": n, "k": k, "case": c, "runs": cfg["runs"], "cap": cfg["cap"]})
        for n in cfg["n"]
        for k in cfg["k"]
        for c in range(cfg["cases"])
    ]


SYNTHETIC_NATURAL = Experiment(
    paper=PAPER,
    name="synthetic_natural",
    title="Fig. 1 on i.i.d. Beta(2, 5) means (the generator reading inside the H1/H2 gate)",
    compute=compute_synthetic_natural,
    plan=plan_synthetic_natural,
    grid={profile: PROFILES[profile]["synthetic"] for profile in PROFILES},
    entropy=201707,
    chapter=CHAPTER,
    figures=(Figure("Table Z.2", "Fig. 1's correctness and pulls on i.i.d. Beta(2, 5) means"),),
)


def compute_rho_natural(seed, case: int, rhos: list, runs: int, cap: int) -> dict:
    c = natural_case("rho-natural", FIG3_N, FIG3_K, case)
    return rho_sweep(seed, c, AgrestiCoullCI(), rhos, runs, cap, FIG3_N, FIG3_K)


def plan_rho_natural(**cfg) -> list[Unit]:
    return [
        Unit(f"case={c}", {"case": c, "rhos": list(cfg["rhos"]), "runs": cfg["runs"], "cap": cfg["cap"]})
        for c in range(cfg["cases"])
    ]


RHO_NATURAL = Experiment(
    paper=PAPER,
    name="rho_natural",
    title="Fig. 3 on i.i.d. Beta(2, 5) means (the generator reading inside the H1/H2 gate)",
    compute=compute_rho_natural,
    plan=plan_rho_natural,
    grid={profile: PROFILES[profile]["rho"] for profile in PROFILES},
    entropy=201708,
    chapter=CHAPTER,
    figures=(Figure("Fig. Z.3", "T_rho / T_rho* on i.i.d. Beta(2, 5) means, n = 15, k = 2.5"),),
)
