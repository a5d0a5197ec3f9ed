r"""Twitter-like stand-in: 47 regions × 20 keywords (ZHUANG17 §5.1, GOLD20 §5; the ZHUANG17 chapter's reproduction notes, row N2).

The papers' data (1.5 M geotagged New York tweets; the 47 regions with more than 5,000 tweets are
the arms; 20 keywords are the test cases; an arm's mean is the fraction of the region's tweets
that contain the keyword) was never released. This module draws a *synthetic* data set with the
same structure; every figure drawn from it says so ("Twitter-like (synthetic stand-in)").

Region sizes are drawn once and shared by all keywords. For keyword ``w``::

    N_i   = 5000 + floor(5000 * Lomax(1.2))        # tweets of region i (numpy's pareto(1.2))
    b_w   ~ LogUniform(0.002, 0.05)                # keyword base rate
    sig_w ~ Uniform(0.2, 0.6)                      # regional log-normal spread
    q_i   = b_w * exp(sig_w * N(0, 1))
    H_w   ~ {0: .1, 1: .4, 2: .3, 3: .2} hotspot regions, q_i *= LogUniform(3, 12) for them
    q_i   = min(q_i, 0.95);  c_i ~ Binomial(N_i, q_i);  y_i = c_i / N_i

Pulls are Bernoulli(:math:`y_i`) (a tweet of the region drawn with replacement). Keywords are
not filtered on :math:`\Delta_{\min}` (real keywords include hard cases), but a keyword whose
k-sigma outlier set is empty at ``k`` is redrawn (precision and recall need
outliers). Each keyword has its own seed stream, so keyword ``w`` is the same however many
keywords are drawn.

:func:`twitter_like` draws a :class:`TwitterLike` (``region_sizes`` and one :class:`Keyword` per
keyword).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bandit_lib.checks import check_int, check_nonnegative
from bandit_lib.ksigma import ksigma_outliers
from bandit_lib.seeding import SeedLike, generator

LABEL = "Twitter-like (synthetic stand-in)"


@dataclass(frozen=True)
class Keyword:
    """One keyword of the stand-in: a test case with one arm per region."""

    name: str
    means: np.ndarray
    counts: np.ndarray
    base_rate: float
    spread: float
    hotspots: np.ndarray
    redraws: int

    def outliers(self, k: float) -> np.ndarray:
        return ksigma_outliers(self.means, k)


@dataclass(frozen=True)
class TwitterLike:
    region_sizes: np.ndarray
    keywords: list[Keyword]
    k: float
    label: str = LABEL


def _log_uniform(gen: np.random.Generator, low: float, high: float, size=None):
    return np.exp(gen.uniform(np.log(low), np.log(high), size=size))


def _keyword(gen: np.random.Generator, sizes: np.ndarray, name: str, k: float, max_redraws: int) -> Keyword:
    n = len(sizes)
    for redraw in range(max_redraws + 1):
        base = float(_log_uniform(gen, 0.002, 0.05))
        spread = float(gen.uniform(0.2, 0.6))
        q = base * np.exp(spread * gen.standard_normal(n))
        n_hot = int(gen.choice(4, p=[0.1, 0.4, 0.3, 0.2]))
        hot = np.sort(gen.choice(n, size=n_hot, replace=False))
        q[hot] *= _log_uniform(gen, 3.0, 12.0, size=n_hot)
        q = np.minimum(q, 0.95)
        counts = gen.binomial(sizes, q)
        means = counts / sizes
        if len(ksigma_outliers(means, k)) > 0:
            return Keyword(name, means, counts, base, spread, hot, redraw)
    raise RuntimeError(f"keyword {name}: no draw with a non-empty outlier set at k={k} in {max_redraws + 1} draws")


def twitter_like(
    seed: SeedLike, *, n_keywords: int = 20, k: float = 2.5, n_regions: int = 47, max_redraws: int = 1000
) -> TwitterLike:
    """The Twitter-like stand-in (see the module docstring)."""
    n_keywords = check_int("n_keywords", n_keywords, minimum=1)
    n_regions = check_int("n_regions", n_regions, minimum=3)
    k = check_nonnegative("k", k)
    max_redraws = check_int("max_redraws", max_redraws, minimum=0)
    gen = generator(seed, "twitter_like", "regions", n_regions)
    sizes = 5000 + np.floor(5000 * gen.pareto(1.2, size=n_regions)).astype(np.int64)
    keywords = [
        _keyword(generator(seed, "twitter_like", "keyword", w), sizes, f"kw{w + 1:02d}", k, max_redraws)
        for w in range(n_keywords)
    ]
    return TwitterLike(sizes, keywords, k)
