"""GOLD20's theorem hypotheses checked in code, and the report's verdict helpers that decide the
theorem and cost rows (bandit_lib.gold20.theory, bandit_lib.gold20.report)."""

import numpy as np
import pandas as pd
import pytest

from bandit_lib.gold20.experiments import synthetic_case
from bandit_lib.gold20.experiments.audit import spaced_means
from bandit_lib.gold20.report import (
    _saving_verdicts,
    cost_claims,
    efficiency_claims,
    hypotheses,
    rate_verdict,
    strict_runs,
    twitter_gate,
    yahoo_gate,
)
from bandit_lib.gold20.theory import NAMES, RESULTS, instance_checks


def test_a_synthetic_instance_meets_theorem_51_and_only_the_hoeffding_width_is_covered():
    y = synthetic_case("upper", 5.0, 20, 0).means
    ok = instance_checks(y, 5.0, 0.9, width="hoeffding")
    assert all(ok[key] for key in RESULTS["Theorem 5.1"])
    assert not instance_checks(y, 5.0, 0.9, width="bernoulli")["hoeffding"]
    # the injected K = 2 outliers are a group only under the inclusive size test
    assert not instance_checks(y, 5.0, 0.9, width="hoeffding", reading="strict")["group"]


def test_each_hypothesis_can_fail():
    y = np.linspace(0.02, 0.98, 20)
    assert not instance_checks(y, 0.05, 0.9, width="hoeffding")["eps"]  # eps <= e^(1/16) - 1
    assert not instance_checks(y, 5.0, 0.5, width="hoeffding")["rho"]
    assert not instance_checks(np.r_[y[:-1], 1.5], 5.0, 0.9, width="hoeffding")["bounded"]
    assert not instance_checks(np.r_[y[:-1], y[0]], 5.0, 0.9, width="hoeffding")["distinct"]
    assert not instance_checks(y, 5.0, 0.9, width="hoeffding")["group"]  # evenly spaced: no outlier
    assert instance_checks(y, 5.0, 0.9, width="hoeffding")["terminable"]  # K = 2
    assert not instance_checks(np.linspace(0.1, 0.9, 5), 5.0, 0.9, width="hoeffding")["terminable"]  # K = 0.5
    assert not instance_checks(np.linspace(0.1, 0.9, 10), 5.0, 0.9, width="hoeffding", reading="strict")["terminable"]


def test_theorem_57_instances_meet_its_hypotheses():
    y = spaced_means(10, 3)
    assert sorted(y) == pytest.approx(np.linspace(0.02, 0.98, 10))
    ok = instance_checks(y, 0.5, 0.9, width="hoeffding")
    assert all(ok[key] for key in RESULTS["Theorem 5.7"]) and not ok["group"]


def test_hypotheses_hold_only_when_they_hold_on_every_instance():
    good = {key: True for key in NAMES}
    bad = {**good, "group": False}
    hs = hypotheses("Theorem 5.1", [good, bad, good])
    by_name = {h.name: h for h in hs}
    assert len(hs) == len(RESULTS["Theorem 5.1"])
    assert not by_name[NAMES["group"]].holds and "2 of 3" in by_name[NAMES["group"]].detail
    assert all(h.holds for h in hypotheses("Theorem 5.7", [bad]))  # Theorem 5.7 needs no group
    with pytest.raises(ValueError, match="Theorem 9"):
        hypotheses("Theorem 9", [good])
    with pytest.raises(ValueError, match="at least one instance"):
        hypotheses("Lemma 5.3", [])


def test_rate_verdict_decides_only_when_the_interval_is_on_one_side_of_delta():
    assert rate_verdict(0, 1200) == "reproduced"
    assert rate_verdict(0, 20) == "inconclusive"  # too few runs: the 95% interval reaches 0.17
    assert rate_verdict(60, 200) == "not reproduced"
    assert rate_verdict(12, 100) == "inconclusive"


def test_a_saving_against_a_capped_baseline_is_decided_only_if_every_larger_saving_agrees():
    assert _saving_verdicts(0.95, 1.0, 0.82) == {"partly"}  # above the band whatever the uncapped cost
    assert _saving_verdicts(0.80, 1.0, 0.82) == {"reproduced", "partly"}
    assert _saving_verdicts(-0.5, 1.0, 0.82) == {"not reproduced", "partly", "reproduced"}


SCORES = {"precision": 1.0, "recall": 1.0, "f1": 1.0}


def _runs(method_pulls, correct=True, capped=False, family=""):
    rows = []
    for cell, (g, x) in enumerate(method_pulls):
        for run in range(10):
            rows.append(
                {
                    "kind": "upper",
                    "eps": 5.0,
                    "n": 20 + cell,
                    "run": run,
                    "method": "GOLD",
                    "k": np.nan,
                    "pulls": g,
                    "capped": False,
                    "exact": True,
                    **SCORES,
                }
            )
            rows.append(
                {
                    "kind": "upper",
                    "eps": 5.0,
                    "n": 20 + cell,
                    "run": run,
                    "method": "WRR" + family,
                    "k": 2.0,
                    "pulls": x,
                    "capped": capped,
                    "exact": correct,
                    **SCORES,
                }
            )
            rows.append(
                {
                    "kind": "upper",
                    "eps": 5.0,
                    "n": 20 + cell,
                    "run": run,
                    "method": "RR" + family,
                    "k": 2.0,
                    "pulls": x,
                    "capped": capped,
                    "exact": correct,
                    **SCORES,
                }
            )
    return pd.DataFrame(rows)


def test_cost_rows_treat_a_capped_baseline_as_a_lower_bound():
    case = ["kind", "eps", "n"]
    near = _runs([(100, 550)], capped=True)  # saving 0.82: reproduced as measured, but WRR's true cost is higher
    (row,) = cost_claims("c", "p", near, case, "WRR", 0.82, cases=20, unit="configuration", sensitivity=False)[:1]
    assert row.verdict == "inconclusive" and "lower bound" in row.ours and row.to_decide
    far = _runs([(10, 1000)], capped=True)  # saving 0.99: above the band whatever WRR's true cost
    (row,) = cost_claims("c", "p", far, case, "WRR", 0.82, cases=20, unit="configuration", sensitivity=False)[:1]
    assert row.verdict == "partly"
    free = _runs([(100, 550)])
    rows = cost_claims("c", "p", free, case, "WRR", 0.82, cases=20, unit="configuration", size="size test |G| ≤ K")
    assert [r.verdict for r in rows] == ["reproduced", "reproduced", "reproduced"]
    assert rows[-1].role == "sensitivity" and rows[-1].stated.startswith("§6")
    assert rows[0].reading.endswith("size test |G| ≤ K")
    wrong = _runs([(100, 550)], correct=False)
    assert cost_claims("c", "p", wrong, case, "WRR", 0.82, cases=20, unit="configuration")[0].verdict == "inconclusive"


def test_efficiency_rows_leave_open_a_pair_the_cap_could_change():
    case = ["kind", "eps", "n"]
    capped = _runs([(100, 50), (10, 50)], capped=True)  # GOLD dearer than a capped baseline in one of two cells
    rows = efficiency_claims("e", "p", capped, case, cases=20, unit="configuration")
    assert rows[0].verdict == "inconclusive" and rows[0].to_decide
    assert (
        efficiency_claims("e", "p", _runs([(100, 50), (10, 50)]), case, cases=20, unit="configuration")[0].verdict
        == "partly"
    )


def test_strict_runs_put_the_strict_gold_runs_beside_the_baselines_of_the_same_instances():
    syn = _runs([(100, 550)])
    strict = pd.DataFrame(
        [
            {
                "kind": "upper",
                "case_eps": 5.0,
                "n": 20,
                "case": r,
                "method": "GOLD",
                "k": np.nan,
                "pulls": 9_000,
                "capped": False,
                "exact": r == 0,
                "reading": reading,
                "injected": injected,
                **SCORES,
            }
            for r in range(10)
            for reading in ("strict", "inclusive")
            for injected in ("K", "K-1")
        ]
    )
    out = strict_runs(syn, strict)
    gold = out[out.method == "GOLD"]
    assert len(gold) == 10 and (gold["pulls"] == 9_000).all() and gold["exact"].sum() == 1
    assert len(out[out.method == "WRR"]) == 10


def test_the_stand_ins_are_ungated_and_say_why():
    tw = twitter_gate(
        {"IB / WRR, median over keywords": 152.4, "spread first tried": 0.5, "spread of the normal rates": 1.0}
    )
    ya = yahoo_gate({"normal articles in the k = 3 set on 05/07": 0})
    assert not tw.passed and "152" in tw.statistic and "changed so that GOLD terminates" in tw.statistic
    assert not ya.passed and "05/07" in ya.statistic and "0 flagged" in ya.statistic
