"""Check the built book in a real browser: `python tools/check_book.py book/_build/html`.

Static checks (no browser): every page of the table of contents was built; every chapter shows
at least one figure, and every image a page references exists; no page shows a cell error, a
traceback, a stderr stream or a directive left unparsed (raw ```{...} text); no table shows `NaN`
or `nan` (a missing value is printed as "—"); the introduction links to every chapter; MathJax is
served from the book itself. Every figure of a chapter is numbered and captioned, with alt text
that says what it shows (not a file name); no table is headed by a code identifier
(``open_because``) and no output prints a Python dict where a sentence belongs.

Browser checks (headless Chromium from Debian, driven by Playwright, no browser download): every
page loads with no request leaving localhost, MathJax typesets every formula, and every image
loads. What a reader cannot read fails too (at a 1400 x 900 window, the way the book is judged):

* a chapter page taller than :data:`PAGE_BUDGET_PX` with its folds closed (a chapter opens with
  its answer and folds what a reader may skip; the measured heights are printed);
* a chapter whose answer (the ``chapter-answer`` box with its verdicts) does not start on the
  first screen;
* a display formula or a table wider than the text column, with every fold open (a table of data
  that must scroll is marked ``wide-table`` and then scrolls in a box no wider than the column and
  no taller than the window, so its scrollbar is on screen with it); code wraps and long formulas
  are broken into lines (scrollbars are hidden on many systems);
* a figure shown smaller than it was drawn beyond fitting the column (the figures check their text
  size against that column: :mod:`bandit_lib.infra.plotting`), or a column narrower than the one
  they were drawn for.

A screenshot of each chapter goes to <html>/../check/ for a human look: its first screen and the
whole page with its folds closed.

Legends over plotted data, text that runs into text or is too small on the page, and series a
reader cannot tell apart are checked where the figures are drawn (:mod:`bandit_lib.infra.plotting`),
so in ``make test`` and ``make book``.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import re
import sys
import threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

import yaml

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("BANDIT_CHROMIUM", "/usr/bin/chromium")  # Debian's package, unless named
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ERROR_MARKERS = [
    ("a cell error output", re.compile(r'class="[^"]*\boutput (?:traceback|error)\b')),
    ("a Python traceback", re.compile(r"Traceback \(most recent call last\)")),
    ("a stderr stream", re.compile(r'class="[^"]*\boutput stderr\b')),
    ("an unparsed directive", re.compile(r"```\{|:::\{|\{prf:[a-z]+\}")),
]


VIEWPORT = {"width": 1400, "height": 900}
#: The most a chapter's page may measure, with its folds closed, at :data:`VIEWPORT`'s width.
PAGE_BUDGET_PX = 12_000
#: The class that marks a data table allowed to scroll sideways (``wide-table`` on it or a parent).
WIDE_TABLE = "wide-table"
#: The class of a chapter's opening box (``bandit_lib.infra.cards.ANSWER_CLASS``).
ANSWER = "chapter-answer"
#: The narrowest box the figures are drawn for (``bandit_lib.infra.plotting.COLUMN_PX``): no figure may
#: be shown narrower than this, or than it was drawn.
COLUMN_PX = 680
RERUN_MARKER = "rerun-this-chapter"  # bandit_lib.infra.rerun.MARKER (tests/test_project_files.py checks they agree)


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.images: list[str] = []
        self.scripts: list[str] = []
        self.math = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img" and a.get("src"):
            self.images.append(a["src"])
        if tag == "script" and a.get("src"):
            self.scripts.append(a["src"])
        if tag in ("span", "div") and "math" in (a.get("class") or "").split():
            self.math += 1


class _TablesAndLinks(HTMLParser):
    """The text of every cell of every table of a page (as (table number, text)), and the target
    of every link in the page's article (not in its navigation)."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[tuple[int, str]] = []
        self.links: list[str] = []
        self.tables = 0
        self._article = 0
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "article":
            self._article += 1
        if tag == "table":
            self.tables += 1
        if tag in ("td", "th"):
            self._cell = []
        if tag == "a" and self._article and dict(attrs).get("href"):
            self.links.append(dict(attrs)["href"])

    def handle_endtag(self, tag):
        if tag == "article":
            self._article = max(0, self._article - 1)
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append((self.tables, "".join(self._cell).strip()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


NAN = re.compile(r"(?<![\w-])nan(?![\w-])", re.IGNORECASE)


def nan_tables(text: str) -> dict[int, list[str]]:
    """The tables of a page (numbered from 1 in page order) with cells that show NaN or nan, and
    those cells' texts (a missing value must print as "—")."""
    parser = _TablesAndLinks()
    parser.feed(text)
    found: dict[int, list[str]] = {}
    for table, cell in parser.cells:
        if NAN.search(cell):
            found.setdefault(table, []).append(cell)
    return found


def missing_chapters(intro: str, chapters: list[str]) -> list[str]:
    """The chapters (toc paths, e.g. ``notebooks/arena``) the introduction's text does not link to
    (the navigation bar, which lists them all, does not count)."""
    parser = _TablesAndLinks()
    parser.feed(intro)
    targets = {urlparse(href).path.removesuffix(".html") for href in parser.links}
    return [c for c in chapters if c not in targets]


def toc_pages(book: Path) -> list[str]:
    toc = yaml.safe_load((book / "_toc.yml").read_text())
    chapters = [c for part in toc["parts"] for c in part["chapters"]]
    return [toc["root"]] + [p["file"] for c in chapters for p in [c, *c.get("sections", [])]]


# --- what a reader cannot read --------------------------------------------------------------------
# Measured in the browser (LAYOUT with the folds closed, then MEASURE with every fold open), judged in
# Python (layout_problems, overflow_problems, tested without a browser). For each display formula,
# table and code block shown: its content's right edge, the text column, whether it is marked as a
# wide table, and the nearest box (the element itself or an ancestor) that does not let content
# overflow: a scroll box (overflow auto/scroll) or a clipping one (hidden/clip).
LAYOUT = r"""() => {
  const column = document.querySelector('article.bd-article') || document.querySelector('main') || document.body;
  const answer = document.querySelector('.chapter-answer');
  let found = null;
  if (answer) {
    const verdicts = answer.querySelector('.scorecard-view span.verdict');
    found = {top: Math.round(answer.getBoundingClientRect().top + window.scrollY),
             verdicts_top: verdicts ? Math.round(verdicts.getBoundingClientRect().top + window.scrollY) : null};
  }
  return {height: document.documentElement.scrollHeight, column_width: column.getBoundingClientRect().width, answer: found};
}"""
OPEN_FOLDS = r"""() => {
  for (const d of document.querySelectorAll('details')) d.open = true;
  if (typeof readableTables === 'function') readableTables();
}"""
MEASURE = r"""() => {
  const column = document.querySelector('article.bd-article') || document.querySelector('main') || document.body;
  const col = column.getBoundingClientRect();
  const items = [];
  const kinds = [['formula', 'mjx-container[display="true"]'], ['table', 'table'], ['code', 'pre']];
  for (const [kind, selector] of kinds) {
    for (const el of column.querySelectorAll(selector)) {
      const r = el.getBoundingClientRect();
      if (!el.getClientRects().length || r.width === 0 || el.closest('details:not([open])')) continue;
      let right = Math.max(r.right, r.left + el.scrollWidth);
      if (kind === 'formula') {  // MathJax's boxes can be narrower than the glyphs they hold
        for (const d of el.querySelectorAll('mjx-math *')) {  // not the hidden assistive MathML
          const dr = d.getBoundingClientRect();
          if (dr.width) right = Math.max(right, dr.right);
        }
      }
      let box = null;
      for (let a = el; a && a !== column.parentElement; a = a.parentElement) {
        const overflow = getComputedStyle(a).overflowX;
        if (overflow !== 'visible') {
          const ar = a.getBoundingClientRect();
          box = {overflow, left: ar.left, right: ar.right, height: ar.height, scroll_width: a.scrollWidth};
          break;
        }
      }
      items.push({kind, text: el.textContent.replace(/\s+/g, ' ').trim().slice(0, 60),
                  top: Math.round(r.top + window.scrollY), right, box,
                  marked: !!el.closest('.wide-table')});
    }
  }
  const images = [];
  for (const img of column.querySelectorAll('img')) {
    if (!img.getClientRects().length || !img.naturalWidth) continue;
    images.push({src: img.getAttribute('src'), natural: img.naturalWidth, shown: img.getBoundingClientRect().width,
                 top: Math.round(img.getBoundingClientRect().top + window.scrollY)});
  }
  return {column_right: col.right, column_width: col.width, items, images};
}"""


def layout_problems(page: str, layout: dict, viewport_height: float = VIEWPORT["height"]) -> list[str]:
    """What is wrong with a chapter page's layout, from :data:`LAYOUT`'s measurements (folds closed):
    taller than :data:`PAGE_BUDGET_PX`, or its answer not on the first screen."""
    if not page.startswith("notebooks/"):
        return []
    problems = []
    if layout["height"] > PAGE_BUDGET_PX:
        problems.append(
            f"{page}: the page is {layout['height']:,} px tall with its folds closed (at most {PAGE_BUDGET_PX:,}): "
            'fold what a reader may skip (<details class="fold">)'
        )
    answer = layout.get("answer")
    if answer is None:
        problems.append(f"{page}: the chapter does not open with its answer (a box of class {ANSWER!r})")
    elif answer["verdicts_top"] is None:
        problems.append(f"{page}: the chapter's answer shows no verdict (bandit_lib.infra.cards.answer)")
    elif answer["verdicts_top"] > viewport_height:
        problems.append(
            f"{page}: the chapter's verdicts start {answer['verdicts_top']} px down, below the first screen "
            f"({viewport_height:.0f} px): the answer must come first"
        )
    return problems


def image_problems(page: str, measured: dict) -> list[str]:
    """Figures shown smaller than they were drawn, beyond fitting the text column (their text was
    sized for that), and a column narrower than the one the figures were drawn for."""
    problems = []
    width = measured["column_width"]
    if measured["images"] and width < COLUMN_PX - 1:
        problems.append(
            f"{page}: the text column is {width:.0f} px wide, narrower than the {COLUMN_PX} px the figures were drawn "
            "for (bandit_lib.infra.plotting.COLUMN_PX): their text would be smaller on the page than checked"
        )
    for image in measured["images"]:
        fit = min(image["natural"], COLUMN_PX)
        if image["shown"] < fit - 2:
            problems.append(
                f"{page}: the image {image['src']} at y = {image['top']} px is shown {image['shown']:.0f} px wide, "
                f"narrower than {fit} px (drawn {image['natural']} px; figures are checked for boxes of at least "
                f"{COLUMN_PX} px): its text is smaller on the page than the figure checked"
            )
    return problems


def overflow_problems(page: str, measured: dict, viewport_height: float = VIEWPORT["height"]) -> list[str]:
    """What a reader cannot read of ``page``, from :data:`MEASURE`'s measurements.

    A code block or a display formula must fit its box and the text column: code wraps and a long
    formula is broken into lines (their scrollbars are hidden on many systems, and the screenshots
    show them cut off). A table must fit the column, unless it is a data table marked
    :data:`WIDE_TABLE`: then it may scroll in a box no wider than the column and no taller than the
    window, so that its scrollbar is in view with it."""
    problems = []
    column_right = measured["column_right"]
    for item in measured["items"]:
        kind, box, right = item["kind"], item["box"], item["right"]
        where = f"{page}: the {kind} at y = {item['top']} px ({item['text'][:40]!r}...)"
        limit = column_right if box is None else min(column_right, box["right"])
        if kind == "table" and not item.get("marked", True):
            limit = column_right
        if right <= limit + 1:
            continue
        excess = round(right - limit)
        if kind == "code":
            problems.append(f"{where} is {excess} px too wide for its box: code must wrap, or its lines be shorter")
        elif kind == "formula":
            problems.append(f"{where} is {excess} px too wide for the text column: break it into lines")
        elif not item.get("marked", True):
            problems.append(
                f"{where} is {excess} px wider than the text column: let it fit (fewer or narrower columns, "
                f"a long table folded or split), or mark a data table that must scroll with class {WIDE_TABLE!r}"
            )
        elif box is None:
            problems.append(
                f"{where} is {excess} px wider than the text column and nothing lets the reader see the rest"
            )
        elif box["overflow"] in ("hidden", "clip"):
            problems.append(f"{where} is cut off: {excess} px are hidden at the right (overflow {box['overflow']})")
        elif box["left"] + box["scroll_width"] < right - 1:
            problems.append(f"{where} is cut off: {excess} px lie beyond the end of its scroll box")
        elif box["right"] > column_right + 1:
            problems.append(f"{where} scrolls in a box {round(box['right'] - column_right)} px wider than the column")
        elif box["height"] > viewport_height:
            problems.append(
                f"{where} is {excess} px wider than the column and scrolls in a box {round(box['height'])} px tall: "
                f"its scrollbar is out of sight below a {viewport_height:.0f} px window (let its text wrap)"
            )
    return problems


# --- figures and tables, from the HTML --------------------------------------------------------------
IDENTIFIER = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")
DICT_REPR = re.compile(r"^\s*\{'[^']+': ")


class _Figures(HTMLParser):
    """Every image of a page's article with its alt text, and whether it sits in a figure with a
    numbered caption (and the caption's text); the header cells of its tables; the text of its
    plain-text outputs."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[dict] = []
        self.headers: list[str] = []
        self.outputs: list[str] = []
        self._article = 0
        self._figures: list[dict] = []
        self._caption: list[str] | None = None
        self._th: list[str] | None = None
        self._pre: list[str] | None = None
        self._output_depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "article":
            self._article += 1
        if not self._article:
            return
        if tag == "figure":
            self._figures.append({"images": [], "caption": None, "numbered": False})
        if tag == "figcaption" and self._figures:
            self._caption = []
        if tag == "span" and "caption-number" in classes and self._figures and self._caption is not None:
            self._figures[-1]["numbered"] = True
        if tag == "img" and a.get("src"):
            image = {"src": a["src"], "alt": a.get("alt") or "", "figure": None}
            self.images.append(image)
            if self._figures:
                self._figures[-1]["images"].append(image)
        if tag == "th":
            self._th = []
        if tag == "pre" and self._output_depth:
            self._pre = []
        if tag == "div" and "cell_output" in classes:
            self._output_depth = 1
        elif tag == "div" and self._output_depth:
            self._output_depth += 1

    def handle_endtag(self, tag):
        if tag == "article":
            self._article = max(0, self._article - 1)
        if tag == "figcaption" and self._caption is not None and self._figures:
            self._figures[-1]["caption"] = " ".join("".join(self._caption).split())
            self._caption = None
        if tag == "figure" and self._figures:
            figure = self._figures.pop()
            for image in figure["images"]:
                image["figure"] = {"caption": figure["caption"], "numbered": figure["numbered"]}
        if tag == "th" and self._th is not None:
            self.headers.append(" ".join("".join(self._th).split()))
            self._th = None
        if tag == "pre" and self._pre is not None:
            self.outputs.append("".join(self._pre))
            self._pre = None
        if tag == "div" and self._output_depth:
            self._output_depth -= 1

    def handle_data(self, data):
        for buffer in (self._caption, self._th, self._pre):
            if buffer is not None:
                buffer.append(data)


def _alt_problem(alt: str) -> str | None:
    words = alt.split()
    if len(words) < 4:
        return f"its alt text {alt!r} does not say what it shows (a sentence of at least four words)"
    if re.search(r"(^|/)_images/|\.(png|svg|jpe?g)\b|^[\w./-]+$", alt):
        return f"its alt text {alt!r} is a file name, not what the figure shows"
    return None


def figure_problems(page: str, text: str) -> list[str]:
    """Images of a chapter not in a numbered, captioned figure, or without alt text that says what
    they show; tables headed by code identifiers; outputs that print a Python dict."""
    parser = _Figures()
    parser.feed(text)
    problems = []
    if page.startswith("notebooks/"):
        for image in parser.images:
            figure = image["figure"]
            name = image["src"].rsplit("/", 1)[-1][:24]
            if figure is None or not figure["caption"]:
                problems.append(f"{page}: the figure {name} has no caption (a numbered <figure> with <figcaption>)")
            elif not figure["numbered"]:
                problems.append(f"{page}: the figure {name} is not numbered")
            elif len(figure["caption"].split()) < 6:
                problems.append(f"{page}: the figure {name} has a caption too short to say what it shows")
            problem = _alt_problem(image["alt"])
            if problem:
                problems.append(f"{page}: the figure {name}: {problem}")
    if not page.startswith("api/"):
        for header in dict.fromkeys(parser.headers):
            if IDENTIFIER.match(header):
                problems.append(f"{page}: a table is headed {header!r}, a code identifier: give it a header in words")
        for output in parser.outputs:
            if DICT_REPR.match(output):
                problems.append(f"{page}: an output prints a Python dict ({output.strip()[:50]!r}...): say it in words")
    return problems


def result_problems(scorecards: Path, readme: str, intro_html: str) -> list[str]:
    """The book's result in one line (``bandit_lib.infra.cards.result_line``, from the scorecards the
    chapters published in this build) must be printed, as computed, by the README and the
    introduction: a number typed there cannot drift from the book."""
    sys.path.insert(0, str(ROOT))
    from bandit_lib.infra.cards import result_line
    from bandit_lib.infra.scorecard import BOOK_CHAPTERS, PAPERS, load_published

    try:
        cards = {key: load_published(key, scorecards) for key in {**PAPERS, **BOOK_CHAPTERS}}
    except (FileNotFoundError, RuntimeError) as error:
        return [f"the chapters' scorecards are missing ({error}): build the book with make book"]
    line = result_line(cards, PAPERS)
    intro_text = " ".join(re.sub(r"<[^>]+>", "", intro_html).split())
    problems = []
    if line not in " ".join(readme.split()):
        problems.append(f"README.md does not print the book's result as computed; it is now: {line}")
    if line not in intro_text:
        problems.append(
            f"the introduction (book/intro.md) does not print the book's result as computed; it is now: {line}"
        )
    return problems


def static_checks(html: Path, pages: list[str]) -> tuple[list[str], dict[str, int]]:
    problems, math_count = [], {}
    if not (html / "_static" / "mathjax" / "tex-chtml.js").exists():
        problems.append("MathJax is not served from the book (_static/mathjax/tex-chtml.js missing)")
    for page in pages:
        path = html / f"{page}.html"
        if not path.exists():
            problems.append(f"{page}: page was not built ({path})")
            continue
        text = path.read_text()
        refs = _Refs()
        refs.feed(text)
        math_count[page] = refs.math
        # Every chapter draws figures; a chapter without one means plots were not captured
        # (e.g. a non-inline matplotlib backend in the kernel).
        if page.startswith("notebooks/") and not any(
            src.startswith("../_images/") or "_images/" in src for src in refs.images
        ):
            problems.append(f"{page}: chapter shows no figure")
        # Every chapter opens with the "Rerun this chapter" box (bandit_lib.infra.rerun), rendered.
        if page.startswith("notebooks/") and not re.search(r'class="[^"]*\b' + RERUN_MARKER + r"\b", text):
            problems.append(f"{page}: chapter shows no 'Rerun this chapter' box (class {RERUN_MARKER})")
        for src in refs.images:
            if urlparse(src).scheme in ("http", "https"):
                problems.append(f"{page}: image {src} is not served by the book")
            elif not src.startswith("data:") and not (path.parent / unquote(src)).exists():
                problems.append(f"{page}: image {src} does not exist")
        for what, marker in ERROR_MARKERS:
            if marker.search(text):
                problems.append(f"{page}: shows {what}")
        if any("mathjax" in s.lower() and urlparse(s).scheme in ("http", "https") for s in refs.scripts):
            problems.append(f"{page}: loads MathJax from the network")
        problems.extend(figure_problems(page, text))
        for table, cells in nan_tables(text).items():
            problems.append(
                f"{page}: table {table} shows {cells[0]!r} in {len(cells)} cell(s): print a missing value as '—'"
            )
    root = html / f"{pages[0]}.html"
    if root.exists() and (html.parent / "scorecards").is_dir():
        problems.extend(result_problems(html.parent / "scorecards", (ROOT / "README.md").read_text(), root.read_text()))
    if root.exists():
        chapters = [p for p in pages if p.startswith("notebooks/")]
        for chapter in missing_chapters(root.read_text(), chapters):
            problems.append(f"{pages[0]}: the introduction does not link to the chapter {chapter}")
    return problems, math_count


def browser_checks(
    html: Path, pages: list[str], math_count: dict[str, int], shots: Path, heights: dict[str, int] | None = None
) -> list[str]:
    """The browser's checks of ``pages``; ``heights``, if given, receives each page's height with its
    folds closed."""
    from playwright.sync_api import sync_playwright

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request, client_address) -> None:
            # the browser drops a connection it no longer needs (a page left mid-load): not a fault
            if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
                super().handle_error(request, client_address)

    handler = functools.partial(Quiet, directory=str(html))
    server = Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    problems: list[str] = []
    shots.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as pw:
            # scrollbars drawn and taking room, as on a desktop: the column is as narrow as a reader's
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS, ignore_default_args=["--hide-scrollbars"]
            )
            page = browser.new_page(viewport=VIEWPORT)
            page.set_default_timeout(180_000)  # long pages on a busy machine: slow, not broken
            outside: list[str] = []
            page.on(
                "request", lambda r: outside.append(r.url) if not r.url.startswith((base, "data:", "blob:")) else None
            )
            failed: list[str] = []
            page.on("requestfailed", lambda r: failed.append(r.url))
            for name in pages:
                outside.clear()
                failed.clear()
                page.goto(f"{base}/{name}.html", wait_until="load")
                if math_count.get(name):
                    page.wait_for_function(
                        "() => window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=20000
                    )
                    page.evaluate("() => MathJax.startup.promise")
                    typeset = page.evaluate("() => document.querySelectorAll('mjx-container').length")
                    errors = page.evaluate("() => document.querySelectorAll('mjx-merror, [data-mjx-error]').length")
                    if typeset < math_count[name]:
                        problems.append(f"{name}: MathJax typeset {typeset} of {math_count[name]} formulas")
                    if errors:
                        problems.append(f"{name}: {errors} formulas failed to typeset")
                broken = page.evaluate(
                    "() => Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)"
                )
                problems.extend(f"{name}: image did not load: {src}" for src in broken)
                problems.extend(f"{name}: request left the book: {url}" for url in outside)
                problems.extend(f"{name}: request failed: {url}" for url in failed)
                layout = page.evaluate(LAYOUT)
                if heights is not None:
                    heights[name] = layout["height"]
                problems.extend(layout_problems(name, layout))
                if name.startswith("notebooks/"):
                    shot = name.split("/")[-1]
                    page.screenshot(path=str(shots / f"{shot}-first-screen.png"))
                    page.screenshot(path=str(shots / f"{shot}.png"), full_page=True)
                page.evaluate(OPEN_FOLDS)
                page.wait_for_timeout(300)  # tables refit, and MathJax settles, in the folds just opened
                measured = page.evaluate(MEASURE)
                problems.extend(overflow_problems(name, measured))
                problems.extend(image_problems(name, measured))
            browser.close()
    finally:
        server.shutdown()
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("html", type=Path, help="the built book, e.g. book/_build/html")
    parser.add_argument("--no-browser", action="store_true", help="static checks only")
    args = parser.parse_args()
    html = args.html.resolve()
    pages = toc_pages(ROOT / "book")
    problems, math_count = static_checks(html, pages)
    if not args.no_browser:
        if not Path(CHROMIUM).exists():
            problems.append(
                f"{CHROMIUM} not found: install Debian's chromium (apt-get install chromium), or name a Chromium "
                "executable with BANDIT_CHROMIUM=<path>, or pass --no-browser for the checks that need none"
            )
        else:
            heights: dict[str, int] = {}
            problems += browser_checks(html, pages, math_count, html.parent / "check", heights)
            chapters = {p: h for p, h in heights.items() if p.startswith("notebooks/")}
            if chapters:
                print(
                    f"chapter heights at {VIEWPORT['width']} px, folds closed (at most {PAGE_BUDGET_PX:,}): "
                    + ", ".join(f"{p.split('/')[-1]} {h:,}" for p, h in chapters.items())
                )
    for p in problems:
        print(f"FAIL {p}")
    print(
        f"checked {len(pages)} pages ({sum(math_count.values())} formulas): "
        + ("OK" if not problems else f"{len(problems)} problem(s)")
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
