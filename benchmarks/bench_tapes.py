"""Reward tapes: rewards per second read one pull at a time from Python (what a per-pull
reference engine does) against a numba loop over the same tape (what a fast engine does)."""

import numpy as np
from numba import njit

from bandit_lib.tapes import bernoulli_tape, gaussian_tape, tape_reward
from benchmarks.timing import compare


@njit(cache=True)
def _sum_round_robin(kind, keys, means, scale, values, offsets, pulls):
    n = keys.shape[0]
    total = 0.0
    for t in range(pulls):
        total += tape_reward(kind, keys, means, scale, values, offsets, t % n, t // n)
    return total


def run() -> list[dict]:
    rows = []
    for name, tape in [
        ("bernoulli", bernoulli_tape(np.linspace(0.1, 0.9, 20), 1)),
        ("gaussian", gaussian_tape(np.zeros(20), 1.0, 1)),
    ]:
        pulls_ref, pulls_fast = 20_000, 2_000_000

        def reference():
            t = tape.rewind()
            for k in range(pulls_ref):
                t.pull(k % 20)

        rows.append(
            compare(
                f"{name} tape, round robin, n=20",
                "pulls",
                reference,
                pulls_ref,
                lambda: _sum_round_robin(*tape.arrays, pulls_fast),
                pulls_fast,
            )
        )
    return rows
