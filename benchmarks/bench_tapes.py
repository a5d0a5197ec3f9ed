"""Reward tapes: rewards per second read one pull at a time from Python (what a per-pull
reference engine does) against a numba loop over the same tape (what a fast engine does).

:func:`read_rate` is the yardstick of ``bench_limit``: the tape's own read, in round robin over
its arms, through the per-arm block cache every fast engine keeps (one Philox4x64-10 block per
four pulls of an arm, the Bernoulli case written out as the engines write it). No engine that
reads the tape pull by pull can beat it; ``bench_limit`` divides each engine's pulls per second
by it, measured in the same run on the same arms.
"""

import time

import numpy as np
from numba import njit

from bandit_lib.tapes import BERNOULLI, bernoulli_tape, gaussian_tape, philox_block, pull_sum, tape_reward, uniform_of
from benchmarks.timing import compare


@njit(cache=True)
def _sum_round_robin(kind, keys, means, scale, values, offsets, pulls):
    n = keys.shape[0]
    total = 0.0
    for t in range(pulls):
        total += tape_reward(kind, keys, means, scale, values, offsets, t % n, t // n)
    return total


@njit(cache=True)
def read_round_robin(kind, keys, means, scale, values, offsets, pulls):
    """Sum of the first ``pulls`` rewards of a round robin over the tape's arms, read sequentially
    through the block cache (the tape read of the fast engines, nothing else)."""
    n = keys.shape[0]
    blocks = np.full(n, -1, dtype=np.int64)
    words = np.zeros((n, 4), dtype=np.uint64)
    s = np.zeros(n)
    i = 0
    j = 0
    for _ in range(pulls):
        if kind == BERNOULLI:
            blk = j >> 2
            if blocks[i] != blk:
                c0, c1, c2, c3 = philox_block(keys[i, 0], keys[i, 1], blk)
                words[i, 0] = c0
                words[i, 1] = c1
                words[i, 2] = c2
                words[i, 3] = c3
                blocks[i] = blk
            s[i] += 1.0 if uniform_of(words[i, j & 3]) < means[i] else 0.0
        else:
            s[i] = pull_sum(kind, keys, means, scale, values, offsets, blocks, words, i, j, 1, s[i])
        i += 1
        if i == n:
            i = 0
            j += 1
    return s.sum()


def read_rate(tape, pulls: int = 20_000_000, repeat: int = 3, clock=time.perf_counter) -> float:
    """Rewards per second of :func:`read_round_robin` on ``tape`` (best of ``repeat``, after a
    warm-up), timed by ``clock`` (``time.process_time``: CPU seconds, which a loaded machine
    inflates far less than wall seconds)."""
    read_round_robin(*tape.arrays, 1000)
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        read_round_robin(*tape.arrays, pulls)
        best = min(best, clock() - start)
    return pulls / best


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

        row = compare(
            f"{name} tape, round robin, n=20",
            "pulls",
            reference,
            pulls_ref,
            lambda: _sum_round_robin(*tape.arrays, pulls_fast),
            pulls_fast,
        )
        # the read the fast engines do (a block per four pulls of an arm): bench_limit's yardstick
        row["block read pulls/s"] = read_rate(tape, pulls_fast * 5)
        rows.append(row)
    return rows
