"""Check the built book in a real browser: `python tools/check_book.py book/_build/html`.

Static checks (no browser): every page of the table of contents was built; every chapter shows
at least one figure, and every image a page references exists; no page shows a cell error, a
traceback, a stderr stream or a directive left unparsed (raw ```{...} text); no table shows `NaN`
or `nan` (a missing value is printed as "—"); the introduction links to every chapter; MathJax is
served from the book itself.

Browser checks (headless Chromium from Debian, driven by Playwright, no browser download): every
page loads with no request leaving localhost, MathJax typesets every formula, and every image
loads. What a reader cannot read fails too (at a 1280 x 900 window): a display formula or a table
wider than the text column, unless it is a table that scrolls in a box no wider than the column and
no taller than the window (so its scrollbar is on screen with it); code wraps and long formulas are
broken into lines (scrollbars are hidden on many systems). A screenshot of each chapter goes to
<html>/../check/ for a human look.

Legends over plotted data are checked where the figures are drawn
(:mod:`bandit_lib.infra.plotting`), so in ``make test`` and ``make book``.
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


VIEWPORT = {"width": 1280, "height": 900}
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
# Measured in the browser (MEASURE), judged in Python (overflow_problems, tested without a browser).
# For each display formula, table and code block shown: its content's right edge, the text column,
# and the nearest box (the element itself or an ancestor) that does not let content overflow: a
# scroll box (overflow auto/scroll) or a clipping one (hidden/clip).
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
                  top: Math.round(r.top + window.scrollY), right, box});
    }
  }
  return {column_right: col.right, items};
}"""


def overflow_problems(page: str, measured: dict, viewport_height: float = VIEWPORT["height"]) -> list[str]:
    """What a reader cannot read of ``page``, from :data:`MEASURE`'s measurements.

    A code block or a display formula must fit its box and the text column: code wraps and a long
    formula is broken into lines (their scrollbars are hidden on many systems, and the screenshots
    show them cut off). A table may be wider than the column if it scrolls in a box no wider than
    the column and no taller than the window, so that its scrollbar is in view with it."""
    problems = []
    column_right = measured["column_right"]
    for item in measured["items"]:
        kind, box, right = item["kind"], item["box"], item["right"]
        where = f"{page}: the {kind} at y = {item['top']} px ({item['text'][:40]!r}...)"
        limit = column_right if box is None else min(column_right, box["right"])
        if right <= limit + 1:
            continue
        excess = round(right - limit)
        if kind == "code":
            problems.append(f"{where} is {excess} px too wide for its box: code must wrap, or its lines be shorter")
        elif kind == "formula":
            problems.append(f"{where} is {excess} px too wide for the text column: break it into lines")
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
        for table, cells in nan_tables(text).items():
            problems.append(
                f"{page}: table {table} shows {cells[0]!r} in {len(cells)} cell(s): print a missing value as '—'"
            )
    root = html / f"{pages[0]}.html"
    if root.exists():
        chapters = [p for p in pages if p.startswith("notebooks/")]
        for chapter in missing_chapters(root.read_text(), chapters):
            problems.append(f"{pages[0]}: the introduction does not link to the chapter {chapter}")
    return problems, math_count


def browser_checks(html: Path, pages: list[str], math_count: dict[str, int], shots: Path) -> list[str]:
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
                problems.extend(overflow_problems(name, page.evaluate(MEASURE)))
                if name.startswith("notebooks/"):
                    page.screenshot(path=str(shots / f"{name.split('/')[-1]}.png"), full_page=True)
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
            problems += browser_checks(html, pages, math_count, html.parent / "check")
    for p in problems:
        print(f"FAIL {p}")
    print(
        f"checked {len(pages)} pages ({sum(math_count.values())} formulas): "
        + ("OK" if not problems else f"{len(problems)} problem(s)")
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
