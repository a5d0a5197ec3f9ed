"""Licences and citation (issue 27): the code's licence (LICENSE, MIT, as pyproject.toml says), the
book's (LICENSE-text, CC BY 4.0), CITATION.cff valid under the Citation File Format 1.2.0 and in
agreement with pyproject.toml, the bibliography and the book's introduction, and one table of the
data licences, the same in data/README.md and on the book's reproduction page.

``cffconvert --validate`` is not part of the environment; CITATION.cff is checked with jsonschema
(pinned) against tests/fixtures/cff-1.2.0-rules.schema.json, the format's rules written out for
this test (see its ``$comment``), and the test shows that the check rejects what the format forbids.
"""

from __future__ import annotations

import copy
import json
import re
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
CFF = json.loads(json.dumps(yaml.safe_load((ROOT / "CITATION.cff").read_text()), default=str))
SCHEMA = json.loads((ROOT / "tests" / "fixtures" / "cff-1.2.0-rules.schema.json").read_text())
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PAPERS = ["zhuang2017identifying", "zhang2020adaptive", "ban2020generic", "xu2020partially", "lejeune2020thresholding"]


def _errors(document):
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft7Validator(SCHEMA)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


def test_citation_cff_follows_the_cff_1_2_0_rules():
    assert _errors(CFF) == []


def _broken(edit):
    document = copy.deepcopy(CFF)
    edit(document)
    return document


BROKEN = {
    "no title": lambda d: d.pop("title"),
    "another cff-version": lambda d: d.update({"cff-version": "1.1.0"}),
    "an unknown key": lambda d: d.update({"licence": "MIT"}),
    "a DOI given as a link": lambda d: d["references"][1].update({"doi": "https://doi.org/10.1609/aaai.v34i04.6164"}),
    "a reference type the format lacks": lambda d: d["references"][0].update({"type": "paper"}),
    "a reference without authors": lambda d: d["references"][2].pop("authors"),
    "an entity without a name": lambda d: d.update({"authors": [{"email": "a@b.c"}, {"website": "x"}]}),
    "a date in another format": lambda d: d.update({"date-released": "28/11/2026"}),
    "a root type the format lacks": lambda d: d.update({"type": "book"}),
}


@pytest.mark.parametrize("kind", BROKEN)
def test_the_cff_check_rejects_what_the_format_forbids(kind):
    assert _errors(_broken(BROKEN[kind])), f"the schema accepted {kind}"


def test_citation_cff_agrees_with_pyproject_and_the_licence_files():
    version = PYPROJECT["project"]["version"]
    assert CFF["version"] == CFF["preferred-citation"]["version"] == version
    assert CFF["license"] == PYPROJECT["project"]["license"]["text"] == "MIT"
    assert CFF["preferred-citation"]["license"] == "CC-BY-4.0"
    code = (ROOT / "LICENSE").read_text()
    assert code.startswith("MIT License") and "Permission is hereby granted, free of charge" in code
    text = (ROOT / "LICENSE-text").read_text()
    assert "Creative Commons Attribution 4.0 International" in text
    assert "https://creativecommons.org/licenses/by/4.0/legalcode" in text


def _bib_entries(text):
    entries = {}
    for key, body in re.findall(r"@\w+\{(\w+),(.*?)\n\}", text, flags=re.S):
        entries[key] = {k.lower(): v for k, v in re.findall(r"(\w+)\s*=\s*\{(.*)\},?\s*$", body, flags=re.M)}
    return entries


def _plain(value):
    return re.sub(r"[{}]", "", value)


def test_the_five_papers_are_referenced_as_the_bibliography_gives_them():
    bib = _bib_entries((ROOT / "book" / "references.bib").read_text())
    references = CFF["references"]
    assert len(references) == 5
    for key, reference in zip(PAPERS, references, strict=True):
        entry = bib[key]
        assert _plain(entry["title"]) == reference["title"], key
        families = [_plain(a.split(",")[0]).strip() for a in entry["author"].split(" and ")]
        assert [a["family-names"] for a in reference["authors"]] == families, key
        assert str(reference["year"]) == entry["year"], key
        assert f"{reference['start']}--{reference['end']}" == entry["pages"], key
        if "doi" in entry or "doi" in reference:
            assert reference.get("doi") == entry.get("doi"), key


def test_the_introduction_shows_how_to_cite_the_book():
    intro = (ROOT / "book" / "intro.md").read_text()
    book = CFF["preferred-citation"]
    assert "(cite-this-book)=\n## How to cite this book" in intro
    author = book["authors"][0]["name"]
    assert f"> {author} ({book['year']}). *{book['title']}*, version {book['version']}." in intro
    bibtex = intro.split("```bibtex", 1)[1].split("```", 1)[0]
    assert f"title   = {{{book['title']}}}" in bibtex and f"version {book['version']}" in bibtex
    assert f"year    = {{{book['year']}}}" in bibtex and f"{{{{{author}}}}}" in bibtex
    assert "CITATION.cff" in intro and "CC BY 4.0" in intro


def _licence_table(path):
    text = path.read_text()
    start = text.index("| data | used by | in the repository | licence |")
    return text[start : text.index("\n\n", start)]


def test_one_table_of_data_licences_in_data_readme_and_the_book():
    table = _licence_table(ROOT / "data" / "README.md")
    assert _licence_table(ROOT / "book" / "reproducing.md") == table
    for name in ("data/results/", "HCB", "political blogs", "karate club", "Jester", "Yahoo!", "Twitter"):
        assert name in table, name
    assert "LICENSE.square-2.0" in table and (ROOT / "data" / "raw" / "hcb" / "LICENSE.square-2.0").exists()
