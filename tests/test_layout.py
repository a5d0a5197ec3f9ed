"""The placement rule of bandit_lib (its docstring): where a module lives and what it may import.

* The top level holds only paper-agnostic numerics (and the ``reproduce`` command's entry).
* A chapter's package imports only itself, earlier chapters' packages and the shared modules;
  its ``experiments`` may also use :mod:`bandit_lib.infra.experiment`, any module may find real data
  with :mod:`bandit_lib.infra.profiles`, and its ``report`` may draw with infra.
* Nothing that computes results imports a ``report`` module.
* The shared numerics import only each other (one known exception, listed below).
"""

import ast
import pkgutil
from pathlib import Path

import pytest

import bandit_lib
from bandit_lib.infra.fingerprint import import_closure
from bandit_lib.infra.registry import all_experiments

PACKAGE = Path(bandit_lib.__file__).parent

# The book's order: a chapter may build on the chapters before it.
CHAPTERS = ["foundations", "zhuang17", "ade20", "gold20", "uig", "grapl20", "arena"]
SHARED = {"blas_threads", "checks", "ksigma", "metrics", "radii", "runner", "seeding", "special", "tapes"}
TOP_LEVEL = SHARED | {"reproduce"}  # reproduce: the `python -m bandit_lib.reproduce` entry of infra
KNOWN_UPWARD: set[tuple[str, str]] = set()  # (shared module, what it may import from above): none


def modules() -> dict[str, Path]:
    """Every module of the package, as a name relative to bandit_lib ('' is the package)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports(path: Path) -> set[str]:
    """The bandit_lib modules a file imports (anywhere in it), relative to bandit_lib."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            known = modules()
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                names.add(sub if sub.removeprefix("bandit_lib.") in known else node.module)
    return {n.removeprefix("bandit_lib.") for n in names if n.startswith("bandit_lib.")} | (
        {""} if any(n == "bandit_lib" for n in names) else set()
    )


def test_no_relative_imports():
    """Absolute imports only: a reader (and the fingerprint) sees where each name comes from."""
    relative = [
        str(p)
        for p in PACKAGE.rglob("*.py")
        if any(isinstance(n, ast.ImportFrom) and n.level for n in ast.walk(ast.parse(p.read_text())))
    ]
    assert not relative, relative


def test_top_level_holds_only_shared_numerics_and_packages():
    top = {m.name for m in pkgutil.iter_modules(bandit_lib.__path__) if not m.ispkg}
    packages = {m.name for m in pkgutil.iter_modules(bandit_lib.__path__) if m.ispkg}
    assert top == TOP_LEVEL, f"top-level modules must be paper-agnostic numerics: unexpected {sorted(top - TOP_LEVEL)}"
    assert packages == set(CHAPTERS) | {"infra"}, sorted(packages)


@pytest.mark.parametrize("name", sorted(modules()), ids=lambda n: n or "bandit_lib")
def test_imports_follow_the_placement_rule(name):
    path = modules()[name]
    top = name.split(".")[0]
    targets = imports(path)
    if top in ("", "infra", "reproduce"):
        return  # infrastructure may import anything (the registry finds every chapter)
    if name in SHARED:
        bad = {t for t in targets if t.split(".")[0] not in SHARED and (name, t) not in KNOWN_UPWARD}
        assert not bad, f"{name} is shared numerics but imports {sorted(bad)}"
        return
    chapters = CHAPTERS
    allowed = set(chapters[: chapters.index(top) + 1]) | SHARED
    leaf = name.split(".")[1] if "." in name else ""
    for target in targets:
        head = target.split(".")[0]
        if head == "infra":
            ok = (
                (leaf == "experiments" and target == "infra.experiment")
                or target == "infra.profiles"  # where real data sets are found (find_data)
                or leaf == "report"
            )
            assert ok, (
                f"{name} imports {target}: only a chapter's experiments (infra.experiment) and report may use infra"
            )
        else:
            assert head in allowed, (
                f"{name} imports {target}, outside its chapter, earlier chapters and the shared modules"
            )
        if target.split(".")[-1] == "report":
            assert leaf == "report", f"{name} imports the report module {target}: code that computes must not"


@pytest.mark.parametrize("experiment", all_experiments(), ids=lambda e: e.id)
def test_results_depend_on_no_report_and_no_infra(experiment):
    closure = import_closure(experiment.compute.__module__)
    assert not [m for m in closure if m.endswith(".report") or m.startswith("bandit_lib.infra")], sorted(closure)


@pytest.mark.parametrize(
    "package", sorted(m for m, p in modules().items() if p.name == "__init__.py" and m.split(".")[0] in CHAPTERS)
)
def test_every_chapter_package_indexes_its_modules(package):
    """Each package's docstring names each of its public modules."""
    doc = ast.get_docstring(ast.parse(modules()[package].joinpath().read_text())) or ""
    public = [m for m in modules() if m.rpartition(".")[0] == package and not m.split(".")[-1].startswith("_")]
    missing = [m for m in public if m.split(".")[-1] not in doc]
    assert not missing, f"bandit_lib.{package}'s docstring does not index {missing}"
