"""How scorecards read in the book (bandit_lib.infra.cards): four columns, badges, math, folds."""

from __future__ import annotations

import pytest

from bandit_lib.infra import cards
from bandit_lib.infra.scorecard import EXTRA, SENSITIVITY, Claim, scorecard


def _card():
    return scorecard(
        [
            Claim("ADE needs $O(n \\log n)$ pulls", "Thm 2", "1.2×", "reproduced", "ratio ≤ 2", headline=True),
            Claim(
                "C1 <fast>", "Fig. 2", "a & b", "partly", "r", reading="Hoeffding", open_because="silent", headline=True
            ),
            Claim("C1 <fast>", "Fig. 2", "c", "reproduced", "r", reading="Agresti–Coull", open_because="silent"),
            Claim("C1 with R = 2", "Fig. 2", "d", "partly", "r", role=SENSITIVITY, stated="§6.1: R = 1"),
            Claim("our check", "—", "ok", "reproduced", "r", role=EXTRA),
        ]
    )


def test_counts_in_words_name_the_conditional_claims():
    assert cards.counts_sentence(_card()) == (
        "2 claims of the paper: 1 reproduced; 1 of them depends on a reading (conditional)."
    )
    one = scorecard([Claim("c", "p", "o", "partly", "r")])
    assert cards.counts_sentence(one, what="claims of a cited paper") == "1 claim of a cited paper: 1 partly."


def test_badges_colour_a_verdict_and_split_a_conditional_one():
    assert cards.badge("not reproduced") == '<span class="verdict verdict-not-reproduced">not reproduced</span>'
    conditional = cards.badge("reproduced under Agresti–Coull; partly under Hoeffding")
    assert conditional.count('class="verdict ') == 3 and "verdict-conditional" in conditional
    with pytest.raises(ValueError, match="'maybe'"):
        cards.badge("maybe")


def test_rows_escape_html_render_math_and_fold_what_is_not_counted():
    html = cards.rows(_card())
    assert "C1 &lt;fast&gt;" in html and "a &amp; b" in html and "<fast>" not in html
    assert r"\(O(n \log n)\)" in html and "tex2jax_process" in html
    assert "<th>Claim</th><th>Paper</th><th>Ours</th><th>Verdict</th>" in html
    assert "reading: Hoeffding" in html and "<dt>Open because</dt>" in html
    assert '<details class="more-rows"><summary>1 sensitivity row and 1 row of the book\'s own (not counted)' in html


def test_the_answer_shows_the_headline_claims_with_their_verdicts():
    html = cards.answer(_card())
    assert html.count("<tr>") == 3  # the header and two headline claims
    assert "verdict-conditional" in html and "verdict-reproduced" in html
    assert "our check" not in html
    assert "our check" in cards.answer(_card(), show=["our check"])
    with pytest.raises(ValueError, match="'nothing' is not a claim"):
        cards.answer(_card(), show=["nothing"])
    with pytest.raises(ValueError, match="names no headline claim"):
        cards.answer(scorecard([Claim("c", "p", "o", "partly", "r")]))


def test_claims_lists_one_line_per_claim_of_the_paper():
    html = cards.claims(_card())
    assert html.count("<tr>") == 3 and "our check" not in html and html._repr_html_() == str(html)
