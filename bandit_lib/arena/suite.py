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

**Detectors** (``DETECTORS``), each with its sampling rule and its stop, so that the tables can
vary one at a time: RR and WRR under both interval families of ZHUANG17 (Hoeffding/McDiarmid with
R = 1, and Agresti-Coull), IB with its CLUCB sub-Gaussian intervals, NRR (a heuristic stop, not
delta-correct: it is in the table to show what correctness costs), ADE; the threshold ablation, RR
and WRR stopped by per-arm time-uniform confidence sequences (:mod:`bandit_lib.arena.anytime`, the
"ball" threshold interval); the GLR stop (:mod:`bandit_lib.arena.glr`) under four samplers:
round robin (RR-GLR), D-tracking of the Gaussian optimal weights
(:func:`~bandit_lib.arena.tracking.track_and_stop`), Top-Two (:mod:`bandit_lib.arena.toptwo`:
information-directed beta; the fixed beta = 1/2 of the book's first adaptation as an ablation row) and
Frank-Wolfe sampling (:mod:`bandit_lib.arena.frank_wolfe`); and the three adaptive samplers again
under the per-arm confidence-sequence stop (``stop="cs"``), so that every sampler meets both stops. The book's detectors treat the rewards
as 1/2-sub-Gaussian (``SUB_GAUSSIAN``: Gaussian divergence and threshold with sigma = 1/2), and
the GLR samplers check their stop once per n pulls, as RR-GLR does. ``delta_correct`` says whether
the guarantee holds by construction: not for NRR and IB (heuristic stops; :mod:`bandit_lib.zhuang17.ib`:
"IB has no overall guarantee"), and not for Agresti-Coull intervals, which are asymptotic. Every
detector runs where its cost allows (``max_n`` here, ``SKIP`` in :mod:`bandit_lib.arena.experiments`).

**The two awkward families, decided.** ``window`` is ADE20's setting as the paper ran it (k = 2.5,
U[0, 1] means): it has no outliers (the threshold is above 1) and no Bernoulli arm can change side
alone, so the single-arm bound is 0 there; the box certificate
(:func:`~bandit_lib.arena.yardstick.certified_lower_T_box`) moves several arms at once inside
[0, 1] and gives a positive bound. ``hcb`` holds error rates of exactly 0: the detectors take them
as they are, and so does the single-arm bound (kl(0, t) = -ln(1 - t) is finite); the Bernoulli
certificate needs interior means, and n = 722 is beyond its budget anyway.

**Yardstick.** :func:`yardstick`: certified lower bounds on the Bernoulli :math:`T^*` and a
certified bracket on the Gaussian :math:`T^*` (sigma = 1/2) at every n, so that every factor above
the bound is a bracket.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bandit_lib.ade20.ade import ade
from bandit_lib.ade20.instances import hcb_error_rates, uniform_window
from bandit_lib.arena.anytime import rr_cs, wrr_cs
from bandit_lib.arena.frank_wolfe import frank_wolfe
from bandit_lib.arena.glr import rr_glr
from bandit_lib.arena.lower_bound import certified_lower_T, kl_delta, single_arm_bound
from bandit_lib.arena.toptwo import top_two
from bandit_lib.arena.tracking import track_and_stop
from bandit_lib.arena.yardstick import certified_lower_T_box, gaussian_bracket
from bandit_lib.blas_threads import single_blas_thread
from bandit_lib.checks import check_choice, check_int, check_open_unit
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


#: the largest n at which :func:`yardstick` runs the Bernoulli cutting-plane certificate
#: (:func:`~bandit_lib.arena.lower_bound.certified_lower_T`: 1-49 s at n = 50, minutes at n = 100)
CERTIFY_MAX_N = 50
#: evaluations allowed to the Bernoulli box certificate of the window family and to the Gaussian
#: bracket: iteration budgets, never wall-clock limits, so that a recompute gives the same numbers on
#: any machine under any load (each stops earlier on its own tolerance: the box after 26-27
#: evaluations on the window cells, the bracket after 1-57 everywhere but HCB, which uses all 200)
BOX_MAX_ITER = 60
GAUSS_MAX_ITER = 200
#: the Gaussian bracket stops when its lower end is within this fraction of its upper end
GAUSS_RTOL = 0.1


def _check_cell(cell) -> Cell:
    if not isinstance(cell, Cell):
        raise TypeError(f"cell must be a Cell of the suite (see instance()); got cell={cell!r}")
    return cell


@single_blas_thread()
def yardstick(cell: Cell, delta: float = DELTA, *, certify: bool | None = None, gauss: bool = True) -> dict:
    r"""The instance's summary and the brackets on :math:`T^*` that the factors above the bound use.

    Certified lower bounds on the Bernoulli :math:`T^*` (the rewards of the suite):

    * ``T1``: :func:`~bandit_lib.arena.lower_bound.single_arm_bound`, any n;
    * ``T_cert`` (if ``certify``, default n <= ``CERTIFY_MAX_N``):
      :func:`~bandit_lib.arena.lower_bound.certified_lower_T`, tighter;
    * ``T_box`` (the ``window`` family, where no arm can change side alone inside [0, 1]):
      :func:`~bandit_lib.arena.yardstick.certified_lower_T_box`, alternatives that move several arms
      inside the box;
    * ``T_lower`` = the largest of them and ``bound`` = ``T_lower`` kl(delta, 1 - delta): every
      delta-correct detector has E[pulls] >= ``T*`` kl >= ``bound``, so pulls / ``bound`` *over*-states
      the factor above the bound by ``T*/T_lower``.

    The Gaussian bracket (sigma = 1/2), every n: ``G_lo`` <= :math:`T^*_G` <= ``G_hi``
    (:func:`~bandit_lib.arena.yardstick.gaussian_bracket`, certified at both ends), the bound of
    Gaussian arms with the same means, which a detector that treats the rewards as
    1/2-sub-Gaussian cannot tell from these. Since :math:`\mathrm{kl}(x,y)\ge2(x-y)^2` (Pinsker),
    ``G_hi`` is an upper value of the Bernoulli :math:`T^*`; on the window family the box
    certificate gives a tighter certified one, ``T_box_up`` (its conic dual bounds: every arm is
    normal there). ``T_upper`` = the smaller of the two (``upper_kind`` says which), so pulls /
    (``T_upper`` kl) *under*-states the factor. ``gauss=False`` leaves the Gaussian bracket out (NaN).
    Every budget is a number of iterations (:data:`BOX_MAX_ITER`, ``GAUSS_MAX_ITER``): the
    numbers do not depend on the machine, and the whole runs on one BLAS thread whatever the caller's
    process allows (the box's T_box moved by 1.5 % with two threads), so they do not depend on the
    thread count either; ``certify_s`` and ``gauss_s`` are wall times, for the record.
    """
    cell = _check_cell(cell)
    delta = check_open_unit("delta", delta)
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
        "T_box": math.nan,
        "T_box_up": math.nan,
        "certify_s": math.nan,
    }
    lower, kind = t1, "single-arm"
    start = time.perf_counter()
    if certify and t1 > 0:
        t_cert = certified_lower_T(cell.means, cell.k, divergence="bernoulli")[0]
        out["T_cert"] = t_cert
        if t_cert > lower:
            lower, kind = t_cert, "cutting planes"
    if cell.family == "window":
        t_box, _, box = certified_lower_T_box(cell.means, cell.k, max_iter=BOX_MAX_ITER)
        out["T_box"] = t_box
        if box.upper_certified:
            out["T_box_up"] = box.T_upper
        if t_box > lower:
            lower, kind = t_box, "box cutting planes"
    out["certify_s"] = round(time.perf_counter() - start, 2)
    out.update(G_lo=math.nan, G_hi=math.nan, gauss_s=math.nan)
    if gauss:
        start = time.perf_counter()
        g_lo, g_hi, _, _ = gaussian_bracket(cell.means, cell.k, sigma=0.5, rtol=GAUSS_RTOL, max_iter=GAUSS_MAX_ITER)
        out.update(G_lo=g_lo, G_hi=g_hi, gauss_s=round(time.perf_counter() - start, 2))
    # the tightest certified upper value of the Bernoulli T*: the box's where it has one, else Pinsker's G_hi
    uppers = {"box (Bernoulli, conic dual)": out["T_box_up"], "Gaussian bracket (Pinsker)": out["G_hi"]}
    uppers = {kind: value for kind, value in uppers.items() if not math.isnan(value)}
    upper_kind = min(uppers, key=uppers.get) if uppers else "none"
    out.update(T_upper=uppers.get(upper_kind, math.nan), upper_kind=upper_kind)
    out.update(
        T_lower=lower,
        bound_kind=kind if lower > 0 else "none",
        bound=lower * kl_delta(delta) if lower > 0 else math.nan,
    )
    return out


@dataclass(frozen=True)
class Detector:
    """A detector of the arena: how to run it (``run(tape, k, delta, cap=NO_CAP)``, so the
    experiments and the benchmarks run the same configuration), its sampling rule and its stop
    (what the tables and the threshold ablation group by), whether it is delta-correct by
    construction, and the largest n it runs at in the experiments (its cost, measured)."""

    run: Callable
    sampler: str
    stop: str
    delta_correct: bool
    max_n: int


_H, _AC = HoeffdingCI(R=1.0), AgrestiCoullCI()
#: the GLR stop and the per-arm confidence sequences treat rewards in [0, 1] as 1/2-sub-Gaussian
SUB_GAUSSIAN = 0.5
_GLR_STOP = "GLR, KK21 threshold over all n arms"
#: the adaptive samplers re-solve on a schedule (``bandit_lib.arena._samplers_engine``), so their
#: cost per pull no longer grows linearly with n; with the GLR stop they run up to this n: at
#: n = 10^4 its threshold, linear in n, makes a run cost more than the budget (one run per cell at
#: most 60 s; D-tracking's GLR run at 10^4 passes 10^9 pulls, minutes), while with the per-arm
#: confidence-sequence stop D-tracking and Top-Two take 32-47 s a run there (CPU seconds, measured
#: on the large cell; Frank-Wolfe 66 s, over the budget)
MAX_N_GLR = 1000
MAX_N_CS = 10**4
_CS_STOP = "per-arm KK21 confidence sequences"
#: the threshold interval the per-arm boxes imply: the tighter of the two proved in arena.anytime, so
#: that what the GLR stop gains over RR-CS is not this interval's slack
CS_INTERVAL = "ball"

DETECTORS: dict[str, Detector] = {
    "RR (Hoeffding)": Detector(
        lambda t, k, d, cap=NO_CAP: rr(t, k=k, delta=d, cap=cap, ci=_H),
        "round robin",
        "per-arm Hoeffding/McDiarmid, union over time",
        True,
        10**4,
    ),
    "RR (Agresti–Coull)": Detector(
        lambda t, k, d, cap=NO_CAP: rr(t, k=k, delta=d, cap=cap, ci=_AC),
        "round robin",
        "per-arm Agresti–Coull (asymptotic)",
        False,
        10**4,
    ),
    "WRR (Hoeffding)": Detector(
        lambda t, k, d, cap=NO_CAP: wrr(t, k=k, delta=d, cap=cap, ci=_H),
        "WRR",
        "per-arm Hoeffding/McDiarmid, union over time",
        True,
        10**4,
    ),
    "WRR (Agresti–Coull)": Detector(
        lambda t, k, d, cap=NO_CAP: wrr(t, k=k, delta=d, cap=cap, ci=_AC),
        "WRR",
        "per-arm Agresti–Coull (asymptotic)",
        False,
        10**4,
    ),
    # IB's stop is heuristic (bandit_lib.zhuang17.ib: "IB has no overall guarantee")
    "IB": Detector(lambda t, k, d, cap=NO_CAP: ib(t, k=k, delta=d, cap=cap), "IB", "CLUCB (heuristic)", False, 10**4),
    "ADE": Detector(lambda t, k, d, cap=NO_CAP: ade(t, k=k, delta=d, cap=cap), "ADE", "McDiarmid (ADE)", True, 10**4),
    "NRR (heuristic)": Detector(
        lambda t, k, d, cap=NO_CAP: nrr(t, k=k, delta=d, cap=cap),
        "round robin",
        "none (streak of 1/δ rounds)",
        False,
        10**4,
    ),
    "RR (anytime CS)": Detector(
        lambda t, k, d, cap=NO_CAP: rr_cs(t, k=k, delta=d, cap=cap, sigma=SUB_GAUSSIAN, interval=CS_INTERVAL),
        "round robin",
        _CS_STOP,
        True,
        10**4,
    ),
    "WRR (anytime CS)": Detector(
        lambda t, k, d, cap=NO_CAP: wrr_cs(t, k=k, delta=d, cap=cap, sigma=SUB_GAUSSIAN, interval=CS_INTERVAL),
        "WRR",
        _CS_STOP,
        True,
        10**4,
    ),
    "RR-GLR": Detector(
        lambda t, k, d, cap=NO_CAP: rr_glr(t, k=k, delta=d, cap=cap, sub_gaussian=SUB_GAUSSIAN),
        "round robin",
        _GLR_STOP,
        True,
        1000,  # its threshold grows with n: about 6e8 pulls, 15 s a run at n = 1000, ~100 times more at 10^4
    ),
    "D-Tracking": Detector(
        lambda t, k, d, cap=NO_CAP: track_and_stop(
            t, k=k, delta=d, cap=cap, weights="gaussian", sub_gaussian=SUB_GAUSSIAN, check_every=t.n_arms
        ),
        "D-tracking of the Gaussian w*",
        _GLR_STOP,
        True,
        MAX_N_GLR,
    ),
    "Top-Two": Detector(
        lambda t, k, d, cap=NO_CAP: top_two(t, k=k, delta=d, cap=cap, sub_gaussian=SUB_GAUSSIAN),
        "Top-Two (information-directed β)",
        _GLR_STOP,
        True,
        MAX_N_GLR,
    ),
    "Frank–Wolfe": Detector(
        lambda t, k, d, cap=NO_CAP: frank_wolfe(t, k=k, delta=d, cap=cap, sub_gaussian=SUB_GAUSSIAN),
        "Frank–Wolfe sampling",
        _GLR_STOP,
        True,
        MAX_N_GLR,
    ),
    # the book's first Top-Two (leader j*, beta = 1/2): an ablation of the rule, not a contender
    "Top-Two (β = ½)": Detector(
        lambda t, k, d, cap=NO_CAP: top_two(t, k=k, delta=d, cap=cap, sub_gaussian=SUB_GAUSSIAN, rule="fixed"),
        "Top-Two (fixed β = ½)",
        _GLR_STOP,
        True,
        200,  # an ablation: the cells up to 200 arms show what the rule changes
    ),
    "D-Tracking (CS)": Detector(
        lambda t, k, d, cap=NO_CAP: track_and_stop(
            t, k=k, delta=d, cap=cap, weights="gaussian", sub_gaussian=SUB_GAUSSIAN, check_every=t.n_arms, stop="cs"
        ),
        "D-tracking of the Gaussian w*",
        _CS_STOP,
        True,
        MAX_N_CS,
    ),
    "Top-Two (CS)": Detector(
        lambda t, k, d, cap=NO_CAP: top_two(t, k=k, delta=d, cap=cap, sub_gaussian=SUB_GAUSSIAN, stop="cs"),
        "Top-Two (information-directed β)",
        _CS_STOP,
        True,
        MAX_N_CS,
    ),
    "Frank–Wolfe (CS)": Detector(
        lambda t, k, d, cap=NO_CAP: frank_wolfe(t, k=k, delta=d, cap=cap, sub_gaussian=SUB_GAUSSIAN, stop="cs"),
        "Frank–Wolfe sampling",
        _CS_STOP,
        True,
        1000,  # 66 s a run at 10^4 (7e8 pulls), over the budget
    ),
}
#: the detectors stopped by the GLR statistic (the book's own, with the RR-CS pair their ablation)
GLR = ("RR-GLR", "D-Tracking", "Top-Two", "Frank–Wolfe", "Top-Two (β = ½)")
#: the per-arm confidence-sequence stop under round robin and WRR (the threshold ablation) and
#: under the adaptive samplers
ANYTIME = ("RR (anytime CS)", "WRR (anytime CS)")
ADAPTIVE_CS = ("D-Tracking (CS)", "Top-Two (CS)", "Frank–Wolfe (CS)")
#: the adaptive samplers, each under both stops: (GLR row, CS row)
SAMPLER_PAIRS = {
    "D-tracking": ("D-Tracking", "D-Tracking (CS)"),
    "Top-Two": ("Top-Two", "Top-Two (CS)"),
    "Frank–Wolfe": ("Frank–Wolfe", "Frank–Wolfe (CS)"),
}


def run_detector(name: str, cell: Cell, tape, delta: float = DELTA) -> dict:
    """One run of detector ``name`` on ``tape`` (rewound by the caller), summarised as a row."""
    det = DETECTORS[check_choice("detector", name, tuple(DETECTORS))]
    cell = _check_cell(cell)
    delta = check_open_unit("delta", delta)
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
    "ANYTIME",
    "BOX_MAX_ITER",
    "CERTIFY_MAX_N",
    "GAUSS_RTOL",
    "GAUSS_MAX_ITER",
    "ADAPTIVE_CS",
    "MAX_N_CS",
    "MAX_N_GLR",
    "SAMPLER_PAIRS",
    "GLR",
    "PLANTED_MIN_GAP",
    "SUB_GAUSSIAN",
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
