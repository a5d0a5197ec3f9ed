"""Arena: pulls per second of every detector's engine against n (planted instances, up to 10^4 arms).

Each detector runs on the suite's case 0 at each n (Bernoulli tape) with a pull cap, so a cell
measures throughput, not a whole run. The classic detectors run their numba engines; RR-GLR and
Track-and-Stop have only their readable references (pure Python: RR-GLR evaluates a vectorised
screen after every round and the exact GLR statistic, n eigendecompositions, when the screen
passes; Track-and-Stop also recomputes w*, whose cutting-plane solve costs about 78 s at n = 100,
so it is measured at n = 20 and 50 only). A blank cell is a detector not run at that n.
"""

from __future__ import annotations

from bandit_lib.ade20.ade import ade
from bandit_lib.arena.glr import rr_glr
from bandit_lib.arena.suite import DELTA, DETECTORS, instance
from bandit_lib.arena.tracking import track_and_stop
from bandit_lib.runner import Instance
from bandit_lib.zhuang17.ib import ib
from bandit_lib.zhuang17.intervals import AgrestiCoullCI, HoeffdingCI
from bandit_lib.zhuang17.nrr import nrr
from bandit_lib.zhuang17.rr import rr
from bandit_lib.zhuang17.wrr import wrr
from benchmarks.timing import best_of

SIZES = (20, 100, 1000, 10_000)
#: pulls per measured run (a run that stops earlier is measured as it is)
CAP = 2_000_000
GLR_ROUNDS = 40
TAS_SIZES = (20, 50)


def _cell(n: int):
    return instance("planted" if n < 10_000 else "large", n, 0)


def _runner(name: str, cap: int):
    """The suite's detector ``name`` (same options as :data:`bandit_lib.arena.suite.DETECTORS`) with a cap."""
    h, ac = HoeffdingCI(R=1.0), AgrestiCoullCI()
    return {
        "RR (Hoeffding)": lambda t, k: rr(t, k=k, delta=DELTA, cap=cap, ci=h),
        "RR (Agresti–Coull)": lambda t, k: rr(t, k=k, delta=DELTA, cap=cap, ci=ac),
        "WRR (Hoeffding)": lambda t, k: wrr(t, k=k, delta=DELTA, cap=cap, ci=h),
        "WRR (Agresti–Coull)": lambda t, k: wrr(t, k=k, delta=DELTA, cap=cap, ci=ac),
        "IB": lambda t, k: ib(t, k=k, delta=DELTA, cap=cap),
        "ADE": lambda t, k: ade(t, k=k, delta=DELTA, cap=cap),
        "NRR (heuristic)": lambda t, k: nrr(t, k=k, delta=DELTA, cap=cap),
        "RR-GLR": lambda t, k: rr_glr(t, k=k, delta=DELTA, cap=cap, sub_gaussian=0.5),
        "Track-and-Stop": lambda t, k: track_and_stop(
            t, k=k, delta=DELTA, cap=cap, weights="gaussian", sub_gaussian=0.5, check_every=t.n_arms
        ),
    }[name]


def _rate(name: str, n: int, cap: int, repeat: int) -> float:
    cell = _cell(n)
    tape = Instance(cell.means).tape(1)
    run = _runner(name, cap)
    pulls = {}

    def once():
        pulls["n"] = run(tape.rewind(), cell.k).pulls

    seconds = best_of(once, repeat)
    return pulls["n"] / seconds


def sizes_for(name: str) -> tuple[int, ...]:
    if name == "Track-and-Stop":
        return TAS_SIZES
    if name in ("IB", "ADE"):  # their engines' cost per pull grows with n (about a minute per run at n = 100)
        return tuple(n for n in SIZES if n <= 1000)
    return SIZES


def run() -> list[dict]:
    rows = []
    for name in DETECTORS:
        python = name in ("RR-GLR", "Track-and-Stop")
        row = {"detector": name, "engine": "reference (Python)" if python else "numba"}
        for n in sorted(set(SIZES) | set(TAS_SIZES)):
            if n in sizes_for(name):
                row[f"pulls/s, n={n:,}"] = _rate(name, n, GLR_ROUNDS * n if python else CAP, repeat=1 if python else 2)
        rows.append(row)
    return rows
