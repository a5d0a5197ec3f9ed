"""Code fingerprints: which version of the code produced a cached result.

A result records the fingerprint of the module that computed it. The fingerprint is a *Merkle
digest* over that module's imports inside ``bandit_lib``:

* a module's digest is the sha256 of a canonical text of its abstract syntax tree
  (:func:`canonical_dump`: the same under every supported Python, unlike ``ast.dump``), with
  docstrings removed and with every import of a ``bandit_lib`` module replaced by the digest of the
  module it points to (and the name it binds);
* so a module's digest changes when its own code changes or when any module it imports changes,
  transitively, but *not* when a module is moved or renamed, nor when its imports are regrouped or
  reordered (each run of top-level imports counts as one import per name, sorted by the name it
  binds): where code lives, and how its imports are laid out, is not what it computes.

Editing a comment or a docstring, or moving a module, keeps cached results valid; any change to
code that can affect a number (an algorithm, a tape, a radius, a generator) makes the result
stale, and the store refuses it.

Modules that orchestrate, cache or draw (:data:`INFRASTRUCTURE`) compute no number of a result
and never enter a fingerprint: an import of one contributes only the imported name. (Seeds and
parameters are compared separately by the store, so a change in seed derivation is still caught.)
"""

from __future__ import annotations

import ast
import hashlib
import importlib.machinery
import importlib.util
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

PACKAGE = "bandit_lib"

# Orchestration and drawing (the store, experiments and their registry, profiles, plotting, this
# module) compute no number of a result: leaving them out keeps a refactor of the store from
# invalidating every cached result of the book.
#: The package whose modules never enter a fingerprint.
INFRASTRUCTURE = "bandit_lib.infra"

# What an import of an infrastructure module contributes to a digest in place of its code.
_INFRA_DIGEST = "infrastructure"


def is_infrastructure(name: str) -> bool:
    """Whether ``name`` is an infrastructure module (never part of a fingerprint)."""
    return name == INFRASTRUCTURE or name.startswith(INFRASTRUCTURE + ".") or name == "bandit_lib.reproduce"


def _in_package(name: str) -> bool:
    return name == PACKAGE or name.startswith(PACKAGE + ".")


def _spec(name: str):
    """The module spec of ``name`` found without importing anything (importlib.util.find_spec
    would import the parent packages, and fingerprinting must not load code)."""
    parent, _, _ = name.rpartition(".")
    if not parent:
        loaded = sys.modules.get(name)
        return loaded.__spec__ if loaded is not None else importlib.util.find_spec(name)
    parent_spec = _spec(parent)
    if parent_spec is None or parent_spec.submodule_search_locations is None:
        return None
    return importlib.machinery.PathFinder.find_spec(name, list(parent_spec.submodule_search_locations))


def _source_path(name: str) -> Path | None:
    try:
        spec = _spec(name)
    except (ImportError, ValueError, KeyError):  # KeyError: inside a namespace package (none here)
        return None
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def _resolve(anchor: str, node: ast.ImportFrom) -> str:
    """The absolute module name of ``from ... import`` in module ``anchor``."""
    if node.level == 0:
        return node.module or ""
    parts = anchor.split(".")
    # For a module a.b.c, level 1 refers to package a.b (a package's __init__ is anchored at
    # a.b.__init__, so that its level-1 imports resolve against the package itself).
    base = parts[: len(parts) - node.level]
    return ".".join(base + ([node.module] if node.module else []))


def _strip_docstrings(tree: ast.AST) -> ast.AST:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            first = body[0] if body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                node.body = body[1:] or [ast.Pass()]
    return tree


@dataclass(frozen=True)
class _Parsed:
    """A module's docstring-free tree in which each import of a ``bandit_lib`` module names a
    reference slot ``@<i>`` instead of the module, with the slots' targets ``(module, name)``
    (``name`` None for ``import module``) and the names the module binds at its top level by
    ``from module import name``."""

    dump: str
    targets: tuple[tuple[str, str | None], ...]
    bindings: dict[str, tuple[str, str]]


def _canonical_imports(tree: ast.Module) -> ast.Module:
    """Each run of consecutive top-level import statements as one statement per imported name,
    sorted by the name it binds: how imports are grouped and ordered (what a formatter changes)
    is not code."""

    def bound(node) -> tuple:
        alias = node.names[0]
        if isinstance(node, ast.Import):
            return (alias.asname or alias.name.split(".")[0], "" if _in_package(alias.name) else alias.name, "")
        external = node.level == 0 and not _in_package(node.module or "")
        return (alias.asname or alias.name, node.module if external else "", alias.name if external else "")

    body, run = [], []

    def flush() -> None:
        single = [
            ast.Import(names=[a])
            if isinstance(n, ast.Import)
            else ast.ImportFrom(module=n.module, names=[a], level=n.level)
            for n in run
            for a in n.names
        ]
        body.extend(sorted(single, key=bound))
        run.clear()

    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            run.append(node)
        else:
            flush()
            body.append(node)
    flush()
    tree.body = body
    return tree


#: Bumped whenever the canonical form below changes (it is mixed into every digest).
DIGEST_VERSION = 3

# Fields of the syntax tree that carry no code (type comments exist only when the parser is asked
# for them).
_NOT_CODE = frozenset({"type_comment", "type_ignores"})


def canonical_dump(node) -> str:
    """A text of the syntax tree ``node`` that every supported Python (3.11 to 3.13) produces
    identically for the same code: each node as its class name and its fields in the order the
    grammar defines them, leaving out empty fields (``None`` and ``[]``: 3.12 adds
    ``type_params`` to every function and class, and ``ast.dump`` of 3.13 omits empty fields while
    3.11 prints them), positions, and the empty literal pieces of f-strings (which 3.12 alone
    inserts); an f-string with no replacement field is written as the plain string it equals.
    Constants are written with ``repr``."""
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        # An f-string without a replacement field is the string it spells (a formatter may rewrite
        # f"a" "b" as "ab"): the same text as that constant.
        return canonical_dump(ast.Constant(value="".join(v.value for v in node.values)))
    if isinstance(node, ast.AST):
        fields = []
        literal = isinstance(node, (ast.Constant, ast.MatchSingleton))  # whose None is a value
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(node, ast.JoinedStr) and field == "values":
                # An empty literal piece adds nothing to an f-string; Python 3.12 inserts one
                # after a nested replacement field in a format spec (f"{x:{k}}"), 3.11 and 3.13 do not.
                value = [v for v in value if not (isinstance(v, ast.Constant) and v.value == "")]
            if field in _NOT_CODE or (value is None and not literal) or (isinstance(value, list) and not value):
                continue
            fields.append(f"{field}={canonical_dump(value)}")
        return f"{type(node).__name__}({','.join(fields)})"
    if isinstance(node, list):
        return "[" + ",".join(canonical_dump(item) for item in node) + "]"
    return repr(node)


def _code_tree(text: str, name: str) -> ast.Module:
    """A module's syntax tree with its docstrings left out and its imports in canonical order."""
    return _canonical_imports(_strip_docstrings(ast.parse(text, filename=name)))


def _code_text(tree: ast.AST) -> str:
    """What a digest hashes of a tree: the canonical form, under its version."""
    return f"v{DIGEST_VERSION}\0{canonical_dump(tree)}"


def source_digest(text: str, name: str = "<module>") -> str:
    """The digest of a module's own code (docstrings, comments and layout left out) that does not
    depend on the Python version; imports are not followed (see :func:`module_digest` for that)."""
    return hashlib.sha256(_code_text(_code_tree(text, name)).encode()).hexdigest()


@lru_cache(maxsize=4096)
def _parse_text(text: str, name: str, is_package: bool) -> _Parsed:
    tree = _code_tree(text, name)
    anchor = name + ".__init__" if is_package else name
    bindings: dict[str, tuple[str, str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and _in_package(base := _resolve(anchor, node)):
            bindings.update({a.asname or a.name: (base, a.name) for a in node.names if a.name != "*"})
    targets: list[tuple[str, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _in_package(alias.name):
                    bound = alias.asname or alias.name.split(".")[0]
                    targets.append((alias.name, None))
                    alias.name, alias.asname = f"@{len(targets) - 1}", bound
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(anchor, node)
            if not _in_package(base):
                continue
            for alias in node.names:
                bound = alias.asname or alias.name
                targets.append((base, alias.name))
                alias.name, alias.asname = f"@{len(targets) - 1}", bound
            node.module, node.level = "@", 0
    return _Parsed(_code_text(tree), tuple(targets), bindings)


@lru_cache(maxsize=4096)
def _read(path: Path, mtime_ns: int, size: int) -> str:
    return importlib.util.decode_source(path.read_bytes())


def _parsed(name: str, loaded: bool = False) -> _Parsed | None:
    """The parsed code of ``name``: as on disk now, or (``loaded``) as this process imported it."""
    path = _source_path(name)
    if path is None:
        return None
    text = _LOADED_SOURCES.get(name) if loaded and name in sys.modules else None
    if text is None:
        stat = path.stat()
        text = _read(path, stat.st_mtime_ns, stat.st_size)
    return _parse_text(text, name, path.name == "__init__.py")


def _target(base: str, name: str | None, seen: frozenset[str] = frozenset()) -> tuple[str, str | None] | None:
    """Where the object bound by ``from base import name`` (or ``import base``) is defined:
    ``(module, None)`` when it is a module, ``(module, name)`` when it is a name defined in a
    module. A name that ``base`` itself imports from another module of the package (a
    re-export) is followed to where it is defined. None when there is no such module."""
    if name is None:
        return (base, None) if _source_path(base) is not None else None
    if _source_path(f"{base}.{name}") is not None:
        return (f"{base}.{name}", None)
    parsed = _parsed(base)
    if parsed is None:
        return None
    if name in parsed.bindings and base not in seen:
        return _target(*parsed.bindings[name], seen | {base})
    return (base, name)


def _closure_and_digests(module: str, loaded: bool = False) -> tuple[dict[str, Path], dict[str, str]]:
    paths: dict[str, Path] = {}
    digests: dict[str, str] = {}
    active: set[str] = set()

    def visit(name: str) -> str:
        if name in digests:
            return digests[name]
        if name != module and is_infrastructure(name):
            return _INFRA_DIGEST
        if name in active:
            raise ValueError(
                f"import cycle inside {PACKAGE} through {name!r}: a fingerprint needs an acyclic import graph"
            )
        parsed = _parsed(name, loaded)
        if parsed is None:
            raise ValueError(f"module must be an importable Python source module; got module={name!r}")
        active.add(name)
        digest = hashlib.sha256(parsed.dump.encode())
        for base, attr in parsed.targets:
            target = _target(base, attr)
            if target is None:
                raise ValueError(
                    f"{name} imports {base}{'.' + attr if attr else ''}, which is not a module of {PACKAGE}"
                )
            # A module is identified by its digest alone, wherever it lives; a name also by itself.
            digest.update(f"\0{visit(target[0])}:{target[1] or ''}".encode())
        active.discard(name)
        paths[name] = _source_path(name)
        digests[name] = digest.hexdigest()
        return digests[name]

    visit(module)
    return paths, digests


def import_closure(module: str) -> dict[str, Path]:
    """``module`` itself (inside ``bandit_lib`` or not) and the modules of ``bandit_lib`` it
    imports, transitively, leaving out the :data:`INFRASTRUCTURE` modules and what only they import."""
    return _closure_and_digests(module)[0]


def module_digest(module: str) -> str:
    """The full Merkle digest of ``module`` (see the module docstring)."""
    return _closure_and_digests(module)[1][module]


def code_fingerprint(module: str) -> str:
    """The first 16 hex digits of ``module``'s Merkle digest; ``module`` must not be infrastructure."""
    if is_infrastructure(module):
        raise ValueError(
            f"module must be a module that computes results, not infrastructure ({INFRASTRUCTURE}.*); got module={module!r}"
        )
    return module_digest(module)[:16]


# --- the code this process runs ------------------------------------------------------------------
# A process (a Jupyter kernel, a joblib or Dask worker) keeps the code it imported even when the
# files change on disk afterwards. So that a result is stamped with the code that really computed
# it, every bandit_lib module is imported through a loader (installed by bandit_lib/__init__.py)
# that reads the source once, records that text, and compiles the module from that very text:
#
# * no bytecode cache is read, so a ``.pyc`` compiled from other source with the same size and
#   modification time (Python's only check) can never run under this text's fingerprint;
# * a module that uses numba gets, while it is executed, a numba cache folder named after the
#   Merkle digest of its import closure. numba keys a cached function on its own file only, so a
#   change in a helper it calls from another module would otherwise load the old machine code
#   (numba issue 1833); here any change of code in the closure selects a new, empty folder.
_LOADED_SOURCES: dict[str, str] = {}

#: Environment variable naming the root of the numba caches (default ``<repository>/.cache/numba``).
NUMBA_CACHE_ENV = "BANDIT_NUMBA_CACHE"


def numba_cache_root() -> Path:
    """Where the numba caches of bandit_lib live: ``$BANDIT_NUMBA_CACHE`` or ``<repository>/.cache/numba``."""
    import os

    configured = os.environ.get(NUMBA_CACHE_ENV)
    return Path(configured) if configured else Path(__file__).resolve().parents[2] / ".cache" / "numba"


def numba_cache_dir(module: str) -> Path:
    """The numba cache folder of ``module``: named after the digest of the code it loaded."""
    return numba_cache_root() / _closure_and_digests(module, loaded=True)[1][module][:24]


# A module whose code imports numba (at its top or inside a function). One that only names numba
# (a docstring, an environment record) gets no cache folder, and so does not load numba: importing
# numba costs about 1.2 s, which every process that only orchestrates (reproduce's parent, its
# workers before they compute) would pay.
_IMPORTS_NUMBA = re.compile(rb"^[ \t]*(?:from[ \t]+numba\b|import[ \t]+numba\b)", re.MULTILINE)


class _RecordedSourceLoader(importlib.machinery.SourceFileLoader):
    """Compiles a module from the source text recorded when it was found (never from a ``.pyc``)."""

    def __init__(self, fullname: str, path: str, source: bytes):
        super().__init__(fullname, path)
        self._source = source

    def get_code(self, fullname):
        return self.source_to_code(self._source, self.path)

    def exec_module(self, module) -> None:
        if not _IMPORTS_NUMBA.search(self._source):
            return super().exec_module(module)
        from numba.core import config

        before = config.CACHE_DIR
        config.CACHE_DIR = str(numba_cache_dir(module.__name__))
        try:
            super().exec_module(module)
        finally:
            config.CACHE_DIR = before


class _SourceRecorder:
    """A meta-path finder that finds ``bandit_lib`` submodules as the standard finder does, records
    the source text it is about to load, and loads it with :class:`_RecordedSourceLoader`."""

    def find_spec(self, name, path=None, target=None):
        if not name.startswith(PACKAGE + "."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is not None and spec.origin and spec.origin.endswith(".py"):
            try:
                source = Path(spec.origin).read_bytes()
            except OSError:
                _LOADED_SOURCES.pop(name, None)
                return spec
            _LOADED_SOURCES[name] = importlib.util.decode_source(source)
            spec.loader = _RecordedSourceLoader(name, spec.origin, source)
        return spec

    def invalidate_caches(self) -> None:
        pass


def record_imports() -> None:
    """Install the recorder (once per process); bandit_lib/__init__.py calls this."""
    if not any(isinstance(f, _SourceRecorder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceRecorder())


def loaded_fingerprint(module: str) -> str:
    """Like :func:`code_fingerprint`, over the code this process imported (the disk for modules
    it has not imported yet: those would be imported from the disk)."""
    if is_infrastructure(module):
        raise ValueError(f"module must be a module that computes results, not infrastructure; got module={module!r}")
    return _closure_and_digests(module, loaded=True)[1][module][:16]


def changed_since_import(module: str) -> list[str]:
    """The modules of ``module``'s closure whose code on disk differs from the code this process
    imported (empty when the process runs the code on disk)."""
    loaded = _closure_and_digests(module, loaded=True)[0]
    return sorted(
        name
        for name in loaded
        if name in _LOADED_SOURCES and name in sys.modules and _parsed(name, True) != _parsed(name, False)
    )


class StaleCode(RuntimeError):
    """A process would compute with code that differs from the code on disk (or from the plan)."""
