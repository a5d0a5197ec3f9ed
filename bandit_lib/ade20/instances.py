r"""Instances of the ADE20 experiments.

* :func:`uniform_window`: the paper's synthetic instances, ``n`` i.i.d. U[0, 1] means redrawn as a
  whole vector until :math:`\Delta_{\min}` lies in a window (rejection sampling, the literal reading
  of "we generate test cases with Delta_min in [lo, hi]"). For :math:`k \ge 2`,
  :math:`\theta \approx 1/2 + k/\sqrt{12} > 1`, so **no arm is an outlier** in these instances:
  the experiments measure the cost of certifying that every arm is normal, and
  :math:`\Delta_{\min} = \theta - \max_i y_i` is set by the top arm.
* :func:`target_window`: the second reading of the same sentence, whose :math:`\Delta_{\min}` does
  not drift with ``n``: a target drawn uniformly in the window, and a U[0, 1]^n vector scaled and
  shifted inside [0, 1] so that its :math:`\Delta_{\min}` is the target (:func:`window_instance`
  picks either by name).
* :func:`hcb_error_rates`: the real HCB worker error rates (722 workers), read with the SQUARE
  loader from ``data/raw/hcb`` (committed, MIT licence) or ``$BANDIT_DATA/hcb``; the files'
  sha256 are pinned here, so a result computed from them names the data it read.
* :func:`hcb_like`: a seeded stand-in for the 722 worker error rates of SQUARE's HCB data
  (HyunCatherines, binary): labels per worker :math:`c_i = \max(1, \mathrm{round}(e^{Z_i}))`,
  :math:`Z_i \sim N(1.7, 1.3^2)`; latent error probability :math:`p_i \sim \mathrm{Beta}(2, 4)`;
  observed error rate :math:`y_i = \mathrm{Binomial}(c_i, p_i)/c_i`. Whole draws are repeated
  until :math:`\Delta_{\min}` at ``k = 2`` lies in [0.045, 0.065], around HCB's 0.0554.
* :func:`planted_window`: instances *with* outliers for the correctness check (not in the paper):
  ``n - n_out`` normal means U[0, 0.6] and ``n_out`` high means U[0.8, 1], redrawn until the
  k-sigma outlier set is exactly the high arms and :math:`\Delta_{\min}` lies in a window.
* :func:`illustration_instance`: the fixed instance of Fig. 1 (27 arms evenly spaced in
  [0.1, 0.4] and three arms at 0.85, 0.90, 0.95; at ``k = 2`` the three top arms are outliers).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from bandit_lib.ade20.square import worker_error_rates
from bandit_lib.checks import check_int, check_nonnegative, check_real
from bandit_lib.infra.profiles import find_data
from bandit_lib.ksigma import ksigma_gaps, ksigma_threshold
from bandit_lib.seeding import SeedLike, generator

MAX_DRAWS = 10_000_000


@dataclass(frozen=True)
class Drawn:
    """A generated instance: its means and how many whole draws the rejection sampler made."""

    means: np.ndarray
    draws: int
    labels: np.ndarray | None = None  # hcb_like only: labels per simulated worker


def _check_window(lo: float, hi: float) -> tuple[float, float]:
    lo = check_nonnegative("lo", lo)
    hi = check_real("hi", hi)
    if not hi >= lo:
        raise ValueError(f"the Delta_min window needs lo <= hi; got lo={lo!r}, hi={hi!r}")
    return lo, hi


def uniform_window(n: int, k: float, lo: float, hi: float, seed: SeedLike, *keys, max_draws: int = MAX_DRAWS) -> Drawn:
    """``n`` i.i.d. U[0, 1] means with ``lo <= Delta_min <= hi`` (window inclusive), by rejection.

    Vectors are drawn in batches from the generator named ``("uniform-window", *keys)`` under
    ``seed`` and the first one in draw order that falls in the window is returned, so the result
    depends only on the seed and the keys. Raises if ``max_draws`` vectors all miss the window.

    Example (ADE20's Fig. 2 recipe on 30 arms: k = 2, Delta_min in [0.1, 0.2]):

    >>> from bandit_lib.ade20 import uniform_window
    >>> from bandit_lib.ksigma import ksigma_gaps
    >>> drawn = uniform_window(30, 2.0, 0.1, 0.2, 1)
    >>> drawn.means.size, drawn.draws, bool(0.1 <= ksigma_gaps(drawn.means, 2.0).min() <= 0.2)
    (30, 2, True)
    """
    n = check_int("n", n, minimum=2)
    k = check_nonnegative("k", k)
    lo, hi = _check_window(lo, hi)
    max_draws = check_int("max_draws", max_draws, minimum=1)
    rng = generator(seed, "uniform-window", *keys)
    drawn, batch = 0, 64
    while drawn < max_draws:
        batch = min(batch, max_draws - drawn)
        y = rng.random((batch, n))
        theta = y.mean(axis=1) + k * y.std(axis=1)
        gap = np.abs(y - theta[:, None]).min(axis=1)
        # The batch statistic agrees with ksigma_gaps to rounding: widen the window by far more
        # than that, then decide each candidate with the library's own value.
        for row in np.flatnonzero((gap >= lo - 1e-9) & (gap <= hi + 1e-9)):
            if lo <= ksigma_gaps(y[row], k).min() <= hi:
                return Drawn(y[row].copy(), drawn + int(row) + 1)
        drawn += batch
        batch = min(2 * batch, 4096)
    raise RuntimeError(f"no U[0,1]^{n} vector with Delta_min in [{lo}, {hi}] at k={k} in {max_draws} draws")


def target_window(n: int, k: float, lo: float, hi: float, seed: SeedLike, *keys, max_draws: int = MAX_DRAWS) -> Drawn:
    r"""``n`` means whose :math:`\Delta_{\min}` is a target drawn uniformly in ``[lo, hi]``: the second
    reading of "we generate test cases with Delta_min in [lo, hi]", whose :math:`\Delta_{\min}`
    distribution does not depend on ``n`` (that of :func:`uniform_window` drifts to the window's top
    as ``n`` grows, since :math:`\theta` concentrates).

    A target :math:`t \sim U[lo, hi]` is drawn, then a U[0, 1]^n vector ``u``; the instance is
    :math:`y = a u + b` with :math:`a = t / \Delta_{\min}(u)` (the k-sigma gaps scale with ``a``
    and ignore ``b``, so :math:`\Delta_{\min}(y) = t`) and ``b`` uniform in the offsets that keep
    every mean in [0, 1]; a ``u`` that cannot fit ([0, 1] is too short for :math:`a` times its
    range) is redrawn. The means are uniform on a sub-interval of [0, 1], of width set by ``t``.
    Placing only the nearest arm at :math:`\theta - t` cannot work at large ``n``: with the other
    means U[0, 1], :math:`\theta \approx 1/2 + k/\sqrt{12}` (1.22 at k = 2.5) puts that arm above 1
    for every target under about 0.2.

    >>> from bandit_lib.ade20.instances import target_window
    >>> drawn = target_window(100, 2.5, 0.1, 0.2, 1)
    >>> bool(0.1 <= ksigma_gaps(drawn.means, 2.5).min() <= 0.2), bool(0 <= drawn.means.min() <= drawn.means.max() <= 1)
    (True, True)
    """
    n = check_int("n", n, minimum=2)
    k = check_nonnegative("k", k)
    lo, hi = _check_window(lo, hi)
    max_draws = check_int("max_draws", max_draws, minimum=1)
    rng = generator(seed, "target-window", *keys)
    target = float(rng.uniform(lo, hi)) if hi > lo else lo
    for draw in range(1, max_draws + 1):
        u = rng.random(n)
        gap = float(ksigma_gaps(u, k).min())
        if gap <= 0.0:
            continue
        a = target / gap
        low_b, high_b = -a * float(u.min()), 1.0 - a * float(u.max())
        if high_b < low_b:
            continue
        y = np.clip(a * u + rng.uniform(low_b, high_b), 0.0, 1.0)  # clip: rounding at the ends only
        if lo <= ksigma_gaps(y, k).min() <= hi:
            return Drawn(y, draw)
    raise RuntimeError(f"no instance with Delta_min = {target} (k={k}, n={n}) in {max_draws} draws")


#: The two readings of the synthetic generator, by name (:func:`window_instance`).
GENERATORS = {"whole-vector": uniform_window, "target": target_window}


def window_instance(
    n: int, k: float, lo: float, hi: float, seed: SeedLike, *keys, generator: str = "whole-vector"
) -> Drawn:
    """The synthetic instance with ``lo <= Delta_min <= hi`` under one reading of the generator:
    ``"whole-vector"`` (:func:`uniform_window`, the chapter's first reading) or ``"target"``
    (:func:`target_window`, a target Delta_min drawn in the window)."""
    if generator not in GENERATORS:
        raise ValueError(f"generator must be one of {sorted(GENERATORS)}; got generator={generator!r}")
    return GENERATORS[generator](n, k, lo, hi, seed, *keys)


HCB_WINDOW = (0.045, 0.065)


def hcb_like(
    seed: SeedLike,
    *keys,
    n: int = 722,
    k: float = 2.0,
    window: tuple[float, float] = HCB_WINDOW,
    max_draws: int = 100_000,
) -> Drawn:
    """The HCB-like stand-in: worker error rates whose ``Delta_min`` at ``k`` lies in ``window``.

    Each draw takes, in this order, ``n`` normals, ``n`` betas and ``n`` binomials from the
    generator named ``("hcb-like", *keys)`` under ``seed``; about a quarter of draws pass.
    """
    n = check_int("n", n, minimum=2)
    k = check_nonnegative("k", k)
    lo, hi = _check_window(*window)
    max_draws = check_int("max_draws", max_draws, minimum=1)
    rng = generator(seed, "hcb-like", *keys)
    for draw in range(1, max_draws + 1):
        labels = np.maximum(1, np.round(np.exp(rng.normal(1.7, 1.3, n)))).astype(np.int64)
        p = rng.beta(2.0, 4.0, n)
        errors = rng.binomial(labels, p)
        y = errors / labels
        if lo <= ksigma_gaps(y, k).min() <= hi:
            return Drawn(y, draw, labels)
    raise RuntimeError(f"no HCB-like draw with Delta_min in [{lo}, {hi}] at k={k} in {max_draws} draws")


def planted_window(
    n: int, n_out: int, k: float, lo: float, hi: float, seed: SeedLike, *keys, max_draws: int = 1_000_000
) -> Drawn:
    """Normals U[0, 0.6], ``n_out`` outliers U[0.8, 1]; redrawn until O* is the planted set and
    ``lo <= Delta_min <= hi``. The outliers are the last ``n_out`` arms."""
    n = check_int("n", n, minimum=2)
    n_out = check_int("n_out", n_out, minimum=1, maximum=n - 1)
    k = check_nonnegative("k", k)
    lo, hi = _check_window(lo, hi)
    max_draws = check_int("max_draws", max_draws, minimum=1)
    rng = generator(seed, "planted-window", *keys)
    planted = np.arange(n - n_out, n)
    for draw in range(1, max_draws + 1):
        y = np.concatenate([rng.uniform(0.0, 0.6, n - n_out), rng.uniform(0.8, 1.0, n_out)])
        theta = ksigma_threshold(y, k)
        if np.array_equal(np.flatnonzero(y >= theta), planted) and lo <= ksigma_gaps(y, k).min() <= hi:
            return Drawn(y, draw)
    raise RuntimeError(
        f"no planted instance (n={n}, n_out={n_out}, k={k}) with Delta_min in [{lo}, {hi}] in {max_draws} draws"
    )


def illustration_instance() -> np.ndarray:
    """Fig. 1's instance: ``linspace(0.1, 0.4, 27)`` and 0.85, 0.90, 0.95."""
    return np.concatenate([np.linspace(0.1, 0.4, 27), [0.85, 0.90, 0.95]])


def crowd_summary(y) -> dict[str, float]:
    """The statistics of an error-rate vector that a copy of HCB or a stand-in is compared on."""
    y = np.asarray(y, dtype=np.float64)
    if y.ndim != 1 or y.size == 0 or np.any(~np.isfinite(y)) or np.any((y < 0) | (y > 1)):
        raise ValueError(f"y must be a non-empty vector of rates in [0, 1]; got y={y!r}")
    return {
        "n": int(y.size),
        "mean": float(y.mean()),
        "sd": float(y.std()),
        "zeros": int(np.sum(y == 0)),
        "ones": int(np.sum(y == 1)),
        "sum": float(y.sum()),
        "distinct": int(np.unique(y).size),
    }


#: sha256 of the HCB files the book is computed from (SQUARE-2.0, commit af3d45b).
HCB_FILES = {
    "responses_eval.txt": "29b56e23e237bd401a6b3f8829169d0dcbc8ba170726eac29613ca35a22434a0",
    "responses_gt.txt": "031bce1014ae874362327aef2e0e626da529d7349b31e64a65f99947f080e1c4",
}


@dataclass(frozen=True)
class RealData:
    """A real data set as an experiment used it: the rates, and where they came from."""

    means: np.ndarray
    source: dict


def hcb_error_rates() -> RealData:
    """The 722 HCB worker error rates (``square.worker_error_rates`` on the pinned files).

    Looks in ``$BANDIT_DATA/hcb`` then ``data/raw/hcb``; a copy whose files differ from the pinned
    sha256 is refused (the numbers of the book would not be the numbers of this data)."""
    folder = find_data("hcb", *HCB_FILES)
    if folder is None:
        raise FileNotFoundError(
            "no copy of HCB found: the book ships it in data/raw/hcb (or set BANDIT_DATA to a folder with hcb/ "
            f"holding {sorted(HCB_FILES)})"
        )
    for name, expected in HCB_FILES.items():
        digest = hashlib.sha256((folder / name).read_bytes()).hexdigest()
        if digest != expected:
            raise ValueError(
                f"{folder / name} is not the HCB file this book was computed from: sha256 {digest}, expected "
                f"{expected} (SQUARE-2.0 commit af3d45b)"
            )
    rates = worker_error_rates(folder / "responses_eval.txt", folder / "responses_gt.txt")
    return RealData(
        rates.error_rates, {"data": "HCB (SQUARE-2.0)", "sha256": dict(HCB_FILES), "workers": rates.n_workers}
    )
