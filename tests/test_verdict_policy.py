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


def test_the_verdicts_page_lists_every_chapter():
    text = (REPO / "book" / "verdicts.md").read_text()
    for chapter in CHAPTERS:
        assert f'"{chapter.stem}":' in text, chapter.stem


def test_the_pattern_finds_a_citation():
    assert SPEC_CITATION.search("as the spec decides (AMBIG-3)") and not SPEC_CITATION.search("kernelspec, spectrum")
