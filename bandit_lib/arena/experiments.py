"""Arena chapter: every detector on one suite, against the lower bound.

Experiments (full profile = the chapter's scale; quick = the notebook's smoke test):

* ``suite``: every (family, n, case) of :mod:`bandit_lib.arena.suite`, every detector allowed at
  that n, ``runs`` runs each (at least 10) on shared tapes (every detector of a run reads the same
  rewards, whatever unit it runs in); the classic detectors and the book's own in units of their own;
* ``bounds``: the yardstick of every cell of the suite (:func:`bandit_lib.arena.suite.yardstick`):
  the single-arm bound, and up to 50 arms the cutting-plane certificate and the Gaussian upper value;
  on one cell (``EXACT``) also the exact Bernoulli T* bracket of the cutting-plane LP
  (:func:`~bandit_lib.arena.lower_bound.optimal_weights`), to show how tight the certified bounds are;
* ``correctness``: every detector the book adds (the GLR stop under its four samplers, the
  anytime-CS pair), 1000 independent runs each on one n = 5 Bernoulli instance, error rate against delta.

The per-unit costs behind the plan were measured on this suite (``SKIP``); the chapter states the
wall time of the whole plan.
"""

from __future__ import annotations

import re
import time

import numpy as np

from bandit_lib.arena.lower_bound import kl_delta, optimal_weights, single_arm_bound
from bandit_lib.arena.suite import ANYTIME, DELTA, DETECTORS, GLR, INSTANCES, instance, run_detector, yardstick
from bandit_lib.checks import check_choice, check_int, check_open_unit
from bandit_lib.infra.experiment import Experiment, Figure, Unit
from bandit_lib.ksigma import ksigma_gaps, ksigma_outliers
from bandit_lib.runner import Instance
from bandit_lib.seeding import derive

ENTROPY = 20261124
CHAPTER = "notebooks/arena"

# (family, n, cases, runs) per profile: at least 10 runs per cell for every detector (ZHUANG17 and
# ADE20 average 10 runs of 10 cases; the cases here are fewer, see the chapter's notes); hcb has
# one instance (n = 722)
SUITE = {
    "quick": [("planted", 20, 1, 1), ("planted", 200, 1, 1)],
    "full": [
        ("planted", 20, 3, 10),
        ("planted", 50, 2, 10),
        ("planted", 100, 2, 10),
        ("planted", 200, 2, 10),
        ("planted", 1000, 2, 10),
        ("window", 100, 2, 10),
        ("hcb", 722, 1, 10),
        ("large", 10_000, 1, 10),
    ],
}
#: the quick profile's case (case 1 at n = 20 is the cheap one: Delta_min 0.13)
QUICK_CASE = 1
#: detectors left out where one run costs more than the budget allows, measured per run on the
#: suite's cases: IB 9.9 s at n = 200 (0.4 s at n = 100); ADE about 25 s at n = 1000 (3.7 s at 200);
#: RR with Hoeffding intervals more than 150 s at n = 10^4 (2.8 s at n = 1000, WRR 3.3 s); IB at
#: n = 722 would cost more than at n = 200; RR-GLR 15 s on HCB (6e8 pulls); WRR with anytime
#: confidence sequences 33-35 s at n = 10^4 (7e8 pulls and more; RR with them: 1-3 s)
SKIP = {
    200: ("IB",),
    722: ("IB", "RR-GLR"),
    1000: ("IB", "ADE"),
    10_000: ("IB", "ADE", "RR (Hoeffding)", "WRR (Hoeffding)", "WRR (anytime CS)"),
}
#: the detectors of each kind of unit: the classic ones of ZHUANG17 and ADE20, and the book's own
#: (the anytime-CS pair and the GLR stop with its four samplers), so that the units stay small
GROUPS = {
    "classic": tuple(name for name in DETECTORS if name not in (*GLR, *ANYTIME)),
    "book": (*ANYTIME, *GLR),
}


def detectors_for(n: int, group: str = "classic") -> list[str]:
    """The detectors of ``group`` that run at n (their ``max_n`` and :data:`SKIP`)."""
    n = check_int("n", n, minimum=1)
    group = check_choice("group", group, tuple(GROUPS))
    return [name for name in GROUPS[group] if n <= DETECTORS[name].max_n and name not in SKIP.get(n, ())]


def compute_suite(seed, family: str, n: int, case: int, runs: int, delta: float, detectors: list[str]) -> dict:
    runs = check_int("runs", runs, minimum=1)
    delta = check_open_unit("delta", delta)
    for name in detectors:
        check_choice("detector", name, tuple(DETECTORS))
    cell = instance(family, n, case)
    inst = Instance(cell.means)
    rows = []
    for run in range(runs):
        tape = inst.tape(derive(INSTANCES, "tape", family, n, case, run))
        for name in detectors:
            rows.append(
                {
                    "run": run,
                    "case": case,
                    "family": family,
                    "n": cell.n,
                    **run_detector(name, cell, tape.rewind(), delta),
                }
            )
    return {"rows": rows}


def _unit(family, n, case, runs, group, detectors) -> Unit:
    return Unit(
        f"{family},n={n},case={case},{group}",
        {"family": family, "n": n, "case": case, "runs": runs, "delta": DELTA, "detectors": list(detectors)},
    )


def _cells(profile: str) -> list[tuple[str, int, int, int]]:
    profile = check_choice("profile", profile, tuple(SUITE))
    if profile == "quick":
        return [(family, n, QUICK_CASE if n == 20 else 0, runs) for family, n, _, runs in SUITE[profile]]
    return [(family, n, case, runs) for family, n, cases, runs in SUITE[profile] for case in range(cases)]


def plan_suite(profile: str) -> list[Unit]:
    return [
        _unit(family, n, case, runs, group, detectors_for(n, group))
        for family, n, case, runs in _cells(profile)
        for group in GROUPS
        if detectors_for(n, group)
    ]


SUITE_EXPERIMENT = Experiment(
    paper="arena",
    name="suite",
    title="Every detector on the instance suite",
    compute=compute_suite,
    plan=plan_suite,
    entropy=ENTROPY,
    chapter=CHAPTER,
    figures=(
        Figure("Leaderboard", "Best delta-correct detector per instance family and n"),
        Figure("Pareto", "Mean pulls against error rate, per detector"),
        Figure("Factor", "Pulls over the lower bound against n"),
        Figure("Wall time", "Wall time per run against n, per engine"),
    ),
)


def compute_bounds(seed, family: str, n: int, case: int, delta: float, exact: bool) -> dict:
    delta = check_open_unit("delta", delta)
    cell = instance(family, n, case)
    row = yardstick(cell, delta)
    if exact:
        start = time.perf_counter()
        ch = optimal_weights(cell.means, cell.k, divergence="bernoulli", rtol=EXACT_RTOL)
        # the LP's bracket on 1/T*: (F at the best w, certified by Pinsker; the LP value)
        row.update(
            T_star_lo=1.0 / ch.bracket[1],
            T_star_hi=1.0 / ch.bracket[0],
            lp_failed="lp_failed" in ch.info,
            exact_s=round(time.perf_counter() - start, 2),
        )
    return {"rows": [row]}


#: the cells where the exact Bernoulli bracket of T* runs beside the certified bounds, to show how
#: tight they are (it costs 35 s on planted case 0 at n = 20, 155 s on case 1), and its tolerance
EXACT = {"quick": (), "full": (("planted", 20, 0),)}
EXACT_RTOL = 0.1


def plan_bounds(profile: str) -> list[Unit]:
    return [
        Unit(
            f"{family},n={n},case={case}",
            {"family": family, "n": n, "case": case, "delta": DELTA, "exact": (family, n, case) in EXACT[profile]},
        )
        for family, n, case, _ in _cells(profile)
    ]


BOUNDS = Experiment(
    paper="arena",
    name="bounds",
    title="The yardstick of every cell: certified bounds on T*",
    compute=compute_bounds,
    plan=plan_bounds,
    entropy=ENTROPY,
    chapter=CHAPTER,
    figures=(Figure("Factor", "Pulls over the lower bound against n"),),
)


#: delta-correctness: n = 5 Bernoulli arms with one outlier (Delta_min 0.21 at k = 1.2: about 400-600
#: pulls per run, so 1000 runs of Track-and-Stop, about 1 s each, fit the budget), every run independent
CORRECTNESS_MEANS = (0.1, 0.2, 0.3, 0.25, 0.9)
CORRECTNESS_K = 1.2
#: every detector the book adds (the GLR stop with its four samplers, the anytime-CS pair): 1000 runs each
CORRECTNESS_RUNS = {
    "quick": {name: 10 for name in (*GLR, *ANYTIME)},
    "full": {name: 1000 for name in (*GLR, *ANYTIME)},
}
CORRECTNESS_UNIT = 100


def compute_correctness(seed, detector: str, first: int, runs: int, delta: float) -> dict:
    detector = check_choice("detector", detector, tuple(DETECTORS))
    first = check_int("first", first, minimum=0)
    runs = check_int("runs", runs, minimum=1)
    delta = check_open_unit("delta", delta)
    means = np.array(CORRECTNESS_MEANS)
    inst = Instance(means)
    truth = ksigma_outliers(means, CORRECTNESS_K)
    rows = []
    for run in range(first, first + runs):
        tape = inst.tape(derive(INSTANCES, "correctness", run))
        out = DETECTORS[detector].run(tape, CORRECTNESS_K, delta)
        rows.append(
            {
                "detector": detector,
                "run": run,
                "pulls": int(out.pulls),
                "correct": bool(np.array_equal(out.output, truth)),
            }
        )
    return {
        "rows": rows,
        "T1": single_arm_bound(means, CORRECTNESS_K, divergence="bernoulli"),
        "delta_min": float(ksigma_gaps(means, CORRECTNESS_K).min()),
        "kl_delta": kl_delta(delta),
    }


def _slug(name: str) -> str:
    """A detector's name as a unit key allows it ("RR (anytime CS)" -> "RR-anytime-CS")."""
    return re.sub(r"[^A-Za-z0-9._=+]+", "-", name).strip("-")


def plan_correctness(profile: str) -> list[Unit]:
    profile = check_choice("profile", profile, tuple(CORRECTNESS_RUNS))
    per = CORRECTNESS_UNIT
    return [
        Unit(
            f"{_slug(name)},runs={first}-{first + min(per, total - first) - 1}",
            {"detector": name, "first": first, "runs": min(per, total - first), "delta": DELTA},
        )
        for name, total in CORRECTNESS_RUNS[profile].items()
        for first in range(0, total, per)
    ]


CORRECTNESS = Experiment(
    paper="arena",
    name="correctness",
    title="delta-correctness of the GLR detectors",
    compute=compute_correctness,
    plan=plan_correctness,
    entropy=ENTROPY,
    chapter=CHAPTER,
    figures=(Figure("Correctness", "Error rate of RR-GLR and Track-and-Stop against delta"),),
)
