r"""GOLD20's Twitter-like stand-in: 47 regions × 20 keywords with (2.5, 0.9)-outliers (reproduction note N23).

GOLD's Twitter experiment reuses the data set of Zhuang et al. (1.5 M geotagged New York tweets;
the 47 regions with more than 5,000 tweets are the arms; a keyword is a test case; a pull
returns 1 if a tweet sampled from the region contains the keyword) and labels each keyword with
the generic definition at ε = 2.5, ρ = 0.9. The data were never released. This *synthetic*
stand-in keeps the structure and is labelled as such wherever it is drawn ("Twitter-like
(synthetic stand-in)"). The ZHUANG17 stand-in (:mod:`bandit_lib.zhuang17.twitter_like`) is built
around the k-sigma rule and its hotspots are not (ε, ρ)-outliers in general, so GOLD20 draws its own
keywords, with this recipe::

    r_w ~ LogUniform(0.005, 0.05)                      # keyword base rate
    normal rates q_i = clip(r_w * exp(sigma * N(0,1)), 0.0005, 0.5)    sigma = 1.0, 47 - k_w arms
    k_w ~ UniformInt{1, ..., 4}                        # high outliers ("all outliers are high")
    D = max neighbourhood distance of the normal rates;  g = (1 + eps) D (1 + margin)
    outliers = max(q) + g + spread * D * U(0,1)^k_w
    shuffle; keep the draw if the labels of Def 3.2 and of Def 3.1 both return exactly the
    injected arms (else redraw; the number of draws is recorded)

with eps = 2.5, rho = 0.9, margin = 0.25, spread = 0.5. K = 4.7 is not an integer, so the strict
and inclusive readings coincide: groups have at most 4 arms while GOLD stops at 5 terminal arms,
so on every keyword GOLD must also isolate at least one normal arm (the paper's real data had
the same property). The log-normal spread was first sigma = 0.5, to be increased if GOLD's
typical pull counts reached the cap: with 0.5 GOLD reached the 10^7 cap in every run of the
first keywords we tried (isolating a fifth arm means cutting gaps between close normal rates);
with sigma = 1.0 (the default here) most keywords stop below the cap (2 of the first 8 did not). Keyword ``w`` has its own seed stream, so it is the same however many keywords
are drawn (:func:`gold_twitter`, one :class:`~bandit_lib.gold20.instances.GoldCase` per keyword); the
keywords are named ``kw01``..``kw20`` and the first of :data:`EFFICIENCY_KEYWORDS` carries the
label "Yankee" in the efficiency panel (a name only: the data are synthetic).
"""

from __future__ import annotations

import numpy as np

from bandit_lib.checks import check_int, check_nonnegative, check_positive, check_real
from bandit_lib.gold20.instances import GoldCase
from bandit_lib.gold20.problem import label_arms, label_groups, max_neighbourhood_distance
from bandit_lib.seeding import SeedLike, generator

LABEL = "Twitter-like (synthetic stand-in)"
N_REGIONS = 47
#: The keywords of the efficiency panel (Fig. 4(b)).
EFFICIENCY_KEYWORDS = (0, 1, 2, 3, 4)
EFFICIENCY_NAMES = ("'Yankee' (stand-in)", "kw02", "kw03", "kw04", "kw05")


def _log_uniform(gen: np.random.Generator, low: float, high: float) -> float:
    return float(np.exp(gen.uniform(np.log(low), np.log(high))))


def gold_twitter_keyword(
    seed: SeedLike,
    w: int,
    *,
    eps: float = 2.5,
    rho: float = 0.9,
    sigma: float = 1.0,
    margin: float = 0.25,
    spread: float = 0.5,
    n: int = N_REGIONS,
    max_tries: int = 1000,
) -> GoldCase:
    """Keyword ``w`` of the stand-in (see the module docstring)."""
    w = check_int("w", w, minimum=0)
    eps = check_positive("eps", eps)
    sigma = check_positive("sigma", sigma)
    margin = check_real("margin", margin)
    spread = check_nonnegative("spread", spread)
    n = check_int("n", n, minimum=10)
    max_tries = check_int("max_tries", max_tries, minimum=1)
    gen = generator(seed, "gold_twitter", "keyword", w)
    for tries in range(1, max_tries + 1):
        base = _log_uniform(gen, 0.005, 0.05)
        k_w = int(gen.integers(1, 5))
        q = np.clip(base * np.exp(sigma * gen.standard_normal(n - k_w)), 0.0005, 0.5)
        D = max_neighbourhood_distance(q)
        g = (1 + eps) * D * (1 + margin)
        o = q.max() + g + spread * D * gen.uniform(0.0, 1.0, size=k_w)
        if o.max() > 0.95:
            continue
        raw = np.r_[q, o]
        perm = gen.permutation(n)
        means = raw[perm]
        inv = np.empty(n, dtype=np.int64)
        inv[perm] = np.arange(n)
        truth = np.sort(inv[np.arange(n - k_w, n)])
        groups = label_groups(means, eps, rho).groups
        arms = label_arms(means, eps, rho).outliers
        if len(groups) >= 1 and np.array_equal(groups[-1], truth) and np.array_equal(arms, truth):
            params = {
                "kind": "twitter",
                "name": f"kw{w + 1:02d}",
                "base_rate": base,
                "sigma": sigma,
                "margin": margin,
                "spread": spread,
                "injected": k_w,
            }
            return GoldCase(
                means,
                truth,
                tuple(tuple(int(a) for a in G) for G in groups),
                float(eps),
                float(rho),
                "def3.1",
                params,
                tries,
            )
    raise RuntimeError(f"gold_twitter keyword {w}: no valid draw in {max_tries} tries")


def gold_twitter(seed: SeedLike, *, n_keywords: int = 20, **params) -> list[GoldCase]:
    """The first ``n_keywords`` keywords of the stand-in."""
    n_keywords = check_int("n_keywords", n_keywords, minimum=1)
    return [gold_twitter_keyword(seed, w, **params) for w in range(n_keywords)]
