r"""The k-sigma outlier threshold and outlier set (ZHUANG17, ADE20).

.. math::
   \theta = \mu_y + k\,\sigma_y,\qquad
   \mu_y = \tfrac1n\sum_i y_i,\qquad
   \sigma_y = \sqrt{\tfrac1n\sum_i (y_i - \mu_y)^2}

with the **population** standard deviation (divide by n). An arm is an outlier when
:math:`y_i > \theta` (ZHUANG17) or :math:`y_i \ge \theta` (ADE20, ``inclusive=True``); only high
outliers count. At most a fraction :math:`1/(1+k^2)` of the arms can lie above the threshold.

The outlier set does not depend on the scale of the means: it is the same for :math:`cy` and
:math:`y` for every :math:`c > 0` (arms within rounding of the threshold aside). Means of ordinary
size are computed with the plain formula; means so small or so large that the squared deviations
would underflow or overflow are first divided by their largest magnitude (an exact rescaling in
the decision :math:`y_i - \mu_y > k\sigma_y`). A threshold that cannot be represented as a
float (overflow) raises an error instead of becoming infinite.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from bandit_lib.checks import check_nonnegative, check_vector

# Means whose largest magnitude lies in this range give squared deviations far from under- and
# overflow (the smallest nonzero deviation is about 1e-16 of the largest mean), so the plain
# formula is exact to rounding there; outside it the means are rescaled first.
_PLAIN_RANGE = (1e-100, 1e100)


def _plain(y: np.ndarray) -> bool:
    scale = float(np.max(np.abs(y)))
    return scale == 0.0 or _PLAIN_RANGE[0] <= scale <= _PLAIN_RANGE[1]


def _scaled(y: np.ndarray) -> tuple[float, float, float, np.ndarray]:
    """``(m, mu, sd, d)`` with ``y = m * u``, ``mu = mean(u)``, ``d = (u - mu) / s`` and
    ``sd = std(d)``, where ``m = max|y|`` and ``s = max|u - mu|`` (so ``|u|, |d| <= 1``)."""
    m = float(np.max(np.abs(y)))
    u = y / m
    mu = float(u.mean())
    dev = u - mu
    s = float(np.max(np.abs(dev)))
    if s == 0.0:
        return m, mu, 0.0, dev
    d = dev / s
    return m, mu, s * float(np.sqrt(np.mean(d * d))), dev


def ksigma_threshold(y, k: float) -> float:
    """theta = mean(y) + k * std(y, ddof=0); an error if theta overflows a float.

    Example:

    >>> from bandit_lib import ksigma_threshold
    >>> round(ksigma_threshold([0.1, 0.2, 0.25, 0.3, 0.9], 1.5), 4)
    0.7743
    """
    y = check_vector("y", y)
    k = check_nonnegative("k", k)
    if _plain(y):
        return float(y.mean() + k * y.std())
    m, mu, sd, _ = _scaled(y)
    theta = m * (mu + k * sd)
    if not np.isfinite(theta):
        raise OverflowError(
            f"the k-sigma threshold of y overflows a float (max |y| = {m!r}, k = {k!r}); rescale y: "
            "the outlier set does not depend on the scale (ksigma_outliers(y / max|y|, k))"
        )
    return float(theta)


def ksigma_outliers(y, k: float, *, inclusive: bool = False) -> np.ndarray:
    """Sorted indices of the arms above the k-sigma threshold (``>=`` if ``inclusive``).

    Example:

    >>> from bandit_lib import ksigma_outliers
    >>> ksigma_outliers([0.1, 0.2, 0.25, 0.3, 0.9], 1.5).tolist()
    [4]
    """
    y = check_vector("y", y)
    if _plain(y):
        theta = ksigma_threshold(y, k)
        above = y >= theta if inclusive else y > theta
        return np.flatnonzero(above)
    k = check_nonnegative("k", k)
    _, _, sd, dev = _scaled(y)
    # y_i > mu + k sd  <=>  (u_i - mu) > k sd(u), all in units of max|y|: nothing under- or overflows
    above = dev >= k * sd if inclusive else dev > k * sd
    return np.flatnonzero(above)


def ksigma_gaps(y, k: float) -> np.ndarray:
    """Delta_i = ``|y_i - theta|``, the distance of each arm to the threshold; an error on overflow.

    Example:

    >>> from bandit_lib import ksigma_gaps
    >>> ksigma_gaps([0.1, 0.2, 0.25, 0.3, 0.9], 1.5).round(3).tolist()
    [0.674, 0.574, 0.524, 0.474, 0.126]
    """
    y = check_vector("y", y)
    if _plain(y):
        return np.abs(y - ksigma_threshold(y, k))
    k = check_nonnegative("k", k)
    m, mu, sd, dev = _scaled(y)
    with np.errstate(over="ignore"):
        gaps = m * np.abs(dev - k * sd)
    if not np.all(np.isfinite(gaps)):
        raise OverflowError(f"the k-sigma gaps of y overflow a float (max |y| = {m!r}, k = {k!r}); rescale y")
    return gaps


def max_outlier_fraction(k: float) -> float:
    """Largest fraction of arms that can lie strictly above mean + k * std: 1 / (1 + k^2)."""
    k = check_nonnegative("k", k)
    return 1.0 / (1.0 + k * k)


# ------------------------------------------------------------------------------------------
# numba kernels (ZHUANG17's engines and the arena's detectors compute the threshold and the
# interval test with these, summed in index order; the Python functions above are the API)


@njit(cache=True)
def threshold_nb(yhat: np.ndarray, k: float):
    """(mu, sigma, theta) of the empirical means, summed in index order."""
    n = yhat.shape[0]
    acc = 0.0
    for i in range(n):
        acc += yhat[i]
    mu = acc / n
    acc2 = 0.0
    for i in range(n):
        d = yhat[i] - mu
        acc2 += d * d
    sig = math.sqrt(acc2 / n)
    return mu, sig, mu + k * sig


@njit(cache=True)
def is_active_nb(y: float, beta: float, theta: float, beta_th: float) -> bool:
    """ZHUANG17's Eq. (2): the arm's interval ``y +- beta`` overlaps the threshold's
    ``theta +- beta_th`` (strict; a tie ``y = theta`` goes to the second branch)."""
    if y > theta:
        return y - beta < theta + beta_th
    return y + beta > theta - beta_th


def degenerate_reason(means, k: float | None) -> str | None:
    """Why no fixed-confidence detector can stop on arms with these true ``means``, or None.

    With all means equal, or an arm exactly on the k-sigma threshold (``k`` None: only the
    first test), the arm's side is never settled: a delta-correct detector runs to its pull cap
    (10^9 pulls by default: minutes for a fast engine, hours for a reference one).
    """
    means = check_vector("means", means)
    if (means == means[0]).all():
        return f"all {len(means)} means are equal ({float(means[0])!r}), so every arm sits on the threshold"
    if k is None:
        return None
    theta = ksigma_threshold(means, k)
    on = np.flatnonzero(means == theta)
    if on.size:
        return (
            f"arm {int(on[0])} sits exactly on the threshold (mean {float(means[on[0]])!r} = theta(mu) with k = {k!r})"
        )
    return None


def leave_one_out_thresholds(y, k: float) -> np.ndarray:
    r"""For each arm j, the value :math:`t_j` at which arm j, moved alone, sits exactly on the threshold:
    :math:`t_j = a_j + k\sqrt{n v_j/(n-1-k^2)}`, with :math:`a_j, v_j` the other arms' mean and
    population variance (derived in :func:`bandit_lib.arena.lower_bound.leave_one_out_thresholds`).
    Needs :math:`k^2 < n - 1` (else no arm can lie above the threshold)."""
    y = check_vector("y", y, min_length=2)
    k = check_nonnegative("k", k)
    n = len(y)
    if not k * k < n - 1:
        raise ValueError(f"k must be below sqrt(n - 1) = {np.sqrt(n - 1):.6g} for n = {n} arms; got k={k!r}")
    c = y - y.mean()  # centred first: the leave-one-out variance is scale-safe and shift-free
    a = -c / (n - 1)
    v = np.maximum((np.sum(c * c) - c * c) / (n - 1) - a * a, 0.0)
    return y.mean() + a + k * np.sqrt(n * v / (n - 1 - k * k))


def pulls_lower_estimate(means, k: float, delta: float, *, sigma: float | None = None) -> float:
    r"""A lower bound on the expected pulls of every delta-correct k-sigma detector on these true
    ``means``: :math:`T_1\,\mathrm{kl}(\delta,1-\delta)`, the single-arm bound
    :math:`T_1=\sum_j1/d(\mu_j,t_j)\le T^*` (moving arm j alone onto its
    :func:`leave_one_out_thresholds` value is an alternative; Garivier & Kaufmann 2016, Theorem 1).
    ``sigma``: Gaussian rewards, :math:`d=(x-y)^2/(2\sigma^2)`; None: rewards in [0, 1] and the
    Bernoulli kl of Bernoulli rewards (an arm whose :math:`t_j` lies outside (0, 1) cannot change
    side alone and adds nothing). Infinite when an
    arm lies on the threshold to rounding; 0 when :math:`k^2\ge n-1` (no arm can be an outlier).
    O(n): cheap enough to run once before a run, never inside one."""
    y = check_vector("means", means, min_length=2)
    k = check_nonnegative("k", k)
    delta = float(delta)
    n = len(y)
    if not k * k < n - 1:
        return 0.0
    t = leave_one_out_thresholds(y, k)
    with np.errstate(divide="ignore", invalid="ignore"):
        if sigma is not None:
            d = (y - t) ** 2 / (2.0 * sigma * sigma)
        else:
            inside = (t > 0.0) & (t < 1.0)
            tt = np.where(inside, t, 0.5)
            a = np.where(y > 0, y * np.log(np.where(y > 0, y, 1.0) / tt), 0.0)
            b = np.where(y < 1, (1 - y) * np.log(np.where(y < 1, 1 - y, 1.0) / (1 - tt)), 0.0)
            d = np.where(inside, a + b, np.inf)
        total = float(np.sum(np.where(d > 0, 1.0 / d, np.inf)))
    return total * (1.0 - 2.0 * delta) * float(np.log((1.0 - delta) / delta))


class LongRunWarning(UserWarning):
    """A detector called without a cap on an instance whose estimated cost is large (not an error)."""


#: a detector called without a cap warns, once at its start, when the estimated pulls exceed this
LONG_RUN_PULLS = 10**8


def cap_or_refuse(
    cap,
    means,
    k: float | None,
    *,
    default: int,
    who: str,
    delta: float | None = None,
    sigma: float | None = None,
    estimate=None,
):
    """``cap`` when the caller gave one; else ``default``, after two checks at the start:

    * a degenerate instance (:func:`degenerate_reason`) is refused at once instead of running to the cap;
    * the expected cost is estimated -- :func:`pulls_lower_estimate` (``delta`` given; ``sigma``
      as there) or the caller's ``estimate`` (a function of nothing, for a problem of its own) --
      and an instance on which it exceeds ``default`` is refused with the estimate (an arm 1e-12
      off the threshold, say: the run would end at the cap without an answer, after minutes or
      hours); above :data:`LONG_RUN_PULLS` a :class:`LongRunWarning` says how long it may take.

    ``means`` may be a reward tape: then its means, and its reward model gives the divergence
    (Bernoulli kl, or Gaussian with the tape's sigma); a replay tape, a Gaussian tape with sigma = 0
    or plain means get no estimate unless ``sigma`` is given (the bound needs the true model: for
    other rewards in [0, 1] the Bernoulli kl is the *smallest* divergence, not the largest). Called
    once per run, never per pull; with a cap given nothing is estimated."""
    if cap is not None:
        return cap
    model = "gaussian" if sigma is not None else None
    if hasattr(means, "means"):  # a tape
        kind = getattr(means, "kind_name", None)
        if model is None and kind == "gaussian" and float(means.scale) > 0:
            model, sigma = "gaussian", float(means.scale)
        elif model is None and kind == "bernoulli":
            model = "bernoulli"
        means = means.means
    reason = degenerate_reason(means, k)
    if reason:
        raise ValueError(
            f"{who} refuses this instance: {reason}; no delta-correct detector can stop on it, and it would run "
            f"to the cap of {default:,} pulls. Pass cap=<pulls> explicitly to run it anyway."
        )
    pulls, how = None, ""
    if estimate is not None:
        pulls, how = float(estimate()), "the detector's own estimate"
    elif delta is not None and k is not None and model is not None:
        y = np.asarray(means, dtype=np.float64)
        if model == "gaussian" or ((y >= 0) & (y <= 1)).all():
            pulls = pulls_lower_estimate(y, k, delta, sigma=sigma)
            gaps = ksigma_gaps(y, k)
            i = int(np.argmin(gaps))
            how = (
                f"T1 kl(delta, 1 - delta) at delta = {delta!r}, the single-arm lower bound on every delta-correct "
                f"detector; the closest arm, {i}, is {float(gaps[i]):.3g} from the threshold"
            )
    if pulls is None:
        return default
    amount = "an unbounded number of" if math.isinf(pulls) else f"about {pulls:.3g}"
    if pulls > default:
        raise ValueError(
            f"{who} refuses this instance without a cap: it needs at least {amount} pulls in expectation "
            f"({how}), more than the default cap of {default:,} pulls, where it would stop without an answer. "
            "Pass cap=<pulls> explicitly to run it anyway."
        )
    if pulls > LONG_RUN_PULLS:
        import warnings

        warnings.warn(
            f"{who}: this instance needs at least {amount} pulls in expectation ({how}); the run may take "
            "long. Pass cap=<pulls> to bound it.",
            LongRunWarning,
            stacklevel=3,
        )
    return default
