"""Tables, figures and verdicts of the UIG chapter, drawn from the cached results.

Nothing here computes an experiment; everything reads the results of :mod:`bandit_lib.uig.experiments`
(kept out of the experiments' import closure, so that editing a figure does not make results
stale). Verdicts are computed by rules stated in the chapter before the numbers are shown.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from scipy import stats

from bandit_lib.infra.plotting import method_color
from bandit_lib.infra.scorecard import NOT_REPRODUCED as NOT
from bandit_lib.infra.scorecard import PARTLY, REPRODUCED, Claim

# The paper's Tables I and II (milliseconds, MATLAB R2014b, machine not stated): its numbers, shown
# beside ours, never used as ours.
PAPER_TABLE_I = {
    "UCB1": 9.7,
    "TS": 37.6,
    "CKL-UCB": 849.5,
    "OSUB": 880.3,
    "OSSB": 3.3e5,
    "LSDT-CSI (offline)": 14.1,
    "LSDT-CSI (online)": 18.6,
    "UCB1 on B*": 9.1,
}
PAPER_TABLE_II = {
    "UCB1": 10.3,
    "TS": 38.3,
    "CKL-UCB": 354.2,
    "LSDT-PSI (offline)": 12.6,
    "LSDT-PSI (online)": 161.4,
    "UCB1 on B0": 10.1,
}


#: The rule of every "A beats B" claim (see :func:`beats_verdict`).
BEATS_RULE = (
    "lower mean regret at every horizon and paired 95% interval of A − B below 0 at the largest: reproduced; "
    "that interval below 0, or lower at most horizons: partly"
)


def claim(
    where: str, text: str, ours: str, verdict: str, *, paper: str | None = None, rule: str | None = None
) -> Claim:
    """A scorecard row of this chapter. A rule written into the claim as "(rule: ...)" is moved to
    the rule column; "A beats B" claims get :data:`BEATS_RULE`."""
    found = re.search(r"\s*\(rule: (.*)\)\s*$", text)
    if found:
        text, rule = text[: found.start()], rule or found.group(1)
    if rule is None and " beats " in text:
        rule = BEATS_RULE
    return Claim(f"{where}: {text}", paper or text, ours, verdict, rule or "stated in the claim")


def base_name(policy: str) -> str:
    """The method a variant belongs to (for its colour): 'CKL-UCB (hop, init)' -> 'CKL-UCB'."""
    for name in ("LSDT-CSI", "LSDT-PSI", "LSDT-TS", "CKL-UCB", "OSSB", "OSUB", "UCB1", "TS"):
        if policy.startswith(name):
            return name
    return policy


def color(policy: str):
    """The book's colour of the method; LSDT-TS's pale yellow is darkened to be seen on white."""
    rgb = method_color(base_name(policy))
    return tuple(0.55 * c for c in rgb) if base_name(policy) == "LSDT-TS" else rgb


def style(policy: str) -> dict:
    """Line style: the default of each method solid, its variants dashed or dotted."""
    on_subset = " on B" in policy
    variant = "(" in policy
    return {"color": color(policy), "ls": ":" if on_subset and variant else "--" if on_subset or variant else "-"}


# --- regret ------------------------------------------------------------------------------


def regret_long(results) -> pd.DataFrame:
    """One row per (repetition, policy, horizon) from a regret experiment's results."""
    frames = []
    for unit, payload in results:
        grid = payload["grid"]
        first = unit.params["first"]
        for policy, values in payload["regret"].items():
            arr = np.asarray(values, dtype=float)
            reps = np.repeat(np.arange(first, first + arr.shape[0]), arr.shape[1])
            frames.append(
                pd.DataFrame({"rep": reps, "policy": policy, "T": np.tile(grid, arr.shape[0]), "regret": arr.ravel()})
            )
    return pd.concat(frames, ignore_index=True)


def seconds_long(results) -> pd.DataFrame:
    rows = []
    for unit, payload in results:
        for policy, values in payload.get("seconds", {}).items():
            rows += [{"rep": unit.params["first"] + i, "policy": policy, "seconds": s} for i, s in enumerate(values)]
    return pd.DataFrame(rows)


def summarise(df: pd.DataFrame, value: str = "regret", by=("policy", "T")) -> pd.DataFrame:
    """Mean, standard deviation, count and a normal 95% interval of the mean."""
    g = df.groupby(list(by))[value]
    out = g.agg(["mean", "std", "count"]).reset_index()
    half = 1.96 * out["std"] / np.sqrt(out["count"])
    out["low"], out["high"] = out["mean"] - half, out["mean"] + half
    return out


def paired(df: pd.DataFrame, a: str, b: str, T: int | None = None, value: str = "regret") -> dict:
    """Paired difference a - b over repetitions (at horizon T): mean, 95% interval, n."""
    sub = df if T is None else df[df["T"] == T]
    wide = sub.pivot_table(index="rep", columns="policy", values=value)
    d = (wide[a] - wide[b]).dropna()
    half = 1.96 * d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else np.inf
    return {
        "a": float(wide[a].mean()),
        "b": float(wide[b].mean()),
        "diff": float(d.mean()),
        "low": float(d.mean() - half),
        "high": float(d.mean() + half),
        "n": int(len(d)),
    }


def beats_verdict(df: pd.DataFrame, a: str, b: str) -> tuple[str, str]:
    """Verdict for "a has lower regret than b" (the paper's "outperforms").

    reproduced: a's mean regret is below b's at every horizon of the grid and the paired 95%
    interval of a - b lies below 0 at the largest horizon; partly: the interval lies below 0 at the
    largest horizon, or a's mean is below b's at more than half of the horizons; not reproduced
    otherwise.
    """
    horizons = sorted(df["T"].unique())
    means = df.groupby(["policy", "T"])["regret"].mean()
    lower = [means[(a, t)] < means[(b, t)] for t in horizons]
    last = paired(df, a, b, horizons[-1])
    significant = last["high"] < 0
    verdict = (
        REPRODUCED if all(lower) and significant else PARTLY if significant or sum(lower) > len(lower) / 2 else NOT
    )
    ours = (
        f"{last['a']:.1f} vs {last['b']:.1f} at T = {horizons[-1]} (paired diff {last['diff']:+.1f} "
        f"[{last['low']:+.1f}, {last['high']:+.1f}]); lower at {sum(lower)}/{len(lower)} horizons"
    )
    return ours, verdict


LINESTYLES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1)))


def plot_regret(ax, summary: pd.DataFrame, policies, *, band: bool = True, label=None) -> None:
    """Mean regret curves (95% bands): one colour per method, its variants in the order given
    drawn solid, dashed, dotted, dash-dotted."""
    seen: dict[str, int] = {}
    for policy in policies:
        part = summary[summary["policy"] == policy].sort_values("T")
        if part.empty:
            continue
        k = seen.get(base_name(policy), 0)
        seen[base_name(policy)] = k + 1
        ax.plot(
            part["T"],
            part["mean"],
            label=label(policy) if label else policy,
            lw=1.6,
            color=color(policy),
            ls=LINESTYLES[k % len(LINESTYLES)],
        )
        if band:
            ax.fill_between(part["T"], part["low"], part["high"], color=color(policy), alpha=0.15, lw=0)
    ax.set(xlabel="horizon T", ylabel="cumulative regret")


# --- timing ------------------------------------------------------------------------------


def timing_table(results, setting: str) -> pd.DataFrame:
    """Median milliseconds per run of ours beside the paper's table."""
    frame = pd.DataFrame(results.payload(setting)["rows"])
    paper = PAPER_TABLE_I if setting == "csi" else PAPER_TABLE_II
    rows = []
    for column in frame.columns:
        if column in ("rep",) or frame[column].dtype == bool:
            continue
        key = next((k for k in paper if column == k or column.startswith(k + " (") and k in ("CKL-UCB", "OSSB")), None)
        if column == "UCB1 (numba)" or column == "LSDT-CSI (online, numba)":
            key = None
        rows.append(
            {
                "algorithm": column,
                "paper (ms)": paper.get(key) if key else np.nan,
                "ours, median (ms)": float(frame[column].median()),
                "ours, max (ms)": float(frame[column].max()),
            }
        )
    return pd.DataFrame(rows)


# --- scorecard ---------------------------------------------------------------------------


def spearman(x, y) -> float:
    return float(stats.spearmanr(x, y).statistic)


def theorem1_holds(K: int, eps: float, seed: int, reps: int = 100) -> bool:
    """CSI-OFF equals Theorem 1's C(i_max) ∪ C(i_min) per component on ``reps`` random instances."""
    from bandit_lib.uig.candidates import candidate_set_complete, candidate_set_theorem1
    from bandit_lib.uig.problem import similarity_graph

    rng = np.random.default_rng(seed)
    for _ in range(reps):
        means = rng.uniform(0.0, 1.0, K)
        A = similarity_graph(means, eps)
        if not np.array_equal(candidate_set_complete(A, order=np.argsort(means)), candidate_set_theorem1(A, means)):
            return False
    return True
