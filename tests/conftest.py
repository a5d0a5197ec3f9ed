import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase, ReadOnlyDatabase

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
