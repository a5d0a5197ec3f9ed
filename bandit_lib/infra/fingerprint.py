"""Code fingerprints: which version of the code produced a cached result.

A result records the fingerprint of the function that computed it (an experiment's ``compute``).
The fingerprint is a *Merkle digest* over the code that function needs inside ``bandit_lib``:

* a module's code is a list of top-level statements, each written as a canonical text of its
  abstract syntax tree (:func:`canonical_dump`: the same under every supported Python, unlike
  ``ast.dump``), with docstrings removed and with every import of a ``bandit_lib`` module
  replaced by the digest of what it imports (and the name it binds);
* the *slice* of a top-level name is the statements that name needs: the statements that bind or
  change it (``X = ...``, ``X[k] = ...``, ``def X``, a function declaring ``global X``), then those
  of every name they read, transitively, and the statements whose effect is tied to no name (a
  call, a loop, an ``if`` at the top level: they belong to every slice). A module that looks its
  names up by spelling (``globals()``, ``eval``...) is never sliced. A declaration
  ``NAME = Experiment(...)`` counts without its ``plan``, ``grid``, ``title``, ``chapter`` and
  ``figures`` (:data:`EXPERIMENT_WORDS`: they compute no number), so that a compute reading an
  experiment's seed does not need its grid. An import ``from m import f``
  contributes the digest of the slice of ``f`` in ``m``; ``import m`` the digest of all of ``m``;
* so a digest changes when the code a function needs changes, transitively, and *not* when
  another function or constant of the same module changes (another experiment's grid, say), nor
  when a module is moved or renamed, nor when imports are regrouped or reordered (each run of
  top-level imports counts as one import per name, sorted by the name it binds): where code
  lives, how its imports are laid out, and what else lives beside it, is not what it computes.

Editing a comment or a docstring, moving a module, or editing code that a result's function does
not reach keeps cached results valid; any change to code that can affect a number (an algorithm, a
tape, a radius, a generator) makes the result stale, and the store refuses it. An experiment's
grid (the units its ``plan`` makes) is not code of its ``compute``: each record carries its
unit's parameters and seed, which the store compares separately.

Modules that orchestrate, cache or draw (:data:`INFRASTRUCTURE`) compute no number of a result
and never enter a fingerprint: an import of one contributes only the imported name. (Seeds and
parameters are compared separately by the store, so a change in seed derivation is still caught.)
A change of how digests are computed changes every fingerprint without changing any code:
``tools/restamp.py`` proves that and restamps the records without recomputing them.
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


# What one fingerprint's walk has found (a walk visits hundreds of slices, and the finder stats
# the disk for each lookup): emptied at the start of every walk, so that files written between two
# walks (a test's toy package) are found.
_WALK: dict[tuple, object] = {}


def _source_path(name: str) -> Path | None:
    key = ("path", name)
    if key not in _WALK:
        _WALK[key] = _find_source_path(name)
    return _WALK[key]


def _find_source_path(name: str) -> Path | None:
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
class _Statement:
    """One top-level statement of a module: its canonical text, in which each import of a
    ``bandit_lib`` module names a reference slot ``@<i>`` (numbered within the statement) instead
    of the module; the slots' targets ``(module, name)`` (``name`` None for ``import module``); the
    top-level names it binds or changes; the names it reads; and whether it belongs to every slice
    of the module (a statement whose effect is not tied to a name: a call, a loop, an ``if``)."""

    dump: str
    targets: tuple[tuple[str, str | None], ...]
    binds: frozenset[str]
    reads: frozenset[str]
    always: bool


@dataclass(frozen=True)
class _Parsed:
    """A module's docstring-free statements (:class:`_Statement`), the names it binds at its top
    level by ``from module import name`` (to follow re-exports), which statements bind or change
    each top-level name, and whether the module looks its names up dynamically (``globals()``,
    ``eval``...: then every slice is the whole module)."""

    statements: tuple[_Statement, ...]
    bindings: dict[str, tuple[str, str]]
    binders: dict[str, tuple[int, ...]]
    dynamic: bool


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


# Names whose use reads a module's names by their spelling: a module that uses one is never sliced.
_DYNAMIC = frozenset({"globals", "vars", "locals", "eval", "exec", "__import__"})


def _stored_names(target: ast.AST) -> set[str]:
    """The names an assignment target binds or changes (``x``, ``x, y``, ``x[i]``, ``x.a``)."""
    out = set()
    for node in ast.walk(target):
        if isinstance(node, ast.Name):
            out.add(node.id)
    return out


def _function_writes(node: ast.AST) -> set[str]:
    """The module-level names a function or class may write: those it declares ``global``, and
    the bases of the subscripts and attributes it assigns that are neither its parameters nor
    its own plain locals (``TABLE[k] = v`` writes the module's ``TABLE``)."""
    declared, locals_, bases = set(), set(), set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Global):
            declared.update(sub.names)
        elif isinstance(sub, ast.arg):
            locals_.add(sub.arg)
        elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            locals_.add(sub.id)
        elif isinstance(sub, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = sub.targets if isinstance(sub, (ast.Assign, ast.Delete)) else [sub.target]
            for target in targets:
                while isinstance(target, (ast.Subscript, ast.Attribute)):
                    target = target.value
                    if isinstance(target, ast.Name):
                        bases.add(target.id)
    return declared | (bases - locals_)


#: Where experiments are declared: ``(module, class)``.
EXPERIMENT_CLASS = ("bandit_lib.infra.experiment", "Experiment")
#: The arguments of an experiment's declaration that compute no number: the units ``plan`` and
#: ``grid`` make are compared record by record (parameters and seed), and the title, chapter and
#: figures are words. A compute that reads its own or another experiment's seed
#: (``SYNTHETIC.seed(unit)``) so needs the declaration's paper, name and entropy, not its grid.
EXPERIMENT_WORDS = frozenset({"plan", "grid", "title", "chapter", "figures"})


def _without_words(node: ast.stmt, declare: frozenset[str]) -> ast.stmt:
    """``node`` without the arguments :data:`EXPERIMENT_WORDS` if it is a top-level
    ``NAME = Experiment(...)`` (``declare``: the names bound to :data:`EXPERIMENT_CLASS`)."""
    if (
        isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id in declare
    ):
        node.value.keywords = [k for k in node.value.keywords if k.arg not in EXPERIMENT_WORDS]
    return node


def _statement(node: ast.stmt, anchor: str, declare: frozenset[str] = frozenset()) -> _Statement:
    """A top-level statement, its ``bandit_lib`` imports turned into slots (see :class:`_Statement`)."""
    node = _without_words(node, declare)
    targets: list[tuple[str, str | None]] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Import):
            for alias in sub.names:
                if _in_package(alias.name):
                    bound = alias.asname or alias.name.split(".")[0]
                    targets.append((alias.name, None))
                    alias.name, alias.asname = f"@{len(targets) - 1}", bound
        elif isinstance(sub, ast.ImportFrom):
            base = _resolve(anchor, sub)
            if not _in_package(base):
                continue
            for alias in sub.names:
                bound = alias.asname or alias.name
                targets.append((base, None if alias.name == "*" else alias.name))
                alias.name, alias.asname = f"@{len(targets) - 1}", bound
            sub.module, sub.level = "@", 0
    reads = frozenset(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Store))
    always = False
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        binds = {node.name} | _function_writes(node)
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        binds = {a.asname or a.name.split(".")[0] for a in node.names}
        # a future import changes how the whole module compiles; a star import binds unknown names
        always = (isinstance(node, ast.ImportFrom) and node.module == "__future__") or any(
            a.name == "*" or a.name.startswith("@") and a.asname == "*" for a in node.names
        )
    elif isinstance(node, (ast.Assign, ast.Delete)):
        binds = set().union(*(_stored_names(t) for t in node.targets))
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        binds = _stored_names(node.target)
    elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        binds = set()  # a bare literal (an attribute's docstring) does nothing
    else:  # a call, a loop, an if, a with, a try...: effects not tied to one name
        binds, always = _stored_names(node) if not isinstance(node, ast.Expr) else set(), True
    return _Statement(canonical_dump(node), tuple(targets), frozenset(binds), reads, always)


@lru_cache(maxsize=4096)
def _parse_text(text: str, name: str, is_package: bool) -> _Parsed:
    tree = _code_tree(text, name)
    anchor = name + ".__init__" if is_package else name
    bindings: dict[str, tuple[str, str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and _in_package(base := _resolve(anchor, node)):
            bindings.update({a.asname or a.name: (base, a.name) for a in node.names if a.name != "*"})
    dynamic = any(isinstance(n, ast.Name) and n.id in _DYNAMIC for n in ast.walk(tree))
    declare = frozenset(bound for bound, target in bindings.items() if target == EXPERIMENT_CLASS)
    statements = tuple(_statement(node, anchor, declare) for node in tree.body)
    binders: dict[str, list[int]] = {}
    for i, statement in enumerate(statements):
        for bound in statement.binds:
            binders.setdefault(bound, []).append(i)
    return _Parsed(statements, bindings, {k: tuple(v) for k, v in binders.items()}, dynamic)


def _slice(parsed: _Parsed, name: str | None) -> list[int]:
    """The statements of a module that the top-level name ``name`` needs, in module order: those
    that bind or change it, those that bind or change any name they read, transitively, and the
    statements of every slice (:attr:`_Statement.always`). The whole module for ``name`` None, for
    a module that looks names up dynamically, and for a name no statement binds."""
    everything = list(range(len(parsed.statements)))
    if name is None or parsed.dynamic or name not in parsed.binders:
        return everything
    included = {i for i in everything if parsed.statements[i].always}
    todo = [name] + [n for i in included for n in parsed.statements[i].reads]
    seen: set[str] = set()
    while todo:
        wanted = todo.pop()
        if wanted in seen:
            continue
        seen.add(wanted)
        for i in parsed.binders.get(wanted, ()):
            if i not in included:
                included.add(i)
                todo.extend(parsed.statements[i].reads)
    return sorted(included)


@lru_cache(maxsize=4096)
def _read(path: Path, mtime_ns: int, size: int) -> str:
    return importlib.util.decode_source(path.read_bytes())


def _parsed(name: str, loaded: bool = False) -> _Parsed | None:
    """The parsed code of ``name``: as on disk now, or (``loaded``) as this process imported it."""
    key = ("parsed", name, loaded)
    if key not in _WALK:
        _WALK[key] = _find_parsed(name, loaded)
    return _WALK[key]


def _find_parsed(name: str, loaded: bool) -> _Parsed | None:
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


def _closure_and_digests(
    module: str, name: str | None = None, loaded: bool = False
) -> tuple[dict[str, Path], dict[tuple[str, str | None], str]]:
    """The modules the slice of ``name`` in ``module`` reaches (``name`` None: the whole module),
    and the digest of every slice visited, keyed ``(module, name)``."""
    paths: dict[str, Path] = {}
    digests: dict[tuple[str, str | None], str] = {}
    active: set[tuple[str, str | None]] = set()
    _WALK.clear()

    def visit(module_name: str, attr: str | None) -> str:
        key = (module_name, attr)
        if key in digests:
            return digests[key]
        if module_name != module and is_infrastructure(module_name):
            return _INFRA_DIGEST
        if key in active:
            raise ValueError(
                f"import cycle inside {PACKAGE} through {module_name}{'.' + attr if attr else ''}: a fingerprint "
                "needs an acyclic import graph"
            )
        parsed = _parsed(module_name, loaded)
        if parsed is None:
            raise ValueError(f"module must be an importable Python source module; got module={module_name!r}")
        active.add(key)
        digest = hashlib.sha256(f"v{DIGEST_VERSION}\0".encode())
        for i in _slice(parsed, attr):
            statement = parsed.statements[i]
            digest.update(f"{statement.dump}\n".encode())
            for base, imported in statement.targets:
                target = _target(base, imported)
                if target is None:
                    raise ValueError(
                        f"{module_name} imports {base}{'.' + imported if imported else ''}, which is not a module "
                        f"of {PACKAGE}"
                    )
                # A module is identified by its digest alone, wherever it lives; a name also by itself.
                digest.update(f"\0{visit(*target)}:{target[1] or ''}".encode())
        active.discard(key)
        paths[module_name] = _source_path(module_name)
        digests[key] = digest.hexdigest()
        return digests[key]

    visit(module, name)
    return paths, digests


def import_closure(module: str, name: str | None = None) -> dict[str, Path]:
    """``module`` itself (inside ``bandit_lib`` or not) and the modules of ``bandit_lib`` it
    imports, transitively, leaving out the :data:`INFRASTRUCTURE` modules and what only they import;
    with ``name``, only the modules that the code of ``name`` reaches (see :func:`module_digest`)."""
    return _closure_and_digests(module, name)[0]


def module_digest(module: str, name: str | None = None) -> str:
    """The full Merkle digest of ``module``, or of the slice of its top-level ``name`` (the code
    that name needs: see the module docstring)."""
    return _closure_and_digests(module, name)[1][(module, name)]


def code_fingerprint(module: str, name: str | None = None) -> str:
    """The first 16 hex digits of the Merkle digest of ``module`` (of the slice of its ``name``);
    ``module`` must not be infrastructure."""
    if is_infrastructure(module):
        raise ValueError(
            f"module must be a module that computes results, not infrastructure ({INFRASTRUCTURE}.*); got module={module!r}"
        )
    return module_digest(module, name)[:16]


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
    return numba_cache_root() / _closure_and_digests(module, loaded=True)[1][(module, None)][:24]


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


def loaded_fingerprint(module: str, name: str | None = None) -> str:
    """Like :func:`code_fingerprint`, over the code this process imported (the disk for modules
    it has not imported yet: those would be imported from the disk)."""
    if is_infrastructure(module):
        raise ValueError(f"module must be a module that computes results, not infrastructure; got module={module!r}")
    return _closure_and_digests(module, name, loaded=True)[1][(module, name)][:16]


def changed_since_import(module: str, name: str | None = None) -> list[str]:
    """The modules of the closure of ``module`` (of its ``name``) whose code on disk differs from
    the code this process imported, where that changes the digest (empty when the process runs
    the code on disk, or when what changed is outside the slice of ``name``)."""
    loaded, then = _closure_and_digests(module, name, loaded=True)
    now = _closure_and_digests(module, name)[1]
    if then[(module, name)] == now[(module, name)]:
        return []
    changed = sorted(
        m for m in loaded if m in _LOADED_SOURCES and m in sys.modules and _parsed(m, True) != _parsed(m, False)
    )
    return changed or [module]


class StaleCode(RuntimeError):
    """A process would compute with code that differs from the code on disk (or from the plan)."""
