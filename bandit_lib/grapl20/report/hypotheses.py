r"""The hypotheses of GRAPL20's lemmas and Theorem 3.1, checked in code on the instances the chapter
tests them on (:class:`bandit_lib.infra.scorecard.Hypothesis`).

The results are those of :mod:`bandit_lib.grapl20.theory`; these checks live apart from it so that
the results computed with that module keep their fingerprint.

* **Lemma A.1** needs R-sub-Gaussian observations (§2.1, eq. 1; Gaussian noise of standard
  deviation σ is R-sub-Gaussian for R ≥ σ), λ > 0 and γ > 0 (so :math:`L_\lambda` and
  :math:`V_t` are positive definite) and 0 < δ < 1; it holds for any arms pulled in any order that
  depends only on the past (GrAPL's).
* **Lemmas A.2 and A.3** are deterministic: λ > 0, γ > 0, and a horizon T ≥ 1 (Def. 2.1 reads
  T ≤ N and lets N replace T on the right of (4) when T > N; the larger, uncapped :math:`d_T`
  makes A.3's bound the looser of the two, so a run that passes it also passes the other).
* **Theorem 3.1** needs R-sub-Gaussian observations, α, λ, γ > 0 ("valid for any values of α, λ
  and γ") and its condition :math:`\|\mu - c\mathbf 1\|_{L_\lambda} \le \sqrt{T/(\gamma H)}/(3M+1)`
  at the horizon T (with the τ-offset, c = τ); where the condition fails the theorem says nothing,
  so that (instance, horizon) is outside it.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from bandit_lib.checks import check_nonnegative, check_positive
from bandit_lib.infra.scorecard import Hypothesis


def _sub_gaussian(noise_sd, R) -> Hypothesis:
    noise_sd, R = np.atleast_1d(noise_sd).astype(float), np.atleast_1d(R).astype(float)
    return Hypothesis(
        "observations R-sub-Gaussian (§2.1, eq. 1)",
        bool(np.all(noise_sd <= R)),
        f"Gaussian noise of sd {noise_sd.max():g} with R = {R.min():g}",
    )


def _positive(**values) -> Hypothesis:
    flat = {k: np.atleast_1d(v).astype(float) for k, v in values.items()}
    return Hypothesis(
        f"{', '.join(flat)} > 0",
        bool(all(np.all(v > 0) for v in flat.values())),
        "; ".join(f"{k} in {sorted(set(v.tolist()))}" for k, v in flat.items()),
    )


def lemma_a1_hypotheses(*, noise_sd: float, R: float, gammas, lam: float, delta: float) -> list[Hypothesis]:
    """Lemma A.1's hypotheses on the chapter's path instances (Gaussian noise ``noise_sd``)."""
    return [
        _sub_gaussian(noise_sd, R),
        _positive(γ=gammas, λ=lam),
        Hypothesis("0 < δ < 1", bool(0 < delta < 1), f"δ = {delta:g}"),
    ]


def lemma_a23_hypotheses(*, gammas, lam: float, horizon: int) -> list[Hypothesis]:
    """Lemmas A.2 and A.3's hypotheses (deterministic statements)."""
    return [
        _positive(γ=gammas, λ=lam),
        Hypothesis("T ≥ 1 (Def. 2.1)", bool(horizon >= 1), f"T = {horizon}, d_T uncapped (the looser A.3 bound)"),
    ]


def theorem31_condition(H: float, M: float, m: float, gamma: float, horizon: float) -> bool:
    r"""Theorem 3.1's condition :math:`m \le \sqrt{T/(\gamma H)}/(3M+1)` at ``horizon``."""
    H, M, gamma = check_positive("H", H), check_positive("M", M), check_positive("gamma", gamma)
    return bool(check_nonnegative("m", m) <= math.sqrt(check_positive("horizon", horizon) / (gamma * H)) / (3 * M + 1))


def theorem31_cells(cells: pd.DataFrame) -> pd.DataFrame:
    """``cells`` (one row per instance and horizon, with the columns of the ``clique_bound`` rows:
    horizon, gamma, lam, alpha, H, M, m, R, noise_sd) with a column ``inside``: whether every
    hypothesis of Theorem 3.1 holds there."""
    need = ["horizon", "gamma", "lam", "alpha", "H", "M", "m", "R", "noise_sd"]
    if not isinstance(cells, pd.DataFrame):
        raise TypeError(f"cells must be a pandas DataFrame; got {type(cells).__name__}")
    missing = [c for c in need if c not in cells.columns]
    if missing:
        raise ValueError(f"cells lacks the column(s) {missing}; got {list(cells.columns)}")
    condition = [theorem31_condition(r.H, r.M, r.m, r.gamma, r.horizon) for r in cells.itertuples()]
    positive = (cells.gamma > 0) & (cells.lam > 0) & (cells.alpha > 0)
    return cells.assign(condition=condition, inside=np.asarray(condition) & positive & (cells.noise_sd <= cells.R))


def theorem31_hypotheses(cells: pd.DataFrame) -> list[Hypothesis]:
    """Theorem 3.1's hypotheses on the cells used as evidence (those of :func:`theorem31_cells`
    with ``inside``); the cells outside are not evidence and the row reports them apart."""
    used = cells[cells["inside"]] if "inside" in cells else theorem31_cells(cells).query("inside")
    if used.empty:
        return [Hypothesis("some (instance, T) satisfies Theorem 3.1's hypotheses", False, "none does")]
    margin = [math.sqrt(r.horizon / (r.gamma * r.H)) / (3 * r.M + 1) for r in used.itertuples()]
    return [
        _sub_gaussian(used.noise_sd, used.R),
        _positive(α=used.alpha, λ=used.lam, γ=used.gamma),
        Hypothesis(
            r"$\|\mu - \tau\mathbf 1\|_{L_\lambda} \le \sqrt{T/(\gamma H)}/(3M+1)$ (the condition of Theorem 3.1)",
            bool(all(r.m <= b for r, b in zip(used.itertuples(), margin))),
            f"at the {len(used)} (instance, T) used: largest m / bound {max(r.m / b for r, b in zip(used.itertuples(), margin)):.3g}",
        ),
    ]
