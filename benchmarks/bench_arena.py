"""Arena: pulls per second of every detector of the suite, and of each adaptive sampler under both
stops, against n (planted instances, up to 10^4 arms), each divided by the tapes' read rate.

Each detector runs its default engine (numba for all of them) on the suite's case 0 at each n, made
hard enough that no run stops before its pull cap (Bernoulli tape), so a cell measures throughput
over the same number of pulls, re-solves included, not a whole run. IB and ADE redo O(n) work per
pull and get a smaller cap.

**Against the machine's limit.** Beside every rate, ``÷ read`` divides it by the tapes' read rate
measured in the same process just before and after the cell (:func:`read_rate`: round-robin reads
of the same tape, one reward per arm per round, through ``tapes.pull_sum``): the fraction of the
machine's speed for reading rewards that the engine keeps. On a loaded machine both rates fall
together, so the ratio is the number to compare between runs (and the rate times the ratio of an
idle machine's read rate to this run's is the idle estimate).

**The adaptive samplers** (D-tracking, Top-Two with its information-directed rule and with beta =
1/2, Frank-Wolfe) re-solve their inner problem on the schedules of
:mod:`bandit_lib.arena._samplers_engine` (D-tracking: at t = n, 2n, 4n, ...; Top-Two and
Frank-Wolfe: every n pulls while t < 256 n, then once per growth of t by 1/256), so their rate over
``CAP`` pulls includes every re-solve. Their rows ``(GLR)`` and ``(CS)`` are the two stops.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from numba import njit

from bandit_lib.arena.frank_wolfe import frank_wolfe
from bandit_lib.arena.lower_bound import leave_one_out_thresholds
from bandit_lib.arena.suite import ADAPTIVE_CS, DELTA, DETECTORS, SUB_GAUSSIAN, instance
from bandit_lib.arena.toptwo import top_two
from bandit_lib.arena.tracking import track_and_stop
from bandit_lib.ksigma import ksigma_gaps
from bandit_lib.runner import Instance
from bandit_lib.tapes import pull_sum
from benchmarks.timing import best_of

SIZES = (20, 100, 1000, 10_000)
#: the sizes of the sampler x stop rows
SAMPLER_SIZES = (20, 1000, 10_000)
#: pulls per measured run
CAP = 20_000_000
CAP_SLOW = 200_000
#: the suite's adaptive samplers (their rows in DETECTORS are the GLR stop)
ADAPTIVE = ("D-Tracking", "Top-Two", "Frank–Wolfe")


def _sampler_rows() -> dict:
    """The adaptive samplers under each stop (the suite's configuration: 1/2-sub-Gaussian, blocks of n)."""
    rows = {}
    for stop in ("glr", "cs"):
        tag = "GLR" if stop == "glr" else "CS"
        rows[f"D-Tracking ({tag})"] = lambda t, k, d, cap, s=stop: track_and_stop(
            t, k=k, delta=d, cap=cap, weights="gaussian", sub_gaussian=SUB_GAUSSIAN, check_every=t.n_arms, stop=s
        )
        rows[f"Top-Two ({tag})"] = lambda t, k, d, cap, s=stop: top_two(
            t, k=k, delta=d, cap=cap, sub_gaussian=SUB_GAUSSIAN, stop=s
        )
        rows[f"Top-Two β = ½ ({tag})"] = lambda t, k, d, cap, s=stop: top_two(
            t, k=k, delta=d, cap=cap, sub_gaussian=SUB_GAUSSIAN, stop=s, rule="fixed"
        )
        rows[f"Frank–Wolfe ({tag})"] = lambda t, k, d, cap, s=stop: frank_wolfe(
            t, k=k, delta=d, cap=cap, sub_gaussian=SUB_GAUSSIAN, stop=s
        )
    return rows


def cell(n: int):
    """The suite's case 0 at n, with the arm nearest the threshold moved to 1e-4 below the value at
    which it would sit on it alone: no detector stops within the cap, so every cell measures
    throughput over the same number of pulls."""
    case = instance("planted" if n < 10_000 else "large", n, 0)
    means = case.means.copy()
    j = int(np.argmin(ksigma_gaps(means, case.k)))
    means[j] = leave_one_out_thresholds(means, case.k)[j] - 1e-4
    return means, case.k


@njit(cache=True)
def _read_rounds(kind, keys, means, scale, values, offsets, rounds):
    n = keys.shape[0]
    blocks = np.full(n, -1, dtype=np.int64)  # the cache of tapes.new_cache
    words = np.zeros((n, 4), dtype=np.uint64)
    s = np.zeros(n)
    for r in range(rounds):
        for i in range(n):
            s[i] = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, i, r, 1, s[i])
    return s.sum()


def read_rate(n: int, pulls: int = 20_000_000) -> float:
    """Rewards per second read from the cell's tape in round-robin order (one per arm per round)."""
    means, _ = cell(n)
    tape = Instance(means).tape(1)
    rounds = max(pulls // n, 1)
    _read_rounds(*tape.arrays, 1)
    start = time.perf_counter()
    _read_rounds(*tape.arrays, rounds)
    return rounds * n / (time.perf_counter() - start)


def _cap(name: str, n: int) -> int:
    return CAP_SLOW if name in ("IB", "ADE") else CAP


def _rate(name: str, run, n: int) -> tuple[float, float]:
    """(pulls/s, pulls/s divided by the read rate measured before and after)."""
    means, k = cell(n)
    tape = Instance(means).tape(1)
    cap = _cap(name, n)
    pulls = {}
    run(tape.rewind(), k, DELTA, min(cap, 10 * n))  # compile, at a small cap

    def once():
        pulls["n"] = run(tape.rewind(), k, DELTA, cap).pulls

    before = read_rate(n)
    seconds = best_of(once, 1) if n >= 1000 else best_of(once, 2)
    after = read_rate(n)
    rate = pulls["n"] / seconds
    print(
        f"  {name}, n={n}: {pulls['n']:,} pulls in {seconds:.2f} s ({rate / (0.5 * (before + after)):.3f} of the read rate)",
        file=sys.stderr,
        flush=True,
    )
    return rate, rate / (0.5 * (before + after))


def run() -> list[dict]:
    rows = []
    row = {"detector": "tape read (round robin)", "stop": ""}
    for n in SIZES:
        row[f"pulls/s, n={n:,}"] = read_rate(n)
        row[f"÷ read, n={n:,}"] = 1.0
    rows.append(row)
    for name, det in DETECTORS.items():
        if name in ADAPTIVE or name in ADAPTIVE_CS or name == "Top-Two (β = ½)":
            continue  # the sampler rows below, under both stops
        row = {"detector": name, "stop": det.stop}
        for n in SIZES:
            row[f"pulls/s, n={n:,}"], row[f"÷ read, n={n:,}"] = _rate(name, det.run, n)
        rows.append(row)
    for name, run_ in _sampler_rows().items():
        row = {
            "detector": name,
            "stop": "GLR, KK21 threshold" if "GLR" in name else "per-arm KK21 confidence sequences",
        }
        for n in SAMPLER_SIZES:
            row[f"pulls/s, n={n:,}"], row[f"÷ read, n={n:,}"] = _rate(name, run_, n)
        rows.append(row)
    return rows
