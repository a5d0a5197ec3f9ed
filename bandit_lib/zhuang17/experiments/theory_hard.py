r"""ZHUANG17 chapter: Theorems 1-3 on instances with an arm close to the threshold, and a probe of
what the correctness check can detect.

``THEORY`` checks the theorems on cases with every gap at least 0.1, where a wrong answer would
need a large deviation. ``THEORY_HARD`` uses cases whose smallest gap lies in [0.02, 0.03): the
first draws of :func:`~bandit_lib.zhuang17.instances.planted_outliers` (``min_gap=0.02``) from the
case's seed stream whose smallest gap is below 0.03. On each, over ``runs`` shared reward tapes:

* RR and WRR (rho*) with the Hoeffding/McDiarmid intervals of the theorems, R = 1 (Bernoulli
  rewards lie in [0, 1]): the error rate against delta (Theorem 1) and the pulls against the
  bounds of Theorems 2 and 3 (rows with ``R = 1``);
* the same with the intervals of a reward range R in ``probe_R`` (R < 1): radii R times the valid
  ones, so the instance is *outside* Theorem 1 (the rewards' range is 1, not R). These rows show
  how narrow the intervals must be before the error rate exceeds delta on these instances, that
  is, what the correctness check can detect; they are never evidence for the theorem.

The cap (1e9) is far above every bound, so no valid run is capped.
"""

from __future__ import annotations

import numpy as np

from bandit_lib.infra.experiment import Experiment, Figure, Unit
from bandit_lib.seeding import derive, generator
from bandit_lib.tapes import bernoulli_tape
from bandit_lib.zhuang17.experiments import CHAPTER, DELTA, PAPER, _row, _summary, case_seed
from bandit_lib.zhuang17.instances import Case, planted_outliers
from bandit_lib.zhuang17.intervals import HoeffdingCI, rho_star
from bandit_lib.zhuang17.rr import rr
from bandit_lib.zhuang17.theory import bound_rr, bound_wrr
from bandit_lib.zhuang17.wrr import wrr

GAP_WINDOW = (0.02, 0.03)
PROFILES = {
    "quick": {"configs": ((10, 2.0),), "cases": 1, "runs": 4, "cap": 10**9, "probe_R": (0.25, 0.05)},
    "full": {"configs": ((10, 2.0), (10, 1.5)), "cases": 3, "runs": 100, "cap": 10**9, "probe_R": (0.25, 0.1, 0.05)},
}


def hard_case(n: int, k: float, case: int, window=GAP_WINDOW, max_draws: int = 10_000) -> Case:
    """The first planted case (gaps at least ``window[0]``) of the case's stream whose smallest gap
    is below ``window[1]``."""
    gen = generator(case_seed("theory-hard", n, k, case), "hard_case")
    for _ in range(max_draws):
        c = planted_outliers(n, k, gen, min_gap=window[0])
        if c.gap_min < window[1]:
            return c
    raise RuntimeError(f"no planted case with its smallest gap in {window} in {max_draws} draws (n={n}, k={k})")


def compute_theory_hard(seed, n: int, k: float, case: int, runs: int, cap: int, probe_R: list) -> dict:
    c = hard_case(n, k, case)
    y, truth = c.means, c.outliers
    star = rho_star(n, k, DELTA)
    bounds = {"RR": bound_rr(y, k, DELTA), "WRR": bound_wrr(y, k, DELTA, star)}
    rows = []
    for r in range(runs):
        tape = bernoulli_tape(y, derive(seed, "tape", r))
        for R in [1.0, *probe_R]:
            ci = HoeffdingCI(R=float(R))
            for method, policy in (("RR", rr), ("WRR", wrr)):
                out = policy(tape.rewind(), k=k, delta=DELTA, cap=cap, ci=ci)
                rows.append({**_row(method, r, out, truth), "R": float(R), "bound": bounds[method]})
    return {
        "case": {
            **_summary(y, k),
            "tries": c.tries,
            "rho_star": star,
            "bound_rr": bounds["RR"],
            "bound_wrr": bounds["WRR"],
            "means": np.asarray(y).tolist(),
        },
        "rows": rows,
    }


def plan_theory_hard(**cfg) -> list[Unit]:
    return [
        Unit(
            f"n={n},k={k},case={c}",
            {"n": n, "k": k, "case": c, "runs": cfg["runs"], "cap": cfg["cap"], "probe_R": list(cfg["probe_R"])},
        )
        for n, k in cfg["configs"]
        for c in range(cfg["cases"])
    ]


THEORY_HARD = Experiment(
    paper=PAPER,
    name="theory_hard",
    title="Theorems 1-3 near the threshold (smallest gap 0.02-0.03), and a probe with too-narrow intervals",
    compute=compute_theory_hard,
    plan=plan_theory_hard,
    grid={profile: PROFILES[profile] for profile in PROFILES},
    entropy=201709,
    chapter=CHAPTER,
    figures=(
        Figure("Table Z.3", "error rate and pulls / bound near the threshold; error rate with radii scaled by R"),
    ),
)
