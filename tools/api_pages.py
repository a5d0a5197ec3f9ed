"""Write the book's API reference pages (book/api/*.md) from the package layout.

    python tools/api_pages.py          # write the pages
    python tools/api_pages.py --check  # exit 1 if a page is out of date (tests/test_project_files.py)

One page per part of bandit_lib: the shared numerics, each chapter's package, and the
infrastructure. Each page holds the package's docstring (its index and its short imports) and one
``automodule`` per public module; private modules (``_engine``, ``_samplers_engine``: the fast
engines, whose public functions document them) are left out. Signatures, docstrings and their
examples come from the code itself, so the reference cannot drift from it.
"""

from __future__ import annotations

import argparse
import pkgutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = ROOT / "book" / "api"
sys.path.insert(0, str(ROOT))

import bandit_lib  # noqa: E402

# The book's order; a package not listed here goes last (alphabetically).
ORDER = ["shared", "foundations", "zhuang17", "ade20", "gold20", "uig", "grapl20", "arena", "infra"]
TITLES = {
    "shared": "Shared numerics",
    "foundations": "Foundations",
    "zhuang17": "ZHUANG17",
    "ade20": "ADE20",
    "gold20": "GOLD20",
    "uig": "UIG",
    "grapl20": "GRAPL20",
    "arena": "Arena",
    "infra": "Infrastructure",
}


def _public_modules(package: str, path: list[str]) -> list[str]:
    found = []
    for info in sorted(pkgutil.iter_modules(path), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue  # private: documented through the public functions that use it
        name = f"{package}.{info.name}"
        found.append(name)
        if info.ispkg:
            found += _public_modules(name, [str(Path(path[0]) / info.name)])
    return found


def _is_package(module: str) -> bool:
    return (Path(bandit_lib.__file__).parent.parent / module.replace(".", "/") / "__init__.py").is_file()


def pages() -> dict[str, str]:
    """Page name -> Markdown text."""
    top = Path(bandit_lib.__file__).parent
    parts: dict[str, list[str]] = {"shared": ["bandit_lib"]}
    for info in pkgutil.iter_modules([str(top)]):
        if info.ispkg:
            parts[info.name] = [f"bandit_lib.{info.name}"] + _public_modules(
                f"bandit_lib.{info.name}", [str(top / info.name)]
            )
        elif not info.name.startswith("_") and info.name != "reproduce":
            parts["shared"].append(f"bandit_lib.{info.name}")
    order = sorted(parts, key=lambda p: (ORDER.index(p) if p in ORDER else len(ORDER), p))
    out = {}
    for part in order:
        title = TITLES.get(part, part)
        lines = [
            "<!-- Written by tools/api_pages.py from the package layout; do not edit. -->",
            f"(api-{part})=",
            f"# {title}",
            "",
        ]
        for module in parts[part]:
            # a package's __all__ lists its short imports, documented where they are defined (and a
            # function named like its module, ``bandit_lib.zhuang17.rr``, would be described twice)
            options = ["   :members:"] + (["   :ignore-module-all:"] if _is_package(module) else [])
            lines += [f"## `{module}`", "", "```{eval-rst}", f".. automodule:: {module}", *options, "```", ""]
        out[part] = "\n".join(lines)
    return out


def index(names: list[str]) -> str:
    body = "\n".join(f"- {{doc}}`{TITLES.get(n, n)} <{n}>`" for n in names)
    return (
        "<!-- Written by tools/api_pages.py from the package layout; do not edit. -->\n"
        "(api)=\n# API reference\n\n"
        "Every public module of `bandit_lib`, with the signatures and docstrings of the code itself. "
        "Where a module lives follows one rule (the package docstring of {mod}`bandit_lib`): a chapter's "
        "package holds everything that chapter introduces, shared numerics stay at the top level, and "
        "orchestration lives in {mod}`bandit_lib.infra`.\n\n" + body + "\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="report pages that are out of date; write nothing")
    args = parser.parse_args(argv)
    wanted = {f"{name}.md": text for name, text in pages().items()}
    wanted["index.md"] = index([n for n in pages()])
    existing = {p.name: p.read_text() for p in PAGES.glob("*.md")} if PAGES.is_dir() else {}
    stale = sorted(n for n in set(wanted) | set(existing) if wanted.get(n) != existing.get(n))
    if args.check:
        for name in stale:
            print(f"book/api/{name} is out of date: run `python tools/api_pages.py`")
        return 1 if stale else 0
    PAGES.mkdir(parents=True, exist_ok=True)
    for name in stale:
        if name in wanted:
            (PAGES / name).write_text(wanted[name])
        else:
            (PAGES / name).unlink()
    print(f"wrote {len(stale)} page(s) of book/api")
    return 0


if __name__ == "__main__":
    sys.exit(main())
