"""Tables and the scorecard of the arena chapter, computed from the results (no numbers typed in).

* :func:`with_bounds`: the suite's rows joined with their cell's yardstick: ``factor`` = pulls over
  the best certified lower bound (an upper bound on the factor above T* kl), and ``factor_lo`` =
  pulls over the Gaussian upper value (a lower bound on it) where one was computed;
* :func:`cells`: per (family, n, detector): runs, mean pulls with a 95 % interval (normal
  approximation over the runs, pooled over the cases of the cell), error rate with its
  Clopper-Pearson interval, and the mean factors;
* :func:`leaderboard`: per (family, n), the cheapest detector among those that are delta-correct by
  construction and made no error in the cell;
* :func:`paired_saving`: one detector's pulls against another's on the same tapes;
* :func:`wall_times`: mean wall time per run, per detector and n;
* :func:`decomposition`: a chain of detectors that change one thing at a time (RR with
  Hoeffding intervals, RR with per-arm anytime confidence sequences, RR-GLR), and the share of
  pulls each step keeps, per (family, n), on the same tapes.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from bandit_lib.metrics import binomial_interval

CELL = ["family", "n", "case"]


def _check_table(name: str, table, columns) -> pd.DataFrame:
    """A DataFrame holding ``columns`` (the missing ones named)."""
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame; got {type(table).__name__}")
    missing = sorted(set(columns) - set(table.columns))
    if missing:
        raise ValueError(f"{name} lacks the columns {missing}")
    return table


def with_bounds(rows: pd.DataFrame, bounds: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with their cell's ``bound``, ``bound_kind``, ``factor`` and ``factor_lo`` (NaN where
    the cell has no certified bound or no upper value); a row whose cell has no yardstick is an
    error, not a silent NaN."""
    _check_table("rows", rows, [*CELL, "pulls"])
    _check_table("bounds", bounds, [*CELL, "bound", "bound_kind", "T_upper", "T_lower"])
    b = bounds[[*CELL, "bound", "bound_kind", "T_upper", "T_lower"]].copy()
    b["bound_hi"] = b["T_upper"] * b["bound"] / b["T_lower"]  # T_upper kl(delta, 1 - delta)
    out = rows.merge(b.drop(columns=["T_upper", "T_lower"]), on=CELL, how="left", validate="many_to_one")
    lost = out["bound_kind"].isna()
    if lost.any():
        where = out.loc[lost, CELL].drop_duplicates().to_dict("records")
        raise ValueError(f"no yardstick for the cells {where[:3]}")
    out["factor"] = out["pulls"] / out["bound"]
    out["factor_lo"] = out["pulls"] / out["bound_hi"]
    return out.drop(columns="bound_hi")


def cells(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per (family, n, detector); see the module docstring."""
    if isinstance(rows, pd.DataFrame) and rows.empty:
        raise ValueError("cells needs at least one row of the suite; got an empty table")
    _check_table("rows", rows, ["family", "n", "detector", "pulls", "correct"])
    out = []
    for (family, n, det), g in rows.groupby(["family", "n", "detector"], sort=True):
        r = len(g)
        mean = float(g.pulls.mean())
        half = 1.96 * float(g.pulls.std(ddof=1)) / math.sqrt(r) if r > 1 else math.nan
        errors = int((~g.correct.astype(bool)).sum())
        lo, hi = binomial_interval(errors, r)
        out.append(
            {
                "family": family,
                "n": int(n),
                "detector": det,
                "runs": r,
                "pulls": mean,
                "pulls_lo": mean - half,
                "pulls_hi": mean + half,
                "errors": errors,
                "error_rate": errors / r,
                "error_lo": lo,
                "error_hi": hi,
                "factor": float(g.factor.mean()) if "factor" in g else math.nan,
                "factor_lo": float(g.factor_lo.mean()) if "factor_lo" in g else math.nan,
            }
        )
    return pd.DataFrame(out)


def leaderboard(table: pd.DataFrame, correct_by_construction: dict[str, bool]) -> pd.DataFrame:
    """Per (family, n): the cheapest detector that is delta-correct by construction and made no
    error in the cell, with its factor and the runner-up's pulls over the winner's."""
    _check_table("table", table, ["family", "n", "detector", "pulls", "errors"])
    unknown = sorted(set(table.detector) - set(correct_by_construction))
    if unknown:
        raise ValueError(f"correct_by_construction says nothing about {unknown}")
    rows = []
    for (family, n), g in table.groupby(["family", "n"], sort=True):
        ok = g[g.detector.map(correct_by_construction).astype(bool) & (g.errors == 0)].sort_values("pulls")
        if ok.empty:
            continue
        best = ok.iloc[0]
        second = ok.iloc[1] if len(ok) > 1 else None
        rows.append(
            {
                "family": family,
                "n": int(n),
                "best": best.detector,
                "pulls": best.pulls,
                "factor": best.factor,
                "runner_up": None if second is None else second.detector,
                "runner_up_over_best": np.nan if second is None else second.pulls / best.pulls,
            }
        )
    return pd.DataFrame(rows)


def paired_saving(rows: pd.DataFrame, detector: str, baseline: str) -> pd.Series:
    """Per run that both detectors made (same cell, same tape): 1 - pulls(detector) / pulls(baseline)."""
    key = [*CELL, "run"]
    _check_table("rows", rows, [*key, "detector", "pulls"])
    a = rows[rows.detector == detector].set_index(key)["pulls"]
    b = rows[rows.detector == baseline].set_index(key)["pulls"]
    both = a.index.intersection(b.index)
    if both.empty:
        raise ValueError(f"no run has both {detector!r} and {baseline!r}")
    return 1.0 - a[both] / b[both]


def wall_times(rows: pd.DataFrame) -> pd.DataFrame:
    """Mean wall time per run (s), detectors as columns, n as rows."""
    _check_table("rows", rows, ["n", "detector", "wall_s"])
    return rows.pivot_table(index="n", columns="detector", values="wall_s", aggfunc="mean")


def decomposition(rows: pd.DataFrame, chain: list[str]) -> pd.DataFrame:
    """Per (family, n) where every detector of ``chain`` ran on the same tapes: the geometric mean
    over those runs of pulls(chain[i + 1]) / pulls(chain[i]) for each step (column
    ``"<a> → <b>"``), the whole chain's ratio (``"total"``) and the number of paired runs. The steps'
    ratios multiply to the total, run by run, so the geometric mean splits the total exactly."""
    if len(chain) < 2:
        raise ValueError(f"chain needs at least two detectors; got chain={chain!r}")
    _check_table("rows", rows, [*CELL, "run", "detector", "pulls"])
    missing = [d for d in chain if d not in set(rows.detector)]
    if missing:
        raise ValueError(f"no run of {missing} in rows")
    key = [*CELL, "run"]
    wide = rows[rows.detector.isin(chain)].pivot_table(index=key, columns="detector", values="pulls").dropna()
    out = []
    for (family, n), g in wide.groupby(level=["family", "n"], sort=True):
        row = {"family": family, "n": int(n), "runs": len(g)}
        for a, b in zip(chain, chain[1:]):
            row[f"{a} → {b}"] = float(np.exp(np.mean(np.log(g[b] / g[a]))))
        row["total"] = float(np.exp(np.mean(np.log(g[chain[-1]] / g[chain[0]]))))
        out.append(row)
    return pd.DataFrame(out)


__all__ = ["CELL", "cells", "decomposition", "leaderboard", "paired_saving", "wall_times", "with_bounds"]
