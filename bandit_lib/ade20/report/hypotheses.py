r"""The hypotheses of ADE20's Theorems 1 and 2, checked in code on every instance a theorem row of
the chapter uses (the book's verdict policy: an instance that violates one is outside the theorem,
never evidence).

the hypotheses of Theorems 1 and 2, checked on every instance a
  theorem row of the chapter uses (rewards in :math:`[a, b]` with :math:`a \ge 0`, no arm on the
  threshold, :math:`\sigma_y > 0`, :math:`0 < \delta < 1`; for the explicit constants of Theorem 2
  also :math:`16R^2/\Delta_i^2 \ge \sqrt e`, the condition of the book's step from Ineq. (36) to (37)).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from bandit_lib.checks import check_choice
from bandit_lib.infra.scorecard import Hypothesis

#: The columns :func:`theorem_hypotheses` reads: one row per instance (experiments.instance_stats).
INSTANCE_COLUMNS = ("y_min", "y_max", "theta", "delta_min", "sigma_y")


def theorem_hypotheses(instances, delta: float, *, theorem: int, a: float = 0.0, b: float = 1.0) -> list[Hypothesis]:
    """The hypotheses of Theorem ``theorem`` (1 or 2), each checked on every row of ``instances``
    (one row per instance, columns :data:`INSTANCE_COLUMNS`; rewards Bernoulli, so in [a, b] =
    [0, 1]).

    Theorem 1 needs rewards in [a, b] with a >= 0 (Problem Formulation; Lemma 2's proof uses
    a >= 0), 0 < delta < 1, and an instance on which ADE stops: no arm on the threshold
    (Delta_min > 0; with Delta_min = 0, ADE never returns). Theorem 2 also needs sigma_y > 0 (its
    max{1, (k/sigma_y)^2}), and its explicit constants, which the chapter checks, the book's step
    from Ineq. (36) to (37): 16 R^2/Delta_i^2 >= sqrt(e) for every arm."""
    check_choice("theorem", theorem, (1, 2))
    if not isinstance(instances, pd.DataFrame):
        raise TypeError(f"instances must be a pandas DataFrame; got {type(instances).__name__}")
    missing = [c for c in INSTANCE_COLUMNS if c not in instances.columns]
    if missing or instances.empty:
        raise ValueError(f"instances needs the columns {list(INSTANCE_COLUMNS)} and one row at least; lacks {missing}")
    delta = float(delta)
    R = b - a
    count = f"{len(instances)} instances"
    y_lo, y_hi = float(instances.y_min.min()), float(instances.y_max.max())
    out = [
        Hypothesis(
            "rewards in [a, b] with a ≥ 0 (Problem Formulation)",
            bool(a >= 0 and a <= y_lo and y_hi <= b),
            f"Bernoulli rewards, means in [{y_lo:.3g}, {y_hi:.3g}] ⊂ [{a:g}, {b:g}] over {count}",
        ),
        Hypothesis("0 < δ < 1", bool(0 < delta < 1), f"δ = {delta:g}"),
        Hypothesis(
            "no arm on the threshold (Δmin > 0; else ADE never stops)",
            bool((instances.delta_min > 0).all()),
            f"smallest Δmin {float(instances.delta_min.min()):.3g} over {count}",
        ),
    ]
    if theorem == 2:
        widest = np.maximum(instances.theta - instances.y_min, instances.y_max - instances.theta)
        out += [
            Hypothesis(
                "σ_y > 0 (Theorem 2's max{1, (k/σ_y)²})",
                bool((instances.sigma_y > 0).all()),
                f"smallest σ_y {float(instances.sigma_y.min()):.3g} over {count}",
            ),
            Hypothesis(
                "16R²/Δ_i² ≥ √e for every arm (the step from Ineq. (36) to (37))",
                bool((16 * R * R / widest**2 >= math.sqrt(math.e)).all()),
                f"largest Δ_i {float(widest.max()):.3g} ≤ 4R/e^(1/4) = {4 * R / math.e**0.25:.3g}",
            ),
        ]
    return out
