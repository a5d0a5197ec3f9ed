"""UIG chapter: regret-simulation throughput (rounds per second) of LSDT-CSI and UCB1 at K = 100,
the readable per-round policies (``simulate``) against their numba engines, which take the same
decisions on the same reward tape (checked here on the benchmark's own runs)."""

import numpy as np

from bandit_lib.tapes import decision_stream, gaussian_tape
from bandit_lib.uig.instances import random_instance
from bandit_lib.uig.lsdt_csi import LSDTCSI, run_lsdt_csi_fast
from bandit_lib.uig.protocol import simulate
from bandit_lib.uig.ucb1 import UCB1, run_ucb1_fast
from benchmarks.timing import compare


def run() -> list[dict]:
    inst = random_instance(np.random.default_rng(6), 100, 0.1, low=0.1, high=1.0)
    tape = gaussian_tape(inst.means, 1.0, 6)
    rows = []
    T_ref, T_fast = 5_000, 1_000_000
    engines = {
        "LSDT-CSI": (
            lambda T: simulate(LSDTCSI(100, decision_stream(1, "b"), classes=inst.classes), tape.rewind(), T),
            lambda T: run_lsdt_csi_fast(tape.rewind(), T, decision_stream(1, "b"), classes=inst.classes),
        ),
        "UCB1 (alpha = 8)": (
            lambda T: simulate(UCB1(100, decision_stream(1, "b"), alpha=8.0), tape.rewind(), T),
            lambda T: run_ucb1_fast(tape.rewind(), T, decision_stream(1, "b"), alpha=8.0),
        ),
    }
    for name, (reference, fast) in engines.items():
        if not np.array_equal(reference(2_000), fast(2_000)):
            raise AssertionError(f"{name}: the numba engine's decisions differ from the reference's")
        rows.append(
            compare(
                f"{name}, K = 100, Gaussian tape",
                "rounds",
                lambda: reference(T_ref),
                T_ref,
                lambda: fast(T_fast),
                T_fast,
            )
        )
    return rows
