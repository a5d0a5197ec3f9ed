"""Foundations chapter: empirical coverage of the confidence radii.

For an arm of known mean, draw ``reps`` independent replications (one tape arm each), and at
every sample size ``m`` of a grid measure how often the two-sided interval ``[yhat - r, yhat + r]``
contains the mean, for each radius at nominal level ``1 - delta``. Each sample size reads its own
segment of the tape (pulls ``offset_m .. offset_m + m - 1``), so the estimates at different ``m``
are independent and can be tested together. Bernoulli arms also get the exact coverage, summed
over the binomial distribution of the number of successes, to check the simulation against.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from bandit_lib.infra.experiment import Experiment, Figure, Unit
from bandit_lib.radii import agresti_coull_radius, hoeffding_radius, subgaussian_radius, z_erfinv, z_normal
from bandit_lib.tapes import bernoulli_tape, gaussian_tape

DELTA = 0.1

PROFILES = {
    "quick": {"reps": 1000, "m_max": 1000, "points": 8, "bernoulli_means": (0.5, 0.05)},
    "full": {"reps": 20000, "m_max": 10000, "points": 13, "bernoulli_means": (0.5, 0.2, 0.05)},
}


def bernoulli_radii(s: np.ndarray, m: int, delta: float) -> dict[str, np.ndarray]:
    """Two-sided radii at nominal level 1 - delta for Bernoulli arms (s = successes in m pulls)."""
    return {
        "Hoeffding": np.full(np.shape(s), hoeffding_radius(m, delta, two_sided=True)),
        "Agresti–Coull (normal z)": agresti_coull_radius(s, m, z_normal(delta / 2)),
        # ZHUANG17's printed quantile erf^{-1}(1 - delta/2), about 0.84 times the normal one here.
        "Agresti–Coull (literal erf⁻¹ z)": agresti_coull_radius(s, m, z_erfinv(delta / 2)),
    }


def m_grid(m_max: int, points: int) -> list[int]:
    return sorted({int(round(x)) for x in np.geomspace(5, m_max, points)})


def compute_coverage(seed, reward: str, mean: float, reps: int, grid: list[int], delta: float) -> dict:
    rows = []
    if reward == "bernoulli":
        tape = bernoulli_tape(np.full(reps, mean), seed)
    else:
        tape = gaussian_tape(np.full(reps, mean), 1.0, seed)
    # Replication r at sample size grid[j] sums pulls offsets[j] .. offsets[j] + grid[j] - 1 of arm r:
    # disjoint segments, hence independent across j.
    offsets = np.concatenate([[0], np.cumsum(grid)])
    sums = np.empty((reps, len(grid)))
    for r in range(reps):
        cumulative = np.concatenate([[0.0], np.cumsum(tape.rewards(r, 0, int(offsets[-1])))])
        sums[r] = cumulative[offsets[1:]] - cumulative[offsets[:-1]]
    for j, m in enumerate(grid):
        s = sums[:, j]
        yhat = s / m
        if reward == "bernoulli":
            radii = bernoulli_radii(s, m, delta)
            support = np.arange(m + 1)
            pmf = stats.binom.pmf(support, m, mean)
            exact = {
                name: float(pmf[np.abs(support / m - mean) <= r].sum())
                for name, r in bernoulli_radii(support.astype(float), m, delta).items()
            }
        else:
            r = subgaussian_radius(m, delta, sigma=1.0, two_sided=True)
            radii = {"sub-Gaussian": np.full(reps, r)}
            # yhat ~ N(mean, 1/m), so the exact coverage is P(|Z| <= r sqrt(m)).
            exact = {"sub-Gaussian": float(1 - 2 * stats.norm.sf(r * np.sqrt(m)))}
        for name, r in radii.items():
            rows.append(
                {
                    "reward": reward,
                    "mean": mean,
                    "radius": name,
                    "m": m,
                    "reps": reps,
                    "covered": int(np.sum(np.abs(yhat - mean) <= r)),
                    "coverage": float(np.mean(np.abs(yhat - mean) <= r)),
                    "exact": exact[name],
                    "nominal": 1 - delta,
                }
            )
    return {"rows": rows}


def plan_coverage(**cfg) -> list[Unit]:
    grid = m_grid(cfg["m_max"], cfg["points"])
    units = [
        Unit(
            f"bernoulli,mean={p}", {"reward": "bernoulli", "mean": p, "reps": cfg["reps"], "grid": grid, "delta": DELTA}
        )
        for p in cfg["bernoulli_means"]
    ]
    units.append(
        Unit("gaussian,mean=0", {"reward": "gaussian", "mean": 0.0, "reps": cfg["reps"], "grid": grid, "delta": DELTA})
    )
    return units


COVERAGE = Experiment(
    paper="foundations",
    name="coverage",
    title="Empirical coverage of the confidence radii",
    compute=compute_coverage,
    plan=plan_coverage,
    grid={profile: PROFILES[profile] for profile in PROFILES},
    entropy=20261122,
    chapter="notebooks/foundations",
    figures=(Figure("Fig. F.1", "Empirical coverage of each confidence radius against its nominal 1 − δ"),),
)
