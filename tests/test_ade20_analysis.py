"""ADE20's scorecard logic, on hand-made tables whose verdicts are known."""

import numpy as np
import pandas as pd
import pytest

from bandit_lib.ade20.instances import hcb_like
from bandit_lib.ade20.report import (
    crossover,
    gate_table,
    mean_pulls,
    model_table,
    relative_cost,
    scorecard,
    standin_claim,
    theorem_claims,
)
from bandit_lib.ade20.report.gates import hcb_gates
from bandit_lib.ade20.report.hypotheses import theorem_hypotheses
from bandit_lib.infra.scorecard import counts, summary
from bandit_lib.infra.scorecard import scorecard as make_card


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
    """(claim code, role) -> verdict."""
    return {(c.claim[:2], c.role): c.verdict for c in claims}


def test_scorecard_on_the_papers_story_and_on_the_opposite():
    ns = [100, 200, 400]
    paper_2a = table(ns, ADE=[10.0, 11, 12], RR=[5.0, 20, 40], WRR=[4.0, 30, 90])
    paper_2b = table([0.06, 0.09, 0.12], ADE=[5.0, 3, 2], RR=[9.0, 6, 4], WRR=[10.0, 7, 5])
    paper_3 = table([2.0, 3.0], ADE=[10.0, 5], RR=[30.0, 20], WRR=[40.0, 30])
    crowd = hcb_like(2026, 0).means  # its gaps grow from k = 2 to k = 3 (tests/test_ade20_data.py)
    card = scorecard(paper_2a, paper_2b, paper_3, crowd)
    assert {c.verdict for c in card} == {"reproduced"}, card
    assert {c.role for c in card} == {"claim"}  # no Agresti-Coull columns here: no sensitivity rows
    assert all(c.reading and c.open_because for c in card)  # the generator and the data version
    assert [c.claim[:2] for c in card if c.headline] == ["C3", "C4", "C5"]
    ours_2a = table(ns, ADE=[10.0, 10, 10], RR=[2.0, 4, 8], WRR=[3.0, 9, 30])
    ours_3 = table([2.0, 3.0], ADE=[10.0, 5], RR=[9.0, 6], WRR=[8.0, 9])
    v = _verdicts(scorecard(ours_2a, paper_2b.iloc[:1], ours_3, crowd))
    assert v["C1", "claim"] == "partly"  # ADE flat
    assert v["C2", "claim"] == "partly"  # WRR not below RR
    assert v["C3", "claim"] == "not reproduced"  # ADE best nowhere
    assert v["C4", "claim"] == "inconclusive"  # one window only
    assert v["C5", "claim"] == "partly"  # ADE best at k = 3 only
    assert v["C6", "claim"] == "partly"


def test_other_interval_families_are_sensitivity_rows_not_readings():
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
    rows = scorecard(two_a, two_b, three, hcb_like(2026, 0).means, runs={"2a": 10, "2b": 10, "3": 2})
    v = _verdicts(rows)
    assert v["C5", "claim"] == "reproduced" and v["C5", "sensitivity"] == "not reproduced"
    assert v["C4", "claim"] == "reproduced" and v["C4", "sensitivity"] == "partly"  # costs flat: fall for ADE only
    assert v["C7", "claim"] == "reproduced" and ("C7", "sensitivity") not in v  # no baseline in it
    # each claim's sensitivity row right after it; only claims are counted, none is conditional
    assert [(c.claim[:2], c.role) for c in rows[:2]] == [("C1", "claim"), ("C1", "sensitivity")]
    card = make_card(rows)
    assert counts(card) == {"reproduced": 7}, counts(card)  # the partly sensitivity row is not counted
    assert not summary(card).conditional.any()
    # a row drawn from fewer runs than the paper's ten says so
    c5 = next(c for c in rows if c.claim.startswith("C5") and c.role == "claim")
    assert "2 of the paper's 10 runs per k" in c5.ours and "of the paper's" not in rows[0].ours


def test_the_baselines_open_settings_are_readings_and_a_disagreement_is_conditional():
    ns = [100, 200, 400]
    paper = dict(ADE=[10.0, 11, 12], RR=[5.0, 20, 40], WRR=[4.0, 30, 90])
    # under "t in batches" RR is cheap enough to beat ADE everywhere: C3 and C4 fail under it
    cheap = {"RR (T in batches)": [1.0, 2, 3], "WRR (T in batches)": [4.0, 30, 90]}
    two_a = table(ns, **paper, **cheap)
    two_b = table([0.06, 0.09, 0.12], ADE=[5.0, 3, 2], RR=[9.0, 6, 4], WRR=[10.0, 7, 5], **cheap)
    three = table([2.0, 3.0], ADE=[10.0, 5], RR=[30.0, 20], WRR=[40.0, 30], **{k: [1.0, 0.5] for k in cheap})
    rows = scorecard(two_a, two_b, three, hcb_like(2026, 0).means)
    readings = {c.reading for c in rows if c.claim.startswith("C3")}
    assert len(readings) == 2 and all("l(k) with δ" in r for r in readings), readings
    assert all("l(k) = [" in c.open_because for c in rows if c.claim.startswith("C3"))
    table_ = summary(make_card(rows)).set_index(summary(make_card(rows)).claim.str[:2])
    assert table_.loc["C3", "conditional"] and table_.loc["C3", "verdict"].startswith("reproduced under")
    assert "not reproduced under" in table_.loc["C3", "verdict"] and "t in batches" in table_.loc["C3", "verdict"]
    assert not table_.loc["C7", "conditional"]  # no baseline in C7: one reading
    assert counts(make_card(rows))["conditional"] >= 3


def test_the_gates_table_and_the_standin_row():
    real = hcb_like(2026, 0).means
    gates = hcb_gates()
    inside = [g.check(g.standin()) for g in gates]  # the real HCB rates pass every gate
    shifted = np.clip(real * 0.8, 0, 1)  # smaller spread and smaller gaps: outside the gate
    outside = [g.check(shifted) for g in gates]
    assert all(r.passed for r in inside) and not all(r.passed for r in outside)
    view = gate_table(outside, shifted, real).set_index("statistic")
    assert view.loc["sd of the error rates σ_y", "in the gate"] == "no"
    assert view.loc["workers", "gate"].startswith("not gated") and not view.attrs["calibrated"]
    standin_3 = table([2.0, 3.0], ADE=[10.0, 5], RR=[30.0, 20], WRR=[40.0, 30])  # ADE wins by 3x
    row = standin_claim(standin_3, outside, runs=3)
    assert row.verdict == "inconclusive" and row.role == "extra" and "OUTSIDE" in row.conditions
    assert "3 of the paper's 10 runs per k" in row.ours and "outside the gate: sd of the error rates" in row.ours
    assert standin_claim(standin_3, inside).verdict == "reproduced"
    with pytest.raises(ValueError, match="at least two"):
        gate_table(inside, [0.5], real)
    # placed after the rows of C5
    paper_2a = table([100, 200], ADE=[10.0, 11], RR=[5.0, 20], WRR=[4.0, 30])
    rows = scorecard(paper_2a, paper_2a.rename_axis("w"), standin_3, real, extras=[row])
    assert [c.claim[:2] for c in rows].index("C5") + 1 == rows.index(row)


def _instances(delta_min=0.05):
    return pd.DataFrame(
        {
            "y_min": [0.0, 0.1],
            "y_max": [1.0, 0.9],
            "theta": [0.91, 1.1],
            "delta_min": [delta_min, 0.2],
            "sigma_y": [0.3] * 2,
        }
    )


def test_theorem_claims():
    hyp = {t: theorem_hypotheses(_instances(), 0.1, theorem=t) for t in (1, 2)}
    t1, t2 = theorem_claims(0, 351, 0.1, first_failing=47, thm2_ok=True, slack=27.5, slope=-2.09, hypotheses=hyp)
    assert t1.verdict == t2.verdict == "reproduced" and t2.headline and not t1.headline
    assert "from 47 errors" in t1.rule and "≥ 27×" in t2.ours and "holds" in t1.conditions
    t1, t2 = theorem_claims(60, 351, 0.1, first_failing=47, thm2_ok=False, slack=0.5, slope=-2.0, hypotheses=hyp)
    assert t1.verdict == t2.verdict == "not reproduced"
    # an instance with an arm on the threshold is outside both theorems: no evidence either way
    bad = {t: theorem_hypotheses(_instances(0.0), 0.1, theorem=t) for t in (1, 2)}
    t1, t2 = theorem_claims(60, 351, 0.1, first_failing=47, thm2_ok=False, slack=0.5, slope=-2.0, hypotheses=bad)
    assert t1.verdict == t2.verdict == "inconclusive" and "VIOLATED" in t1.conditions and t1.to_decide


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
