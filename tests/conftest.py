import os

import pytest
from hypothesis import HealthCheck, settings

# numba compiles on first use: give hypothesis room for that first example.
settings.register_profile("book", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=60)
settings.load_profile("book")


@pytest.fixture
def results_dir(tmp_path, monkeypatch):
    """A scratch result root for the store (both profiles)."""
    monkeypatch.setenv("BANDIT_RESULTS", str(tmp_path))
    monkeypatch.setenv("BANDIT_PROGRESS", "0")
    return tmp_path
