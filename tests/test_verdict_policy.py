"""Every chapter follows the one verdict policy (issue 19): its scorecard links to the policy page
and is published for the verdicts page, and no chapter cites a document its readers do not have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((REPO / "notebooks").glob("*.md"))
PAGES = sorted((REPO / "book").glob("*.md"))
# A decision label of the internal specs (D1-D12, AMBIG-n, A1-A12, B1-B9, E3) or a citation of them.
SPEC_CITATION = re.compile(r"\b(the spec|spec['’]s|spec §|specification)\b|\bAMBIG-\d+", re.IGNORECASE)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_scorecard_links_to_the_policy_and_is_published(chapter):
    text = chapter.read_text()
    assert "verdict-policy" in text, f"{chapter.name}: the scorecard must link to the verdict policy"
    assert re.search(r"publish\([^)]*\"" + chapter.stem + '"', text), f"{chapter.name}: publish(card, {chapter.stem!r})"


@pytest.mark.parametrize("page", CHAPTERS + PAGES, ids=lambda p: p.stem)
def test_no_page_cites_the_internal_specs(page):
    hits = [m.group(0) for m in SPEC_CITATION.finditer(page.read_text())]
    assert not hits, f"{page.name} cites a document its readers do not have: {hits[:5]}"


def test_the_verdicts_page_lists_every_chapter_papers_apart_from_the_books_own():
    from bandit_lib.infra.scorecard import BOOK_CHAPTERS, PAPERS

    assert sorted({**PAPERS, **BOOK_CHAPTERS}) == sorted(c.stem for c in CHAPTERS)
    assert not set(PAPERS) & set(BOOK_CHAPTERS)
    text = (REPO / "book" / "verdicts.md").read_text()
    assert "verdict_counts(cards, names, total=total)" in text  # the page's counts_table draws both tables
    assert "counts_table(PAPERS, total=True)" in text and "counts_table(BOOK_CHAPTERS)" in text


def test_verdict_counts_total_the_papers_and_give_the_share_inconclusive():
    from bandit_lib.infra.scorecard import Claim, scorecard, verdict_counts

    def card(*verdicts):
        return scorecard([Claim(f"c{i}", "p", "o", v, "r", to_decide="x") for i, v in enumerate(verdicts)])

    cards = {"a": card("reproduced", "inconclusive"), "b": card("not reproduced", "inconclusive", "inconclusive")}
    table = verdict_counts(cards, {"a": "A", "b": "B"}, total=True)
    assert table["chapter"].tolist() == ["A", "B", "all papers"]
    assert table["claims"].tolist() == [2, 3, 5]
    assert table["inconclusive"].tolist() == [1, 2, 3]
    assert table["share inconclusive"].tolist() == ["50%", "67%", "60%"]
    assert table["share conditional"].tolist() == ["0%", "0%", "0%"]
    with pytest.raises(ValueError, match="no scorecard"):
        verdict_counts(cards, {"c": "C"})


def test_the_pattern_finds_a_citation():
    assert SPEC_CITATION.search("as the spec decides (AMBIG-3)") and not SPEC_CITATION.search("kernelspec, spectrum")


def test_the_register_lists_shared_settings_and_asks_why_parallel_sentences_differ():
    from bandit_lib.infra.scorecard import READING, STATED, Setting, register, register_problems

    r1 = Setting("interval family and R", STATED, "bounded, R = 1", "§6: 'Accordingly, R is set as 1'")
    r2 = Setting("interval family and R", READING, "Bernoulli or bounded", "§6.1: 'thus R = 1' names both")
    cap = Setting("pull cap", STATED, "10^7", "§5.2")
    table = register({"a": [r1, cap], "b": [r2]}, {"a": "A", "b": "B"})
    assert table["setting"].tolist() == ["interval family and R"] * 2  # the cap is in one chapter only
    [problem] = register_problems(table)
    assert "'interval family and R' has two treatments and no reason: A: stated; B: reading" in problem
    explained = Setting(r2.name, READING, r2.value, r2.source, why="GOLD20's sentence names a distribution class")
    assert register_problems(register({"a": [r1], "b": [explained]}, {"a": "A", "b": "B"})) == []
    with pytest.raises(ValueError, match="treatment must be one of"):
        Setting("x", "assumed", "v", "s")


def test_settings_travel_with_the_published_scorecard(tmp_path, monkeypatch):
    from bandit_lib.infra.scorecard import STATED, Claim, Setting, load_published, publish, scorecard

    monkeypatch.setenv("BANDIT_SCORECARDS", str(tmp_path))
    monkeypatch.setenv("BANDIT_PROFILE", "full")
    setting = Setting("pull cap", STATED, "10^7", "§5.2: 'we set the maximum number of pulls to 10^7'")
    publish(scorecard([Claim("c", "p", "o", "partly", "r")]), "zhuang17", settings=[setting])
    assert load_published("zhuang17", tmp_path).attrs["settings"] == [setting]
    with pytest.raises(TypeError, match="Setting objects"):
        publish(scorecard([Claim("c", "p", "o", "partly", "r")]), "zhuang17", settings=["cap"])
