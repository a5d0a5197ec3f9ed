"""Figures and tables of the GRAPL20 chapter, drawn from the cached results.

Nothing here computes a result: it reads payloads of :mod:`bandit_lib.grapl20.experiments` and
draws them (median line and interquartile band of E(t) over trials), or turns them into the
numbers the scorecard compares with the paper. The scorecard's conditions (the book's verdict
policy, :mod:`bandit_lib.infra.scorecard`):

* :mod:`~bandit_lib.grapl20.report.gates` — the calibration gates of the polblogs-like stand-in;
* :mod:`~bandit_lib.grapl20.report.hypotheses` — the hypotheses of the theorems, checked in code on
  every instance a theorem row uses.
"""

from __future__ import annotations

import numpy as np

from bandit_lib.infra import plotting

METRIC_LABEL = {"ref": "E (authors' code)", "paper": "E (eq. 23)"}
STYLE = {"GrAPL": "-", "Algorithm 1": ":", "APT": "--", "no graph": "--"}


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
