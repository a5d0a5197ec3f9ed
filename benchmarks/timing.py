"""Timing helpers shared by the benchmarks."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """Best wall time of ``repeat`` calls (after one warm-up call, which also compiles numba code)."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def compare(
    benchmark: str,
    unit: str,
    reference: Callable[[], object],
    reference_work: float,
    fast: Callable[[], object],
    fast_work: float,
    repeat: int = 3,
) -> dict:
    """A row comparing the throughput (``unit`` per second) of a reference and a fast engine.

    Each engine may do a different amount of work (the reference is slow, so it gets less); the
    ratio compares throughputs.
    """
    ref = reference_work / best_of(reference, repeat)
    fst = fast_work / best_of(fast, repeat)
    return {"benchmark": benchmark, f"reference {unit}/s": ref, f"fast {unit}/s": fst, "ratio": fst / ref}
