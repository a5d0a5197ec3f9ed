"""Arena: pulls per second of every detector of the suite against n (planted instances, up to 10^4 arms).

Each detector of :data:`bandit_lib.arena.suite.DETECTORS` runs its default engine (numba for
all of them) on the suite's case 0 at each n, made hard enough that no run stops before its pull
cap (Bernoulli tape), so a cell measures throughput, not a whole run. IB and ADE redo O(n) work
per pull and get a smaller cap. The samplers that re-solve the inner problem (D-tracking, Top-Two,
Frank–Wolfe: n inner solves of O(n) each per re-solve) get a cap of ``ROUNDS_SLOW`` rounds of n
pulls, and are measured only up to ``SLOW_MAX_N``: their cost per pull grows with n, which is what
the rows show. A blank cell was not measured.
"""

from __future__ import annotations

import sys

import numpy as np

from bandit_lib.arena.lower_bound import leave_one_out_thresholds
from bandit_lib.arena.suite import DELTA, DETECTORS, instance
from bandit_lib.ksigma import ksigma_gaps
from bandit_lib.runner import Instance
from benchmarks.timing import best_of

SIZES = (20, 100, 1000, 10_000)
#: pulls per measured run
CAP = 20_000_000
CAP_SLOW = 200_000
#: the samplers that re-solve w* or the challenger: rounds of n pulls per measured run, and the largest n
SLOW = ("D-Tracking", "Top-Two", "Frank–Wolfe")
ROUNDS_SLOW = 200
SLOW_MAX_N = 100


def cell(n: int):
    """The suite's case 0 at n, with the arm nearest the threshold moved to 1e-4 below the value at
    which it would sit on it alone: no detector stops within the cap, so every cell measures
    throughput over the same number of pulls."""
    case = instance("planted" if n < 10_000 else "large", n, 0)
    means = case.means.copy()
    j = int(np.argmin(ksigma_gaps(means, case.k)))
    means[j] = leave_one_out_thresholds(means, case.k)[j] - 1e-4
    return means, case.k


def _cap(name: str, n: int) -> int:
    if name in SLOW:
        return ROUNDS_SLOW * n
    return CAP_SLOW if name in ("IB", "ADE") else CAP


def _rate(name: str, n: int) -> float:
    means, k = cell(n)
    tape = Instance(means).tape(1)
    run = DETECTORS[name].run
    cap = _cap(name, n)
    pulls = {}

    def once():
        pulls["n"] = run(tape.rewind(), k, DELTA, cap).pulls

    seconds = best_of(once, 2)
    print(f"  {name}, n={n}: {pulls['n']:,} pulls in {seconds:.2f} s", file=sys.stderr, flush=True)
    return pulls["n"] / seconds


def run() -> list[dict]:
    rows = []
    for name, det in DETECTORS.items():
        row = {"detector": name, "stop": det.stop}
        for n in SIZES:
            if name in SLOW and n > SLOW_MAX_N:
                continue
            row[f"pulls/s, n={n:,}"] = _rate(name, n)
        rows.append(row)
    return rows
