"""Arena chapter: every detector on one suite, against the lower bound.

Experiments (full profile = the chapter's scale; quick = the notebook's smoke test):

* ``suite``: every (family, n, case) of :mod:`bandit_lib.arena.suite`, every detector allowed at
  that n, ``runs`` runs each (at least 10) on shared tapes (every detector of a run reads the same
  rewards, whatever unit it runs in); one unit per detector and cell (per run from 722 arms on);
* ``bounds``: the yardstick of every cell of the suite (:func:`bandit_lib.arena.suite.yardstick`):
  the single-arm bound, and up to 50 arms the cutting-plane certificate and the Gaussian upper value;
  on one cell (``EXACT``) also the exact Bernoulli T* bracket of the cutting-plane LP
  (:func:`~bandit_lib.arena.lower_bound.optimal_weights`), to show how tight the certified bounds are;
* ``correctness``: every detector the book adds (the GLR stop under its samplers, the
  confidence-sequence stop under round robin, WRR and the adaptive samplers), 1000 independent runs
  each on one n = 5 Bernoulli instance, error rate against delta;
* ``efficiency``: each adaptive sampler's asymptotic efficiency on Gaussian tapes
  (:mod:`bandit_lib.arena.efficiency`): the allocation's F(N/t) T* with the stop off, and
  E[tau] / (T* E[beta]) with the GLR stop as delta -> 0 (down to 1e-300), on draws of two generators.

The per-unit costs behind the plan were measured on this suite (``SKIP``); the chapter states the
wall time of the whole plan.
"""

from __future__ import annotations

import re
import time

import numpy as np

from bandit_lib.arena.lower_bound import kl_delta, optimal_weights, single_arm_bound
from bandit_lib.arena.suite import (
    ADAPTIVE_CS,
    ANYTIME,
    DELTA,
    DETECTORS,
    GLR,
    INSTANCES,
    instance,
    run_detector,
    yardstick,
)
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
#: detectors left out of a cell where one of their runs costs more than the budget of 60 s (CPU
#: seconds, measured per run on the suite's cases), the rule every δ-correct detector follows: ADE
#: at 10^4 arms (about 25 s a run at 1000 arms, growing with n); RR and WRR with Hoeffding intervals
#: at 10^4 (more than 150 s a run; 2.8 s and 3.3 s at 1000). IB is not δ-correct (its stop is a
#: heuristic) and is not in the leaderboard; it runs up to 100 arms (9.9 s a run at 200, unmeasured
#: beyond). The adaptive samplers' limits are their ``max_n`` (:mod:`bandit_lib.arena.suite`: the
#: GLR stop up to 1000 arms, the confidence-sequence stop at every n except Frank-Wolfe at 10^4)
SKIP = {
    200: ("IB",),
    722: ("IB",),
    1000: ("IB",),
    10_000: ("IB", "ADE", "RR (Hoeffding)", "WRR (Hoeffding)"),
}
#: the detectors ZHUANG17 and ADE20 define, and the book's own (the anytime-CS pair, the GLR stop
#: with its samplers, the adaptive samplers under the confidence-sequence stop)
GROUPS = {
    "classic": tuple(name for name in DETECTORS if name not in (*GLR, *ANYTIME, *ADAPTIVE_CS)),
    "book": (*ANYTIME, *GLR, *ADAPTIVE_CS),
}
#: runs per unit: all of a cell's runs of one detector in one unit up to 200 arms (each run a few
#: seconds at most), one run per unit from 722 arms on (up to about 50 s a run), so no unit costs
#: more than about a minute and an interrupted recompute loses little
RUNS_PER_UNIT_SMALL = 10
SMALL_N = 200


def detectors_for(n: int, group: str | None = None) -> list[str]:
    """The detectors (of ``group``, default all) that run at n (their ``max_n`` and :data:`SKIP`)."""
    n = check_int("n", n, minimum=1)
    names = DETECTORS if group is None else GROUPS[check_choice("group", group, tuple(GROUPS))]
    return [name for name in names if n <= DETECTORS[name].max_n and name not in SKIP.get(n, ())]


def compute_suite(
    seed, family: str, n: int, case: int, first: int, runs: int, delta: float, detectors: list[str]
) -> dict:
    first = check_int("first", first, minimum=0)
    runs = check_int("runs", runs, minimum=1)
    delta = check_open_unit("delta", delta)
    for name in detectors:
        check_choice("detector", name, tuple(DETECTORS))
    cell = instance(family, n, case)
    inst = Instance(cell.means)
    rows = []
    for run in range(first, first + runs):
        # run r reads the same tape in every unit: the detectors' comparisons are paired
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


def _slug(name: str) -> str:
    """A detector's name as a unit key allows it ("RR (anytime CS)" -> "RR-anytime-CS")."""
    name = name.replace("β", "beta").replace("½", "0.5").replace(" = ", "=")
    return re.sub(r"[^A-Za-z0-9._=+]+", "-", name).strip("-")


def _cells(profile: str) -> tuple[tuple[str, int, int, int], ...]:
    """The profile's cells ``(family, n, case, runs)``: every case of :data:`SUITE`'s rows; the
    quick profile runs one case per row (:data:`QUICK_CASE` at n = 20)."""
    profile = check_choice("profile", profile, tuple(SUITE))
    if profile == "quick":
        return tuple((family, n, QUICK_CASE if n == 20 else 0, runs) for family, n, _, runs in SUITE[profile])
    return tuple((family, n, case, runs) for family, n, cases, runs in SUITE[profile] for case in range(cases))


def plan_suite(cells) -> list[Unit]:
    units = []
    for family, n, case, runs in cells:
        per = RUNS_PER_UNIT_SMALL if n <= SMALL_N else 1
        for name in detectors_for(n):
            for first in range(0, runs, per):
                count = min(per, runs - first)
                params = {"family": family, "n": n, "case": case, "first": first, "runs": count}
                params.update(delta=DELTA, detectors=[name])
                units.append(Unit(f"{family},n={n},case={case},{_slug(name)},runs={first}-{first + count - 1}", params))
    return units


SUITE_EXPERIMENT = Experiment(
    paper="arena",
    name="suite",
    title="Every detector on the instance suite",
    compute=compute_suite,
    plan=plan_suite,
    grid={profile: {"cells": _cells(profile)} for profile in SUITE},
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


def plan_bounds(cells, exact) -> list[Unit]:
    return [
        Unit(
            f"{family},n={n},case={case}",
            {"family": family, "n": n, "case": case, "delta": DELTA, "exact": (family, n, case) in exact},
        )
        for family, n, case, *_ in cells
    ]


BOUNDS = Experiment(
    paper="arena",
    name="bounds",
    title="The yardstick of every cell: certified bounds on T*",
    compute=compute_bounds,
    plan=plan_bounds,
    grid={
        profile: {"cells": tuple(cell[:3] for cell in _cells(profile)), "exact": EXACT[profile]} for profile in SUITE
    },
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
    "quick": {name: 10 for name in (*GLR, *ANYTIME, *ADAPTIVE_CS)},
    "full": {name: 1000 for name in (*GLR, *ANYTIME, *ADAPTIVE_CS)},
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


def plan_correctness(detectors, runs: int) -> list[Unit]:
    per = CORRECTNESS_UNIT
    return [
        Unit(
            f"{_slug(name)},runs={first}-{first + min(per, runs - first) - 1}",
            {"detector": name, "first": first, "runs": min(per, runs - first), "delta": DELTA},
        )
        for name in detectors
        for first in range(0, runs, per)
    ]


CORRECTNESS = Experiment(
    paper="arena",
    name="correctness",
    title="delta-correctness of the GLR detectors",
    compute=compute_correctness,
    plan=plan_correctness,
    grid={
        profile: {"detectors": tuple(runs), "runs": max(runs.values())} for profile, runs in CORRECTNESS_RUNS.items()
    },
    entropy=ENTROPY,
    chapter=CHAPTER,
    figures=(Figure("Correctness", "Error rate of RR-GLR and Track-and-Stop against delta"),),
)


#: asymptotic efficiency (:mod:`bandit_lib.arena.efficiency`): the cells (two generators: the planted
#: one and ADE20's window, several draws of each), the tapes per (cell, sampler), the checkpoints of
#: the allocation (10 n to 10^5 n pulls, the stop off) and the deltas of the stopping ratio
EFFICIENCY_CELLS = {
    "quick": (("planted", 20, 1),),
    "full": (
        ("planted", 20, 0),
        ("planted", 20, 1),
        ("planted", 20, 2),
        ("planted", 50, 0),
        ("planted", 50, 1),
        ("window", 20, 0),
        ("window", 20, 1),
        ("window", 50, 0),
        ("window", 50, 1),
    ),
}
EFFICIENCY_SEEDS = {"quick": 1, "full": 5}
EFFICIENCY_HORIZON = {"quick": 10**3, "full": 10**5}  # the last checkpoint, in multiples of n
EFFICIENCY_POINTS = 9
STOPPING_DELTAS = {"quick": (1e-1, 1e-300), "full": (1e-1, 1e-3, 1e-10, 1e-30, 1e-100, 1e-300)}
STOPPING_RUNS = {"quick": 2, "full": 20}


def _int_seed(*keys) -> int:
    """An integer seed derived from the chapter's entropy (the same for every sampler: paired tapes)."""
    return int(derive(ENTROPY, "efficiency", *keys).generate_state(1)[0])


def compute_efficiency(
    seed, family: str, n: int, case: int, sampler: str, seeds: int, horizon: int, deltas: list, runs: int
) -> dict:
    from bandit_lib.arena import efficiency as ef

    seeds = check_int("seeds", seeds, minimum=1)
    horizon = check_int("horizon", horizon, minimum=10)
    runs = check_int("runs", runs, minimum=1)
    sampler = check_choice("sampler", sampler, tuple(ef.SAMPLERS))
    deltas = [check_open_unit("delta", d) for d in deltas]
    cell = instance(family, n, case)
    T = ef.characteristic_time(cell.means, cell.k)
    grid = ef.log_grid(10 * cell.n, horizon * cell.n, EFFICIENCY_POINTS, cell.n)
    allocation = []
    for s in range(seeds):
        r = ef.allocation_efficiency(cell.means, cell.k, sampler, grid, seed=_int_seed("allocation", s), T_star=T)
        allocation.append({"seed": s, **{key: r[key] for key in ("pulls", "F", "efficiency_lo", "efficiency_hi")}})
    stopping = []
    for i, delta in enumerate(deltas):
        r = ef.stopping_ratio(cell.means, cell.k, sampler, delta, runs, seed=_int_seed("stopping", i), T_star=T)
        stopping.append({key: r[key] for key in ("delta", "tau", "beta", "ratio_lo", "ratio_hi", "errors")})
    return {"T_lo": T[0], "T_hi": T[1], "allocation": allocation, "stopping": stopping}


def plan_efficiency(cells, seeds: int, horizon: int, deltas, runs: int) -> list[Unit]:
    from bandit_lib.arena.efficiency import SAMPLERS

    return [
        Unit(
            f"{family},n={n},case={case},{_slug(sampler)}",
            {
                "family": family,
                "n": n,
                "case": case,
                "sampler": sampler,
                "seeds": seeds,
                "horizon": horizon,
                "deltas": list(deltas),
                "runs": runs,
            },
        )
        for family, n, case in cells
        for sampler in SAMPLERS
    ]


EFFICIENCY = Experiment(
    paper="arena",
    name="efficiency",
    title="Asymptotic efficiency of the samplers: the allocation with the stop off, and tau / (T* beta) as delta -> 0",
    compute=compute_efficiency,
    plan=plan_efficiency,
    grid={
        profile: {
            "cells": EFFICIENCY_CELLS[profile],
            "seeds": EFFICIENCY_SEEDS[profile],
            "horizon": EFFICIENCY_HORIZON[profile],
            "deltas": STOPPING_DELTAS[profile],
            "runs": STOPPING_RUNS[profile],
        }
        for profile in EFFICIENCY_CELLS
    },
    entropy=ENTROPY,
    chapter=CHAPTER,
    figures=(
        Figure("Allocation", "F(N/t) T* against t, per sampler, the stop off"),
        Figure("Stopping", "E[tau] / (T* E[beta]) against ln(1/delta), per sampler"),
    ),
)
