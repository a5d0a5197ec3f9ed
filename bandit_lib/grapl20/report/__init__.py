"""Figures and tables of the GRAPL20 chapter, drawn from the cached results.

Nothing here computes a result: it reads payloads of :mod:`bandit_lib.grapl20.experiments`,
merges the blocks of trials of each stream and summarises them (:func:`merge_trial_blocks`: the
quantiles of E(t) over all trials), draws them (median line and interquartile band), or turns them
into the numbers the scorecard compares with the paper. The scorecard's conditions (the book's verdict
policy, :mod:`bandit_lib.infra.scorecard`):

* :mod:`~bandit_lib.grapl20.report.gates` — the calibration gates of the polblogs-like stand-in;
* :mod:`~bandit_lib.grapl20.report.hypotheses` — the hypotheses of the theorems, checked in code on
  every instance a theorem row uses.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from bandit_lib.grapl20.experiments.common import stream_of
from bandit_lib.infra import plotting

METRIC_LABEL = {"ref": "E (authors' code)", "paper": "E (eq. 23)"}
STYLE = {"GrAPL": "-", "Algorithm 1": ":", "APT": "--", "no graph": "--"}


def quantile_curves(errors: np.ndarray) -> dict:
    """25/50/75 % quantiles over trials (rows) of E(t) on a grid (columns), rounded to 7 decimals."""
    q = np.percentile(errors, [25, 50, 75], axis=0)
    return {"q25": np.round(q[0], 7), "median": np.round(q[1], 7), "q75": np.round(q[2], 7)}


def trial_errors(records: list[dict], n_arms: int, metric: str) -> np.ndarray:
    """E(t) on the grid, one row per trial: E_ref = wrong_ref / N, eq. 23 = wrong_paper / n_judged
    (the division of :meth:`bandit_lib.grapl20.problem.ThresholdRun.errors`, so the same floats)."""
    if metric == "ref":
        return np.array([np.asarray(r["wrong_ref"]) / n_arms for r in records])
    return np.array([np.asarray(r["wrong_paper"]) / r["n_judged_paper"] for r in records])


def merge_trial_blocks(results: Iterable[tuple[Any, dict]]) -> dict[str, dict]:
    """The payloads of an experiment's units merged by stream (the key a unit has before it is cut
    into blocks of trials, :func:`~bandit_lib.grapl20.experiments.common.stream_of`).

    Blocks are put in trial order and must hold trials 0, 1, ... without gap or repeat; their
    ``rows`` are concatenated, and their per-trial error counts (``trials``: per method, one
    record per trial) become ``curves[method][metric]``, the quantiles over all trials of E(t) on
    the grid, for both metrics ("ref" and "paper"). Every other entry of the payload must be the
    same in every block (the instance's statistics, the grid) and is kept once. Each merged
    payload also gets ``params``: the unit's parameters without the block's ``first`` and with
    ``trials`` the number of trials merged. A payload without ``trials`` (a GrAPL run of Fig. 3, γ*)
    keeps its own shape; its rows are merged all the same."""
    groups: dict[str, list[tuple[Any, dict]]] = {}
    for unit, payload in results:
        groups.setdefault(stream_of(unit.key), []).append((unit, payload))
    merged = {}
    for stream, blocks in groups.items():
        blocks.sort(key=lambda up: up[0].params.get("first", 0))
        expected = 0
        for unit, _ in blocks:
            first, count = unit.params.get("first", 0), unit.params.get("trials", 1)
            if first != expected:
                raise ValueError(
                    f"{stream}: the blocks do not cover the trials in order (block {unit.key!r} starts at {first}, expected {expected})"
                )
            expected += count
        out: dict[str, Any] = {}
        payloads = [p for _, p in blocks]
        for name in payloads[0]:
            if name in ("rows", "trials"):
                continue
            values = [p[name] for p in payloads]
            if any(not _same(values[0], v) for v in values[1:]):
                raise ValueError(f"{stream}: the blocks disagree on {name!r}")
            out[name] = values[0]
        if "rows" in payloads[0]:
            out["rows"] = [row for p in payloads for row in p["rows"]]
        if "trials" in payloads[0]:
            records = {name: [r for p in payloads for r in p["trials"][name]] for name in payloads[0]["trials"]}
            for name, recs in records.items():
                if [r["trial"] for r in recs] != list(range(expected)):
                    raise ValueError(f"{stream}: the trials of {name!r} are not 0..{expected - 1} in order")
            n_arms = out["n_arms"]
            out["trials"] = records
            out["curves"] = {
                name: {metric: quantile_curves(trial_errors(recs, n_arms, metric)) for metric in ("ref", "paper")}
                for name, recs in records.items()
            }
        params = {k: v for k, v in blocks[0][0].params.items() if k != "first"}
        params["trials"] = expected
        out["params"] = params
        merged[stream] = out
    return merged


def _same(a, b) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple, np.ndarray)) or isinstance(b, (list, tuple, np.ndarray)):
        a, b = np.asarray(a), np.asarray(b)
        return a.shape == b.shape and bool(np.all((a == b) | ((a != a) & (b != b))))
    return a == b or (a != a and b != b)


def band(ax, grid, curve, *, color, label, ls="-", floor=None, alpha=0.25, lw=1.6):
    """Median line and IQR band of one method; values below ``floor`` are drawn at ``floor``."""
    lo, med, hi = (np.asarray(curve[k], dtype=float) for k in ("q25", "median", "q75"))
    if floor is not None:
        lo, med, hi = (np.maximum(v, floor) for v in (lo, med, hi))
    ax.fill_between(grid, lo, hi, color=color, alpha=alpha, lw=0)
    ax.plot(grid, med, ls, color=color, label=label, lw=lw)


def smallest_positive(*curves) -> float:
    values = np.concatenate([np.asarray(c[k], dtype=float) for c in curves for k in ("q25", "median", "q75")])
    values = values[values > 0]
    return float(values.min()) if values.size else 1e-3


def figure_panels(payloads: dict, figure: str, gammas, metric: str, axes, *, log: bool, horizon: int):
    """One panel per γ: GrAPL (solid), Algorithm 1 (dotted) and APT (dashed) medians with IQR bands."""
    apt = payloads[f"{figure},apt"]
    floor = None
    if log:
        floor = 0.5 * min(
            smallest_positive(payloads[f"{figure},gamma={g:g}"]["curves"]["GrAPL"][metric]) for g in gammas
        )
    for ax, g in zip(axes, gammas):
        p = payloads[f"{figure},gamma={g:g}"]
        for method in ("GrAPL", "Algorithm 1"):
            band(
                ax,
                np.asarray(p["grid"]),
                p["curves"][method][metric],
                color=plotting.method_color(method),
                label=method,
                ls=STYLE[method],
                floor=floor,
            )
        band(
            ax,
            np.asarray(apt["grid"]),
            apt["curves"]["APT"][metric],
            color=plotting.method_color("APT"),
            label="APT",
            ls=STYLE["APT"],
            floor=floor,
            alpha=0.12,
        )
        ax.set(title=f"γ = {g:g}", xlim=(0, horizon), xlabel="t")
        if log:
            ax.set_yscale("log")
            ax.set_ylim(floor, 0.6)
        else:
            ax.set_ylim(0, 0.6)
    axes[0].set_ylabel(METRIC_LABEL[metric])


def median_curve(payload: dict, method: str, metric: str = "ref") -> tuple[np.ndarray, np.ndarray]:
    """(grid, median E) of a method in a curves payload."""
    return np.asarray(payload["grid"]), np.asarray(payload["curves"][method][metric]["median"], dtype=float)


def first_at_most(grid, curve, level: float):
    """First grid t with curve <= level (None if never)."""
    hits = np.flatnonzero(np.asarray(curve) <= level + 1e-12)
    return int(np.asarray(grid)[hits[0]]) if hits.size else None


def value_at(grid, curve, t: int) -> float:
    """The curve at the grid point nearest to t."""
    grid = np.asarray(grid)
    return float(np.asarray(curve)[np.abs(grid - t).argmin()])


def fraction_at_or_below(grid, a, b) -> float:
    """Fraction of grid points where curve a <= curve b."""
    return float(np.mean(np.asarray(a) <= np.asarray(b) + 1e-12))


def time_average(grid, curve) -> float:
    """Average of a curve over t = 1..T (trapezoids on the grid, which is exact where it is dense)."""
    grid, curve = np.asarray(grid, dtype=float), np.asarray(curve, dtype=float)
    return float(np.trapezoid(curve, grid) / (grid[-1] - grid[0]))


def tidy(frame, na: str = "—"):
    """A table ready to show: γ as written in the paper (1e-05, 100), times as integers, 4 decimals."""
    import pandas as pd

    out = frame.copy()
    for col in out.columns:
        name = str(col)
        if name == "γ":
            out[col] = [na if x is None or (isinstance(x, float) and np.isnan(x)) else f"{x:g}" for x in out[col]]
        elif name.startswith("t:") or name.startswith("t =") or "first" in name or name.startswith("wrong at"):
            out[col] = pd.array(
                [None if v is None or (isinstance(v, float) and np.isnan(v)) else int(v) for v in out[col]],
                dtype="Int64",
            )
    return out.style.format(precision=4, na_rep=na).hide(axis="index")


# --- the settings this chapter shares with others (the verdicts page's register) ------------------
def _settings():
    from bandit_lib.infra.scorecard import STATED, Setting

    return (
        Setting(
            "run count",
            STATED,
            "100 trials per curve, one instance and reward tape per trial shared by every method",
            '§4.1: "the median misclassification error for each algorithm and choice of γ over 100 trials"',
        ),
    )


SETTINGS = _settings()
