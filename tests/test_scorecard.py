"""The book's one scorecard format (bandit_lib.infra.scorecard)."""

import json

import pandas as pd
import pytest

from bandit_lib.infra.scorecard import (
    POLICY,
    Claim,
    Hypothesis,
    counts,
    load_published,
    overall,
    publish,
    scorecard,
    summary,
    verdict,
    verdict_of_checks,
)

SILENT = "the paper is silent"


def test_verdict_rules():
    assert verdict(True) == "reproduced"
    assert verdict(False, True) == "partly"
    assert verdict(False) == "not reproduced"
    assert verdict(True, can_fail=False) == "inconclusive"
    assert verdict(False, designed=True) == "inconclusive"
    assert verdict_of_checks([True, True]) == "reproduced"
    assert verdict_of_checks([True, False]) == "partly"
    assert verdict_of_checks([False, False]) == "not reproduced"
    assert verdict_of_checks([]) == "not reproduced"


def test_conditional_claims_are_summarised_per_reading():
    card = scorecard(
        [
            Claim(
                "GOLD saves 82%", "82%", "75%", "reproduced", "saving > 50%", reading="Hoeffding", open_because=SILENT
            ),
            Claim(
                "GOLD saves 82%",
                "82%",
                "-3%",
                "not reproduced",
                "saving > 50%",
                reading="Agresti-Coull",
                open_because=SILENT,
            ),
            Claim("GOLD is correct", "1.0", "1.0", "reproduced", "≥ 1 − δ", reading=""),
        ]
    )
    assert list(card.columns) == ["claim", "reading", "open_because", "paper", "ours", "verdict", "rule"]
    table = summary(card)
    assert table["verdict"].tolist() == [
        "reproduced under Hoeffding; not reproduced under Agresti-Coull",
        "reproduced",
    ]
    assert counts(card) == {"reproduced": 1, "conditional": 1}
    assert overall(["partly", "partly"], ["a", "b"]) == "partly"


def test_a_card_without_readings_has_no_reading_column():
    card = scorecard([Claim("c", "p", "o", "partly", "r")])
    assert "reading" not in card.columns and counts(card) == {"partly": 1}


def test_bad_rows_name_the_bad_value():
    with pytest.raises(ValueError, match="verdict='yes'"):
        Claim("c", "p", "o", "yes", "r")
    with pytest.raises(ValueError, match="ours=''"):
        Claim("c", "p", "", "partly", "r")
    with pytest.raises(ValueError, match="at least one claim"):
        scorecard([])
    with pytest.raises(TypeError, match="Claim objects"):
        scorecard([("c", "p", "o", "partly", "r")])


def test_a_verdict_shared_by_every_reading_of_one_setting_is_named_by_that_setting():
    readings = [f"{f} intervals, k by {k}" for f in ("Hoeffding", "Agresti-Coull") for k in ("rule a", "rule b")]
    verdicts = ["partly", "partly", "not reproduced", "reproduced"]
    assert overall(verdicts, readings) == (
        "reproduced under Agresti-Coull intervals, k by rule b; partly under Hoeffding intervals (all 2 readings); "
        "not reproduced under Agresti-Coull intervals, k by rule a"
    )
    assert overall(["partly", "reproduced", "partly"], ["x", "y", "z"]) == "reproduced under y; partly under x / z"


def test_a_verdict_over_several_groups_of_readings_names_each_group_by_its_shared_settings():
    readings = [f"{g}, {b}" for b in ("t in pulls", "t in batches") for g in ("whole", "target")]
    verdicts = ["reproduced", "partly", "partly", "partly"]  # whole/pulls reproduced; every other partly
    assert overall(verdicts, readings) == (
        "reproduced under whole, t in pulls; partly under target (all 2 readings) / whole, t in batches"
    )
    readings3 = [f"{g}, {lk}, {t}" for lk in ("a", "b") for t in ("p", "q") for g in ("W", "T")]
    partly = {"W, a, q", "W, b, q", "T, a, q", "T, b, q", "T, a, p"}
    got = overall(["partly" if r in partly else "reproduced" for r in readings3], readings3)
    assert got == "reproduced under W, p (all 2 readings) / T, b, p; partly under q (all 4 readings) / T, a, p", got


def test_a_reading_must_name_the_passage_that_leaves_the_setting_open():
    with pytest.raises(ValueError, match="reading='Hoeffding' with open_because=''"):
        Claim("c", "p", "o", "partly", "r", reading="Hoeffding")
    with pytest.raises(ValueError, match="open_because='§5'"):
        Claim("c", "p", "o", "partly", "r", open_because="§5")


def test_sensitivity_and_extra_rows_are_shown_but_not_counted():
    card = scorecard(
        [
            Claim("WRR beats RR", "yes", "0.8", "reproduced", "ratio < 1", headline=True),
            Claim("WRR beats RR", "yes", "1.3", "not reproduced", "ratio < 1", role="sensitivity", stated="§5: k = 2"),
            Claim("our ablation", "—", "0.5", "partly", "r", role="extra"),
        ]
    )
    assert list(card.columns) == ["claim", "paper", "ours", "verdict", "rule", "conditions", "role"]
    assert counts(card) == {"reproduced": 1}
    assert summary(card)["claim"].tolist() == ["WRR beats RR"]
    assert summary(card, everything=True)["role"].tolist() == ["claim", "sensitivity", "extra"]
    assert card.attrs["headlines"] == ["WRR beats RR"]
    with pytest.raises(ValueError, match="role='ablation'"):
        Claim("c", "p", "o", "partly", "r", role="ablation")
    with pytest.raises(ValueError, match="headline"):
        Claim("c", "p", "o", "partly", "r", role="extra", headline=True)


def test_the_policy_names_every_rule_of_the_issue():
    names = [name for name, _ in POLICY]
    for rule in (
        "Stated settings",
        "inferred setting is a reading",
        "stand-in",
        "gate checks what the generator does not set",
        "theorem is tested on instances that satisfy its hypotheses",
        "cannot fail",
        "own designs",
        "totals",
        "One name",
        "Prose follows",
    ):
        assert any(rule in n for n in names), rule


def test_publish_writes_only_in_the_full_profile_with_a_folder(tmp_path, monkeypatch):
    card = scorecard([Claim("c", "p", "o", "partly", "r", headline=True)])
    monkeypatch.delenv("BANDIT_SCORECARDS", raising=False)
    assert publish(card, "zhuang17") is None
    monkeypatch.setenv("BANDIT_SCORECARDS", str(tmp_path))
    monkeypatch.setenv("BANDIT_PROFILE", "quick")
    assert publish(card, "zhuang17") is None
    monkeypatch.setenv("BANDIT_PROFILE", "full")
    path = publish(card, "zhuang17")
    assert json.loads(path.read_text())["headlines"] == ["c"]
    back = load_published("zhuang17")
    pd.testing.assert_frame_equal(back, card)
    assert back.attrs["headlines"] == ["c"]
    with pytest.raises(FileNotFoundError, match="'gold20' published no scorecard"):
        load_published("gold20")
    with pytest.raises(ValueError, match="chapter"):
        publish(card, "../x")


def test_a_card_of_extra_rows_only_counts_nothing_and_rows_with_one_text_stay_apart():
    card = scorecard(
        [
            Claim("WRR beats RR", "yes", "0.8", "reproduced", "r"),
            Claim("WRR beats RR", "yes", "1.3", "not reproduced", "r", role="sensitivity", stated="§5: k = 2"),
        ]
    )
    assert summary(card, everything=True)["verdict"].tolist() == ["reproduced", "not reproduced"]
    only_extra = scorecard([Claim("ours", "—", "1", "reproduced", "r", role="extra")])
    assert counts(only_extra) == {} and summary(only_extra).empty


def test_show_escapes_html():
    from bandit_lib.infra.scorecard import show

    html = show(scorecard([Claim("a <b and c", "p & q", "o", "partly", "r")])).to_html()
    assert "a &lt;b and c" in html and "p &amp; q" in html


def test_a_theorem_row_checks_its_hypotheses_and_is_outside_the_theorem_when_one_fails():
    holds = Hypothesis("Assumption 4: N ≥ κ ln 6N", True, "N = 40 ≥ 38.2")
    fails = Hypothesis("Assumption 4: N ≥ κ ln 6N", bool(5 >= 9.4), "N = 5 < 9.4")
    assert verdict(True, hypotheses=[holds]) == "reproduced"
    assert verdict(True, hypotheses=[holds, fails]) == "inconclusive"
    with pytest.raises(ValueError, match="hypotheses"):
        Claim("Theorem 5: regret O(log T)", "p", "o", "reproduced", "r")
    with pytest.raises(ValueError, match="must be inconclusive"):
        Claim("Theorem 5: regret O(log T)", "p", "o", "reproduced", "r", hypotheses=(fails,))
    with pytest.raises(ValueError, match="designed=True does not apply"):
        verdict(True, hypotheses=[holds], designed=True)
    with pytest.raises(TypeError, match="bool"):
        Hypothesis("h", "yes")
    card = scorecard([Claim("Lemma 2: unbiased", "p", "o", "reproduced", "r", hypotheses=(holds,))])
    assert "Assumption 4: N ≥ κ ln 6N: holds (N = 40 ≥ 38.2)" in card["conditions"].iloc[0]
    # a row of the book's own is not bound by the theorem rule
    Claim("Theorem 5 outside its hypotheses (N = 5)", "p", "o", "not reproduced", "r", role="extra")


def test_sensitivity_rows_quote_the_statement_and_inconclusive_claims_say_what_would_decide_them():
    with pytest.raises(ValueError, match="stated="):
        Claim("c", "p", "o", "partly", "r", role="sensitivity")
    with pytest.raises(ValueError, match="stated is for sensitivity rows"):
        Claim("c", "p", "o", "partly", "r", stated="§5: k = 2.5")
    with pytest.raises(ValueError, match="to_decide="):
        Claim("c", "p", "o", "inconclusive", "r")
    card = scorecard(
        [
            Claim("a", "p", "o", "inconclusive", "r", to_decide="a run at T = 10^6"),
            Claim("b", "p", "o", "reproduced", "r", to_decide="shown only while inconclusive"),
            Claim("b", "p", "o", "partly", "r", role="sensitivity", stated='§5: "k = 2.5"'),
        ]
    )
    assert list(card["to_decide"]) == ["a run at T = 10^6", "", ""]
    assert card["conditions"].iloc[2] == 'stated: §5: "k = 2.5"'


def test_a_claim_that_holds_by_construction_cannot_get_a_decisive_verdict():
    from bandit_lib.infra.scorecard import INCONCLUSIVE

    why = "NRR stops after n + 10 pulls: it is right exactly on the cases generated without an outlier"
    with pytest.raises(ValueError, match="holds by construction .* a check that gives the same answer"):
        Claim("NRR never reaches 1 − δ", "p", "o", "reproduced", "r", by_construction=why)
    row = Claim("NRR never reaches 1 − δ", "p", "o", INCONCLUSIVE, "r", by_construction=why, to_decide="none feasible")
    assert f"holds by construction: {why}" in row.conditions


def test_a_bounded_missing_part_decides_the_claim_where_both_ends_agree():
    from bandit_lib.infra.scorecard import INCONCLUSIVE, NOT_REPRODUCED, PARTLY, Bound

    agree = Bound("the Twitter and Yahoo! savings", -1e9, 1.0, NOT_REPRODUCED, NOT_REPRODUCED)
    assert agree.verdict == NOT_REPRODUCED
    with pytest.raises(ValueError, match="its bound decides it.*must be 'not reproduced'"):
        Claim("GOLD saves 83%", "p", "o", INCONCLUSIVE, "r", bound=agree, to_decide="the real data")
    row = Claim("GOLD saves 83%", "p", "o", NOT_REPRODUCED, "r", bound=agree)
    assert "bound: the Twitter and Yahoo! savings in [-1e+09, 1]" in row.conditions
    split = Bound("the real accuracies", 0.0, 1.0, NOT_REPRODUCED, PARTLY)
    assert split.verdict == INCONCLUSIVE
    with pytest.raises(ValueError, match="must be 'inconclusive'"):
        Claim("98% accuracy", "p", "o", PARTLY, "r", bound=split)
    with pytest.raises(ValueError, match="need low <= high"):
        Bound("x", 1.0, 0.0, PARTLY, PARTLY)
