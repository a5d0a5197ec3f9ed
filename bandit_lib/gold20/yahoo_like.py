r"""Yahoo!-like stand-in: click-through rates of news articles on five days (reproduction note N24).

GOLD's Figure 5 uses the Yahoo! Front Page Today Module click log (Webscope R6A, 1–10 May 2009,
45,811,883 visits; events on the featured position; an arm is an article, a pull shows it, the
reward is a click, an arm's mean is the article's CTR over the day) on five days, May 02, 03,
05, 07 and 10, labelled at ε = 2.5, ρ = 0.9. On May 03 and 07 some outliers have exceptionally
*low* CTR, which no k-sigma rule can flag. The log is licensed and cannot be obtained here; this
module draws a *synthetic* stand-in, labelled as such wherever it is drawn::

    normal CTRs ~ N(0.035, 0.006^2) clipped to [0.01, 0.08]        (n_d - 3 arms)
    D = max neighbourhood distance of the normal CTRs;  g = (1 + eps) D (1 + margin)
    high outliers: max(normal) + g + spread * D * U(0,1)             (3 on 05/02, 05/05, 05/10; 2 on 05/03, 05/07)
    low outlier:   min(normal) - g - spread * D * U(0,1)             (1 on 05/03 and 05/07; redraw unless >= 0.001)
    shuffle; keep the draw if the per-arm labels (Def 3.1) return exactly the injected arms

with eps = 2.5, rho = 0.9, margin = 0.25, spread = 0.5. Because the low and the high outliers sit
on opposite sides, the two-sided days have no valid Def-3.2 *group* (each outlier inflates the
other's normal set), so the ground truth is per arm (Def 3.1, reproduction note N4); both labellings are
recorded.

Two variants (reproduction note N2): ``"main"`` has n_d = 30 articles, so K = 3 equals the number
of outliers and GOLD can stop right after isolating them (set so that GOLD can stop, which makes the
cost claims judged on it inconclusive); ``"realistic"`` draws n_d uniformly in 33..45 (K not an
integer), so GOLD must also isolate normal articles, whose CTRs are close together.

:func:`yahoo_like` gives one :class:`~bandit_lib.gold20.instances.GoldCase` per day, in
:data:`DAYS` order; :func:`yahoo_day` one day.
"""

from __future__ import annotations

import numpy as np

from bandit_lib.checks import check_choice, check_int, check_nonnegative, check_positive, check_real
from bandit_lib.gold20.instances import GoldCase
from bandit_lib.gold20.problem import label_arms, label_groups, max_neighbourhood_distance
from bandit_lib.seeding import SeedLike, generator

LABEL = "Yahoo!-like (synthetic stand-in)"
#: The five days of the Yahoo! panels (month/day, 2009).
DAYS = ("05/02", "05/03", "05/05", "05/07", "05/10")
TWO_SIDED = ("05/03", "05/07")
VARIANTS = ("main", "realistic")
N_OUTLIERS = 3


def yahoo_day(
    seed: SeedLike,
    day: str,
    *,
    variant: str = "main",
    eps: float = 2.5,
    rho: float = 0.9,
    margin: float = 0.25,
    spread: float = 0.5,
    max_tries: int = 1000,
) -> GoldCase:
    """One day of the stand-in (see the module docstring)."""
    day = check_choice("day", day, DAYS)
    variant = check_choice("variant", variant, VARIANTS)
    eps = check_positive("eps", eps)
    margin = check_real("margin", margin)
    spread = check_nonnegative("spread", spread)
    max_tries = check_int("max_tries", max_tries, minimum=1)
    gen = generator(seed, "yahoo_like", variant, day)
    n_low = 1 if day in TWO_SIDED else 0
    n_high = N_OUTLIERS - n_low
    for tries in range(1, max_tries + 1):
        n = 30 if variant == "main" else int(gen.integers(33, 46))
        q = np.clip(gen.normal(0.035, 0.006, size=n - N_OUTLIERS), 0.01, 0.08)
        D = max_neighbourhood_distance(q)
        g = (1 + eps) * D * (1 + margin)
        high = q.max() + g + spread * D * gen.uniform(0.0, 1.0, size=n_high)
        low = q.min() - g - spread * D * gen.uniform(0.0, 1.0, size=n_low)
        if n_low and low.min() < 0.001:
            continue
        raw = np.r_[q, low, high]
        perm = gen.permutation(n)
        means = raw[perm]
        inv = np.empty(n, dtype=np.int64)
        inv[perm] = np.arange(n)
        truth = np.sort(inv[np.arange(n - N_OUTLIERS, n)])
        arms = label_arms(means, eps, rho).outliers
        if np.array_equal(arms, truth):
            groups = label_groups(means, eps, rho).groups
            params = {
                "kind": "yahoo",
                "name": day,
                "variant": variant,
                "two_sided": bool(n_low),
                "margin": margin,
                "spread": spread,
                "def32_outliers": [int(a) for a in (groups[-1] if groups else [])],
            }
            return GoldCase(
                means, truth, (tuple(int(a) for a in truth),), float(eps), float(rho), "def3.1", params, tries
            )
    raise RuntimeError(f"yahoo_like day {day} ({variant}): no valid draw in {max_tries} tries")


def yahoo_like(seed: SeedLike, *, variant: str = "main", **params) -> list[GoldCase]:
    """The five days of the stand-in, in :data:`DAYS` order."""
    return [yahoo_day(seed, day, variant=variant, **params) for day in DAYS]
