"""Check the built book in a real browser: `python tools/check_book.py book/_build/html`.

Static checks (no browser): every page of the table of contents was built; every chapter shows
at least one figure, and every image a page references exists; no page shows a cell error, a traceback, a stderr stream or a directive left
unparsed (raw ```{...} text); MathJax is served
from the book itself.

Browser checks (headless Chromium from Debian, driven by Playwright, no browser download): every
page loads with no request leaving localhost, MathJax typesets every formula, and every image
loads. A screenshot of each chapter goes to <html>/../check/ for a human look.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import re
import sys
import threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

import yaml

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
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


def toc_pages(book: Path) -> list[str]:
    toc = yaml.safe_load((book / "_toc.yml").read_text())
    chapters = [c for part in toc["parts"] for c in part["chapters"]]
    return [toc["root"]] + [p["file"] for c in chapters for p in [c, *c.get("sections", [])]]


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
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
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
            problems.append(f"{CHROMIUM} not found: install Debian's chromium (apt-get install chromium)")
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
