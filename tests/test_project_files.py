"""The project's own files agree with each other: pins, notebooks pairs, the book's table of contents."""

import os
import re
import subprocess
import sys
from pathlib import Path

import jupytext
import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.md"))


def _pins(lines):
    return {l.strip().lower() for l in lines if "==" in l and not l.strip().startswith("#")}


def test_environment_yml_lists_the_same_pins_as_requirements_txt():
    req = _pins((ROOT / "requirements.txt").read_text().splitlines())
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d)
    assert _pins(pip_section) == req, (
        f"drift: only in requirements.txt {sorted(req - _pins(pip_section))[:5]}, only in environment.yml {sorted(_pins(pip_section) - req)[:5]}"
    )
    python = next(d for d in env["dependencies"] if isinstance(d, str) and d.startswith("python="))
    assert python == "python=" + re.search(r"Python (\d+\.\d+)", (ROOT / "requirements.txt").read_text()).group(1)


def test_every_top_level_requirement_is_pinned():
    pinned = {p.split("==")[0].replace("_", "-") for p in _pins((ROOT / "requirements.txt").read_text().splitlines())}
    for line in (ROOT / "requirements.in").read_text().splitlines():
        name = re.split(r"[<>=\[;#\s]", line.strip())[0].lower().replace("_", "-")
        if name:
            assert name in pinned, f"{name} is in requirements.in but not pinned in requirements.txt (run `make lock`)"


@pytest.mark.parametrize("source", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_pairs_do_not_drift(source):
    """The .ipynb must hold exactly the cells of its MyST source (run `make sync` after editing)."""
    paired = source.with_suffix(".ipynb")
    assert paired.exists(), f"{paired.name} is missing; run `make sync`"
    expected = jupytext.read(source)
    actual = nbformat.read(paired, as_version=4)

    def cells(nb):
        return [(c.cell_type, c.source.strip()) for c in nb.cells]

    assert cells(actual) == cells(expected), f"{paired.name} drifted from {source.name}; run `make sync`"


def test_every_notebook_is_a_chapter_of_the_book_and_every_toc_entry_exists():
    toc = yaml.safe_load((ROOT / "book" / "_toc.yml").read_text())
    files = [toc["root"]] + [c["file"] for part in toc["parts"] for c in part["chapters"]]
    for f in files:
        assert any((ROOT / "book" / f"{f}{ext}").exists() for ext in (".md", ".ipynb")), (
            f"_toc.yml lists {f}, which does not exist"
        )
    chapters = {f for f in files if f.startswith("notebooks/")}
    assert chapters == {f"notebooks/{p.stem}" for p in NOTEBOOKS}


def test_every_notebook_reads_its_profile_from_the_environment():
    for source in NOTEBOOKS:
        assert "current_profile()" in source.read_text() or ".run(" in source.read_text(), source.name


def test_the_api_reference_pages_match_the_package():
    """book/api/*.md is written by tools/api_pages.py from the package layout."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "api_pages.py"), "--check"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("source", sorted((ROOT / "notebooks").glob("*.md")), ids=lambda p: p.stem)
def test_no_code_cell_is_swallowed_by_a_markdown_cell(source):
    """A fence jupytext cannot pair (four backticks, say) turns the rest of a chapter into text."""
    swallowed = [
        c.source[:80] for c in jupytext.read(source).cells if c.cell_type == "markdown" and "```{code-cell}" in c.source
    ]
    assert not swallowed, f"{source.name}: code cells read as Markdown after {swallowed[0]!r}"


def test_the_book_check_looks_for_the_rerun_box_the_chapters_render():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import check_book
    finally:
        sys.path.remove(str(ROOT / "tools"))
    from bandit_lib.infra.rerun import MARKER, rerun_markdown

    assert check_book.RERUN_MARKER == MARKER
    assert f":class: tip {MARKER}" in rerun_markdown("gold20")


def test_the_makefile_lets_python_cache_bytecode_whatever_the_environment_says():
    # An environment with PYTHONDONTWRITEBYTECODE (the project's machines set it) left a fresh
    # clone's site-packages without a single .pyc: every process of make test compiled numpy, scipy,
    # matplotlib and numba again (the pytest session 433 s against 346 s on one clone).
    probe = f'probe: ; @"{sys.executable}" -c "import sys; print(sys.dont_write_bytecode)"'
    env = {"PATH": os.environ["PATH"], "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run(
        ["make", "--no-print-directory", "-s", "-C", str(ROOT), "--eval", probe, "probe"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert out.stdout.strip() == "False", out.stdout + out.stderr
