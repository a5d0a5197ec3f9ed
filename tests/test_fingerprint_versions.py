"""The fingerprint is a property of the code, not of the interpreter (issue 21): every supported
Python (3.11 to 3.13) gives every module of bandit_lib the same digest, and a fixed module's digest
is pinned, so that a change of the canonical form cannot pass unnoticed."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from bandit_lib.infra.fingerprint import canonical_dump, is_infrastructure, module_digest, source_digest

REPO = Path(__file__).resolve().parents[1]
PINNED = REPO / "tests" / "fixtures" / "fingerprint_pin.txt"
# The digest of tests/fixtures/fingerprint_pin.txt, the same under Python 3.11.7, 3.12.1 and 3.13.0.
# It changes only with DIGEST_VERSION (which then needs `tools/restamp.py`), never with the interpreter.
PINNED_DIGEST = "86a28018f5d5520eef5800622d9e4c43e066ccca806e108f2a2a50aec06c0b13"

# Computes every module's digest by loading fingerprint.py alone (no numpy needed), in any Python.
PROBE = r"""
import importlib.util, json, sys
from pathlib import Path
root = Path(sys.argv[1]); sys.path.insert(0, str(root))
spec = importlib.util.spec_from_file_location("_fp", root / "bandit_lib/infra/fingerprint.py")
fp = importlib.util.module_from_spec(spec); sys.modules["_fp"] = fp; spec.loader.exec_module(fp)
names = json.loads(sys.argv[2])
print(json.dumps({"modules": {n: fp.module_digest(n) for n in names},
                  "pinned": fp.source_digest(Path(sys.argv[3]).read_text())}))
"""


def _modules() -> list[str]:
    names = []
    for path in sorted((REPO / "bandit_lib").rglob("*.py")):
        parts = list(path.relative_to(REPO).with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if not is_infrastructure(name) or name == "bandit_lib.infra":
            names.append(name)
    return names


def _other_pythons() -> list[Path]:
    """Interpreters of other minor versions: BANDIT_OTHER_PYTHONS (os.pathsep-separated), else pyenv's."""
    listed = os.environ.get("BANDIT_OTHER_PYTHONS")
    if listed:
        return [Path(p) for p in listed.split(os.pathsep) if p]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found = {}
    for exe in sorted(pyenv.glob("3.1[1-3]*/bin/python")):
        minor = exe.parts[-3].rsplit(".", 1)[0]
        found[minor] = exe  # the newest patch release of each minor version
    return list(found.values())


def test_a_fixed_module_has_its_pinned_digest():
    assert source_digest(PINNED.read_text()) == PINNED_DIGEST


def test_docstrings_comments_and_layout_do_not_count_and_code_does():
    base = 'def f(x):\n    """Doc."""\n    return x + 1\n'
    same = "def f(x):  # a comment\n\n    return (\n        x\n        + 1\n    )\n"
    assert source_digest(base) == source_digest(same)
    assert source_digest(base) != source_digest(base.replace("x + 1", "x + 2"))
    assert source_digest('f"{x:{k}}"') != source_digest('f"{x:{k}}!"')
    # a formatter's rewrite of an f-string with no field into the string it equals is not code
    assert source_digest('x = f"a" "b{x}" "c"') == source_digest('x = "ab{x}c"') != source_digest('x = f"ab{x}c"')
    assert canonical_dump(__import__("ast").parse("f(a=None)")).count("None") == 2  # a None value counts (and its kind)


@pytest.mark.slow
def test_every_module_has_the_same_digest_under_every_supported_python():
    pythons = _other_pythons()
    if not pythons:
        pytest.skip("no other Python found: install 3.12 and 3.13 (e.g. with pyenv) or set BANDIT_OTHER_PYTHONS")
    names = _modules()
    here = {n: module_digest(n) for n in names}
    checked = []
    for exe in pythons:
        done = subprocess.run(
            [str(exe), "-I", "-c", PROBE, str(REPO), json.dumps(names), str(PINNED)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        there = json.loads(done.stdout)
        differ = [n for n in names if there["modules"][n] != here[n]]
        assert not differ, f"{exe}: {len(differ)} modules have other digests, e.g. {differ[:5]}"
        assert there["pinned"] == PINNED_DIGEST, exe
        checked.append(exe)
    assert len(names) > 50 and checked
