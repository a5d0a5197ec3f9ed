"""Every calibration gate of the book can fail: each registered gate passes the stand-in its chapter
builds and rejects every plausible mis-calibration of it (bandit_lib.infra.scorecard.Gate)."""

import importlib
import pkgutil

import pytest

import bandit_lib
from bandit_lib.infra.scorecard import GATE_FACTORIES, Claim, Gate, gate_factory, ungated, verdict


def _import_everything() -> None:
    for info in pkgutil.walk_packages(bandit_lib.__path__, "bandit_lib."):
        importlib.import_module(info.name)


_import_everything()
GATES = [(key, gate) for key, factory in sorted(GATE_FACTORIES.items()) for gate in factory()]


@pytest.mark.parametrize("key,gate", GATES, ids=[g.key for _, g in GATES])
def test_the_gate_passes_its_stand_in(key, gate):
    result = gate.check(gate.standin())
    assert result.passed, f"{gate.key}: the chapter's own stand-in gives {result}"


@pytest.mark.parametrize(
    "gate,label",
    [(gate, label) for _, gate in GATES for label in gate.miscalibrations],
    ids=[f"{gate.key}-{label}" for _, gate in GATES for label in gate.miscalibrations],
)
def test_the_gate_rejects_a_miscalibrated_stand_in(gate, label):
    result = gate.check(gate.miscalibrations[label]())
    assert not result.passed, f"{gate.key} cannot fail: the mis-calibration {label!r} passes it ({result})"


def _toy_gate(key="toy.spread", low=0.9, high=1.1):
    return Gate(
        key=key,
        statistic="spread",
        measure=lambda x: x,
        low=low,
        high=high,
        paper="1.0",
        source="a toy",
        bears_on="the cost",
        standin=lambda: 1.0,
        miscalibrations={"twice the spread": lambda: 2.0},
    )


def test_a_gate_without_a_miscalibration_cannot_be_written():
    with pytest.raises(ValueError, match="mis-calibration"):
        Gate("toy.x", "x", lambda x: x, 0, 1, "p", "s", "b", lambda: 0.5, {})
    with pytest.raises(ValueError, match="low <= high"):
        _toy_gate(low=2, high=1)


def test_a_claim_takes_only_registered_gates_and_a_failed_gate_makes_it_inconclusive():
    loose = _toy_gate(key="nowhere.spread")
    with pytest.raises(ValueError, match="no registered gate factory"):
        Claim("c", "p", "o", "reproduced", "r", gates=(loose.check(1.0),))

    @gate_factory("test_gates_toy")
    def toy():
        return [_toy_gate(key="test_gates_toy.spread")]

    try:
        (gate,) = toy()
        inside, outside = gate.check(1.0), gate.check(3.0)
        assert inside.passed and not outside.passed
        assert verdict(True, gates=[inside]) == "reproduced"
        assert verdict(True, gates=[outside]) == "inconclusive"
        Claim("c", "p", "o", "reproduced", "r", gates=(inside,))
        with pytest.raises(ValueError, match="must be inconclusive"):
            Claim("c", "p", "o", "reproduced", "r", gates=(outside,))
        Claim("c", "p", "o", "inconclusive", "r", gates=(outside,), to_decide="the real data")
        with pytest.raises(ValueError, match="new non-empty key"):
            gate_factory("test_gates_toy")
    finally:
        GATE_FACTORIES.pop("test_gates_toy")


def test_an_ungated_stand_in_is_inconclusive():
    g = ungated("keyword rates", "the paper reports only the data's size")
    assert not g.passed
    assert verdict(True, gates=[g]) == "inconclusive"
    Claim("c", "p", "o", "inconclusive", "r", gates=(g,), to_decide="the real tweets; none is public")


def test_an_ungated_result_reads_as_no_gate():
    g = ungated("keyword rates", "the paper reports only the data's size")
    assert str(g) == "no gate: keyword rates (the paper reports only the data's size)"
