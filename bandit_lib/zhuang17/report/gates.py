r"""Calibration gates of the ZHUANG17 chapter's stand-ins (the book's verdict policy,
:mod:`bandit_lib.infra.scorecard`).

**Synthetic test cases.** The paper does not say how its synthetic means were drawn (§5.1); the
chapter reads the generator (reproduction notes, row N1). The one statistic the paper gives of its
synthetic cases is the spread of :math:`H_1/H_2` over the 10 cases of Fig. 3 (n = 15, k = 2.5):
"the :math:`H_1/H_2` of these test cases vary from 3 to 14" (§5.3). :math:`H_1/H_2` is what decides
how much WRR saves over RR (Eq. 7) and how far a case is from the worst case :math:`H_1/H_2 = n`
for which :math:`\rho^*` is derived (Eq. 6); no generator sets it directly. Two gates, on 10 cases
of a generator at n = 15, k = 2.5:

* the lowest :math:`H_1/H_2` lies in [2, 4.5] (the paper: 3; the tolerance allows for the
  rounding and for the draw of 10 cases);
* the highest lies in [9, 15] (the paper: 14; 15 = n is the largest possible value).

The chapter's planted-outlier generator fails the first (its lowest is 8.1; no draw out of 2,000
falls below 4.5: one planted outlier is almost always the arm nearest the threshold, so
:math:`H_2 \approx 1/\Delta_{\min}^2` and :math:`H_1/H_2` is near n). The library's i.i.d.
Beta(2, 5) generator (:func:`~bandit_lib.zhuang17.instances.natural`, default parameters) passes
both. A generator with the normal arms in a narrow band fails the second.

**Twitter.** The paper reports only the data's size (1,500,000 tweets; 47 regions of more than
5,000 tweets; 20 keywords, §5.1), which are inputs of :func:`~bandit_lib.zhuang17.twitter_like.twitter_like`;
nothing of the keywords' rates, which decide the costs, is published, so the stand-in is
:func:`~bandit_lib.infra.scorecard.ungated` (:func:`twitter_gate`) and its claims are inconclusive.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bandit_lib.infra.scorecard import Gate, GateResult, gate_factory, ungated
from bandit_lib.zhuang17.instances import Case, planted_outliers
from bandit_lib.zhuang17.theory import H1, H2

#: The setting of the paper's one statistic of its synthetic cases (Fig. 3, §5.3).
FIG3_N, FIG3_K, FIG3_CASES = 15, 2.5, 10
SOURCE = "§5.3, Fig. 3: “the $H_1/H_2$ of these test cases vary from 3 to 14” ($n = 15$, $k = 2.5$, 10 cases)"


def h1_over_h2(cases: Sequence[Case]) -> np.ndarray:
    """H1/H2 of every case (each with its own k)."""
    cases = list(cases)
    if not cases or not all(isinstance(c, Case) for c in cases):
        raise TypeError(f"cases must be a non-empty sequence of Case objects; got {cases!r}")
    return np.array([H1(c.means, c.k) / H2(c.means, c.k) for c in cases])


def lowest_h1_over_h2(cases: Sequence[Case]) -> float:
    return float(h1_over_h2(cases).min())


def highest_h1_over_h2(cases: Sequence[Case]) -> float:
    return float(h1_over_h2(cases).max())


def natural_fig3_cases() -> list[Case]:
    """The 10 Fig. 3 cases of the i.i.d. Beta(2, 5) reading, as the chapter draws them."""
    from bandit_lib.zhuang17.experiments.natural import fig3_cases

    return fig3_cases()


def planted_fig3_cases() -> list[Case]:
    """The 10 Fig. 3 cases of the planted-outlier generator, as the chapter draws them (``RHO_SWEEP``)."""
    from bandit_lib.zhuang17.experiments import case_seed

    return [planted_outliers(FIG3_N, FIG3_K, case_seed("rho", FIG3_N, FIG3_K, c)) for c in range(FIG3_CASES)]


def narrow_band_fig3_cases() -> list[Case]:
    """A mis-calibration: planted outliers among normal arms drawn from the narrow band [0.2, 0.3],
    so that every normal arm is about as far from the threshold as the nearest one."""
    from bandit_lib.zhuang17.experiments import case_seed

    return [
        planted_outliers(FIG3_N, FIG3_K, case_seed("gate-narrow", FIG3_N, FIG3_K, c), normal=(0.2, 0.3))
        for c in range(FIG3_CASES)
    ]


@gate_factory("zhuang17.synthetic")
def synthetic_gates() -> list[Gate]:
    """The two gates of a synthetic generator, measured on its 10 cases at n = 15, k = 2.5."""
    bears_on = (
        "how much WRR saves over RR (Eq. 7) and how far the cases are from the worst case $H_1/H_2 = n$ "
        "for which $\\rho^*$ is derived (Eq. 6); a case with $H_1/H_2$ near 3 has several arms about as close "
        "to the threshold as the nearest, one near $n$ a single arm much closer than the rest"
    )
    return [
        Gate(
            key="zhuang17.synthetic.lowest_h1_h2",
            statistic="lowest $H_1/H_2$ of the 10 cases at $n = 15$, $k = 2.5$",
            measure=lowest_h1_over_h2,
            low=2.0,
            high=4.5,
            paper="3",
            source=SOURCE,
            bears_on=bears_on,
            standin=natural_fig3_cases,
            miscalibrations={"planted outliers (the chapter's first generator)": planted_fig3_cases},
        ),
        Gate(
            key="zhuang17.synthetic.highest_h1_h2",
            statistic="highest $H_1/H_2$ of the 10 cases at $n = 15$, $k = 2.5$",
            measure=highest_h1_over_h2,
            low=9.0,
            high=float(FIG3_N),
            paper="14",
            source=SOURCE,
            bears_on=bears_on,
            standin=natural_fig3_cases,
            miscalibrations={"planted outliers among normal arms in [0.2, 0.3]": narrow_band_fig3_cases},
        ),
    ]


def synthetic_gate_results(cases: Sequence[Case]) -> tuple[GateResult, ...]:
    """Both gates of :func:`synthetic_gates` on a generator's 10 cases at n = 15, k = 2.5."""
    return tuple(gate.check(cases) for gate in synthetic_gates())


def twitter_gate() -> GateResult:
    """The Twitter stand-in's gate: none can be written (see the module docstring)."""
    return ungated(
        "the keywords' regional rates",
        "§5.1 reports only the data's size, 1,500,000 tweets, 47 regions of more than 5,000 tweets and "
        "20 keywords, which are inputs of twitter_like; nothing of the rates that decide the costs "
        "(their spread, the gaps to the threshold) is published, and the tweets were never released",
    )
