"""Arena: pulls per second of every detector's engine against n (planted instances, up to 10^4 arms).

Each detector runs on the suite's case 0 at each n, made hard enough that no run stops before its
pull cap (Bernoulli tape), so a cell measures throughput, not a whole run. The classic detectors run their numba engines; RR-GLR and
Track-and-Stop have only their readable references (pure Python: RR-GLR evaluates a vectorised
screen after every round and the exact GLR statistic, n eigendecompositions, when the screen
passes; Track-and-Stop also recomputes w*, whose cutting-plane solve costs 6-7 s at n = 50 and
about 78 s at n = 100, so it is measured at n = 20 only: 40 rounds at n = 50 took more than 3
minutes).

The last row measures RR-GLR's fast engine (``rr_glr(engine="fast")``: numba rounds, the isotropic
closed form of Z) on the same cells, with a cap of FAST_GLR_PULLS pulls. Track-and-Stop has no
fast engine yet.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from bandit_lib.arena.lower_bound import leave_one_out_thresholds
from bandit_lib.arena.suite import DELTA, DETECTORS, instance
from bandit_lib.ksigma import ksigma_gaps
from bandit_lib.runner import Instance
from benchmarks.timing import best_of

SIZES = (20, 100, 1000, 10_000)
#: pulls per measured run; IB and ADE redo O(n) work per pull, so they get fewer
CAP = 2_000_000
CAP_SLOW = 200_000
GLR_ROUNDS = 40
TAS_SIZES = (20,)
FAST_GLR_PULLS = 20_000_000


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
    return rows


def _fast_glr_rate(n: int) -> float:
    from bandit_lib.arena.glr import rr_glr

    means, k = _cell(n)
    tape = Instance(means).tape(1)
    pulls = {}

    def once():
        pulls["n"] = rr_glr(tape.rewind(), k=k, delta=DELTA, cap=FAST_GLR_PULLS, sub_gaussian=0.5).pulls

    seconds = best_of(once, 2)
    print(f"  RR-GLR (fast), n={n}: {pulls['n']:,} pulls in {seconds:.2f} s", file=sys.stderr, flush=True)
    return pulls["n"] / seconds


_run_detectors = run


def run() -> list[dict]:  # noqa: F811  (the detectors' rows, then the fast engines')
    rows = _run_detectors()
    row = {"detector": "RR-GLR", "engine": "numba (fast)"}
    for n in SIZES:
        row[f"pulls/s, n={n:,}"] = _fast_glr_rate(n)
    rows.append(row)
    return rows
