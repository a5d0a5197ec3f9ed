"""GOLD20 experiments: plans at paper scale, payload schemas, the cost model and the theory helpers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bandit_lib.gold20 import experiments as g
from bandit_lib.gold20.problem import label_groups, width_multiplier
from bandit_lib.ksigma import ksigma_outliers
from bandit_lib.seeding import derive
from bandit_lib.tapes import bernoulli_tape


def test_full_profile_is_the_paper_grid():
    units = g.SYNTHETIC.units("full")
    assert len(units) == 5 * 2 * 2 * 10
    combos = {(u.params["kind"], u.params["eps"], u.params["n"]) for u in units}
    assert combos == {(k, e, n) for k in ("upper", "intermediate") for e in (2.5, 5.0) for n in (20, 50, 100, 200, 400)}
    for exp in (g.SYNTHETIC, g.TWITTER, g.YAHOO, g.EPS_SWEEP, g.THEORY, g.STRICT):
        assert {u.params["cap"] for u in exp.units("full")} == {10**7}
    assert len(g.TWITTER.units("full")) == 20 and len(g.YAHOO.units("full")) == 10
    assert [u.params["eps_alg"] for u in g.EPS_SWEEP.units("full")] == list(g.EPS_GRID)
    assert {u.params["cap"] for u in g.UNCAPPED.units("full")} == {10**8}
    main = [u for u in g.YAHOO.units("full") if u.params["variant"] == "main"]
    assert all(u.params["methods"] == list(g.BASELINES) for u in main)


def test_case_seeds_do_not_depend_on_the_experiment():
    a = g.synthetic_case("upper", 5.0, 20, 3)
    b = g.synthetic_case("upper", 5.0, 20, 3)
    c = g.synthetic_case("upper", 5.0, 20, 4)
    assert np.array_equal(a.means, b.means) and not np.array_equal(a.means, c.means)


def test_predicted_pulls_fixed_point():
    c = g.synthetic_case("upper", 5.0, 50, 0)
    o, j, gap = g.closest_pair(c.means, c.outliers)
    assert o in c.outliers and j not in c.outliers and gap > 0
    for width in ("bernoulli", "hoeffding"):
        T = g.predicted_pulls(c.means, c.outliers, 5.0, width=width)
        n, b = c.n, width_multiplier(5.0)
        if width == "hoeffding":
            m = 2 * b * b * math.log(math.pi**2 * n * T * T / (6 * g.DELTA)) / gap**2
        else:
            from scipy.special import erfcinv

            z = erfcinv(6 * g.DELTA / (math.pi**2 * n * T * T))
            sig = math.sqrt(c.means[o] * (1 - c.means[o])) + math.sqrt(c.means[j] * (1 - c.means[j]))
            m = (b * z * sig / gap) ** 2
        assert T == pytest.approx(n * m, rel=1e-6)
    # smaller eps, wider intervals, more pulls
    assert g.predicted_pulls(c.means, c.outliers, 1.0) > g.predicted_pulls(c.means, c.outliers, 5.0)


def test_theorem57_bound_uses_the_squared_gap():
    y = np.array([0.1, 0.2, 0.4, 0.9])
    b = width_multiplier(5.0)
    D3 = 2 * (b + 1) ** 2 / 0.1**2
    expected = 4 * D3 * 4 * (math.log(2 * D3 * 4) + 0.5 * math.log(math.pi**2 * 4 / 0.6)) + 6
    assert g.theorem57_bound(y, 5.0) == pytest.approx(expected)


def test_synthetic_unit_payload():
    p = g.compute_synthetic(derive(1, "test"), "upper", 5.0, 20, 0, 200_000, ["Agresti–Coull"])
    rows = p["rows"]
    assert len(rows) == 1 + len(g.KS) * len(g.BASELINES)
    gold_rows = [r for r in rows if r["method"] == "GOLD"]
    assert len(gold_rows) == 1 and gold_rows[0]["exact"] and not gold_rows[0]["capped"]
    assert gold_rows[0]["n_terminal"] >= 2 and gold_rows[0]["psi_exact"] in (True, False)
    for r in rows:
        assert r["pulls"] <= 200_000 and 0 <= r["f1"] <= 1
    case = p["case"]
    assert case["n"] == 20 and case["n_outliers"] == 2 and case["K"] == 2.0 and case["stop_count"] == 2
    assert case["ksigma"]["2"] == ksigma_outliers(g.synthetic_case("upper", 5.0, 20, 0).means, 2.0).tolist()
    assert case["predicted_bernoulli"] > 0 and case["predicted_hoeffding"] > case["predicted_bernoulli"]


def test_baselines_cannot_see_intermediate_outliers():
    c = g.synthetic_case("intermediate", 5.0, 20, 1)
    tape = bernoulli_tape(c.means, 3)
    rows = g.run_baselines(tape, c.outliers, 100_000, ks=(2.0,), methods=("NRR", "WRR"))
    assert not any(r["exact"] for r in rows)


def test_gold_row_on_a_ranking():
    c = g.synthetic_case("upper", 5.0, 20, 0)
    tape = bernoulli_tape(c.means, 5)
    out = g.gold_run(tape, c, 10**6)
    row = g.gold_row(out, c)
    assert row["exact"] and row["precision"] == row["recall"] == row["f1"] == 1.0
    assert set(out.output[: len(c.outliers)].tolist()) == set(c.outliers.tolist())


def test_edge_checks_on_a_hoeffding_run():
    c = g.synthetic_case("intermediate", 5.0, 20, 0)
    out = g.gold_run(bernoulli_tape(c.means, 2), c, 10**7, width="hoeffding", log_edges=True)
    chk = g.edge_checks(out, c, 5.0)
    assert chk["early_edges"] > 0 and chk["lemma53_within"] <= chk["early_edges"]
    assert chk["lemma54"] and chk["t_isolated"] <= out.pulls
    lo, hi = g.lemma53_bounds([0.1, 0.2], 5.0, 20)
    assert np.all(lo < hi) and hi[0] > hi[1]


def test_strict_unit_evaluates_both_readings():
    p = g.compute_strict(derive(1, "strict"), "upper", 20, 0, "K-1", 10**6)
    assert [r["reading"] for r in p["rows"]] == ["inclusive", "strict"]
    assert p["case"]["n_outliers"] == 1 and p["case"]["strict_outliers"] == p["case"]["outliers"]


def test_uncapped_replays_the_synthetic_tape():
    unit0 = g.SYNTHETIC.units("quick")[0]
    syn = g.compute_synthetic(g.SYNTHETIC.seed(unit0), **unit0.params)
    unit = next(u for u in g.UNCAPPED.units("quick") if u.params["run"] == 0)
    unc = g.compute_uncapped(g.UNCAPPED.seed(unit), **unit.params)
    a = next(r for r in syn["rows"] if r["method"] == "GOLD")
    b = unc["rows"][0]
    assert g.SYNTHETIC.units("quick")[0].key == "intermediate,eps=2.5,n=50,run=0"
    assert (a["pulls"] == b["pulls"]) or (a["capped"] and b["pulls"] > a["pulls"])


def test_fig1_instances_behave_as_described():
    panels = g.fig1_instances()
    assert [p["panel"] for p in panels] == list(g.FIG1_PANELS)
    for p in panels:
        y, o = p["means"], p["outliers"]
        assert len(y) == 40 and np.array_equal(label_groups(y, 5.0, 0.95).outliers, o)
    a = panels[0]
    assert set(a["ksigma"][2.0].tolist()) == set(a["outliers"].tolist())
    assert len(set(a["ksigma"][3.0].tolist()) & set(a["outliers"].tolist())) == 1
    for p in panels[2:]:
        assert set(p["ksigma"][2.0].tolist()) != set(p["outliers"].tolist())
