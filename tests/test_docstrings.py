"""Every docstring of bandit_lib reads as reStructuredText without undefined substitutions.

The book's API reference renders the docstrings with Sphinx, where ``|x|`` in prose is a
substitution reference and fails the build (``--warningiserror``); absolute values belong in
``:math:`` or in an inline literal. This catches them before the book is built.
"""

from __future__ import annotations

import ast
import io
from pathlib import Path

import docutils.core

ROOT = Path(__file__).resolve().parents[1]


def docstrings():
    for path in sorted((ROOT / "bandit_lib").rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node)
                if doc:
                    yield f"{path.relative_to(ROOT)}:{getattr(node, 'name', '<module>')}", doc


def substitution_errors(text: str) -> list[str]:
    stream = io.StringIO()
    docutils.core.publish_doctree(
        text, settings_overrides={"report_level": 3, "halt_level": 5, "warning_stream": stream}
    )
    return [line for line in stream.getvalue().splitlines() if "Undefined substitution referenced" in line]


def test_no_docstring_uses_an_undefined_substitution():
    bad = [f"{where}: {err.splitlines()[0]}" for where, doc in docstrings() for err in substitution_errors(doc)]
    assert not bad, "write |x| as :math:`|x|` or ``|x|``:\n" + "\n".join(bad)


def test_the_check_finds_a_bare_absolute_value():
    assert substitution_errors("the gap |y_i - theta| of each arm")
    assert not substitution_errors("the gap ``|y_i - theta|`` of each arm")
