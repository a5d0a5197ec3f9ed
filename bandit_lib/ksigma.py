r"""The k-sigma outlier threshold and outlier set (ZHUANG17, ADE20).

.. math::
   \theta = \mu_y + k\,\sigma_y,\qquad
   \mu_y = \tfrac1n\sum_i y_i,\qquad
   \sigma_y = \sqrt{\tfrac1n\sum_i (y_i - \mu_y)^2}

with the **population** standard deviation (divide by n). An arm is an outlier when
:math:`y_i > \theta` (ZHUANG17) or :math:`y_i \ge \theta` (ADE20, ``inclusive=True``); only high
outliers count. At most a fraction :math:`1/(1+k^2)` of the arms can lie above the threshold.
"""

from __future__ import annotations

import numpy as np

from bandit_lib.checks import check_nonnegative, check_vector


def ksigma_threshold(y, k: float) -> float:
    """theta = mean(y) + k * std(y, ddof=0)."""
    y = check_vector("y", y)
    k = check_nonnegative("k", k)
    return float(y.mean() + k * y.std())


def ksigma_outliers(y, k: float, *, inclusive: bool = False) -> np.ndarray:
    """Sorted indices of the arms above the k-sigma threshold (``>=`` if ``inclusive``)."""
    y = check_vector("y", y)
    theta = ksigma_threshold(y, k)
    above = y >= theta if inclusive else y > theta
    return np.flatnonzero(above)


def ksigma_gaps(y, k: float) -> np.ndarray:
    """Delta_i = |y_i - theta|, the distance of each arm to the threshold."""
    y = check_vector("y", y)
    return np.abs(y - ksigma_threshold(y, k))


def max_outlier_fraction(k: float) -> float:
    """Largest fraction of arms that can lie strictly above mean + k * std: 1 / (1 + k^2)."""
    k = check_nonnegative("k", k)
    return 1.0 / (1.0 + k * k)
