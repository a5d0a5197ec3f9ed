r"""GOLD20: the experiments that decide rows the first runs left undecided (issue 26's audit).

Each reuses the instances, tapes and code of :mod:`bandit_lib.gold20.experiments`, so that its
rows line up with the cached ones; none changes an existing result.

* ``SYNTHETIC_HOEFFDING``: RR and WRR with the Hoeffding/McDiarmid intervals (every k) in the runs
  of every synthetic configuration that ran them with Agresti–Coull intervals only (runs 5 to 9 of
  10), on the same instances and reward tapes as ``SYNTHETIC``. With it, every verdict under the
  Hoeffding reading rests on the paper's 10 runs per configuration instead of 5.
* ``THEORY_EDGE``: GOLD with the Hoeffding width (the one the theorems cover) on synthetic
  instances whose outlier block sits only 2 % beyond the (ε, ρ) boundary (generator margin 0.02
  instead of 0.25): the hardest instances Theorem 5.1 and Lemmas 5.3-5.4 still cover, where an
  error or a broken order is likeliest.
* ``THEOREM57``: GOLD with the Hoeffding width on evenly spaced means (every adjacent gap is the
  smallest gap :math:`\hat\Delta`, so Theorem 5.7's bound is within a small factor of what GOLD
  needs), run with a cap above the bound, so that a run breaking the bound would be seen. On the
  synthetic instances the bound is at least :math:`9.6\times 10^8`, above the :math:`10^7` cap,
  and no run could break it there.
* ``MARGIN_UPPER``, ``MARGIN1_UPPER`` (issue 36): the generator's margin is a reading (§6.1 injects
  the outliers "until they satisfy" the criterion, a stopping condition), so GOLD, RR and WRR (both
  interval families) run at margins 3 and 1 on all 10 upper-side configurations with the paper's 10
  runs (``MARGIN`` ran 4 configurations, 5 runs each).
* ``SYNTHETIC_GOLD_HOEFFDING`` (issue 36): GOLD's width is a reading (§6.1's "Bernoulli
  distribution, and thus R = 1"), so GOLD runs with the Hoeffding width, R = 1, on every synthetic
  run, on ``SYNTHETIC``'s instances and tapes, with ten times its cap.
"""

from __future__ import annotations

import math

import numpy as np

from bandit_lib.gold20.experiments import (
    DELTA,
    HOEFFDING_RUNS,
    PAPER,
    PROFILES,
    RHO,
    SYNTHETIC,
    case_summary,
    compute_margin,
    edge_checks,
    gold_row,
    gold_run,
    plan_synthetic,
    run_baselines,
    run_gold,
    synthetic_case,
    theorem57_bound,
)
from bandit_lib.gold20.gold import gold
from bandit_lib.gold20.problem import outlier_budget
from bandit_lib.infra.experiment import Experiment, Figure, Unit
from bandit_lib.seeding import derive, generator
from bandit_lib.tapes import bernoulli_tape

CHAPTER = "notebooks/gold20"

# ------------------------------------------------------------------------------ Hoeffding baselines, runs 5-9


def compute_synthetic_hoeffding(seed, kind: str, eps: float, n: int, run: int, cap: int, synthetic_key: str) -> dict:
    """RR and WRR with Hoeffding/McDiarmid intervals, every k, on the synthetic run (kind, eps, n,
    run): the same instance and the same reward tape as ``SYNTHETIC``'s unit ``synthetic_key``."""
    case = synthetic_case(kind, eps, n, run)
    tape = bernoulli_tape(case.means, derive(SYNTHETIC.seed(Unit(synthetic_key)), "tape"))
    rows = run_baselines(tape, case.outliers, cap, methods=("RR", "WRR"), families=("Hoeffding",), run=run)
    return {"case": case_summary(case), "rows": rows}


def plan_synthetic_hoeffding(**cfg) -> list[Unit]:
    first = HOEFFDING_RUNS["synthetic"]  # runs below it already have both families
    return [
        Unit(
            f"{kind},eps={eps:g},n={n},run={r}",
            {
                "kind": kind,
                "eps": eps,
                "n": n,
                "run": r,
                "cap": cfg["cap"],
                "synthetic_key": f"{kind},eps={eps:g},n={n},run={r}",
            },
        )
        for n in sorted(cfg["n"], reverse=True)
        for kind in ("intermediate", "upper")
        for eps in cfg["eps"]
        for r in range(first, cfg["runs"])
    ]


SYNTHETIC_HOEFFDING = Experiment(
    paper=PAPER,
    name="synthetic_hoeffding",
    title="RR and WRR with Hoeffding intervals in the synthetic runs that lacked them (runs 5-9)",
    compute=compute_synthetic_hoeffding,
    plan=plan_synthetic_hoeffding,
    grid={profile: PROFILES[profile]["synthetic"] for profile in PROFILES},
    entropy=202010,
    chapter=CHAPTER,
    figures=(Figure("Fig. 3 (Hoeffding reading)", "RR and WRR with Hoeffding intervals in all 10 runs"),),
)


# ------------------------------------------------------------------------------ theory at the boundary

#: The margin of the boundary instances: the outlier block (1 + eps)(1.02) D beyond the normal arms.
EDGE_MARGIN = 0.02
EDGE_PROFILES = {
    "quick": {"n": (20,), "eps": (5.0,), "cases": 2, "runs": 2, "cap": 1_000_000},
    "full": {"n": (20, 50, 100), "eps": (2.5, 5.0), "cases": 10, "runs": 10, "cap": 10**7},
}


def compute_theory_edge(seed, kind: str, eps: float, n: int, case: int, runs: int, cap: int, margin: float) -> dict:
    """Hoeffding-width GOLD (edges logged) on the synthetic instance (kind, eps, n, case) drawn with
    ``margin``: the error, Lemma 5.3 and Lemma 5.4 checks of ``THEORY``, on harder instances."""
    c = synthetic_case(kind, eps, n, case, margin=margin)
    rows = []
    for r in range(runs):
        tape = bernoulli_tape(c.means, derive(seed, "tape", r))
        out = gold_run(tape, c, cap, width="hoeffding", log_edges=True)
        rows.append({**gold_row(out, c, width="hoeffding", run=r), **edge_checks(out, c, eps)})
    summary = case_summary(c)
    summary["theorem57"] = theorem57_bound(c.means, eps)
    return {"case": summary, "rows": rows}


def plan_theory_edge(**cfg) -> list[Unit]:
    return [
        Unit(
            f"{kind},eps={eps:g},n={n},case={c}",
            {
                "kind": kind,
                "eps": eps,
                "n": n,
                "case": c,
                "runs": cfg["runs"],
                "cap": cfg["cap"],
                "margin": EDGE_MARGIN,
            },
        )
        for n in sorted(cfg["n"], reverse=True)
        for kind in ("intermediate", "upper")
        for eps in cfg["eps"]
        for c in range(cfg["cases"])
    ]


THEORY_EDGE = Experiment(
    paper=PAPER,
    name="theory_edge",
    title="GOLD (Hoeffding width) on instances 2% beyond the (eps, rho) boundary: errors, Lemmas 5.3-5.4",
    compute=compute_theory_edge,
    plan=plan_theory_edge,
    grid={profile: EDGE_PROFILES[profile] for profile in EDGE_PROFILES},
    entropy=202011,
    chapter=CHAPTER,
    figures=(Figure("Theory (boundary)", "error rate and Lemmas 5.3-5.4 at generator margin 0.02"),),
)


# ------------------------------------------------------------------------------ Theorem 5.7 where it can fail

T57_PROFILES = {
    "quick": {"cells": ((10, 2.5), (10, 5.0)), "runs": 2},
    "full": {
        "cells": (
            (10, 0.5),
            (10, 1.0),
            (10, 2.5),
            (10, 5.0),
            (20, 0.5),
            (20, 1.0),
            (20, 2.5),
            (20, 5.0),
            (50, 2.5),
            (50, 5.0),
        ),
        "runs": 10,
    },
}
#: The range of the evenly spaced means (the synthetic generator's).
SPACED = (0.02, 0.98)


def spaced_means(n: int, seed) -> np.ndarray:
    """``n`` evenly spaced means on :data:`SPACED`, in a seeded random arm order."""
    y = np.linspace(*SPACED, n)
    return y[generator(seed, "order").permutation(n)]


def compute_theorem57(seed, n: int, eps: float, runs: int) -> dict:
    """Hoeffding-width GOLD on evenly spaced means with a cap one pull above Theorem 5.7's bound
    (so a run that needs more pulls than the bound is seen as such, not stopped short of it)."""
    y = spaced_means(n, seed)
    bound = theorem57_bound(y, eps)
    cap = int(math.ceil(bound)) + 1
    rows = []
    for r in range(runs):
        out = gold(
            bernoulli_tape(y, derive(seed, "tape", r)), eps=eps, rho=RHO, delta=DELTA, cap=cap, width="hoeffding"
        )
        rows.append(
            {
                "method": "GOLD",
                "width": "hoeffding",
                "run": r,
                "pulls": int(out.pulls),
                "capped": bool(out.capped),
                "above_bound": bool(out.pulls >= bound),
                "left_interval": out.info.get("left_interval") is not None,
                "n_terminal": int(len(out.info["terminal"])),
            }
        )
    case = {
        "n": n,
        "eps": float(eps),
        "rho": RHO,
        "K": float(outlier_budget(n, RHO)),
        "means": [float(v) for v in y],
        "min_gap": float(np.diff(np.sort(y)).min()),
        "theorem57": bound,
        "cap": cap,
    }
    return {"case": case, "rows": rows}


def plan_theorem57(**cfg) -> list[Unit]:
    return [Unit(f"n={n},eps={eps:g}", {"n": n, "eps": eps, "runs": cfg["runs"]}) for n, eps in cfg["cells"]]


THEOREM57 = Experiment(
    paper=PAPER,
    name="theorem57",
    title="Theorem 5.7 on evenly spaced means, with a cap above the bound",
    compute=compute_theorem57,
    plan=plan_theorem57,
    grid={profile: T57_PROFILES[profile] for profile in T57_PROFILES},
    entropy=202012,
    chapter=CHAPTER,
    figures=(Figure("Theorem 5.7", "GOLD's pulls (Hoeffding width) against the bound, evenly spaced means"),),
)


# ------------------------------------------------------------------------------ margin 3 on every upper-side configuration
#: The generator margin is inferred ("injected ... until they satisfy the criterion", §6.1), so it is a
#: reading: the claim "RR and WRR highly accurate on upper-side outliers" is judged at margin 3 on all
#: 10 upper-side configurations with the paper's 10 runs (``MARGIN`` ran 4 of them, 5 runs each).
MARGIN_UPPER_PROFILES = {
    "quick": {"n": (20,), "eps": (5.0,), "margin": 3.0, "runs": 1, "cap": 200_000},
    "full": {"n": (20, 50, 100, 200, 400), "eps": (2.5, 5.0), "margin": 3.0, "runs": 10, "cap": 10**7},
}


def plan_margin_upper(**cfg) -> list[Unit]:
    return [
        Unit(
            f"upper,eps={eps:g},n={n},margin={cfg['margin']:g},run={r}",
            {"kind": "upper", "eps": eps, "n": n, "margin": cfg["margin"], "run": r, "cap": cfg["cap"]},
        )
        for n in sorted(cfg["n"], reverse=True)
        for eps in cfg["eps"]
        for r in range(cfg["runs"])
    ]


MARGIN_UPPER = Experiment(
    paper=PAPER,
    name="margin_upper",
    title="Generator margin 3 on all 10 upper-side configurations, 10 runs: GOLD, RR and WRR",
    compute=compute_margin,
    plan=plan_margin_upper,
    grid={profile: MARGIN_UPPER_PROFILES[profile] for profile in MARGIN_UPPER_PROFILES},
    entropy=202013,
    chapter=CHAPTER,
    figures=(Figure("Margin reading", "RR and WRR on the upper-side configurations at generator margin 3"),),
)


# ------------------------------------------------------------------------------ GOLD's width under "R = 1"
#: §6.1's "Each reward ... follows a Bernoulli distribution, and thus R = 1" names §4.1's class (2)
#: (the Bernoulli width) and the parameter of class (1) (the bounded width, R = d - c): GOLD's width in
#: the experiments is a reading. GOLD with the Hoeffding width (R = 1) on every synthetic run, on the
#: instances and reward tapes of ``SYNTHETIC``, with ten times its cap (the paper sets none; the
#: Hoeffding width needs 2-5 times the pulls, up to about 5e7 at n = 400, eps = 2.5).
GOLD_HOEFFDING_CAP_FACTOR = 10


def compute_synthetic_gold_hoeffding(
    seed, kind: str, eps: float, n: int, run: int, cap: int, synthetic_key: str
) -> dict:
    """GOLD with the Hoeffding width (R = 1) on the synthetic run (kind, eps, n, run): the instance
    and reward tape of ``SYNTHETIC``'s unit ``synthetic_key``, with ``cap`` pulls at most."""
    case = synthetic_case(kind, eps, n, run)
    tape = bernoulli_tape(case.means, derive(SYNTHETIC.seed(Unit(synthetic_key)), "tape"))
    return {"case": case_summary(case), "rows": [run_gold(tape, case, cap, width="hoeffding", run=run)]}


def plan_synthetic_gold_hoeffding(**cfg) -> list[Unit]:
    """``SYNTHETIC``'s units (same keys, so the same instances and tapes), each run by GOLD alone."""
    return [
        Unit(
            unit.key,
            {
                **{name: unit.params[name] for name in ("kind", "eps", "n", "run")},
                "cap": GOLD_HOEFFDING_CAP_FACTOR * cfg["cap"],
                "synthetic_key": unit.key,
            },
        )
        for unit in plan_synthetic(**cfg)
    ]


SYNTHETIC_GOLD_HOEFFDING = Experiment(
    paper=PAPER,
    name="synthetic_gold_hoeffding",
    title="GOLD with the Hoeffding width (R = 1) on every synthetic run, same instances and tapes, 10x the cap",
    compute=compute_synthetic_gold_hoeffding,
    plan=plan_synthetic_gold_hoeffding,
    grid={profile: PROFILES[profile]["synthetic"] for profile in PROFILES},
    entropy=202014,
    chapter=CHAPTER,
    figures=(
        Figure("GOLD's width reading", "GOLD's pulls and correctness with the Hoeffding width on Figs 2-3's runs"),
    ),
)


#: Margin 1 on the same 10 upper-side configurations, 10 runs (``MARGIN`` ran it on 4 of them, 5 runs
#: each): with it, every margin reading of the upper-side claims rests on the paper's run count.
MARGIN1_UPPER_PROFILES = {
    "quick": {"n": (20,), "eps": (5.0,), "margin": 1.0, "runs": 1, "cap": 200_000},
    "full": {"n": (20, 50, 100, 200, 400), "eps": (2.5, 5.0), "margin": 1.0, "runs": 10, "cap": 10**7},
}

MARGIN1_UPPER = Experiment(
    paper=PAPER,
    name="margin1_upper",
    title="Generator margin 1 on all 10 upper-side configurations, 10 runs: GOLD, RR and WRR",
    compute=compute_margin,
    plan=plan_margin_upper,
    grid={profile: MARGIN1_UPPER_PROFILES[profile] for profile in MARGIN1_UPPER_PROFILES},
    entropy=202015,
    chapter=CHAPTER,
    figures=(Figure("Margin reading", "RR and WRR on the upper-side configurations at generator margin 1"),),
)
