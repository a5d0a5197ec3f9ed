"""Arena: pulls per second of every detector's engine against n (planted instances, up to 10^4 arms).

Each detector runs on the suite's case 0 at each n, made hard enough that no run stops before its
pull cap (Bernoulli tape), so a cell measures throughput, not a whole run. The classic detectors run their numba engines; RR-GLR and
Track-and-Stop have only their readable references (pure Python: RR-GLR evaluates a vectorised
screen after every round and the exact GLR statistic, n eigendecompositions, when the screen
passes; Track-and-Stop also recomputes w*, whose cutting-plane solve costs 6-7 s at n = 50 and
about 78 s at n = 100, so it is measured at n = 20 only: 40 rounds at n = 50 took more than 3
minutes).

**Samplers** (:mod:`bandit_lib.arena.toptwo`, :mod:`bandit_lib.arena.frank_wolfe`): Top-Two and
Frank-Wolfe sampling with the same GLR stop, their numba engines at their defaults (re-solve and
stop check every n pulls, sub-Gaussian 1/2), pulls per second on the same capped cells at
``SAMPLER_SIZES``, over ``SAMPLER_ROUNDS`` * n pulls, and on the planted cells themselves over (at
most) ``PLANTED_ROUNDS`` * n pulls: there the binding values tie near the optimal allocation, so
each re-solve and stop check solves most arms and the rate is lower; then one full run of each (no cap) on
``instance("planted", 20, c)``, c = 0, 1, 2 (tape ``Instance(means).tape(1)``, delta = 0.1), next to
Track-and-Stop and RR-GLR on the same tapes (a second table: pulls and wall time).
"""

from __future__ import annotations

import sys
import time

import numpy as np
import pandas as pd

from bandit_lib.arena.frank_wolfe import frank_wolfe
from bandit_lib.arena.lower_bound import leave_one_out_thresholds
from bandit_lib.arena.suite import DELTA, DETECTORS, instance
from bandit_lib.arena.toptwo import top_two
from bandit_lib.ksigma import ksigma_gaps, ksigma_outliers
from bandit_lib.runner import Instance
from benchmarks.timing import best_of

SIZES = (20, 100, 1000, 10_000)
#: pulls per measured run; IB and ADE redo O(n) work per pull, so they get fewer
CAP = 2_000_000
CAP_SLOW = 200_000
GLR_ROUNDS = 40
TAS_SIZES = (20,)


def _cell(n: int):
    """The suite's case 0 at n, with the arm nearest the threshold moved to 1e-4 below the value at
    which it would sit on it alone: no detector stops within the cap, so every cell measures
    throughput over the same number of pulls."""
    cell = instance("planted" if n < 10_000 else "large", n, 0)
    means = cell.means.copy()
    j = int(np.argmin(ksigma_gaps(means, cell.k)))
    means[j] = leave_one_out_thresholds(means, cell.k)[j] - 1e-4
    return means, cell.k


def _rate(name: str, n: int) -> tuple[float, int]:
    python = name in ("RR-GLR", "Track-and-Stop")
    cap = GLR_ROUNDS * n if python else CAP_SLOW if name in ("IB", "ADE") else CAP
    means, k = _cell(n)
    tape = Instance(means).tape(1)
    run = DETECTORS[name].run
    pulls = {}

    def once():
        pulls["n"] = run(tape.rewind(), k, DELTA, cap).pulls

    if python:  # no compilation to warm up, and one run costs seconds to minutes
        start = time.perf_counter()
        once()
        seconds = time.perf_counter() - start
    else:
        seconds = best_of(once, 2)
    print(f"  {name}, n={n}: {pulls['n']:,} pulls in {seconds:.2f} s", file=sys.stderr, flush=True)
    return pulls["n"] / seconds, pulls["n"]


def run() -> list[dict]:
    rows = []
    for name in DETECTORS:
        python = name in ("RR-GLR", "Track-and-Stop")
        row = {"detector": name, "engine": "reference (Python)" if python else "numba"}
        for n in TAS_SIZES if name == "Track-and-Stop" else SIZES:
            row[f"pulls/s, n={n:,}"] = _rate(name, n)[0]
        rows.append(row)
    rows.extend(sampler_rates())
    print(pd.DataFrame(full_runs()).to_string(index=False, float_format=lambda x: f"{x:,.3g}"))
    return rows


# ------------------------------------------------------------------------------------------
# samplers: Top-Two and Frank-Wolfe sampling with the GLR stop

SAMPLERS = {
    "Top-Two (GLR stop)": lambda t, k, d, cap=None: top_two(t, k=k, delta=d, cap=cap),
    "Frank-Wolfe (GLR stop)": lambda t, k, d, cap=None: frank_wolfe(t, k=k, delta=d, cap=cap),
}
SAMPLER_SIZES = (20, 100, 200)
#: pulls per measured sampler run, in units of n (at n = 200, 40 000 pulls: the phase before forced
#: exploration starts, t < n^2 / 4, where most arms have one pull and every re-solve solves most arms)
SAMPLER_ROUNDS = 200
#: pulls of the planted-cell throughput runs, in units of n (at most: a run may stop before)
PLANTED_ROUNDS = 500
FULL_CASES = (0, 1, 2)


def sampler_rates() -> list[dict]:
    """Pulls per second of each sampler's numba engine on the capped cells of :func:`_cell`."""
    rows = []
    for name, run in SAMPLERS.items():
        row = {"detector": name, "engine": "numba"}
        for n in SAMPLER_SIZES:
            means, k = _cell(n)
            tape = Instance(means).tape(1)
            pulls = {}

            def once():
                pulls["n"] = run(tape.rewind(), k, DELTA, SAMPLER_ROUNDS * n).pulls

            seconds = best_of(once, 1)
            print(f"  {name}, n={n}: {pulls['n']:,} pulls in {seconds:.2f} s", file=sys.stderr, flush=True)
            row[f"pulls/s, n={n:,}"] = pulls["n"] / seconds
        rows.append(row)
    for name, run in SAMPLERS.items():  # the planted cells themselves: values tie near the optimum
        row = {"detector": f"{name}, planted case 0, first {PLANTED_ROUNDS} n pulls", "engine": "numba"}
        for n in SAMPLER_SIZES:
            cell = instance("planted", n, 0)
            run(Instance(cell.means).tape(1), cell.k, DELTA, 2 * n)  # compile
            start = time.perf_counter()
            out = run(Instance(cell.means).tape(1), cell.k, DELTA, PLANTED_ROUNDS * n)
            seconds = time.perf_counter() - start
            print(f"  {row['detector']}, n={n}: {out.pulls:,} pulls in {seconds:.2f} s", file=sys.stderr, flush=True)
            row[f"pulls/s, n={n:,}"] = out.pulls / seconds
        rows.append(row)
    return rows


def full_runs() -> list[dict]:
    """One run of each sampler and of Track-and-Stop and RR-GLR on the planted cells at n = 20 (no cap)."""
    rows = []
    runs = dict(SAMPLERS)
    runs.update({name: DETECTORS[name].run for name in ("Track-and-Stop", "RR-GLR")})
    for name, run in runs.items():
        row = {"detector": name}
        for c in FULL_CASES:
            cell = instance("planted", 20, c)
            if name in SAMPLERS:  # compile outside the timing
                run(Instance(cell.means).tape(1), cell.k, DELTA, 40)
            tape = Instance(cell.means).tape(1)
            start = time.perf_counter()
            out = run(tape, cell.k, DELTA)
            seconds = time.perf_counter() - start
            print(
                f"  {name}, planted n=20 case {c}: {out.pulls:,} pulls in {seconds:.2f} s", file=sys.stderr, flush=True
            )
            row[f"c={c}: pulls"] = out.pulls
            row[f"c={c}: s"] = seconds
            row[f"c={c}: correct"] = bool(np.array_equal(out.output, ksigma_outliers(cell.means, cell.k)))
        rows.append(row)
    return rows
