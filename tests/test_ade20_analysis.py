"""ADE20's scorecard logic, on hand-made tables whose verdicts are known."""

import numpy as np
import pandas as pd
import pytest

from bandit_lib.ade20.instances import hcb_like
from bandit_lib.ade20.report import crossover, mean_pulls, model_table, relative_cost, scorecard


def table(index, **cols):
    return pd.DataFrame(cols, index=pd.Index(index))


def test_crossover():
    assert crossover([100, 200, 400], [8, 8, 8], [2, 4, 16]) == pytest.approx(
        200 + 200 * np.log(2) / (np.log(2) + np.log(0.5) * -1)
    )
    assert np.isnan(crossover([1, 2], [5, 5], [1, 2]))
    assert crossover([1, 2], [1, 5], [2, 2]) == 1.0
    with pytest.raises(ValueError, match="same length"):
        crossover([1, 2], [1], [1, 2])
    with pytest.raises(ValueError, match="positive"):
        crossover([1, 2], [0, 1], [1, 2])


def _verdicts(claims):
    return {(c.claim[:2], c.reading[:2]): c.verdict for c in claims}


def test_scorecard_on_the_papers_story_and_on_the_opposite():
    ns = [100, 200, 400]
    paper_2a = table(ns, ADE=[10.0, 11, 12], RR=[5.0, 20, 40], WRR=[4.0, 30, 90])
    paper_2b = table([0.06, 0.09, 0.12], ADE=[5.0, 3, 2], RR=[9.0, 6, 4], WRR=[10.0, 7, 5])
    paper_3 = table([2.0, 3.0], ADE=[10.0, 5], RR=[30.0, 20], WRR=[40.0, 30])
    crowd = hcb_like(2026, 0).means  # its gaps grow from k = 2 to k = 3 (tests/test_ade20_data.py)
    card = scorecard(paper_2a, paper_2b, paper_3, crowd)
    assert {c.verdict for c in card} == {"reproduced"}, card
    assert {c.reading for c in card} == {"Hoeffding/McDiarmid (ADE20's)", ""}  # no Agresti-Coull columns here
    ours_2a = table(ns, ADE=[10.0, 10, 10], RR=[2.0, 4, 8], WRR=[3.0, 9, 30])
    ours_3 = table([2.0, 3.0], ADE=[10.0, 5], RR=[9.0, 6], WRR=[8.0, 9])
    v = _verdicts(scorecard(ours_2a, paper_2b.iloc[:1], ours_3, crowd))
    assert v["C1", "Ho"] == "partly"  # ADE flat
    assert v["C2", "Ho"] == "partly"  # WRR not below RR
    assert v["C3", "Ho"] == "not reproduced"  # ADE best nowhere
    assert v["C4", "Ho"] == "inconclusive"  # one window only
    assert v["C5", "Ho"] == "partly"  # ADE best at k = 3 only
    assert v["C6", "Ho"] == "partly"


def test_scorecard_judges_every_comparison_under_both_interval_families():
    ns = [100, 200, 400]
    both = dict(ADE=[10.0, 11, 12], RR=[5.0, 20, 40], WRR=[4.0, 30, 90])
    two_a = table(ns, **both, **{"RR (Agresti–Coull)": [1.0, 2, 4], "WRR (Agresti–Coull)": [1.0, 2, 4]})
    two_b = table(
        [0.06, 0.09, 0.12],
        ADE=[5.0, 3, 2],
        RR=[9.0, 6, 4],
        WRR=[10.0, 7, 5],
        **{"RR (Agresti–Coull)": [1.0, 1, 1], "WRR (Agresti–Coull)": [1.0, 1, 1]},
    )
    three = table(
        [2.0, 3.0],
        ADE=[10.0, 5],
        RR=[30.0, 20],
        WRR=[40.0, 30],
        **{"RR (Agresti–Coull)": [1.0, 0.5], "WRR (Agresti–Coull)": [1.0, 0.5]},
    )
    v = _verdicts(scorecard(two_a, two_b, three, hcb_like(2026, 0).means))
    assert v["C5", "Ho"] == "reproduced" and v["C5", "Ag"] == "not reproduced"
    assert v["C4", "Ho"] == "reproduced" and v["C4", "Ag"] == "partly"  # costs flat: fall for ADE only
    assert v["C7", ""] == "reproduced"  # no baseline in it: one reading


def test_mean_and_model_tables():
    df = pd.DataFrame(
        {
            "n": [1, 1, 2, 2, 1, 2],
            "method": ["ADE", "ADE", "ADE", "ADE", "RR", "RR"],
            "pulls": [1, 3, 5, 7, 4, 8],
            "model_ade": [2.0] * 6,
            "model_rr": [3.0] * 6,
        }
    )
    assert mean_pulls(df, "n").loc[1, "ADE"] == 2 and mean_pulls(df, "n").loc[2, "RR"] == 8
    m = model_table(df)
    assert m.loc[2, "ADE measured"] == 6 and m.loc[1, "RR model"] == 3
    assert relative_cost(mean_pulls(df, "n")).loc[2, "RR"] == pytest.approx(8 / 6)


def test_bad_input():
    with pytest.raises(ValueError, match=r"lacks the column\(s\) \['pulls'\]"):
        mean_pulls(pd.DataFrame({"n": [1], "method": ["ADE"]}), "n")
    with pytest.raises(TypeError, match="arms="):
        model_table([1, 2])
    with pytest.raises(ValueError, match="baseline='XYZ'"):
        relative_cost(table([1], ADE=[1.0]), "XYZ")


def test_theory_and_balance_summaries():
    from bandit_lib.ade20.report import balance_summary, theory_summary

    runs = pd.DataFrame(
        {
            "source": ["a", "a", "b"],
            "correct": [True, False, True],
            "capped": [False, False, False],
            "viol_arm": [0, 1, 0],
            "viol_theta": [0, 0, 0],
            "viol_variance": [0, 0, 2],
            "viol_std": [0, 0, 0],
            "viol_U": [0, 0, 0],
            "gap_lemma_ok": [True, True, False],
            "thm2_arms_ok": [True] * 3,
            "thm2_mth_ok": [True, True, False],
            "k": [2.0] * 3,
            "sigma_y": [0.3] * 3,
            "min_rth_over_ra": [0.99, 0.98, 0.97],
            "max_mth_over_ma": [100.0, 200.0, 300.0],
            "mth_over_ma": [10.0, 10.0, 10.0],
            "balance_U": [10.0, 11.0, 10.0],
            "thm2_total": [30.0, 40.0, 50.0],
            "pulls": [1.0, 1.0, 1.0],
        }
    )
    t = theory_summary(runs)
    assert t.loc["a"].tolist() == [2, 1, 0, 1, 0, True, True]
    assert t.loc["b"].tolist() == [1, 0, 0, 0, 1, False, False]
    b = balance_summary(runs)
    assert b.loc["a", "min_rth_over_ra"] == 0.98 and b.loc["a", "bound_over_pulls_max"] == 40.0
    assert b.loc["a", "mth_over_ma_vs_c2U"] == pytest.approx(1 / 11)
    with pytest.raises(ValueError, match="lacks the column"):
        theory_summary(runs.drop(columns="viol_U"))
