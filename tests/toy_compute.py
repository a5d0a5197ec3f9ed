"""Compute functions for the store tests (module level, so the store can fingerprint them)."""

import time

import numpy as np

from bandit_lib.tapes import bernoulli_tape

CALLS = []
FAIL_AT = {"n": None}


def mean_of_tape(seed, mean, pulls):
    CALLS.append(mean)
    if FAIL_AT["n"] is not None and len(CALLS) >= FAIL_AT["n"]:
        raise KeyboardInterrupt  # what Ctrl-C looks like inside a computation
    x = bernoulli_tape([mean], seed).rewards(0, 0, pulls)
    return {"rows": [{"estimate": float(np.mean(x)), "pulls": pulls}]}


def nap(seconds):
    """Sleep, then return ``seconds`` (a task whose cost is all waiting)."""
    time.sleep(seconds)
    return seconds
