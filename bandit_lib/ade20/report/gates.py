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

from bandit_lib.ade20.instances import HCB_WINDOW, hcb_error_rates, hcb_like
from bandit_lib.checks import check_positive, check_real
from bandit_lib.infra.scorecard import Gate, gate_factory
from bandit_lib.ksigma import ksigma_gaps, ksigma_outliers
from bandit_lib.seeding import SeedLike, generator

#: Relative tolerance of the continuous gates (5 % in Delta_min is about 10 % in cost).
TOLERANCE = 0.05
#: Where the chapter's stand-in is drawn (experiments.INSTANCES and the key of crowd_instance).
CHAPTER_DRAW = (2020, "crowd")
SOURCE = "the real HCB error rates (data/raw/hcb, SQUARE-2.0 commit af3d45b), computed by the book"
PAPER = "not reported (the paper gives only the number of workers, 722)"


@lru_cache(maxsize=1)
def _real() -> np.ndarray:
    return hcb_error_rates().means


#: (mean, sd) of the log label count per worker, and the Beta law of a worker's error probability,
#: of the HCB-like recipe (instances.hcb_like, fitted by hand to HCB's mean, spread and fractions of
#: 0 and 1).
HCB_LOG_LABELS = (1.7, 1.3)
HCB_ERROR_BETA = (2.0, 4.0)


def recipe(
    seed: SeedLike,
    *keys,
    log_labels: tuple[float, float] = HCB_LOG_LABELS,
    error_beta: tuple[float, float] = HCB_ERROR_BETA,
    n: int = 722,
    max_draws: int = 10_000,
) -> np.ndarray:
    """The HCB-like recipe with other laws of the label counts (``log_labels``: mean and sd of the
    normal whose exponential, rounded, is a worker's label count) and of the error probabilities
    (``error_beta``), filtered as :func:`~bandit_lib.ade20.instances.hcb_like` filters (Delta_min
    at k = 2 in [0.045, 0.065]): with the defaults, the same draws as ``hcb_like(seed, *keys)``
    (a test checks it). It is written out here, not as options of ``hcb_like``, so that the
    results whose code includes ``instances`` (ADE20's and the arena's) keep their fingerprint."""
    mu, sd = check_real("log_labels[0]", log_labels[0]), check_positive("log_labels[1]", log_labels[1])
    a, b = check_positive("error_beta[0]", error_beta[0]), check_positive("error_beta[1]", error_beta[1])
    rng = generator(seed, "hcb-like", *keys)
    for _ in range(max_draws):
        labels = np.maximum(1, np.round(np.exp(rng.normal(mu, sd, n)))).astype(np.int64)
        y = rng.binomial(labels, rng.beta(a, b, n)) / labels
        if HCB_WINDOW[0] <= ksigma_gaps(y, 2.0).min() <= HCB_WINDOW[1]:
            return y
    raise RuntimeError(f"no draw with Delta_min in {HCB_WINDOW} at k = 2 in {max_draws} draws")


def _draw(label: str, **options) -> np.ndarray:
    return recipe(2020, "gate", label, **options)


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
