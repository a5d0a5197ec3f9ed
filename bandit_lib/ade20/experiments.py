"""ADE20 chapter: ADE against RR and WRR (Zhang, Zhuang, Zhang & Zhou, AAAI 2020).

Experiments (full profile = the paper's scale):

* ``illustration`` (Fig. 1): one traced ADE run on the fixed 30-arm instance.
* ``arms`` (Fig. 2a): n in {100, ..., 1000}, k = 2.5, Delta_min in [0.1, 0.2], 10 cases.
* ``gaps`` (Fig. 2b): n = 900, k = 2, three narrow Delta_min windows, 10 cases.
* ``crowd`` (Fig. 3): the real HCB worker error rates (722 workers, ``data/raw/hcb``), k in {2, 3},
  10 runs; and, as a labelled secondary panel, the HCB-like stand-in, 10 runs.

``arms``, ``gaps`` and the real data of ``crowd`` run the baselines under every reading of the two
settings the paper leaves open (l(k)'s log and the unit of T, :data:`OTHER_READINGS`) and with the
Agresti-Coull intervals of ZHUANG17's experiments (:data:`OTHER_FAMILY`).

* ``target``: Figs 2(a) and 2(b) again on the second reading of the generator (a target Delta_min
  drawn in the window, so that its distribution does not depend on n), with every baseline reading.

* ``correctness`` (Theorem 1): many short runs on instances with outliers; error rate against delta.
* ``gap_slope`` (Theorem 2's shape): ADE's cost against Delta_min at fixed n and k.
* ``sensitivity``: the Fig. 2a instances again, with the ablations of the chapter (the variance
  log ln(6/delta_t) for ADE, T counted in batches for RR and WRR).

Every unit draws its instance from a seed named by the setting and the case alone (under
``INSTANCES``), and its reward tapes likewise, so the ablations of ``sensitivity`` see exactly the
instances and rewards of ``arms`` (common random numbers), and every method of a unit shares one
tape per run. Payloads hold one row per (method, run): pulls, correctness, cap flag, wall time,
and for ADE its counters and the checks of its guarantees (:mod:`bandit_lib.ade20.theory`).

Each experiment's grid is its ``grid`` (``ARMS.parameters()``: ``n`` and ``cases``), and a run
may change it: ``ARMS.run(n=(50, 300), cases=3)`` computes that grid into the user's store
(:mod:`bandit_lib.infra.experiment`), leaving the book's results as they are.
"""

from __future__ import annotations

import time

import numpy as np

from bandit_lib.ade20.ade import ade
from bandit_lib.ade20.instances import (
    hcb_error_rates,
    hcb_like,
    illustration_instance,
    planted_window,
    uniform_window,
    window_instance,
)
from bandit_lib.ade20.theory import ade_cost_model, balance_factor, rr_cost_model, theorem2_bound
from bandit_lib.infra.experiment import Experiment, Figure, Unit
from bandit_lib.ksigma import ksigma_gaps, ksigma_outliers, ksigma_threshold
from bandit_lib.runner import Instance
from bandit_lib.seeding import derive
from bandit_lib.zhuang17.intervals import AgrestiCoullCI, HoeffdingCI
from bandit_lib.zhuang17.rr import rr
from bandit_lib.zhuang17.wrr import wrr

DELTA = 0.1
INSTANCES = 2020  # root of every instance and tape seed of this chapter
ENTROPY = 20200207
ADE_METHODS = {"ADE": {}, "ADE (ln 6/δ_t)": {"variance_log": "6/delta"}}
CHAPTER = "notebooks/ade20"


def instance_stats(means: np.ndarray, k: float) -> dict:
    gaps = ksigma_gaps(means, k)
    return {
        "n": int(means.size),
        "k": k,
        "y_min": float(means.min()),
        "y_max": float(means.max()),
        "theta": ksigma_threshold(means, k),
        "sigma_y": float(means.std()),
        "delta_min": float(gaps.min()),
        "H2": float(np.sum(1.0 / gaps**2)),
        "n_outliers": int(ksigma_outliers(means, k, inclusive=True).size),
    }


def run_ade(method: str, means: np.ndarray, tape, k: float, delta: float) -> dict:
    """One ADE run with the theory monitors on, summarised as a row."""
    start = time.perf_counter()
    out = ade(tape, k=k, delta=delta, monitor=True, **ADE_METHODS[method])
    wall = time.perf_counter() - start
    info = out.info
    gaps = ksigma_gaps(means, k)
    bound = theorem2_bound(means, k, delta)
    swept = ~np.isnan(info["r_a_last_trigger"])
    gap_bound = 2.0 * (info["r_a_last_trigger"] + info["r_th_last_trigger"])
    return {
        "pulls": out.pulls,
        "capped": out.capped,
        "wall_s": round(wall, 3),
        "correct": bool(np.array_equal(out.output, ksigma_outliers(means, k, inclusive=True))),
        "m_th": info["m_th"],
        "m_a": info["m_a"],
        "pulls_threshold": info["pulls_threshold"],
        "pulls_arms": info["pulls_arms"],
        "rounds": info["t"],
        "U_final": info["U"],
        "first_switch_t": info["first_switch_t"],
        "min_rth_over_ra": info["min_rth_over_ra_after_switch"],
        "max_mth_over_ma": info["max_mth_over_ma"],
        "mth_over_ma": info["m_th"] / info["m_a"],
        "balance_U": balance_factor(float(np.sqrt(info["U"])), k) ** 2,
        **{f"viol_{name}": v for name, v in info["violations"].items()},
        "gap_lemma_ok": bool(np.all(gaps[swept] < gap_bound[swept])),
        "thm2_arms_ok": bool(np.all(info["m_i"] <= bound["M_i"])),
        "thm2_mth_ok": bool(info["m_th"] <= bound["m_th"]),
        "thm2_total": bound["total"],
    }


# The baselines with ADE20's settings (the chapter's reproduction notes): Hoeffding/McDiarmid
# intervals with R = 1 (the paper: "R is set as 1"), batches of 1,000 pulls, one initial pull per
# arm, rho*, and no practical cap. Two settings the paper leaves open are readings, each run: l(k)
# with delta (ZHUANG17) or with delta'(T) inside its log (as ADE20's remark writes it), and T
# counted in pulls or in batches inside delta'(T). Every comparison also runs the baselines with
# the Agresti-Coull intervals of ZHUANG17's own experiments: the chapter shows them as
# sensitivity rows, not as the paper's setting.
BATCH = 1000
NO_CAP = 10**12
HOEFFDING, AGRESTI_COULL = HoeffdingCI(R=1.0), AgrestiCoullCI()
HOEFFDING_REMARK = HoeffdingCI(R=1.0, l_inner="delta_prime")
BASELINES = {
    "RR": (rr, HOEFFDING, {}),
    "WRR": (wrr, HOEFFDING, {}),
    "RR (T in batches)": (rr, HOEFFDING, {"count": "batches"}),
    "WRR (T in batches)": (wrr, HOEFFDING, {"count": "batches"}),
    "RR (l(k) with δ̃_t)": (rr, HOEFFDING_REMARK, {}),
    "WRR (l(k) with δ̃_t)": (wrr, HOEFFDING_REMARK, {}),
    "RR (l(k) with δ̃_t, T in batches)": (rr, HOEFFDING_REMARK, {"count": "batches"}),
    "WRR (l(k) with δ̃_t, T in batches)": (wrr, HOEFFDING_REMARK, {"count": "batches"}),
    "RR (Agresti–Coull)": (rr, AGRESTI_COULL, {}),
    "WRR (Agresti–Coull)": (wrr, AGRESTI_COULL, {}),
}
#: The baselines under the other interval family, beside the paper's methods in every comparison.
OTHER_FAMILY = ("RR (Agresti–Coull)", "WRR (Agresti–Coull)")
#: The baselines under the other readings of l(k) and of T (the paper's methods are the first one).
OTHER_READINGS = (
    "RR (T in batches)",
    "WRR (T in batches)",
    "RR (l(k) with δ̃_t)",
    "WRR (l(k) with δ̃_t)",
    "RR (l(k) with δ̃_t, T in batches)",
    "WRR (l(k) with δ̃_t, T in batches)",
)


def run_baseline(method: str, means: np.ndarray, tape, k: float, delta: float) -> dict:
    policy, ci, options = BASELINES[method]
    start = time.perf_counter()
    out = policy(tape, k=k, delta=delta, cap=NO_CAP, ci=ci, batch=BATCH, **options)
    wall = time.perf_counter() - start
    return {
        "pulls": out.pulls,
        "capped": out.capped,
        "wall_s": round(wall, 3),
        # RR/WRR output {yhat_i > thetahat}; an arm exactly on theta has gap 0 and stops nothing
        "correct": bool(np.array_equal(out.output, ksigma_outliers(means, k, inclusive=True))),
    }


def run_method(method: str, means: np.ndarray, tape, k: float, delta: float) -> dict:
    if method in ADE_METHODS:
        return run_ade(method, means, tape, k, delta)
    if method in BASELINES:
        return run_baseline(method, means, tape, k, delta)
    raise ValueError(f"unknown method {method!r}; known: {sorted(ADE_METHODS) + sorted(BASELINES)}")


def run_case(means: np.ndarray, k: float, delta: float, methods, runs: int, *tape_keys) -> list[dict]:
    """Every method on ``runs`` tapes of one instance (one shared tape per run)."""
    inst = Instance(means)
    stats = instance_stats(means, k)
    model = {"model_ade": ade_cost_model(means, k, delta)["total"], "model_rr": rr_cost_model(means, k, delta)["total"]}
    rows = []
    for run in range(runs):
        tape = inst.tape(derive(INSTANCES, "tape", *tape_keys, run))
        for method in methods:
            row = run_method(method, means, tape.rewind(), k, delta)
            rows.append({"method": method, "run": run, **row, **stats, **model})
    return rows


# ---------------------------------------------------------------------------------------------
# Fig. 1: illustration
# ---------------------------------------------------------------------------------------------


def _sig(x: np.ndarray, digits: int = 6) -> list:
    """Round to ``digits`` significant digits (NaN kept as None) to keep the result file small."""
    flat = [None if np.isnan(v) else float(f"{v:.{digits}g}") for v in np.asarray(x, dtype=float).ravel()]
    return np.array(flat, dtype=object).reshape(np.shape(x)).tolist()


def compute_illustration(seed, k: float, delta: float, trace_points: int) -> dict:
    means = illustration_instance()
    tape = Instance(means).tape(derive(INSTANCES, "illustration"))
    out = ade(tape, k=k, delta=delta, monitor=True, trace_points=trace_points, trace_arms=True)
    info = out.info
    decision = np.full(means.size, -1)
    decision[info["normals"]] = 0
    decision[out.output] = 1
    return {
        "means": means,
        "k": k,
        "theta": ksigma_threshold(means, k),
        "pulls": out.pulls,
        "m_th": info["m_th"],
        "m_a": info["m_a"],
        "outliers": out.output,
        "decision": decision,
        "decision_round": info["decision_round"],
        "m_i": info["m_i"],
        "yhat_at_decision": info["yhat_at_decision"],
        "r_a_at_decision": info["r_a_at_decision"],
        "theta_hat": info["theta_hat"],
        "r_th": info["r_th"],
        "violations": info["violations"],
        "trace": {name: _sig(v) for name, v in info["trace"].items()},
        "trace_y": _sig(info["trace_y"]),
    }


def plan_illustration(k: float, trace_points: int) -> list[Unit]:
    return [Unit("fixed", {"k": k, "delta": DELTA, "trace_points": trace_points})]


ILLUSTRATION = Experiment(
    paper="ade20",
    name="illustration",
    title="ADE's double exploration on a fixed instance",
    compute=compute_illustration,
    plan=plan_illustration,
    grid={profile: {"k": 2.0, "trace_points": 20} for profile in ("quick", "full")},
    entropy=ENTROPY,
    chapter=CHAPTER,
    figures=(
        Figure("Fig. 1", "Confidence intervals of the arms and of the threshold, first and last round, and over time"),
    ),
)


# ---------------------------------------------------------------------------------------------
# Fig. 2: synthetic instances (uniform means, Delta_min in a window)
# ---------------------------------------------------------------------------------------------

PAPER_METHODS = ("ADE", "RR", "WRR")
ABLATIONS = ("ADE (ln 6/δ_t)", "RR (T in batches)", "WRR (T in batches)")


def compute_synthetic(
    seed, n: int, k: float, lo: float, hi: float, case: int, delta: float, runs: int, methods: list[str]
) -> dict:
    drawn = uniform_window(n, k, lo, hi, INSTANCES, "synthetic", n, k, lo, hi, case)
    rows = run_case(drawn.means, k, delta, methods, runs, "synthetic", n, k, lo, hi, case)
    for row in rows:
        row.update(case=case, draws=drawn.draws)
    return {"rows": rows}


def _synthetic_units(settings, cases: int, methods, runs: int = 1) -> list[Unit]:
    return [
        Unit(
            f"n={n},k={k},window={lo}-{hi},case={c}",
            {"n": n, "k": k, "lo": lo, "hi": hi, "case": c, "delta": DELTA, "runs": runs, "methods": list(methods)},
        )
        for n, k, lo, hi in settings
        for c in range(cases)
    ]


ARMS_N = {"quick": (100, 200), "full": (100, 200, 400, 600, 800, 1000)}
CASES = {"quick": 2, "full": 10}


COMPARED = PAPER_METHODS + OTHER_FAMILY + OTHER_READINGS


def plan_arms(n: tuple[int, ...], cases: int) -> list[Unit]:
    return _synthetic_units([(size, 2.5, 0.1, 0.2) for size in n], cases, COMPARED)


ARMS = Experiment(
    paper="ade20",
    name="arms",
    title="Samples against the number of arms (uniform means)",
    compute=compute_synthetic,
    plan=plan_arms,
    grid={profile: {"n": ARMS_N[profile], "cases": CASES[profile]} for profile in ("quick", "full")},
    entropy=ENTROPY,
    chapter=CHAPTER,
    figures=(Figure("Fig. 2(a)", "Average pulls of ADE, RR and WRR against n; k = 2.5, Delta_min in [0.1, 0.2]"),),
)

GAP_WINDOWS = {"quick": ((0.119, 0.121),), "full": ((0.059, 0.061), (0.089, 0.091), (0.119, 0.121))}


def plan_gaps(windows: tuple[tuple[float, float], ...], cases: int) -> list[Unit]:
    return _synthetic_units([(900, 2.0, lo, hi) for lo, hi in windows], cases, COMPARED)


GAPS = Experiment(
    paper="ade20",
    name="gaps",
    title="Samples against Delta_min (uniform means, n = 900)",
    compute=compute_synthetic,
    plan=plan_gaps,
    grid={
        "quick": {"windows": GAP_WINDOWS["quick"], "cases": 1},
        "full": {"windows": GAP_WINDOWS["full"], "cases": CASES["full"]},
    },
    entropy=ENTROPY,
    chapter=CHAPTER,
    figures=(Figure("Fig. 2(b)", "Average pulls of ADE, RR and WRR against Delta_min; n = 900, k = 2"),),
)


def plan_sensitivity(n: tuple[int, ...], cases: int) -> list[Unit]:
    return _synthetic_units([(size, 2.5, 0.1, 0.2) for size in n], cases, ABLATIONS)


SENSITIVITY = Experiment(
    paper="ade20",
    name="sensitivity",
    title="Ablations on the Fig. 2(a) instances",
    compute=compute_synthetic,
    plan=plan_sensitivity,
    grid={profile: {"n": ARMS_N[profile], "cases": CASES[profile]} for profile in ("quick", "full")},
    entropy=ENTROPY,
    chapter=CHAPTER,
    figures=(
        Figure("Sensitivity", "Measured costs against the cost model, and the ablations, on the Fig. 2(a) instances"),
    ),
)


def compute_synthetic_target(
    seed, n: int, k: float, lo: float, hi: float, case: int, delta: float, runs: int, methods: list[str]
) -> dict:
    """``compute_synthetic`` on the second reading of the generator (a target Delta_min drawn in
    the window: :func:`bandit_lib.ade20.instances.target_window`), on instances and tapes of its own."""
    drawn = window_instance(n, k, lo, hi, INSTANCES, "target", n, k, lo, hi, case, generator="target")
    rows = run_case(drawn.means, k, delta, methods, runs, "target", n, k, lo, hi, case)
    for row in rows:
        row.update(case=case, draws=drawn.draws)
    return {"rows": rows}


def plan_target(n: tuple[int, ...], windows: tuple[tuple[float, float], ...], cases: int, gap_cases: int) -> list[Unit]:
    return _synthetic_units([(size, 2.5, 0.1, 0.2) for size in n], cases, COMPARED) + _synthetic_units(
        [(900, 2.0, lo, hi) for lo, hi in windows], gap_cases, COMPARED
    )


TARGET = Experiment(
    paper="ade20",
    name="target",
    title="Figs 2(a)-(b) on the second generator (a target Delta_min drawn in the window)",
    compute=compute_synthetic_target,
    plan=plan_target,
    grid={
        "quick": {"n": ARMS_N["quick"], "windows": GAP_WINDOWS["quick"], "cases": CASES["quick"], "gap_cases": 1},
        "full": {
            "n": ARMS_N["full"],
            "windows": GAP_WINDOWS["full"],
            "cases": CASES["full"],
            "gap_cases": CASES["full"],
        },
    },
    entropy=ENTROPY,
    chapter=CHAPTER,
    figures=(
        Figure("Fig. 2(a), second generator", "Average pulls against n with Delta_min drawn uniformly in [0.1, 0.2]"),
        Figure("Fig. 2(b), second generator", "Average pulls against Delta_min (n = 900) on the second generator"),
    ),
)


# ---------------------------------------------------------------------------------------------
# Fig. 3: crowdsourcing: the real HCB error rates, and the HCB-like stand-in as a second panel
# ---------------------------------------------------------------------------------------------


def crowd_instance(data: str = "hcb") -> tuple[np.ndarray, dict]:
    """``(means, source)``: the real HCB worker error rates, or the HCB-like stand-in."""
    if data == "hcb":
        real = hcb_error_rates()
        return real.means, real.source
    if data == "stand-in":
        return hcb_like(INSTANCES, "crowd").means, {"data": "HCB-like stand-in (synthetic)"}
    raise ValueError(f"data must be 'hcb' or 'stand-in'; got data={data!r}")


def compute_crowd(
    seed, k: float, run: int, delta: float, methods: list[str], data: str = "hcb", means: list[float] | None = None
) -> dict:
    """One run of every method on the crowd instance (``data``), or on ``means`` if given."""
    if means is None:
        y, source = crowd_instance(data)
    else:
        y, source = np.asarray(means, dtype=np.float64), {"data": "given means"}
    rows = run_case(y, k, delta, methods, 1, "crowd", data if means is None else "given", k, run)
    for row in rows:
        row.update(run=run, data=data)
    return {"rows": rows, "source": source}


CROWD_RUNS = {"quick": {"hcb": 1, "stand-in": 1}, "full": {"hcb": 10, "stand-in": 10}}
#: The methods run on each crowd instance: the readings on the real data only (the stand-in's row
#: is the book's own, judged under the first reading).
CROWD_METHODS = {"hcb": COMPARED, "stand-in": PAPER_METHODS + OTHER_FAMILY}


def plan_crowd(runs: int, stand_in_runs: int, k: tuple[float, ...]) -> list[Unit]:
    return [
        Unit(
            f"data={data},k={kk},run={r}",
            {"k": kk, "run": r, "delta": DELTA, "methods": list(CROWD_METHODS[data]), "data": data},
        )
        for data, count in {"hcb": runs, "stand-in": stand_in_runs}.items()
        for kk in k
        for r in range(count)
    ]


CROWD = Experiment(
    paper="ade20",
    name="crowd",
    title="Worker error rates (HCB, and the HCB-like stand-in), k = 2 and 3",
    compute=compute_crowd,
    plan=plan_crowd,
    grid={
        profile: {"runs": CROWD_RUNS[profile]["hcb"], "stand_in_runs": CROWD_RUNS[profile]["stand-in"], "k": (2.0, 3.0)}
        for profile in ("quick", "full")
    },
    entropy=ENTROPY,
    chapter=CHAPTER,
    figures=(
        Figure("Fig. 3(a)(b)", "Average pulls of ADE, RR and WRR on the real HCB error rates at k = 2 and k = 3"),
        Figure("Fig. 3, stand-in panel", "The same on the HCB-like stand-in (synthetic)"),
        Figure("Fig. 3(c)", "The distribution of the gaps Delta_i at k = 2 and k = 3"),
    ),
)


# ---------------------------------------------------------------------------------------------
# Theory, checked
# ---------------------------------------------------------------------------------------------

PLANTED = {"n": 12, "n_out": 2, "k": 1.5, "lo": 0.15, "hi": 0.3}


def compute_correctness(seed, case: int, runs: int, delta: float) -> dict:
    """Theorem 1: ADE on a planted instance with outliers, ``runs`` independent tapes."""
    p = PLANTED
    drawn = planted_window(p["n"], p["n_out"], p["k"], p["lo"], p["hi"], INSTANCES, "planted", case)
    rows = run_case(drawn.means, p["k"], delta, ["ADE"], runs, "planted", case)
    for row in rows:
        row.update(case=case)
    return {"rows": rows}


def plan_correctness(cases: int, runs: int) -> list[Unit]:
    return [Unit(f"case={c}", {"case": c, "runs": runs, "delta": DELTA}) for c in range(cases)]


CORRECTNESS = Experiment(
    paper="ade20",
    name="correctness",
    title="Theorem 1: ADE's error rate on planted instances",
    compute=compute_correctness,
    plan=plan_correctness,
    grid={"quick": {"cases": 3, "runs": 2}, "full": {"cases": 20, "runs": 8}},
    entropy=ENTROPY,
    chapter=CHAPTER,
    figures=(Figure("Theory (T1)", "Empirical error rate and interval coverage of ADE against delta"),),
)

SLOPE_CENTRES = {"quick": (0.14, 0.2), "full": (0.07, 0.1, 0.14, 0.2, 0.28)}


def plan_gap_slope(centres: tuple[float, ...], cases: int) -> list[Unit]:
    settings = [(30, 2.0, round(c - 0.003, 3), round(c + 0.003, 3)) for c in centres]
    return _synthetic_units(settings, cases, ["ADE"])


GAP_SLOPE = Experiment(
    paper="ade20",
    name="gap_slope",
    title="Theorem 2's shape: ADE's pulls against Delta_min",
    compute=compute_synthetic,
    plan=plan_gap_slope,
    grid={
        "quick": {"centres": SLOPE_CENTRES["quick"], "cases": 1},
        "full": {"centres": SLOPE_CENTRES["full"], "cases": 3},
    },
    entropy=ENTROPY,
    chapter=CHAPTER,
    figures=(Figure("Theory (T2)", "ADE's pulls against Delta_min on log-log axes, with the explicit bound"),),
)
