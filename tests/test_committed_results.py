"""The book is drawn from data/results: every registered experiment's paper-scale results must be
there and match the current code, or `make book` would recompute them (slowly) or fail."""

import pytest

from bandit_lib.infra.profiles import committed_results_root
from bandit_lib.infra.registry import all_experiments
from bandit_lib.infra.store import ResultStore


@pytest.mark.parametrize("experiment", all_experiments(), ids=lambda e: e.id)
def test_committed_results_are_complete_and_fresh(experiment):
    status = experiment.status("full", store=ResultStore(committed_results_root()))
    assert not status["missing"], (
        f"{experiment.id}: missing results {status['missing'][:5]}; run `make reproduce PAPER={experiment.paper}`"
    )
    assert not status["stale"], (
        f"{experiment.id}: stale results {status['stale'][:5]}; run `make reproduce PAPER={experiment.paper}`"
    )


def test_no_stray_files_in_data_results():
    """Every file under data/results belongs to a registered experiment's full-profile units."""
    expected = set()
    for e in all_experiments():
        expected |= {committed_results_root() / e.paper / e.name / f"{u.key}.json" for u in e.units("full")}
    found = {p for p in committed_results_root().rglob("*") if p.is_file() and p.name != "README.md"}
    assert not (found - expected), f"files no experiment produces: {sorted(str(p) for p in found - expected)[:5]}"
