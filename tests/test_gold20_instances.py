"""GOLD20 instance generators: the synthetic generator (spec §4.2) and the two stand-ins (§4.3–4.4)."""

from __future__ import annotations

import numpy as np
import pytest

from bandit_lib.gold20.instances import gold_synthetic, injected_count
from bandit_lib.gold20.problem import is_outlier_group, label_arms, label_groups, max_neighbourhood_distance
from bandit_lib.gold20.twitter_like import gold_twitter, gold_twitter_keyword
from bandit_lib.gold20.yahoo_like import DAYS, TWO_SIDED, yahoo_day, yahoo_like


@pytest.mark.parametrize("kind", ["upper", "intermediate"])
@pytest.mark.parametrize("n", [20, 50, 100])
@pytest.mark.parametrize("eps", [2.5, 5.0])
def test_synthetic_has_exactly_the_injected_group(kind, n, eps):
    c = gold_synthetic(n, eps, kind, seed=7)
    K = n // 10
    assert c.n == n and len(c.outliers) == K and c.labelling == "def3.2"
    assert np.all((c.means >= 0.02 - 1e-12) & (c.means <= 0.98 + 1e-12))
    assert np.isclose(c.means.min(), 0.02) and np.isclose(c.means.max(), 0.98)
    inc = label_groups(c.means, eps, 0.9, reading="inclusive")
    assert len(inc.groups) == 1 and np.array_equal(inc.outliers, c.outliers)
    assert label_groups(c.means, eps, 0.9, reading="strict").groups == ()
    # Per-arm labels (Def 3.1) coincide with the group labels on this generator (spec §1.7).
    assert np.array_equal(label_arms(c.means, eps, 0.9).outliers, c.outliers)
    y, o = c.means, c.outliers
    normal = np.setdiff1d(np.arange(n), o)
    if kind == "upper":
        assert y[o].min() > y[normal].max()
    else:
        assert y[normal].min() < y[o].min() and y[o].max() < y[normal].max()
        below, above = (y[normal] < y[o].min()).sum(), (y[normal] > y[o].max()).sum()
        assert abs(int(below) - int(above)) <= 1 and min(below, above) > K


def test_synthetic_gap_is_just_beyond_the_boundary():
    # margin 0.25: the block's gap to the normal arms is at least (1 + eps)(1 + margin) D.
    c = gold_synthetic(50, 5.0, "upper", seed=3)
    y, o = c.means, c.outliers
    normal = np.setdiff1d(np.arange(50), o)
    D = max_neighbourhood_distance(y[normal])
    gap = y[o].min() - y[normal].max()
    assert gap >= 6 * 1.25 * D * (1 - 1e-9)
    assert gap < 6 * 1.25 * D * 1.5  # and not far beyond it


def test_synthetic_is_seeded_and_records_parameters():
    a = gold_synthetic(20, 5.0, "upper", seed=11)
    b = gold_synthetic(20, 5.0, "upper", seed=11)
    c = gold_synthetic(20, 5.0, "upper", seed=12)
    assert np.array_equal(a.means, b.means) and not np.array_equal(a.means, c.means)
    s = a.summary()
    assert s["margin"] == 0.25 and s["spread"] == 1.0 and s["kind"] == "upper" and s["injected"] == 2
    assert s["tries"] >= 1 and s["min_outlier_normal_gap"] > 0


def test_fewer_outliers_are_groups_under_both_readings():
    c = gold_synthetic(50, 5.0, "intermediate", seed=1, n_outliers=4)
    assert len(c.outliers) == 4
    for reading in ("inclusive", "strict"):
        assert np.array_equal(label_groups(c.means, 5.0, 0.9, reading=reading).outliers, c.outliers)
    assert is_outlier_group(c.means, c.outliers, 5.0, 0.9, reading="strict")


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n": 25, "eps": 5.0, "kind": "upper"}, "K = .*integer"),
        ({"n": 20, "eps": 5.0, "kind": "sideways"}, "kind"),
        ({"n": 20, "eps": -1.0, "kind": "upper"}, "eps"),
        ({"n": 20, "eps": 5.0, "kind": "upper", "rho": 0.4}, "rho"),
        ({"n": 20, "eps": 5.0, "kind": "upper", "n_outliers": 3}, "n_outliers"),
    ],
)
def test_synthetic_rejects_bad_inputs(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        gold_synthetic(seed=1, **kwargs)


def test_injected_count_is_exact():
    assert injected_count(20, 0.9) == 2 and injected_count(100, 0.9) == 10 and injected_count(40, 0.95) == 2
    with pytest.raises(ValueError, match="n=47"):
        injected_count(47, 0.9)


def test_twitter_stand_in():
    kws = gold_twitter(2020, n_keywords=6)
    for w, c in enumerate(kws):
        assert c.n == 47 and 1 <= len(c.outliers) <= 4 and c.labelling == "def3.1"
        assert np.array_equal(label_arms(c.means, 2.5, 0.9).outliers, c.outliers)
        assert np.array_equal(label_groups(c.means, 2.5, 0.9).outliers, c.outliers)
        # K = 4.7: both readings coincide
        assert np.array_equal(label_arms(c.means, 2.5, 0.9, reading="strict").outliers, c.outliers)
        normal = np.setdiff1d(np.arange(47), c.outliers)
        assert c.means[c.outliers].min() > c.means[normal].max()  # all outliers are high
        assert c.summary()["name"] == f"kw{w + 1:02d}"
    # keyword w does not depend on how many keywords are drawn
    assert np.array_equal(gold_twitter_keyword(2020, 4).means, kws[4].means)


@pytest.mark.parametrize("variant", ["main", "realistic"])
def test_yahoo_stand_in(variant):
    days = yahoo_like(2009, variant=variant)
    assert [c.summary()["name"] for c in days] == list(DAYS)
    for day, c in zip(DAYS, days):
        assert len(c.outliers) == 3
        assert (c.n == 30) if variant == "main" else (33 <= c.n <= 45)
        assert np.array_equal(label_arms(c.means, 2.5, 0.9).outliers, c.outliers)
        normal = np.setdiff1d(np.arange(c.n), c.outliers)
        low = c.means[c.outliers] < c.means[normal].min()
        assert low.sum() == (1 if day in TWO_SIDED else 0)
        if day in TWO_SIDED:
            # a low and a high outlier: no Def-3.2 group covers them (spec AMBIG-17)
            assert not np.array_equal(label_groups(c.means, 2.5, 0.9).outliers, c.outliers)
        assert np.all((c.means > 0) & (c.means < 0.2))
    assert np.array_equal(yahoo_day(2009, "05/07", variant=variant).means, days[3].means)


def test_yahoo_rejects_unknown_day():
    with pytest.raises(ValueError, match="day"):
        yahoo_day(1, "05/04")
