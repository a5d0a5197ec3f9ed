r"""The calibration gates of ADE20's HCB-like stand-in (:func:`bandit_lib.ade20.instances.hcb_like`).

A claim judged on the stand-in counts only if the stand-in matches the real HCB error rates on the
statistics that drive the algorithms' costs and that its generator does not set
(:data:`bandit_lib.infra.scorecard.POLICY`):

* the spread :math:`\sigma_y` of the error rates: ADE's cost is almost all threshold rounds, about
  :math:`c^2 = (1 + \sqrt2 kC_s/(R\sigma_y))^2` of them per sweep;
* the number of k-sigma outliers at k = 2: the set the algorithms must return, and through
  :math:`\theta` every gap;
* :math:`\Delta_{\min}` at k = 3: every algorithm's cost scales like :math:`\Delta_{\min}^{-2}`.

Each is compared with the real data's value (5 % on the two continuous statistics, about 10 % in
cost; the outlier count exactly). Not gated, because the generator sets them or no spread can move
them: the number of workers (an input, 722), :math:`\Delta_{\min}` at k = 2 (the generator redraws
until it lies in [0.045, 0.065], around HCB's 0.0554) and the outliers at k = 3 (none for any rates
with :math:`\mu_y + 3\sigma_y > 1`).

What a gate must pass is the data the stand-in imitates: the real HCB rates, which the book has
(``data/raw/hcb``). The chapter's own draw is *outside* the gates (56 outliers at k = 2 against
63, :math:`\Delta_{\min}` at k = 3 16 % too large), so it is listed with the mis-calibrations each
gate must reject, beside the generator with error probabilities lower and less spread, or higher and more spread,
and with fewer labels per worker.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from bandit_lib.ade20.instances import HCB_LOG_LABELS, hcb_error_rates, hcb_like
from bandit_lib.infra.scorecard import Gate, gate_factory
from bandit_lib.ksigma import ksigma_gaps, ksigma_outliers

#: Relative tolerance of the continuous gates (5 % in Delta_min is about 10 % in cost).
TOLERANCE = 0.05
#: Where the chapter's stand-in is drawn (experiments.INSTANCES and the key of crowd_instance).
CHAPTER_DRAW = (2020, "crowd")
SOURCE = "the real HCB error rates (data/raw/hcb, SQUARE-2.0 commit af3d45b), computed by the book"
PAPER = "not reported (the paper gives only the number of workers, 722)"


@lru_cache(maxsize=1)
def _real() -> np.ndarray:
    return hcb_error_rates().means


def _draw(label: str, **options) -> np.ndarray:
    return hcb_like(2020, "gate", label, **options).means


def _chapter() -> np.ndarray:
    return hcb_like(*CHAPTER_DRAW).means


#: Mis-calibrations of the generator (label -> hcb_like options): another law of the error
#: probabilities, and fewer labels per worker (more rates of exactly 0 or 1).
LESS_SPREAD = ("error probabilities Beta(2, 8), not Beta(2, 4): lower and less spread", {"error_beta": (2.0, 8.0)})
MORE_SPREAD = ("error probabilities Beta(1, 2), not Beta(2, 4): higher and more spread", {"error_beta": (1.0, 2.0)})
FEWER_LABELS = ("labels per worker e^N(1.0, 1.3), not e^N(1.7, 1.3)", {"log_labels": (1.0, HCB_LOG_LABELS[1])})
CHAPTER = "the chapter's own draw (outside the gate, as the chapter reports)"


def _variant(which):
    label, options = which
    return label, (lambda: _draw(label, **options))


def sd(y) -> float:
    return float(np.std(np.asarray(y, dtype=float)))


def outliers_k2(y) -> float:
    return float(ksigma_outliers(np.asarray(y, dtype=float), 2.0, inclusive=True).size)


def delta_min_k3(y) -> float:
    return float(ksigma_gaps(np.asarray(y, dtype=float), 3.0).min())


@gate_factory("ade20.hcb_like")
def hcb_gates() -> list[Gate]:
    """The gates of the HCB-like stand-in, each centred on the real data's value."""
    real = _real()
    spread = dict(map(_variant, (LESS_SPREAD, MORE_SPREAD, FEWER_LABELS)))

    def gate(measure, statistic, tolerance, note, bears_on, miscalibrations):
        value = measure(real)
        return Gate(
            key=f"ade20.hcb_like.{measure.__name__}",
            statistic=statistic,
            measure=measure,
            low=value * (1 - tolerance),
            high=value * (1 + tolerance),
            paper=PAPER,
            source=f"{SOURCE}: {value:.4g}{note}",
            bears_on=bears_on,
            standin=_real,
            miscalibrations=miscalibrations,
        )

    return [
        gate(
            sd,
            "sd of the error rates σ_y",
            TOLERANCE,
            "",
            "ADE's threshold rounds per sweep, c² = (1 + √2 k C_s/(R σ_y))², most of its cost",
            spread,
        ),
        gate(
            outliers_k2,
            "outliers at k = 2",
            0.0,
            " (every worker with error rate 1)",
            "the set the algorithms must return at k = 2, and through θ every gap",
            {**spread, CHAPTER: _chapter},
        ),
        gate(
            delta_min_k3,
            "Δmin at k = 3",
            TOLERANCE,
            "",
            "every algorithm's cost at k = 3, which scales like Δmin⁻²",
            {**spread, CHAPTER: _chapter},
        ),
    ]
