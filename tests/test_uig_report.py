"""The UIG chapter's report helpers: scorecard rows, verdict rules and the Jester calibration gate."""

import numpy as np
import pandas as pd
import pytest

from bandit_lib.uig import report as rep


def _long(curves: dict[str, list[float]], reps: int = 20, noise: float = 1.0, seed: int = 0) -> pd.DataFrame:
    """Regret rows (rep, policy, T, regret): each policy's mean curve plus shared noise per repetition."""
    rng = np.random.default_rng(seed)
    rows = []
    for r in range(reps):
        shift = rng.normal(0, noise)
        for policy, curve in curves.items():
            rows += [{"rep": r, "policy": policy, "T": 10 * (k + 1), "regret": v + shift} for k, v in enumerate(curve)]
    return pd.DataFrame(rows)


def test_beats_verdict_reproduced_and_inconclusive_when_designed():
    df = _long({"A": [1, 2, 3], "B": [2, 4, 6]})
    ours, verdict = rep.beats_verdict(df, "A", "B")
    assert verdict == rep.REPRODUCED and "lower at 3/3 horizons" in ours
    assert rep.beats_verdict(df, "A", "B", designed=True)[1] == rep.INCONCLUSIVE
    assert rep.beats_verdict(df, "B", "A")[1] == rep.NOT


def test_comparable_verdict_uses_a_factor_two():
    df = _long({"A": [1, 2, 10], "B": [1, 2, 19], "C": [1, 2, 21]}, noise=0.0)
    assert rep.comparable_verdict(df, "A", "B")[1] == rep.REPRODUCED
    ours, verdict = rep.comparable_verdict(df, "A", "C")
    assert verdict == rep.NOT and "ratio 2.10" in ours


def test_claim_moves_the_rule_and_carries_reading_and_role():
    row = rep.claim(
        "Fig. 6b",
        "LSDT-CSI beats UCB1 on B*",
        "ours",
        rep.REPRODUCED,
        paper="Sec. 6.2.1: quoted",
        reading="UCB1 α = 2",
        open_because="the paper is silent",
    )
    assert row.rule == rep.BEATS_RULE and row.reading == "UCB1 α = 2" and row.paper == "Sec. 6.2.1: quoted"
    extra = rep.claim("Fig. 4a", "x (rule: y (z))", "ours", rep.PARTLY, role=rep.EXTRA)
    assert extra.claim == "Fig. 4a: x" and extra.rule == "y (z)" and extra.role == rep.EXTRA
    with pytest.raises(ValueError, match="open_because"):
        rep.claim("Fig. 6b", "A beats B", "ours", rep.REPRODUCED, reading="r")


def test_the_jester_stand_in_is_ungated_and_its_shape_is_only_described():
    gate = rep.jester_ungated()
    assert not gate.passed and "spread" in gate.statistic
    assert rep.policy_verdict(True, gates=[gate]) == rep.INCONCLUSIVE
    shape = rep.jester_description({"jokes": 100, "users": 24983, "lowest joke coverage": 0.64})
    assert list(shape["statistic"]) == list(rep.JESTER_PAPER) and "inside" not in shape
    with pytest.raises(ValueError, match="jester_summary"):
        rep.jester_description({"jokes": 100})


def test_claim_passes_hypotheses_stated_and_to_decide_to_the_row():
    from bandit_lib.infra.scorecard import Hypothesis

    bad = Hypothesis("Assumption 4", False, "N = 5")
    row = rep.claim("Theorem 5", "x", "ours", rep.INCONCLUSIVE, hypotheses=[bad], to_decide="an instance inside")
    assert row.hypotheses == (bad,) and row.to_decide == "an instance inside"
    with pytest.raises(ValueError, match="must be inconclusive"):
        rep.claim("Theorem 5", "x", "ours", rep.REPRODUCED, hypotheses=[bad])
    with pytest.raises(ValueError, match="stated"):
        rep.claim("Fig. 6b", "x", "ours", rep.REPRODUCED, role=rep.SENSITIVITY)


def test_every_quote_names_where_it_is_in_the_paper():
    for key, text in rep.PAPER_SAYS.items():
        assert text.startswith(("Fig.", "Sec.", "App.", "Theorem", "Remark", "Corollary")), key
