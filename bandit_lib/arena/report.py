"""Tables of the arena chapter, computed from the suite's rows (no numbers typed in).

* :func:`cells`: per (family, n, detector): runs, mean pulls with a 95 % interval (normal
  approximation over the runs, pooled over the cases of the cell), error rate with its
  Clopper-Pearson interval, and the mean factor above the lower bound;
* :func:`leaderboard`: per (family, n), the cheapest detector among those that are delta-correct by
  construction and made no error in the cell;
* :func:`wall_times`: mean wall time per run, per detector and n.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from bandit_lib.metrics import binomial_interval


def cells(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per (family, n, detector); see the module docstring."""
    if rows.empty:
        raise ValueError("cells needs at least one row of the suite; got an empty table")
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
                "factor": float(g.factor.mean()),
            }
        )
    return pd.DataFrame(out)


def leaderboard(table: pd.DataFrame, correct_by_construction: dict[str, bool]) -> pd.DataFrame:
    """Per (family, n): the cheapest detector that is delta-correct by construction and made no
    error in the cell, with its factor and the runner-up's pulls over the winner's."""
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


def wall_times(rows: pd.DataFrame) -> pd.DataFrame:
    """Mean wall time per run (s), detectors as columns, n as rows."""
    return rows.pivot_table(index="n", columns="detector", values="wall_s", aggfunc="mean")


__all__ = ["cells", "leaderboard", "wall_times"]
