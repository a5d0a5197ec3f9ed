"""`make check-book` (tools/check_book.py) fails on what a reader cannot read: each check is shown
to fail on a page that has the fault and to pass on one that does not.

The judgement (what is too wide, NaN in a table, a chapter the introduction does not link to) is
pure Python and tested here without a browser. The measurements come from headless Chromium: those
tests run small synthetic pages through the real browser check, and skip, saying how to install
it, where Debian's chromium is absent.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
try:
    import check_book as cb
finally:
    sys.path.remove(str(ROOT / "tools"))


# --- judged in Python ------------------------------------------------------------------------------


def _item(kind, right, box=None):
    return {"kind": kind, "text": f"a {kind}", "top": 1000, "right": right, "box": box}


def _box(overflow="auto", right=900.0, height=200.0, scroll_width=900.0, left=300.0):
    return {"overflow": overflow, "left": left, "right": right, "height": height, "scroll_width": scroll_width}


def _problems(*items):
    return cb.overflow_problems("page", {"column_right": 900.0, "items": list(items)}, 900)


def test_what_fits_its_column_passes():
    assert _problems(_item("formula", 900.5), _item("table", 880), _item("code", 899, _box(right=900))) == []


def test_a_formula_wider_than_the_column_fails_even_if_it_could_scroll():
    [problem] = _problems(_item("formula", 913, _box(right=900, scroll_width=613)))
    assert "formula" in problem and "13 px too wide" in problem and "break it into lines" in problem


def test_a_code_block_wider_than_its_box_fails_even_if_it_could_scroll():
    [problem] = _problems(_item("code", 1000, _box(right=900, scroll_width=700)))
    assert "code" in problem and "100 px too wide" in problem and "wrap" in problem


def test_a_wide_table_passes_where_it_scrolls_in_view():
    assert _problems(_item("table", 1300, _box(right=900, height=400, scroll_width=1000))) == []


def test_a_wide_table_fails_where_its_scrollbar_is_out_of_sight():
    [problem] = _problems(_item("table", 1300, _box(right=900, height=5400, scroll_width=1000)))
    assert "5400 px tall" in problem and "out of sight" in problem


@pytest.mark.parametrize(
    ("box", "expected"),
    [
        (None, "nothing lets the reader see the rest"),
        (_box(overflow="hidden"), "are hidden at the right"),
        (_box(scroll_width=700), "beyond the end of its scroll box"),
        (_box(right=1100, scroll_width=1000), "wider than the column"),
    ],
    ids=["spills over", "clipped", "scroll too short", "scroll box too wide"],
)
def test_a_wide_table_fails_where_the_rest_cannot_be_reached(box, expected):
    [problem] = _problems(_item("table", 1300, box))
    assert expected in problem


def test_nan_in_a_rendered_table_is_found_and_a_dash_is_not():
    page = """<table><tr><th>n</th><th>factor</th></tr><tr><td>20</td><td>NaN</td></tr></table>
    <p>NaN in prose is not a table.</p>
    <table><tr><td>nan</td><td>nanoseconds</td><td>—</td></tr></table>
    <table><tr><td>1.0</td><td>—</td></tr></table>"""
    assert cb.nan_tables(page) == {1: ["NaN"], 2: ["nan"]}


def test_a_chapter_the_introduction_does_not_link_to_is_found():
    chapters = ["notebooks/zhuang17", "notebooks/arena"]
    nav = '<nav><a href="notebooks/zhuang17.html">x</a><a href="notebooks/arena.html">y</a></nav>'
    intro = nav + '<article class="bd-article"><a href="notebooks/zhuang17.html#chapter-zhuang17">RR</a></article>'
    assert cb.missing_chapters(intro, chapters) == ["notebooks/arena"]
    intro = intro.replace("</article>", '<a class="reference internal" href="notebooks/arena.html">arena</a></article>')
    assert cb.missing_chapters(intro, chapters) == []


def test_the_book_introduction_links_to_every_chapter():
    """The source of the check's input: intro.md names every chapter of the table of contents."""
    intro = (ROOT / "book" / "intro.md").read_text()
    chapters = [p for p in cb.toc_pages(ROOT / "book") if p.startswith("notebooks/")]
    missing = [
        c
        for c in chapters
        if f"chapter-{c.split('/')[1]}>" not in intro and f"{{ref}}`chapter-{c.split('/')[1]}`" not in intro
    ]
    assert not missing, f"book/intro.md does not link to {missing}"


# --- measured in Chromium ---------------------------------------------------------------------------

needs_chromium = pytest.mark.skipif(
    not Path(cb.CHROMIUM).exists(),
    reason=f"{cb.CHROMIUM} not found: `sudo apt-get install chromium` (Debian), or BANDIT_CHROMIUM=<a Chromium "
    "executable>, runs the browser checks",
)

PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8">{head}
<style>body {{ margin: 0; font: 16px sans-serif; }} article.bd-article {{ width: 600px; margin-left: 200px; }}
.output {{ overflow-x: auto; }} pre {{ overflow: auto; }}</style></head>
<body><article class="bd-article">{body}</article></body></html>"""

WIDE_FORMULA = (
    '<div class="math"><mjx-container display="true" style="display: block; overflow-x: auto">'
    '<mjx-math style="display: inline-block; width: 400px; white-space: nowrap">'
    '<mjx-mi style="display: inline-block; width: 800px">x</mjx-mi></mjx-math></mjx-container></div>'
)
LONG_CODE = '<div class="highlight"><pre>make book   # ' + "builds the book " * 8 + "</pre></div>"
ROW = "<tr>" + "<td>McDiarmid/Hoeffding_intervals_everywhere</td>" * 6 + "</tr>"
LONG_TEXT_TABLE = f'<div class="cell_output"><div class="output"><table>{ROW * 60}</table></div></div>'
TALL_NUMBER_TABLE = (
    '<div class="cell_output"><div class="output wide-table"><table>'
    + ("<tr>" + "<td>123456.789</td>" * 14 + "</tr>") * 60
    + "</table></div></div>"
)
SHORT_WIDE_TABLE = (
    '<div class="cell_output"><div class="output wide-table"><table><tr>'
    + "<td>123456.789</td>" * 14
    + "</tr></table></div></div>"
)


def _check(tmp_path, body, head=""):
    html = tmp_path / "html"
    html.mkdir(exist_ok=True)
    (html / "page.html").write_text(PAGE.format(head=head, body=body))
    return cb.browser_checks(html, ["page"], {}, tmp_path / "shots")


@needs_chromium
@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (WIDE_FORMULA, "the formula at"),
        (LONG_CODE, "the code at"),
        (LONG_TEXT_TABLE, "wider than the text column"),
        (TALL_NUMBER_TABLE, "its scrollbar is out of sight"),
    ],
    ids=["formula", "code", "long wide text table", "long wide number table"],
)
def test_the_browser_check_fails_on_what_a_reader_cannot_read(tmp_path, body, expected):
    problems = _check(tmp_path, body)
    assert len(problems) == 1 and expected in problems[0], problems


@needs_chromium
def test_the_browser_check_passes_a_wide_table_that_scrolls_in_view(tmp_path):
    assert _check(tmp_path, SHORT_WIDE_TABLE) == []


@needs_chromium
def test_the_books_stylesheet_makes_code_and_tables_readable(tmp_path):
    """book/_static/tables.css and tables.js wrap the long code line and the long text table, and
    give the long table of numbers a scroll box no taller than the window."""
    html = tmp_path / "html"
    html.mkdir()
    for name in ("tables.css", "tables.js"):
        shutil.copy(ROOT / "book" / "_static" / name, html / name)
    head = '<link rel="stylesheet" href="tables.css"><script src="tables.js"></script>'
    assert _check(tmp_path, LONG_CODE + LONG_TEXT_TABLE + TALL_NUMBER_TABLE + SHORT_WIDE_TABLE, head) == []


# --- a chapter read in minutes: layout, figures, headers (judged in Python) -------------------------


def _layout(height=9000, answer=(150, 400)):
    return {
        "height": height,
        "column_width": 836.0,
        "answer": None if answer is None else {"top": answer[0], "verdicts_top": answer[1]},
    }


def test_a_chapter_within_its_budget_with_its_answer_first_passes():
    assert cb.layout_problems("notebooks/x", _layout()) == []
    assert cb.layout_problems("verdicts", _layout(height=50_000, answer=None)) == []  # not a chapter


@pytest.mark.parametrize(
    ("layout", "expected"),
    [
        (_layout(height=cb.PAGE_BUDGET_PX + 1), "px tall with its folds closed"),
        (_layout(answer=None), "does not open with its answer"),
        (_layout(answer=(150, None)), "shows no verdict"),
        (_layout(answer=(850, 1200)), "below the first screen"),
    ],
    ids=["too tall", "no answer", "answer without verdicts", "answer below the first screen"],
)
def test_a_chapter_too_long_or_without_its_answer_first_fails(layout, expected):
    [problem] = cb.layout_problems("notebooks/x", layout)
    assert expected in problem


def test_a_figure_shown_narrower_than_drawn_or_than_its_box_fails():
    ok = {"column_width": 836.0, "images": [{"src": "a.png", "natural": 600, "shown": 600, "top": 1}]}
    assert cb.image_problems("notebooks/x", ok) == []
    wide = {"column_width": 836.0, "images": [{"src": "b.png", "natural": 1400, "shown": cb.COLUMN_PX, "top": 1}]}
    assert cb.image_problems("notebooks/x", wide) == []  # shrunk to the box the figure was checked for
    shrunk = {"column_width": 836.0, "images": [{"src": "c.png", "natural": 1400, "shown": 500, "top": 1}]}
    [problem] = cb.image_problems("notebooks/x", shrunk)
    assert "shown 500 px wide" in problem
    narrow = {"column_width": 500.0, "images": [{"src": "d.png", "natural": 400, "shown": 400, "top": 1}]}
    [problem] = cb.image_problems("notebooks/x", narrow)
    assert "narrower than the 680 px" in problem


def test_a_table_wider_than_its_column_fails_unless_marked_as_a_data_table_that_scrolls():
    unmarked = dict(_item("table", 1300, _box(right=900, height=400, scroll_width=1000)), marked=False)
    [problem] = _problems(unmarked)
    assert "wider than the text column" in problem and "wide-table" in problem
    marked = dict(unmarked, marked=True)
    assert _problems(marked) == []


GOOD_FIGURE = (
    '<figure><img alt="Coverage of four radii against the number of pulls" src="../_images/a.png">'
    '<figcaption><p><span class="caption-number">Fig. 1.1 </span><span class="caption-text">How often each '
    "radius covers the mean, against the number of pulls.</span></p></figcaption></figure>"
)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('<img alt="Coverage of four radii against the pulls" src="../_images/a.png">', "has no caption"),
        (GOOD_FIGURE.replace('<span class="caption-number">Fig. 1.1 </span>', ""), "is not numbered"),
        (
            GOOD_FIGURE.replace("How often each radius covers the mean, against the number of pulls.", "Coverage."),
            "too short",
        ),
        (
            GOOD_FIGURE.replace("Coverage of four radii against the number of pulls", "../_images/a.png"),
            "does not say what it shows",
        ),
        (
            GOOD_FIGURE.replace("Coverage of four radii against the number of pulls", "the figure is at figure_1.png"),
            "is a file name",
        ),
        ("<table><tr><th>open_because</th></tr><tr><td>x</td></tr></table>", "a code identifier"),
        (
            '<div class="cell_output docutils container"><div class="output stream"><pre>{\'reproduced\': 4, '
            "'partly': 2}</pre></div></div>",
            "prints a Python dict",
        ),
    ],
    ids=[
        "no caption",
        "not numbered",
        "short caption",
        "alt is a path",
        "alt names a file",
        "identifier header",
        "dict output",
    ],
)
def test_a_chapter_figure_without_caption_or_alt_and_a_raw_header_fail(body, expected):
    page = f"<html><body><article>{body}</article></body></html>"
    problems = cb.figure_problems("notebooks/x", page)
    assert len(problems) == 1 and expected in problems[0], problems


def test_a_captioned_numbered_figure_with_alt_text_and_worded_headers_pass():
    page = f"<html><body><article>{GOOD_FIGURE}<table><tr><th>at largest m</th></tr></table></article></body></html>"
    assert cb.figure_problems("notebooks/x", page) == []


@needs_chromium
def test_the_browser_check_measures_a_chapter_page_with_its_folds_closed(tmp_path):
    """A chapter page built to fail: taller than the budget with its folds closed, no answer, and a
    table wider than the column hidden in a fold (widths are measured with every fold open)."""
    html = tmp_path / "html"
    (html / "notebooks").mkdir(parents=True)
    folded = '<details class="fold"><summary>more</summary><div style="height: 30000px"></div></details>'
    wide = "<details><summary>table</summary><table><tr>" + "<td>12345678.9</td>" * 40 + "</tr></table></details>"
    tall = f'<div style="height: {cb.PAGE_BUDGET_PX + 500}px"></div>'
    (html / "notebooks" / "x.html").write_text(PAGE.format(head="", body=folded + wide + tall))
    heights: dict[str, int] = {}
    problems = cb.browser_checks(html, ["notebooks/x"], {}, tmp_path / "shots", heights)
    assert cb.PAGE_BUDGET_PX < heights["notebooks/x"] < cb.PAGE_BUDGET_PX + 2000, heights
    assert any("px tall with its folds closed" in p for p in problems), problems
    assert any("does not open with its answer" in p for p in problems), problems
    assert any("wider than the text column" in p and "wide-table" in p for p in problems), problems
    assert (tmp_path / "shots" / "x-first-screen.png").exists()


def test_the_result_line_of_the_readme_and_the_introduction_must_match_the_built_scorecards(tmp_path):
    from bandit_lib.infra.scorecard import BOOK_CHAPTERS, PAPERS, Claim, scorecard

    folder = tmp_path / "scorecards"
    for key in {**PAPERS, **BOOK_CHAPTERS}:
        card = scorecard([Claim("c", "p", "o", "reproduced", "r"), Claim("d", "p", "o", "partly", "r")])
        folder.mkdir(exist_ok=True)
        rows = json.loads(card.to_json(orient="records"))
        (folder / f"{key}.json").write_text(json.dumps({"chapter": key, "rows": rows, "headlines": []}))
    line = (
        "Of the 10 claims of the five papers, 5 reproduced, 5 partly, 0 did not reproduce, 0 are inconclusive "
        "and 0 depend on a setting the paper leaves open."
    )
    intro = f"<p>{line[:30]}<em>{line[30:]}</em></p>"
    assert cb.result_problems(folder, f"# Book\n\n{line}\n", intro) == []
    stale = line.replace("5 reproduced, 5 partly", "6 reproduced, 4 partly")
    problems = cb.result_problems(folder, stale, f"<p>{stale}</p>")
    assert len(problems) == 2 and all(line in p for p in problems), problems
