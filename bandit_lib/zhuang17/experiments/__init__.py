"""ZHUANG17 chapter: the experiments of Zhuang, Wang & Wang (NeurIPS 2017), at paper scale.

* ``SYNTHETIC`` (Fig. 1): n in {20, 50, 100, 200} x k in {2, 2.5, 3}, 10 planted-outlier cases per
  configuration, 10 runs per case, NRR/IB/RR/WRR, delta = 0.1, cap 1e7, Agresti–Coull intervals.
  One unit per case.
* ``TWITTER`` (Fig. 2): the Twitter-like stand-in (47 regions, 20 keywords), k = 2.5, 10 runs.
  One unit per keyword.
* ``RHO_SWEEP`` (Fig. 3): n = 15, k = 2.5, 10 separate cases, 10 runs, WRR with
  rho in {1.5, 2, ..., 5} and rho*. One unit per case.
* ``THEORY`` (Theorems 1-3): RR and WRR with Hoeffding/McDiarmid intervals (R = 1) on small
  planted cases with Delta_min >= 0.1, 50 runs per case, 1000 runs per method in all.
* ``ABLATIONS``: RR and WRR with z as the normal quantile and with the printed threshold
  interval, against the default, on the first 5 synthetic cases of n in {20, 50, 100}, k = 2.5.
* :mod:`~.rho_families` (``RHO_FAMILIES``): why rho* is or is not near-optimal, under both
  interval families.
* :mod:`~.natural` (``SYNTHETIC_NATURAL``, ``RHO_NATURAL``): Figs. 1 and 3 on i.i.d. Beta(2, 5)
  means, the reading of the generator inside the paper's H1/H2 range.
* :mod:`~.theory_hard` (``THEORY_HARD``): Theorems 1-3 on cases with an arm close to the
  threshold, and a probe with too-narrow intervals.

Every run of every method on one case shares the run's reward tape (common random numbers); the
test cases come from their own seed stream (:func:`case_seed`), so the same (n, k, case) is the
same instance in every experiment. Payloads hold per-run summaries only (pulls, cap flag,
correctness, precision, recall, F1).
"""

from __future__ import annotations

import numpy as np

from bandit_lib.infra.experiment import Experiment, Figure, Unit
from bandit_lib.ksigma import ksigma_outliers
from bandit_lib.metrics import set_scores
from bandit_lib.seeding import derive
from bandit_lib.tapes import bernoulli_tape
from bandit_lib.zhuang17.ib import ib
from bandit_lib.zhuang17.instances import Case, planted_outliers
from bandit_lib.zhuang17.intervals import AgrestiCoullCI, HoeffdingCI, rho_star
from bandit_lib.zhuang17.nrr import nrr
from bandit_lib.zhuang17.rr import rr
from bandit_lib.zhuang17.theory import H1, H2, bound_rr, bound_wrr
from bandit_lib.zhuang17.twitter_like import twitter_like
from bandit_lib.zhuang17.wrr import wrr

PAPER = "zhuang17"
CHAPTER = "notebooks/zhuang17"
DELTA = 0.1
CASE_ENTROPY = 20171204  # the seed stream of every test case of the chapter
TWITTER_SEED = 2017  # the Twitter-like data set
METHODS = ("NRR", "IB", "RR", "WRR")

PROFILES = {
    "quick": {
        "synthetic": {"n": (20, 50), "k": (2.5,), "cases": 2, "runs": 2, "cap": 200_000, "hoeffding_runs": 1},
        "twitter": {"keywords": 2, "runs": 2, "cap": 200_000, "hoeffding_runs": 1},
        "rho": {"rhos": (1.5, 3.0), "cases": 2, "runs": 2, "cap": 200_000},
        "theory": {"configs": ((10, 2.0),), "cases": 2, "runs": 10, "cap": 2_000_000},
        "ablations": {"n": (20,), "cases": 1, "runs": 2, "cap": 200_000},
    },
    "full": {
        # RR and WRR also with the theorems' Hoeffding intervals in 3 of the 10 runs (time budget)
        "synthetic": {
            "n": (20, 50, 100, 200),
            "k": (2.0, 2.5, 3.0),
            "cases": 10,
            "runs": 10,
            "cap": 10**7,
            "hoeffding_runs": 3,
        },
        "twitter": {"keywords": 20, "runs": 10, "cap": 10**7, "hoeffding_runs": 3},
        "rho": {"rhos": (1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0), "cases": 10, "runs": 10, "cap": 10**7},
        "theory": {"configs": ((10, 2.0), (15, 2.0), (20, 2.0), (10, 1.5)), "cases": 5, "runs": 50, "cap": 10**8},
        "ablations": {"n": (20, 50, 100), "cases": 5, "runs": 10, "cap": 10**7},
    },
}


def case_seed(kind: str, n: int, k: float, case: int):
    """The seed of test case ``case`` of a configuration (independent of any experiment)."""
    return derive(CASE_ENTROPY, kind, n, float(k), case)


def synthetic_case(n: int, k: float, case: int, **params) -> Case:
    return planted_outliers(n, k, case_seed("synthetic", n, k, case), **params)


def _summary(y: np.ndarray, k: float) -> dict:
    truth = ksigma_outliers(y, k)
    gaps = np.abs(y - (y.mean() + k * y.std()))
    return {
        "n": len(y),
        "k": k,
        "n_outliers": int(len(truth)),
        "gap_min": float(gaps.min()),
        "H1": H1(y, k),
        "H2": H2(y, k),
    }


def _row(method: str, run: int, out, truth) -> dict:
    sc = set_scores(out.output, truth)
    return {
        "method": method,
        "run": run,
        "pulls": out.pulls,
        "capped": out.capped,
        "exact": sc.exact,
        "precision": sc.precision,
        "recall": sc.recall,
        "f1": sc.f1,
    }


def four_methods(seed, y: np.ndarray, k: float, runs: int, cap: int, hoeffding_runs: int = 0) -> list[dict]:
    """NRR, IB, RR, WRR (rho*) on ``runs`` tapes of the instance y, with Agresti–Coull intervals
    (the paper's experiments); in the first ``hoeffding_runs`` runs also RR and WRR with the
    Hoeffding/McDiarmid intervals of its theorems (rows ``"RR (Hoeffding)"``, ``"WRR (Hoeffding)"``)."""
    truth = ksigma_outliers(y, k)
    ci = AgrestiCoullCI()
    hoeffding = HoeffdingCI(R=1.0)
    rows = []
    for r in range(runs):
        tape = bernoulli_tape(y, derive(seed, "tape", r))
        for method in METHODS:
            t = tape.rewind()
            if method == "NRR":
                out = nrr(t, k=k, delta=DELTA, cap=cap)
            elif method == "IB":
                out = ib(t, k=k, delta=DELTA, cap=cap)
            elif method == "RR":
                out = rr(t, k=k, delta=DELTA, cap=cap, ci=ci)
            else:
                out = wrr(t, k=k, delta=DELTA, cap=cap, ci=ci)
            rows.append(_row(method, r, out, truth))
        if r < hoeffding_runs:
            for name, policy in (("RR", rr), ("WRR", wrr)):
                out = policy(tape.rewind(), k=k, delta=DELTA, cap=cap, ci=hoeffding)
                rows.append(_row(f"{name} (Hoeffding)", r, out, truth))
    return rows


# ------------------------------------------------------------------------------ Fig. 1


def compute_synthetic(seed, n: int, k: float, case: int, runs: int, cap: int, hoeffding_runs: int = 0) -> dict:
    c = synthetic_case(n, k, case)
    rows = four_methods(seed, c.means, k, runs, cap, hoeffding_runs)
    return {"case": {**_summary(c.means, k), "tries": c.tries}, "rows": rows}


def plan_synthetic(**cfg) -> list[Unit]:
    return [
        Unit(
            f"n={n},k={k},case={c}",
            {
                "n": n,
                "k": k,
                "case": c,
                "runs": cfg["runs"],
                "cap": cfg["cap"],
                "hoeffding_runs": cfg["hoeffding_runs"],
            },
        )
        for n in cfg["n"]
        for k in cfg["k"]
        for c in range(cfg["cases"])
    ]


SYNTHETIC = Experiment(
    paper=PAPER,
    name="synthetic",
    title="Synthetic data: correctness and pulls of NRR, IB, RR, WRR (Fig. 1)",
    compute=compute_synthetic,
    plan=plan_synthetic,
    grid={profile: PROFILES[profile]["synthetic"] for profile in PROFILES},
    entropy=201701,
    chapter=CHAPTER,
    figures=(
        Figure("Fig. 1(a)", "% exactly correct vs n"),
        Figure("Fig. 1(b)", "average pulls vs n"),
        Figure("Fig. 1(c)", "WRR's cost reduction w.r.t. RR over the 120 cases"),
    ),
)


# ------------------------------------------------------------------------------ Fig. 2


def compute_twitter(
    seed, keyword: int, k: float, runs: int, cap: int, data_seed: int, n_keywords: int, hoeffding_runs: int = 0
) -> dict:
    data = twitter_like(data_seed, n_keywords=n_keywords, k=k)
    kw = data.keywords[keyword]
    summary = {
        **_summary(kw.means, k),
        "name": kw.name,
        "base_rate": kw.base_rate,
        "hotspots": len(kw.hotspots),
        "redraws": kw.redraws,
    }
    return {"case": summary, "rows": four_methods(seed, kw.means, k, runs, cap, hoeffding_runs)}


def plan_twitter(**cfg) -> list[Unit]:
    n_kw = PROFILES["full"]["twitter"]["keywords"]
    return [
        Unit(
            f"keyword={w}",
            {
                "keyword": w,
                "k": 2.5,
                "runs": cfg["runs"],
                "cap": cfg["cap"],
                "data_seed": TWITTER_SEED,
                "n_keywords": n_kw,
                "hoeffding_runs": cfg["hoeffding_runs"],
            },
        )
        for w in range(cfg["keywords"])
    ]


TWITTER = Experiment(
    paper=PAPER,
    name="twitter",
    title="Twitter-like stand-in: correctness and cost (Fig. 2)",
    compute=compute_twitter,
    plan=plan_twitter,
    grid={profile: PROFILES[profile]["twitter"] for profile in PROFILES},
    entropy=201702,
    chapter=CHAPTER,
    figures=(
        Figure("Fig. 2(a)", "correctness, precision, recall, F1 (Twitter-like synthetic stand-in)"),
        Figure("Fig. 2(b)", "cost reduction of RR and WRR w.r.t. IB (Twitter-like synthetic stand-in)"),
    ),
)


# ------------------------------------------------------------------------------ Fig. 3


def rho_sweep(seed, case, ci, rhos: list, runs: int, cap: int, n: int = 15, k: float = 2.5, **tags) -> dict:
    """WRR on one case with each preset rho and with rho*, ``runs`` tapes shared by all rhos."""
    star = rho_star(n, k, DELTA)
    rows = []
    for r in range(runs):
        tape = bernoulli_tape(case.means, derive(seed, "tape", r))
        for label, rho in [(f"{x:g}", x) for x in rhos] + [("rho*", star)]:
            out = wrr(tape.rewind(), k=k, delta=DELTA, cap=cap, ci=ci, rho=rho)
            rows.append({**tags, "rho": rho, "label": label, **_row("WRR", r, out, case.outliers)})
    return {"case": {**_summary(case.means, k), "rho_star": star}, "rows": rows}


def compute_rho(seed, case: int, rhos: list, runs: int, cap: int) -> dict:
    n, k = 15, 2.5
    return rho_sweep(
        seed, planted_outliers(n, k, case_seed("rho", n, k, case)), AgrestiCoullCI(), rhos, runs, cap, n, k
    )


def plan_rho(**cfg) -> list[Unit]:
    return [
        Unit(f"case={c}", {"case": c, "rhos": list(cfg["rhos"]), "runs": cfg["runs"], "cap": cfg["cap"]})
        for c in range(cfg["cases"])
    ]


RHO_SWEEP = Experiment(
    paper=PAPER,
    name="rho_sweep",
    title="WRR's weight: T_rho / T_rho* (Fig. 3)",
    compute=compute_rho,
    plan=plan_rho,
    grid={profile: PROFILES[profile]["rho"] for profile in PROFILES},
    entropy=201703,
    chapter=CHAPTER,
    figures=(Figure("Fig. 3", "ratio of average pulls with a preset rho to rho = rho*, n = 15, k = 2.5"),),
)


# ------------------------------------------------------------------------------ Theorems 1-3


def compute_theory(seed, n: int, k: float, case: int, runs: int, cap: int) -> dict:
    c = planted_outliers(n, k, case_seed("theory", n, k, case), min_gap=0.1)
    y, truth = c.means, c.outliers
    star = rho_star(n, k, DELTA)
    bounds = {"RR": bound_rr(y, k, DELTA), "WRR": bound_wrr(y, k, DELTA, star)}
    rows = []
    for r in range(runs):
        tape = bernoulli_tape(y, derive(seed, "tape", r))
        for method in ("RR", "WRR"):
            if method == "RR":
                out = rr(tape.rewind(), k=k, delta=DELTA, cap=cap, ci=HoeffdingCI())
            else:
                out = wrr(tape.rewind(), k=k, delta=DELTA, cap=cap, ci=HoeffdingCI())
            rows.append({**_row(method, r, out, truth), "bound": bounds[method]})
    return {
        "case": {**_summary(y, k), "rho_star": star, "bound_rr": bounds["RR"], "bound_wrr": bounds["WRR"]},
        "rows": rows,
    }


def plan_theory(**cfg) -> list[Unit]:
    return [
        Unit(f"n={n},k={k},case={c}", {"n": n, "k": k, "case": c, "runs": cfg["runs"], "cap": cfg["cap"]})
        for n, k in cfg["configs"]
        for c in range(cfg["cases"])
    ]


THEORY = Experiment(
    paper=PAPER,
    name="theory",
    title="Theorems 1-3 checked with Hoeffding/McDiarmid intervals",
    compute=compute_theory,
    plan=plan_theory,
    grid={profile: PROFILES[profile]["theory"] for profile in PROFILES},
    entropy=201704,
    chapter=CHAPTER,
    figures=(Figure("Theory", "error rate vs delta; observed pulls vs the Theorem 2-3 bounds"),),
)


# ------------------------------------------------------------------------------ ablations

VARIANTS = {
    "default": AgrestiCoullCI(),
    "z normal": AgrestiCoullCI(z_mode="normal"),
    "printed threshold": AgrestiCoullCI(threshold_ci="as_printed"),
}


def compute_ablation(seed, n: int, k: float, case: int, runs: int, cap: int) -> dict:
    c = synthetic_case(n, k, case)
    rows = []
    for r in range(runs):
        tape = bernoulli_tape(c.means, derive(seed, "tape", r))
        for variant, ci in VARIANTS.items():
            for method, policy in (("RR", rr), ("WRR", wrr)):
                out = policy(tape.rewind(), k=k, delta=DELTA, cap=cap, ci=ci)
                rows.append({"variant": variant, **_row(method, r, out, c.outliers)})
    return {"case": _summary(c.means, k), "rows": rows}


def plan_ablation(**cfg) -> list[Unit]:
    return [
        Unit(f"n={n},k=2.5,case={c}", {"n": n, "k": 2.5, "case": c, "runs": cfg["runs"], "cap": cfg["cap"]})
        for n in cfg["n"]
        for c in range(cfg["cases"])
    ]


ABLATIONS = Experiment(
    paper=PAPER,
    name="ablations",
    title="Sensitivity: z as the normal quantile, the printed threshold interval",
    compute=compute_ablation,
    plan=plan_ablation,
    grid={profile: PROFILES[profile]["ablations"] for profile in PROFILES},
    entropy=201705,
    chapter=CHAPTER,
    figures=(Figure("Table Z.1", "pulls and correctness of RR and WRR under the interval variants"),),
)
