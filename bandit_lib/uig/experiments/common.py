"""Shared pieces of the UIG chapter's experiments (``uig_*`` modules): the paper key, the chapter,
how results are blocked into units, and the regret grid.

The experiments are split into modules (reduction, regret, jester, timing, theory) so that each
one's cached results depend only on the code it runs: a change to the theory checks does not make
the regret results stale.
"""

from __future__ import annotations

import time

from bandit_lib.metrics import pseudo_regret

PAPER = "uig"
CHAPTER = "notebooks/uig"


def regret_grid(T: int) -> list[int]:
    """Horizons at which anytime regret is recorded: 10, 20, .., 100, then every 50."""
    return sorted({t for t in list(range(10, 101, 10)) + list(range(150, T + 1, 50)) if t <= T} | {T})


def blocks(reps: int, block: int) -> list[tuple[int, int]]:
    """Repetitions cut into units of ``block``: [(first, last + 1), ...]."""
    return [(start, min(start + block, reps)) for start in range(0, reps, block)]


def regret_at(means, arms, grid) -> list[float]:
    """Cumulative pseudo-regret after each horizon of ``grid`` (rounded to 1e-4)."""
    regret = pseudo_regret(means, arms)
    return [round(float(regret[t - 1]), 4) for t in grid]


def timed(fn):
    """(fn(), wall seconds)."""
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start
