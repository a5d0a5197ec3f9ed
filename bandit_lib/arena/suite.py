r"""The arena's instance suite and its detectors: one delta, one k per family, the interval family as an axis.

**Instances** (Bernoulli rewards throughout; every draw is named by its family, n and case under
``INSTANCES``, so a case is the same whatever else runs):

* ``planted``: the ZHUANG17 chapter's planted generator, the book's design, since ZHUANG17 does not say
  how its synthetic means were drawn (:func:`bandit_lib.zhuang17.instances.planted_outliers`:
  normal means U[0, 0.5], 1 to 5 % outliers U[0.6, 1]) at k = 2.5, n in {20, 50, 100, 200, 1000};
  case c is the c-th draw whose Delta_min is at least ``PLANTED_MIN_GAP``;
* ``window``: ADE20's setting, i.i.d. U[0, 1] means whose smallest gap lies in [0.1, 0.2]
  (:func:`bandit_lib.ade20.instances.uniform_window`), k = 2.5;
* ``hcb``: the 722 real HCB worker error rates (ADE20's Fig. 3), k = 2;
* ``large``: the planted generator at n = 10^4.

**Detectors** (``DETECTORS``): RR and WRR under both interval families of ZHUANG17
(Hoeffding/McDiarmid with R = 1, and Agresti-Coull), IB with its CLUCB sub-Gaussian intervals,
NRR (a heuristic stop, not delta-correct: it is in the table to show what correctness costs), ADE,
RR-GLR and Track-and-Stop. The GLR pair treats the rewards as 1/2-sub-Gaussian (Gaussian divergence
and threshold, ``sub_gaussian=0.5``: the Bernoulli kl statistic costs about 40 s per run at n = 5),
and Track-and-Stop checks its stop once per n pulls, as RR-GLR does. ``delta_correct`` says whether
the guarantee holds by construction: not for NRR, and not for Agresti-Coull intervals, which are
asymptotic. IB's flag says True, but its stop is heuristic (:mod:`bandit_lib.zhuang17.ib`: "IB has no
overall guarantee"); the arena chapter overrides the flag, which stays here so that the cached results
keep their fingerprint. The GLR pair is pure Python (a Z statistic after every round or pull),
so it runs only where ``max_n`` allows; the others run everywhere unless their pulls would exceed
the budget measured in the chapter.

**The two awkward families, decided.** ``window`` is ADE20's setting as the paper ran it (k = 2.5,
U[0, 1] means): it has no outliers (the threshold is above 1) and no Bernoulli arm can change side
alone, so no certified bound is positive there; its cells report pulls and errors, and no factor.
``hcb`` holds error rates of exactly 0: the detectors take them as they are, and so does the
single-arm bound (kl(0, t) = -ln(1 - t) is finite); the solvers behind the tighter certificate need
interior means, and n = 722 is beyond their budget anyway.

**Yardstick.** :func:`yardstick`: the single-arm bound (closed form, any n) and, up to
``CERTIFY_MAX_N`` arms, the cutting-plane certificate and a Gaussian upper value of :math:`T^*`,
so that the chapter's factors above the bound are brackets where they can be and upper bounds
elsewhere. The single-arm bound alone is loose: on the planted case 0 at n = 20 it gives 72.2 where
the exact cutting-plane LP certifies :math:`T^*\ge501` (Bernoulli), a ratio of 0.14.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bandit_lib.ade20.ade import ade
from bandit_lib.ade20.instances import hcb_error_rates, uniform_window
from bandit_lib.arena.glr import rr_glr
from bandit_lib.arena.lower_bound import certified_lower_T, kl_delta, optimal_weights, single_arm_bound
from bandit_lib.arena.tracking import track_and_stop
from bandit_lib.checks import check_choice, check_int
from bandit_lib.ksigma import ksigma_gaps, ksigma_outliers, ksigma_threshold
from bandit_lib.seeding import derive
from bandit_lib.zhuang17.ib import ib
from bandit_lib.zhuang17.instances import planted_outliers
from bandit_lib.zhuang17.intervals import AgrestiCoullCI, HoeffdingCI
from bandit_lib.zhuang17.nrr import nrr
from bandit_lib.zhuang17.rr import rr
from bandit_lib.zhuang17.wrr import wrr

DELTA = 0.1
INSTANCES = 2026  # root of every instance and tape seed of the arena
FAMILIES = ("planted", "window", "hcb", "large")
K = {"planted": 2.5, "window": 2.5, "hcb": 2.0, "large": 2.5}
#: no run is cut short in the experiments: every detector stops on its own rule
NO_CAP = 10**12


@dataclass(frozen=True)
class Cell:
    """One instance of the suite: its family, size, case number, means and k."""

    family: str
    n: int
    case: int
    means: np.ndarray
    k: float


#: the planted families keep the generator's draws whose Delta_min is at least this: every detector's
#: cost grows as 1/Delta_min^2, and the draws below it (0.010-0.045 among the first eight at each n)
#: would cost minutes to hours per run; ADE20's window family makes the same cut by design
PLANTED_MIN_GAP = 0.05
#: draws looked at before giving up on finding case c
MAX_DRAWS = 1000


def _planted(n: int, k: float, case: int) -> np.ndarray:
    found = -1
    for draw in range(MAX_DRAWS):
        means = planted_outliers(n, k, derive(INSTANCES, "planted", n, draw)).means
        if ksigma_gaps(means, k).min() >= PLANTED_MIN_GAP:
            found += 1
            if found == case:
                return means
    raise RuntimeError(
        f"only {found + 1} of the first {MAX_DRAWS} planted draws at n={n} have Delta_min >= {PLANTED_MIN_GAP}; "
        f"case={case} does not exist"
    )


def instance(family: str, n: int, case: int) -> Cell:
    """The suite's instance ``(family, n, case)``; ``hcb`` has one instance (n = 722, case 0)."""
    family = check_choice("family", family, FAMILIES)
    n = check_int("n", n, minimum=20)
    case = check_int("case", case, minimum=0)
    k = K[family]
    if family in ("planted", "large"):
        means = _planted(n, k, case)
    elif family == "window":
        means = uniform_window(n, k, 0.1, 0.2, INSTANCES, "window", n, case).means
    else:
        means = hcb_error_rates().means
        if n != means.size or case != 0:
            raise ValueError(f"hcb has one instance, n = {means.size}, case 0; got n={n!r}, case={case!r}")
    return Cell(family, int(means.size), case, means, k)


#: the largest n at which :func:`yardstick` runs the cutting-plane certificate and the Gaussian upper
#: value (measured on planted cases: 1-49 s at n = 50; several minutes at n = 100)
CERTIFY_MAX_N = 50


def yardstick(cell: Cell, delta: float = DELTA, *, certify: bool | None = None) -> dict:
    r"""The instance's summary and the bracket on :math:`T^*` that the factors above the bound use.

    * ``T1``: :func:`~bandit_lib.arena.lower_bound.single_arm_bound` (Bernoulli), certified, any n;
    * ``T_cert`` (if ``certify``, default n <= ``CERTIFY_MAX_N``):
      :func:`~bandit_lib.arena.lower_bound.certified_lower_T` (Bernoulli), certified and tighter;
    * ``T_lower`` = the larger of the two, ``bound`` = ``T_lower`` kl(delta, 1 - delta): every
      delta-correct detector has E[pulls] >= ``T*`` kl >= ``bound``, so pulls / ``bound`` *over*-states
      the factor above the bound by ``T*/T_lower``;
    * ``T_upper`` (if ``certify``): :math:`1/F_G(w)` at the best w found for the Gaussian divergence
      with :math:`\sigma = 1/2`; since :math:`\mathrm{kl}(x,y)\ge2(x-y)^2` this is at least the
      Bernoulli :math:`T^*`, so pulls / (``T_upper`` kl) *under*-states the factor.

    ``bound`` is NaN where no certified bound is positive (the ``window`` family: no arm can change
    side alone, and the certificate needs a single-arm move to start from).
    """
    certify = cell.n <= CERTIFY_MAX_N if certify is None else bool(certify)
    t1 = single_arm_bound(cell.means, cell.k, divergence="bernoulli")
    gaps = ksigma_gaps(cell.means, cell.k)
    out = {
        "family": cell.family,
        "n": cell.n,
        "case": cell.case,
        "k": cell.k,
        "theta": ksigma_threshold(cell.means, cell.k),
        "n_outliers": int(ksigma_outliers(cell.means, cell.k).size),
        "delta_min": float(gaps.min()),
        "H2": float(np.sum(1.0 / gaps**2)),
        "T1": t1,
        "T_cert": math.nan,
        "T_upper": math.nan,
        "certify_s": math.nan,
    }
    lower, kind = t1, "single-arm"
    if certify and t1 > 0:
        start = time.perf_counter()
        t_cert = certified_lower_T(cell.means, cell.k, divergence="bernoulli")[0]
        upper = optimal_weights(cell.means, cell.k, divergence="gaussian", sigma=0.5, rtol=1e-2)
        out.update(T_cert=t_cert, T_upper=1.0 / upper.bracket[0], certify_s=round(time.perf_counter() - start, 2))
        if t_cert > lower:
            lower, kind = t_cert, "cutting planes"
    out.update(
        T_lower=lower,
        bound_kind=kind if lower > 0 else "none",
        bound=lower * kl_delta(delta) if lower > 0 else math.nan,
    )
    return out


@dataclass(frozen=True)
class Detector:
    """A detector of the arena: how to run it (``run(tape, k, delta, cap=NO_CAP)``, so the
    experiments and the benchmarks run the same configuration), its interval family, whether it is
    delta-correct by construction, and the largest n it runs at in the experiments (its cost, measured)."""

    run: Callable
    intervals: str
    delta_correct: bool
    max_n: int


_H, _AC = HoeffdingCI(R=1.0), AgrestiCoullCI()

DETECTORS: dict[str, Detector] = {
    "RR (Hoeffding)": Detector(
        lambda t, k, d, cap=NO_CAP: rr(t, k=k, delta=d, cap=cap, ci=_H), "Hoeffding", True, 10**4
    ),
    "RR (Agresti–Coull)": Detector(
        lambda t, k, d, cap=NO_CAP: rr(t, k=k, delta=d, cap=cap, ci=_AC), "Agresti–Coull", False, 10**4
    ),
    "WRR (Hoeffding)": Detector(
        lambda t, k, d, cap=NO_CAP: wrr(t, k=k, delta=d, cap=cap, ci=_H), "Hoeffding", True, 10**4
    ),
    "WRR (Agresti–Coull)": Detector(
        lambda t, k, d, cap=NO_CAP: wrr(t, k=k, delta=d, cap=cap, ci=_AC), "Agresti–Coull", False, 10**4
    ),
    "IB": Detector(lambda t, k, d, cap=NO_CAP: ib(t, k=k, delta=d, cap=cap), "CLUCB (sub-Gaussian)", True, 10**4),
    "ADE": Detector(lambda t, k, d, cap=NO_CAP: ade(t, k=k, delta=d, cap=cap), "McDiarmid (ADE)", True, 10**4),
    "NRR (heuristic)": Detector(
        lambda t, k, d, cap=NO_CAP: nrr(t, k=k, delta=d, cap=cap), "none (streak of 1/δ rounds)", False, 10**4
    ),
    "RR-GLR": Detector(
        lambda t, k, d, cap=NO_CAP: rr_glr(t, k=k, delta=d, cap=cap, sub_gaussian=0.5),
        "GLR (KK21, unverified)",
        True,
        20,
    ),
    "Track-and-Stop": Detector(
        lambda t, k, d, cap=NO_CAP: track_and_stop(
            t, k=k, delta=d, cap=cap, weights="gaussian", sub_gaussian=0.5, check_every=t.n_arms
        ),
        "GLR (KK21, unverified)",
        True,
        20,
    ),
}


def run_detector(name: str, cell: Cell, tape, delta: float = DELTA) -> dict:
    """One run of detector ``name`` on ``tape`` (rewound by the caller), summarised as a row."""
    det = DETECTORS[check_choice("detector", name, tuple(DETECTORS))]
    start = time.perf_counter()
    out = det.run(tape, cell.k, delta)
    wall = time.perf_counter() - start
    return {
        "detector": name,
        "pulls": int(out.pulls),
        "correct": bool(np.array_equal(out.output, ksigma_outliers(cell.means, cell.k))),
        "capped": bool(out.capped),
        "wall_s": round(wall, 4),
    }


__all__ = [
    "PLANTED_MIN_GAP",
    "CERTIFY_MAX_N",
    "DELTA",
    "DETECTORS",
    "FAMILIES",
    "INSTANCES",
    "K",
    "Cell",
    "Detector",
    "instance",
    "run_detector",
    "yardstick",
]
