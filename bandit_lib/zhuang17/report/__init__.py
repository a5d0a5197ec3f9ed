"""Tables of the ZHUANG17 chapter, drawn from the cached results.

A result of :mod:`bandit_lib.zhuang17.experiments` holds, per unit, a ``case`` summary and one row
per run and method (``"RR"``, ``"WRR"``, ``"NRR"``, ``"IB"``, and ``"RR (Hoeffding)"``,
``"WRR (Hoeffding)"`` in the runs with the theorems' intervals). These helpers flatten them into
one table and average per case; GOLD20's report builds on :func:`runs_table`.

The scorecard's conditions (the book's verdict policy, :mod:`bandit_lib.infra.scorecard`):

* :mod:`~bandit_lib.zhuang17.report.gates` — the calibration gates of the synthetic generators
  (the paper's H1/H2 range of its Fig. 3 cases) and the Twitter stand-in's ungated result;
* :mod:`~bandit_lib.zhuang17.report.hypotheses` — the hypotheses of Theorems 1-3, checked in code on
  an instance.
"""

from __future__ import annotations

import pandas as pd


def runs_table(results) -> pd.DataFrame:
    """One row per run and method, with the unit's scalar parameters, the case summary's scalars
    (prefixed ``case_``) and the unit's key (``unit``). A column the rows already hold is kept."""
    frames = []
    for unit, payload in results:
        df = pd.DataFrame(payload["rows"])
        for key, value in payload["case"].items():
            if not isinstance(value, (list, dict)):
                df["case_" + key] = value
        for key, value in unit.params.items():
            if not isinstance(value, (list, dict)) and key not in df.columns:
                df[key] = value
        df["unit"] = unit.key
        frames.append(df)
    if not frames:
        raise ValueError("runs_table needs at least one result; got none")
    return pd.concat(frames, ignore_index=True)


def per_case(df: pd.DataFrame, keys=("unit",)) -> pd.DataFrame:
    """Mean pulls, correctness and cap rate per case (``keys``) and method."""
    return (
        df.groupby([*keys, "method"])
        .agg(pulls=("pulls", "mean"), exact=("exact", "mean"), capped=("capped", "mean"))
        .reset_index()
    )


def exact_rate(df: pd.DataFrame, method: str) -> float:
    """The fraction of ``method``'s runs that returned exactly the true outlier set."""
    runs = df[df.method == method]
    if runs.empty:
        raise ValueError(f"no runs of method {method!r}; methods present: {sorted(set(df.method))}")
    return float(runs["exact"].mean())


# --- the settings this chapter shares with others (the verdicts page's register) ------------------
def _settings():
    from bandit_lib.infra.scorecard import DESIGNED, READING, STATED, Setting

    return (
        Setting(
            "interval family and R",
            STATED,
            "Bernoulli (Agresti–Coull) intervals for RR and WRR in the experiments; the theorems' bounded "
            "(Hoeffding) intervals in the theorem rows",
            '§5.2: "For both of our algorithms, we derived the confidence intervals based on Bernoulli distribution"',
        ),
        Setting("confidence level δ", STATED, "δ = 0.1", '§5.2: "We set δ = 0.1."'),
        Setting(
            "pull cap",
            STATED,
            "10⁷ pulls; a capped run returns its current estimate",
            '§5.2: "Once an algorithm runs for 10⁷ pulls, the algorithm is forced to terminate and output the '
            'current estimated outlier set"',
        ),
        Setting(
            "run count",
            STATED,
            "10 cases per configuration, 10 runs per case",
            '§5.1: "For each configuration, we generate 10 random test cases"; §5.2: "For each test case, we run '
            'the experiments for 10 times"',
        ),
        Setting(
            "generator of synthetic means",
            READING,
            "two readings: planted outliers, and i.i.d. Beta(2, 5) means (inside the H₁/H₂ gate)",
            '§5.1: "For each arm, we draw its reward from a Bernoulli distribution Bern(y_i)"; how the y_i are '
            "drawn is not said (row N1)",
        ),
        Setting(
            "RR's threshold radius l(k)",
            STATED,
            "l(k) with δ inside its log, as the paper defines it",
            "§4.1, with Theorem 2: the paper defines l(k) itself, with δ inside its log",
        ),
        Setting(
            "tolerance of an approximate claim",
            DESIGNED,
            'a share the paper gives as "about" or "~" is met within ±0.15',
            "the paper gives no tolerance",
        ),
        Setting(
            "test of an error rate ≤ δ",
            DESIGNED,
            "an exact binomial test of p ≤ δ, not rejected at 5%",
            "the paper states the guarantee (Theorem 1), not how a finite run tests it",
        ),
    )


SETTINGS = _settings()
