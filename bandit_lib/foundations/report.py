"""Tables of the Foundations chapter, drawn from the cached results.

The chapter checks the confidence radii every paper uses against their nominal coverage; this
module summarises the ``coverage`` experiment (:mod:`bandit_lib.foundations.experiments`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats


def coverage_class(at_largest: float, worst: float, nominal: float) -> str:
    """How a radius covers: at every m, about the nominal level at large m only, or not at all."""
    if worst >= nominal:
        return "covers at every m"
    if at_largest >= nominal - 0.01:
        return "≈ nominal at large m"
    return "undercovers"


def summarise(g: pd.DataFrame) -> pd.Series:
    """One radius on one arm: the exact coverage at the largest m, the worst m and its coverage,
    and a chi-squared test of the simulated coverage against the exact one over the grid of m."""
    z = (g["coverage"] - g["exact"]) / np.sqrt(g["exact"] * (1 - g["exact"]) / g["reps"]).clip(lower=1e-12)
    worst = g["exact"].idxmin()
    return pd.Series(
        {
            "at largest m": g.loc[g["m"].idxmax(), "exact"],
            "worst m": int(g.loc[worst, "m"]),
            "at worst m": g.loc[worst, "exact"],
            "sim. vs exact: χ² p": stats.chi2.sf(float((z**2).sum()), len(g)),
        }
    )


def coverage_summary(cov: pd.DataFrame, nominal: float) -> pd.DataFrame:
    """:func:`summarise` for every (reward, mean, radius), with its :func:`coverage_class`."""
    summary = cov.groupby(["reward", "mean", "radius"], sort=False).apply(summarise, include_groups=False).reset_index()
    summary["coverage"] = [
        coverage_class(a, w, nominal) for a, w in zip(summary["at largest m"], summary["at worst m"])
    ]
    return summary.astype({"worst m": int})
