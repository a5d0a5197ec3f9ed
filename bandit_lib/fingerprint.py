"""Code fingerprints: which version of the code produced a cached result.

A result records the fingerprint of the module that computed it, taken over that module's
import closure inside ``bandit_lib``: every module it imports from the package, transitively.
Each module contributes its abstract syntax tree with docstrings removed, so editing a comment
or a docstring keeps cached results valid, while any change to code that can affect a number
(an algorithm, a tape, a radius, a generator) makes the result stale, and the store refuses it.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
from functools import lru_cache
from pathlib import Path

PACKAGE = "bandit_lib"

# Modules that orchestrate, cache or draw, but compute no number of a result. Leaving them out
# keeps a refactor of the store from invalidating every cached result of the book. (Seeds and
# parameters are compared separately by the store, so a change in seed derivation is still caught.)
INFRASTRUCTURE = frozenset({
    "bandit_lib.experiment",
    "bandit_lib.experiments",
    "bandit_lib.fingerprint",
    "bandit_lib.plotting",
    "bandit_lib.profiles",
    "bandit_lib.reproduce",
    "bandit_lib.store",
})


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    parts = module.split(".")
    # For a module a.b.c, level 1 refers to package a.b (a package's __init__ is handled alike).
    base = parts[: len(parts) - node.level]
    return ".".join(base + ([node.module] if node.module else []))


def _source_path(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def _in_package(name: str) -> bool:
    return name == PACKAGE or name.startswith(PACKAGE + ".")


def import_closure(module: str) -> dict[str, Path]:
    """``module`` itself (inside ``bandit_lib`` or not) and the modules of ``bandit_lib`` it
    imports, transitively, leaving out the :data:`INFRASTRUCTURE` modules and what only they import."""
    seen: dict[str, Path] = {}
    stack = [module]
    while stack:
        name = stack.pop()
        if name in seen or name in INFRASTRUCTURE or (name != module and not _in_package(name)):
            continue
        path = _source_path(name)
        if path is None:
            continue  # an attribute imported with "from x import y", not a module
        seen[name] = path
        tree = ast.parse(path.read_text(), filename=str(path))
        # Relative imports of a package's __init__ resolve against the package itself.
        anchor = name + ".__init__" if path.name == "__init__.py" else name
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                stack.extend(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(anchor, node)
                stack.append(base)
                stack.extend(f"{base}.{alias.name}" for alias in node.names)
    return seen


def _strip_docstrings(tree: ast.AST) -> ast.AST:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            first = body[0] if body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                node.body = body[1:] or [ast.Pass()]
    return tree


@lru_cache(maxsize=None)
def _module_digest(path: Path, mtime_ns: int) -> str:
    tree = _strip_docstrings(ast.parse(path.read_text(), filename=str(path)))
    return hashlib.sha256(ast.dump(tree).encode()).hexdigest()


def code_fingerprint(module: str) -> str:
    """sha256 over the docstring-free ASTs of ``module``'s import closure (see import_closure)."""
    closure = import_closure(module)
    if module not in closure:
        raise ValueError(f"module must be an importable Python module outside {sorted(INFRASTRUCTURE)}; got module={module!r}")
    digest = hashlib.sha256()
    for name in sorted(closure):
        path = closure[name]
        digest.update(name.encode())
        digest.update(_module_digest(path, path.stat().st_mtime_ns).encode())
    return digest.hexdigest()[:16]
