"""Analysis of the ADE20 results: mean costs, the cost model's crossover, and the scorecard.

The scorecard (the book's one format, :mod:`bandit_lib.infra.scorecard`) splits each claim of the
paper (spec ``ade.md`` 4.7) into atomic checks, each made at every setting the claim covers, and
computes the verdict from them:

* **reproduced**: every check holds;
* **partly**: some hold (for C3, whose headline is "ADE is best for n >= 200", ADE must be best
  at half or more of those n; for C5, ADE must at least beat both baselines at one k);
* **not reproduced**: otherwise;
* **inconclusive**: the results at hand cannot decide (the quick profile runs too few settings).

Every claim that compares ADE with RR and WRR is judged under both readings of the baselines'
interval family (:data:`FAMILIES`), so its verdict is conditional where the readings disagree.

"Considerable improvement" (C5) is read as ADE needing at most two thirds of the pulls of the
better baseline (a factor of 1.5).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bandit_lib.ade20.theory import balance_factor
from bandit_lib.checks import check_positive
from bandit_lib.infra.scorecard import INCONCLUSIVE, Claim, verdict_of_checks
from bandit_lib.ksigma import ksigma_gaps

METHODS = ("ADE", "RR", "WRR")
CONSIDERABLE = 1.5


def _require(df: pd.DataFrame, columns, name: str = "df") -> pd.DataFrame:
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame; got {name}={df!r}")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{name} lacks the column(s) {missing}; got columns {list(df.columns)}")
    return df


def mean_pulls(df: pd.DataFrame, by: str) -> pd.DataFrame:
    """Mean pulls per setting ``by`` (rows) and method (columns, paper methods first)."""
    _require(df, [by, "method", "pulls"])
    table = df.pivot_table(index=by, columns="method", values="pulls", aggfunc="mean")
    order = [m for m in METHODS if m in table.columns] + [m for m in table.columns if m not in METHODS]
    return table[order]


def crossover(x, a, b) -> float:
    """First ``x`` at which ``a`` falls below ``b``, interpolating log(a/b) linearly in x; NaN if never."""
    x, a, b = (np.asarray(v, dtype=float) for v in (x, a, b))
    if not (x.shape == a.shape == b.shape) or x.ndim != 1:
        raise ValueError(f"x, a and b must be 1-D of the same length; got shapes {x.shape}, {a.shape}, {b.shape}")
    if np.any(a <= 0) or np.any(b <= 0):
        raise ValueError("a and b must be positive costs")
    r = np.log(a / b)
    if r[0] < 0:
        return float(x[0])
    for j in range(1, x.size):
        if r[j] < 0:
            return float(x[j - 1] + (x[j] - x[j - 1]) * r[j - 1] / (r[j - 1] - r[j]))
    return float("nan")


def model_table(arms: pd.DataFrame) -> pd.DataFrame:
    """Per n: ADE's and RR's mean measured pulls and mean cost-model predictions (same instances)."""
    _require(arms, ["n", "method", "pulls", "model_ade", "model_rr"], "arms")
    ade = arms[arms.method == "ADE"].groupby("n")
    rr = arms[arms.method == "RR"].groupby("n")
    return pd.DataFrame(
        {
            "ADE measured": ade.pulls.mean(),
            "ADE model": ade.model_ade.mean(),
            "RR measured": rr.pulls.mean(),
            "RR model": rr.model_rr.mean(),
        }
    )


def _verdict(checks: list[bool], partly: bool | None = None) -> str:
    """The verdict of a claim's checks (no checks: the results at hand cannot decide)."""
    if not checks:
        return INCONCLUSIVE
    return verdict_of_checks(checks, partly)


def _fmt(x: float) -> str:
    return f"{x:.2g}" if x < 1e3 else f"{x:,.3g}".replace("e+0", "e")


#: The two readings of the baselines' interval family (spec decision B1): the bounded intervals
#: ADE20 quotes, and the Agresti-Coull intervals of ZHUANG17's own experiments. A table's
#: columns ``RR``/``WRR`` are the first, ``RR (Agresti–Coull)``/``WRR (Agresti–Coull)`` the second.
FAMILIES = {
    "Hoeffding/McDiarmid (ADE20's)": ("RR", "WRR"),
    "Agresti–Coull (ZHUANG17's experiments)": ("RR (Agresti–Coull)", "WRR (Agresti–Coull)"),
}


def _reading(table: pd.DataFrame, columns: tuple[str, str]) -> pd.DataFrame | None:
    """The table with the reading's baselines as RR and WRR (None if the table lacks them)."""
    if not all(c in table.columns for c in columns) or "ADE" not in table.columns:
        return None
    return table[["ADE", *columns]].set_axis(list(METHODS), axis=1)


def _family_claims(
    fig2a: pd.DataFrame, fig2b: pd.DataFrame, fig3: pd.DataFrame, reading: str, data: str
) -> list[Claim]:
    """C1-C6 under one reading of the baselines' intervals."""
    claims = []
    # C1: every algorithm's mean cost increases with n
    steps = {m: bool(np.all(np.diff(fig2a[m].to_numpy()) > 0)) for m in METHODS}
    growth = {m: fig2a[m].iloc[-1] / fig2a[m].iloc[0] for m in METHODS}
    claims.append(
        Claim(
            "C1 (Fig. 2(a)): the average number of samples of every algorithm grows with n",
            "grows for ADE, RR and WRR",
            "; ".join(
                f"{m} ×{growth[m]:.2f} from n = {fig2a.index[0]} to {fig2a.index[-1]}"
                f"{'' if steps[m] else ' (not monotone)'}"
                for m in METHODS
            ),
            _verdict(list(steps.values()) if len(fig2a) >= 2 else []),
            "reproduced if every mean grows at every step of n; partly if some do",
            reading,
        )
    )
    # C2: at the smallest n, RR and WRR beat ADE, and WRR beats RR
    a = fig2a.iloc[0]
    claims.append(
        Claim(
            "C2 (Fig. 2(a)): at the smallest n, RR and WRR need fewer samples than ADE, WRR slightly fewer than RR",
            f"at n = {fig2a.index[0]}: WRR < RR < ADE",
            f"ADE {_fmt(a.ADE)}, RR {_fmt(a.RR)}, WRR {_fmt(a.WRR)}",
            _verdict([a.RR < a.ADE, a.WRR < a.ADE, a.WRR < a.RR]),
            "three checks (RR < ADE, WRR < ADE, WRR < RR); all: reproduced, some: partly",
            reading,
        )
    )
    # C3: for n >= 200, ADE best and WRR worst; ADE's advantage grows with n
    big = fig2a[fig2a.index >= 200]
    best = (big.ADE < big[["RR", "WRR"]].min(axis=1)).to_numpy()
    worst = (big.WRR > big[["ADE", "RR"]].max(axis=1)).to_numpy()
    adv = (big[["RR", "WRR"]].min(axis=1) / big.ADE).to_numpy()
    grows = bool(np.all(np.diff(adv) > 0)) if adv.size >= 2 else None
    checks = list(best) + list(worst) + ([grows] if grows is not None else [])
    ade_best_at = [int(n) for n, b in zip(big.index, best) if b]
    claims.append(
        Claim(
            "C3 (Fig. 2(a)): for n ≥ 200 ADE is best and WRR worst, and ADE's advantage grows with n",
            "ADE best from n = 200 on",
            f"ADE best at n = {ade_best_at or 'none'} of {list(map(int, big.index))}; WRR worst at "
            f"{int(worst.sum())} of {worst.size}; best baseline / ADE from {adv[0]:.2f} to {adv[-1]:.2f}"
            if len(big)
            else "no n ≥ 200 in these results",
            _verdict(checks if len(big) else [], partly=bool(best.size) and best.mean() >= 0.5),
            "all checks: reproduced; ADE best at half of the n ≥ 200 or more: partly",
            reading,
        )
    )
    # C4: samples fall as Delta_min grows, for all; ADE best at every window
    if len(fig2b) >= 2:
        falls = [bool(np.all(np.diff(fig2b[m].to_numpy()) < 0)) for m in METHODS]
        best_b = list((fig2b.ADE < fig2b[["RR", "WRR"]].min(axis=1)).to_numpy())
        c4 = falls + best_b
    else:
        falls, c4 = [], []
    margin = fig2b[["RR", "WRR"]].min(axis=1) / fig2b.ADE
    claims.append(
        Claim(
            "C4 (Fig. 2(b)): samples fall as Δmin grows, for all algorithms; ADE beats RR and WRR at every window",
            "ADE cheapest at every Δmin",
            f"falls for {sum(falls)} of 3 algorithms; best baseline / ADE: "
            + ", ".join(f"{w:g}: {v:.2f}" for w, v in margin.items()),
            _verdict(c4),
            "all checks: reproduced; some: partly",
            reading,
        )
    )
    # C5: on the crowd data ADE improves considerably on both baselines, at both k
    f = fig3[["RR", "WRR"]].min(axis=1) / fig3.ADE
    claims.append(
        Claim(
            "C5 (Fig. 3(a)(b)): on the crowd workers ADE shows considerable improvement over RR and WRR at k = 2 and 3",
            "considerable improvement at both k",
            f"{data}: best baseline / ADE " + ", ".join(f"k = {k:g}: {v:.2f}" for k, v in f.items()),
            _verdict([bool(v >= CONSIDERABLE) for v in f] if len(f) == 2 else [], partly=bool((f > 1).any())),
            f"considerable: ADE needs at most 1/{CONSIDERABLE} of the better baseline's pulls at both k; "
            "ADE cheaper at one k at least: partly",
            reading,
        )
    )
    # C6: every algorithm needs fewer samples at k = 3 than at k = 2
    if len(fig3) == 2:
        c6 = [bool(fig3[m].iloc[1] < fig3[m].iloc[0]) for m in METHODS]
        ratio = {m: fig3[m].iloc[1] / fig3[m].iloc[0] for m in METHODS}
        ours6 = f"{data}: " + "; ".join(f"{m} k = 3 / k = 2 = {ratio[m]:.2f}" for m in METHODS)
    else:
        c6, ours6 = [], "one k only in these results"
    claims.append(
        Claim(
            "C6 (Fig. 3(a)(b)): all three algorithms need fewer samples at k = 3 than at k = 2",
            "fewer at k = 3 for all",
            ours6,
            _verdict(c6),
            "all three fewer: reproduced; some: partly",
            reading,
        )
    )
    return claims


def scorecard(
    fig2a: pd.DataFrame,
    fig2b: pd.DataFrame,
    fig3: pd.DataFrame,
    crowd_means,
    k_values=(2.0, 3.0),
    *,
    data: str = "HCB",
) -> list[Claim]:
    """Claims C1-C7 with our numbers and computed verdicts, C1-C6 under each reading of the
    baselines' interval family (:data:`FAMILIES`) present in the tables.

    ``fig2a``: mean pulls by n, ``fig2b``: by Delta_min window, ``fig3``: by k, on the crowd data
    named ``data`` (see :func:`mean_pulls`); ``crowd_means``: that data's arm means (for C7).
    """
    claims = []
    for reading, columns in FAMILIES.items():
        tables = [_reading(t, columns) for t in (fig2a, fig2b, fig3)]
        if all(t is not None for t in tables):
            claims += _family_claims(*tables, reading, data)
    if not claims:
        raise ValueError(f"the tables hold no reading of the baselines: need ADE and one of {list(FAMILIES.values())}")
    # C7: at k = 3 both Delta_min and the bulk of the gaps are larger than at k = 2 (no baseline)
    g2, g3 = (ksigma_gaps(crowd_means, k) for k in k_values)
    claims.append(
        Claim(
            "C7 (Fig. 3(c)): at k = 3 both Δmin and the bulk of the gaps Δ_i are larger than at k = 2",
            "larger at k = 3",
            f"{data}: Δmin {g2.min():.3f} → {g3.min():.3f}; median Δ_i {np.median(g2):.3f} → {np.median(g3):.3f}",
            _verdict([bool(g3.min() > g2.min()), bool(np.median(g3) > np.median(g2))]),
            "both larger: reproduced; one: partly",
        )
    )
    order = {c.claim: i for i, c in enumerate(claims)}  # claims in paper order, readings together
    return sorted(claims, key=lambda c: (c.claim[:2], order[c.claim]))


def relative_cost(table: pd.DataFrame, baseline: str = "ADE") -> pd.DataFrame:
    """Each method's mean pulls divided by ``baseline``'s, setting by setting."""
    if baseline not in table.columns:
        raise ValueError(
            f"baseline must be one of the table's methods {list(table.columns)}; got baseline={baseline!r}"
        )
    check_positive("the baseline's smallest cost", float(table[baseline].min()))
    return table.div(table[baseline], axis=0)


def theory_summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Per ``source``: runs, wrong outputs, capped runs, runs with a violated interval (event A:
    an arm's or the threshold's), runs where Lemma 2 or 3 failed, and whether the gap lemma and
    Theorem 2's per-arm bound held in every run."""
    _require(
        runs,
        [
            "source",
            "correct",
            "capped",
            "viol_arm",
            "viol_theta",
            "viol_variance",
            "viol_std",
            "viol_U",
            "gap_lemma_ok",
            "thm2_arms_ok",
            "thm2_mth_ok",
        ],
        "runs",
    )
    r = runs.assign(
        event_A=(runs.viol_arm + runs.viol_theta) > 0,
        lemma23=(runs.viol_variance + runs.viol_std + runs.viol_U) > 0,
        wrong=~runs.correct.astype(bool),
        thm2=runs.thm2_arms_ok & runs.thm2_mth_ok,
    )
    return r.groupby("source", sort=False).agg(
        runs=("wrong", "size"),
        errors=("wrong", "sum"),
        capped=("capped", "sum"),
        event_A_violated=("event_A", "sum"),
        lemma23_violated=("lemma23", "sum"),
        gap_lemma_ok=("gap_lemma_ok", "all"),
        thm2_ok=("thm2", "all"),
    )


def balance_summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Per ``source``: the balancing facts of Theorem 2's proof and the bound's slack.

    ``min_rth_over_ra`` (>= 1/2 required), ``max_mth_over_4c2ma`` (<= 1 required, c from sigma_y),
    ``mth_over_ma_vs_c2U`` (relative distance of the final m_th/m_a from c^2 with ADE's own U),
    and the range of Theorem 2's explicit bound over the measured pulls.
    """
    _require(
        runs,
        [
            "source",
            "k",
            "sigma_y",
            "min_rth_over_ra",
            "max_mth_over_ma",
            "mth_over_ma",
            "balance_U",
            "thm2_total",
            "pulls",
        ],
        "runs",
    )
    c2 = np.array([balance_factor(s, k) ** 2 for s, k in zip(runs.sigma_y, runs.k)])
    r = runs.assign(
        mth_4c2=runs.max_mth_over_ma / (4 * c2),
        vs_c2U=(runs.mth_over_ma / runs.balance_U - 1).abs(),
        slack=runs.thm2_total / runs.pulls,
    )
    return r.groupby("source", sort=False).agg(
        min_rth_over_ra=("min_rth_over_ra", "min"),
        max_mth_over_4c2ma=("mth_4c2", "max"),
        mth_over_ma_vs_c2U=("vs_c2U", "max"),
        bound_over_pulls_min=("slack", "min"),
        bound_over_pulls_max=("slack", "max"),
    )
