"""The kernel pin (bandit_lib.infra.kernels): what reproduce computes with on any x86-64 machine."""

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bandit_lib.infra import kernels

ROOT = Path(__file__).resolve().parents[1]
X86 = pytest.mark.skipif(not kernels.applies(), reason="the pin is for x86-64 machines")


def _unpinned_env() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in kernels.PIN}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return env


def test_the_makefile_sets_the_same_pin():
    text = (ROOT / "Makefile").read_text()
    line = next(line for line in text.splitlines() if line.startswith("KERNELS"))
    found = dict(re.findall(r'(\w+)=("[^"]*"|\S+)', line.split(",", 2)[2]))
    assert {k: v.strip('"').rstrip(")") for k, v in found.items()} == kernels.PIN
    for target in ("TEST_ENV", "BOOK_ENV"):
        assert "$(KERNELS)" in next(line for line in text.splitlines() if line.startswith(target))


def test_the_kernels_module_loads_without_numpy():
    # it must run before numpy loads; bandit_lib's import recorder loads the JIT compiler (and numpy)
    # for any module whose source names it
    out = subprocess.run(
        [sys.executable, "-c", "import sys, bandit_lib.infra.kernels; print('numpy' in sys.modules)"],
        capture_output=True,
        text=True,
        env=_unpinned_env(),
        check=True,
    )
    assert out.stdout.strip() == "False"


@X86
def test_a_command_that_pins_itself_runs_the_baseline_kernels(tmp_path):
    (tmp_path / "probe.py").write_text(
        textwrap.dedent(
            """
            import json, sys
            if __name__ == "__main__":
                from bandit_lib.infra.kernels import exec_pinned
                exec_pinned("probe")
            from bandit_lib.infra.kernels import in_effect, state
            print(json.dumps({"state": state(), "in_effect": in_effect(), "argv": sys.argv[1:]}))
            """
        )
    )
    env = _unpinned_env()
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env["PYTHONPATH"]])
    out = subprocess.run(
        [sys.executable, "-m", "probe", "--x", "1"], capture_output=True, text=True, env=env, cwd=tmp_path, check=True
    )
    got = json.loads(out.stdout)
    assert got["in_effect"] and got["state"]["pinned"] and got["argv"] == ["--x", "1"]
    assert got["state"]["openblas"] == ["Nehalem"] and got["state"]["numpy_simd"] == []


@X86
def test_without_the_pin_the_state_says_so():
    code = "from bandit_lib.infra.kernels import state, in_effect; s = state(); print(s['pinned'], in_effect())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_unpinned_env(), check=True)
    assert out.stdout.split()[0] == "False"


def test_exec_pinned_refuses_once_numpy_is_loaded(monkeypatch):
    import numpy  # noqa: F401

    if not kernels.applies():
        pytest.skip("the pin is for x86-64 machines")
    for name in kernels.PIN:
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(RuntimeError, match="numpy was imported before"):
        kernels.exec_pinned("bandit_lib.reproduce")


def test_records_name_the_kernels_they_ran():
    from bandit_lib.infra.environment import describe_difference, environment

    env = environment()
    assert set(env["kernels"]) == {"pinned", "openblas", "numpy_simd"}
    unpinned = {**env, "kernels": {**env["kernels"], "pinned": not env["kernels"]["pinned"]}}
    assert "kernels" in describe_difference(unpinned, env)


@pytest.mark.slow
@X86
def test_reproduce_computes_with_the_pin_when_started_without_it(tmp_path):
    """End to end: `python -m bandit_lib.reproduce` started without the pin re-executes itself with
    it, and the records it writes say so (the foundations chapter's quick profile: three small units)."""
    env = {**_unpinned_env(), "BANDIT_RESULTS": str(tmp_path), "BANDIT_PROGRESS": "0"}
    command = [sys.executable, "-m", "bandit_lib.reproduce", "--paper", "foundations", "--profile", "quick"]
    subprocess.run([*command, "--jobs", "1"], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    records = sorted(tmp_path.rglob("*.json"))
    assert records
    for path in records:
        kernels_ran = json.loads(path.read_text())["environment"]["kernels"]
        assert kernels_ran == {"pinned": True, "openblas": ["Nehalem"], "numpy_simd": []}, path


def test_reproduce_warns_when_it_computes_unpinned(monkeypatch, caplog):
    from bandit_lib.infra import reproduce

    monkeypatch.setattr(kernels, "in_effect", lambda current=None: False)
    with caplog.at_level("WARNING"):
        assert reproduce.warn_if_unpinned()
    assert "not pinned" in caplog.text and "openblas" in caplog.text
    monkeypatch.setattr(kernels, "in_effect", lambda current=None: True)
    caplog.clear()
    assert not reproduce.warn_if_unpinned() and not caplog.text
