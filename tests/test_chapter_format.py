"""The chapters' sources follow the book's reading format (issue: a book read in minutes).

* every chapter opens with its answer: a ``chapter-answer`` box before its first section, pasting
  the verdicts its scorecard cell glues (``bandit_lib.infra.cards.answer``);
* folds (``<details class="fold">``) open and close in pairs and hold no heading (a heading would
  leave its section inside the fold);
* every theorem, definition and algorithm is titled as the papers number them: unnumbered by the
  book, its title starting with its kind ("Lemma 3 of ADE20: ...", "Definition: ...");
* every figure a chapter draws is captioned: a ``mystnb`` figure caption, or glued and pasted by a
  ``glue:figure`` directive with a caption.

The built pages are checked by ``make check-book`` (tools/check_book.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "notebooks").glob("*.md"))
PAGES = CHAPTERS + sorted((ROOT / "book").glob("*.md"))
PROOF = re.compile(r"^```\{prf:(\w+)\}(.*)$")


def _cells(text: str):
    """(kind, source) for each markdown run and code cell of a MyST notebook."""
    out, buf, code = [], [], False
    for line in text.split("\n"):
        if not code and line.startswith("```{code-cell}"):
            out.append(("markdown", "\n".join(buf)))
            buf, code = [line], True
        elif code and line == "```":
            buf.append(line)
            out.append(("code", "\n".join(buf)))
            buf, code = [], False
        else:
            buf.append(line)
    out.append(("markdown", "\n".join(buf)))
    return out


def fold_problems(text: str) -> list[str]:
    """Unbalanced folds, and headings inside a fold."""
    problems, depth, opened = [], 0, 0
    fences = 0  # inside a code cell or a directive: no fold and no heading there
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith("```"):
            fences += -1 if line.strip() == "```" else 1
            continue
        if fences:
            continue
        if re.match(r"^<details\b", line):
            depth += 1
            opened = number
        elif line.strip() == "</details>":
            depth -= 1
            if depth < 0:
                problems.append(f"line {number}: </details> closes no fold")
                depth = 0
        elif depth and re.match(r"^#{1,6} ", line):
            problems.append(f"line {number}: a heading inside the fold opened at line {opened}")
    if depth:
        problems.append(f"the fold opened at line {opened} is never closed")
    return problems


def title_problems(text: str) -> list[str]:
    problems = []
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        m = PROOF.match(line)
        if not m or m.group(1) == "proof":
            continue
        kind, title = m.group(1), m.group(2).strip()
        options = []
        for following in lines[number:]:
            if not following.startswith(":"):
                break
            options.append(following.strip())
        if ":nonumber:" not in options:
            problems.append(f"line {number}: {kind} {title!r} is numbered by the book (add :nonumber:)")
        if not title.lower().startswith(kind.lower()):
            problems.append(f"line {number}: the title {title!r} does not start with its kind ({kind.title()})")
    return problems


def test_the_format_checks_can_fail():
    assert fold_problems('<details class="fold"><summary>x</summary>\n\n## A heading\n\n</details>') == [
        "line 3: a heading inside the fold opened at line 1"
    ]
    assert fold_problems('<details class="fold">\ntext') == ["the fold opened at line 1 is never closed"]
    assert fold_problems("</details>") == ["line 1: </details> closes no fold"]
    assert title_problems("```{prf:theorem} Candidate set (Theorem 1)\n:label: x\n") == [
        "line 1: theorem 'Candidate set (Theorem 1)' is numbered by the book (add :nonumber:)",
        "line 1: the title 'Candidate set (Theorem 1)' does not start with its kind (Theorem)",
    ]
    assert title_problems("```{prf:theorem} Theorem 1 of UIG: candidate set\n:label: x\n:nonumber:\n") == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_folds_are_balanced_and_hold_no_heading(page):
    assert fold_problems(page.read_text()) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_theorems_and_definitions_carry_the_papers_numbers_not_the_books(page):
    assert title_problems(page.read_text()) == []


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_chapter_opens_with_its_answer(chapter):
    text = chapter.read_text()
    body = text.split("\n---\n", 1)[-1]
    first_section = body.index("\n## ")
    head = body[:first_section]
    assert ":class: chapter-answer" in head, f"{chapter.name}: no answer box before the first section"
    key = chapter.stem
    assert f"```{{glue}} {key}-answer" in head, f"{chapter.name}: the answer box does not paste {key}-answer"
    assert re.search(rf'glue\("{key}-answer", cards\.answer\(', text), (
        f"{chapter.name}: no cell glues {key}-answer from the scorecard (bandit_lib.infra.cards.answer)"
    )


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_figure_is_captioned(chapter):
    """A cell that shows a figure carries a mystnb figure caption; a glued figure is pasted with one."""
    text = chapter.read_text()
    problems = []
    for kind, source in _cells(text):
        if kind != "code" or "plt.show()" not in source:
            continue
        if not re.search(r"mystnb:\s*\n\s*figure:\s*\n\s*caption:", source) or "alt:" not in source:
            problems.append(source.split("\n")[-3][:80])
    glued = re.findall(r'glue\("([\w-]+)", fig\w*, display=False\)', text)
    for key in glued:
        m = re.search(r"```\{glue:figure\} " + re.escape(key) + r"\n((?::\w+:.*\n)*)\n(.+)", text)
        if not m or ":alt:" not in m.group(1) or not m.group(2).strip():
            problems.append(f"glued figure {key} is not pasted with an alt text and a caption")
    assert not problems, f"{chapter.name}: figures without a caption and alt text: {problems}"
