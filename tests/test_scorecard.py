"""The book's one scorecard format (bandit_lib.infra.scorecard)."""

import pytest

from bandit_lib.infra.scorecard import Claim, counts, overall, scorecard, summary, verdict, verdict_of_checks


def test_verdict_rules():
    assert verdict(True) == "reproduced"
    assert verdict(False, True) == "partly"
    assert verdict(False) == "not reproduced"
    assert verdict(True, calibrated=False) == "inconclusive"
    assert verdict_of_checks([True, True]) == "reproduced"
    assert verdict_of_checks([True, False]) == "partly"
    assert verdict_of_checks([False, False]) == "not reproduced"
    assert verdict_of_checks([]) == "not reproduced"


def test_conditional_claims_are_summarised_per_reading():
    card = scorecard(
        [
            Claim("GOLD saves 82%", "82%", "75%", "reproduced", "saving > 50%", reading="Hoeffding"),
            Claim("GOLD saves 82%", "82%", "-3%", "not reproduced", "saving > 50%", reading="Agresti-Coull"),
            Claim("GOLD is correct", "1.0", "1.0", "reproduced", "≥ 1 − δ", reading=""),
        ]
    )
    assert list(card.columns) == ["claim", "reading", "paper", "ours", "verdict", "rule"]
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
