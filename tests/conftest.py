import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

# BLAS at one thread in the test processes and their subprocesses (the Makefile sets the same before
# Python starts): pytest's workers fill the cores, and OpenBLAS's threads on the tiny vectors of
# scipy's optimisers wait for each other (35x slower on a loaded 2-core machine). Results are the
# same at any thread count; only time changes.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis.database import DirectoryBasedExampleDatabase, ReadOnlyDatabase  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

threadpool_limits(1)  # for BLAS libraries loaded before the variables above were read

# Property tests run in two profiles (HYPOTHESIS_PROFILE):
# * "ci" (the default, `make test`): seeded (pyproject's addopts pass --hypothesis-seed=0), so a
#   run tests the same examples every time and CI cannot pass or fail by chance on the same code;
#   it first replays every example the fuzzer ever saved (tests/hypothesis-examples, committed),
#   read-only.
# * "fuzz" (`make fuzz`): random and ten times longer; a failure it finds is saved to
#   tests/hypothesis-examples (commit it) and should also become an explicit @example or test.
# numba compiles on first use: both give hypothesis room for that first example.
EXAMPLES = DirectoryBasedExampleDatabase(Path(__file__).parent / "hypothesis-examples")
COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", database=ReadOnlyDatabase(EXAMPLES), max_examples=60, **COMMON)
settings.register_profile("fuzz", database=EXAMPLES, max_examples=600, **COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def results_dir(tmp_path, monkeypatch):
    """A scratch result root for the store (both profiles)."""
    monkeypatch.setenv("BANDIT_RESULTS", str(tmp_path))
    monkeypatch.setenv("BANDIT_PROGRESS", "0")
    return tmp_path


# --- a copy of bandit_lib with a toy chapter, for scenarios that need processes of their own --------

REPO = Path(__file__).resolve().parents[1]
DEADLINE = 120  # seconds any subprocess of these scenarios may take

TOY_EXPERIMENT = '''
"""A toy experiment whose compute imports toy_dep where it runs (workers import it, the caller need not).

TOY_LOG names a file where each computation appends a line (unit, process), so that a test can
count how often each unit was computed; TOY_BIG makes unit x=1's record about 3 MB."""
import os
import time

from bandit_lib.infra.experiment import Experiment, Unit


def compute(seed, x, sleep=0.0):
    from bandit_lib.toybook.toy_dep import f

    time.sleep(sleep)
    if os.environ.get("TOY_LOG"):
        with open(os.environ["TOY_LOG"], "a") as log:
            log.write(f"x={x} {os.getpid()}\\n")
    rows = [{"y": f(x)}]
    if os.environ.get("TOY_BIG") and x == 1:
        rows = [{"y": f(x) + i / 7} for i in range(150_000)]
    return {"rows": rows}


def plan(profile):
    return [Unit(f"x={x}", {"x": x, "sleep": SLEEP}) for x in range(UNITS)]


SLEEP = float(os.environ.get("TOY_SLEEP", "0"))
UNITS = int(os.environ.get("TOY_UNITS", "2"))
LAZY = Experiment("toybook", "lazy", "toy", compute=compute, plan=plan, entropy=1, chapter="notebooks/none")
'''


@pytest.fixture
def library_copy(tmp_path):
    """A copy of bandit_lib with a toy chapter `toybook`, and a function running Python on it
    (``.root``: the copy; ``.env``: its environment; ``.store``: its result store)."""
    root = tmp_path / "repo"
    shutil.copytree(REPO / "bandit_lib", root / "bandit_lib", ignore=shutil.ignore_patterns("__pycache__"))
    book = root / "bandit_lib" / "toybook"
    book.mkdir()
    (book / "__init__.py").write_text('"""Toy chapter of the reliability tests."""\n')
    (book / "experiments.py").write_text(TOY_EXPERIMENT)
    (book / "toy_dep.py").write_text("def f(x):\n    return x + 1\n")
    env = {**os.environ, "PYTHONPATH": str(root), "BANDIT_PROGRESS": "0", "BANDIT_RESULTS": str(tmp_path / "store")}

    def python(*parts: str, **extra_env) -> subprocess.CompletedProcess:
        script = "\n".join(textwrap.dedent(part) for part in parts)
        return subprocess.run(
            [sys.executable, "-c", script],
            cwd=root,
            env={**env, **extra_env},
            capture_output=True,
            text=True,
            timeout=DEADLINE,
        )

    python.root, python.env, python.store = root, env, tmp_path / "store"
    return python
