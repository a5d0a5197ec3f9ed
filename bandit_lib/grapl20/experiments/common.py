"""Shared settings and helpers of the GRAPL20 computations (:mod:`bandit_lib.grapl20.experiments`).

The paper's parameters per experiment, and how error curves are summarised: quantiles over
trials on a grid of t, and the times at which a curve first reaches a level.
"""

from __future__ import annotations

import numpy as np

INSTANCE_ENTROPY = 20200826  # shared by every unit drawn on the instances of Figs 1-2
STANDIN_SEED = 2005  # the one stand-in graph of Fig. 3 (Adamic & Glance, 2005)
LAM, EPS = 1e-3, 0.01

SETTINGS = {
    # figure: tau, alpha, gammas, reward, noise R
    "sbm": {"tau": 0.0, "alpha": 1.0, "gammas": (1.0, 10.0, 100.0), "R": 2.0},
    "small_world": {"tau": 0.5, "alpha": 1e-8, "gammas": (1.0, 100.0, 1e4), "R": 0.5},
    "polblogs": {
        "tau": 0.5,
        "alpha": 1e-8,
        "gammas": (1e-9, 1e-7, 1e-5, 1e-3, 1e-1, 10.0),
        "plotted": (1e-7, 1e-5, 1e-3, 1e-1),
    },
}


def key(x: float) -> str:
    """A number as it appears in unit keys and payload keys (1e-07, 0.1, 10000)."""
    return f"{x:g}"


def t_grid(horizon: int, dense: int = 200, step: int = 10) -> np.ndarray:
    """t = 1..dense, then every ``step``-th t, and T itself."""
    t = np.concatenate([np.arange(1, min(dense, horizon) + 1), np.arange(dense + step, horizon + 1, step), [horizon]])
    return np.unique(t)


def quantile_curves(errors: np.ndarray, grid: np.ndarray) -> dict:
    """25/50/75 % quantiles over trials (rows) of E(t), at the t of ``grid``."""
    q = np.percentile(errors[:, grid - 1], [25, 50, 75], axis=0)
    return {"q25": np.round(q[0], 7), "median": np.round(q[1], 7), "q75": np.round(q[2], 7)}


def first_time_at_most(curve: np.ndarray, level: float) -> int | None:
    """The first t (1-based) with curve[t-1] <= level, or None."""
    hits = np.flatnonzero(curve <= level + 1e-12)
    return int(hits[0]) + 1 if hits.size else None


def last_time_above(curve: np.ndarray, level: float) -> int:
    """The last t at which the curve is above ``level`` (0 if never): from t + 1 on it stays at or below."""
    above = np.flatnonzero(curve > level + 1e-12)
    return int(above[-1]) + 1 if above.size else 0


def trial_row(trial, method, gamma, e_ref, e_paper, run):
    return {
        "trial": trial,
        "method": method,
        "gamma": gamma,
        "E_ref_final": float(e_ref[-1]),
        "E_paper_final": float(e_paper[-1]),
        "E_ref_mean": float(e_ref.mean()),
        "E_paper_mean": float(e_paper.mean()),
        "first_1pct_ref": first_time_at_most(e_ref, 0.01),
        "last_above_1pct_ref": last_time_above(e_ref, 0.01),
        "cg_iterations_mean": None if run.cg_iterations is None else float(run.cg_iterations.mean()),
    }


def summaries(errors: dict, grid: np.ndarray) -> tuple[dict, dict]:
    curves, milestones = {}, {}
    for method, by_metric in errors.items():
        curves[method] = {metric: quantile_curves(np.array(e), grid) for metric, e in by_metric.items()}
        median = np.median(np.array(by_metric["ref"]), axis=0)
        milestones[method] = {
            f"first_median_at_most_{lvl:g}": first_time_at_most(median, lvl) for lvl in (0.1, 0.05, 0.01, 0.001)
        }
        milestones[method]["median_final"] = float(median[-1])
    return curves, milestones
