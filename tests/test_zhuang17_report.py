from types import SimpleNamespace

import pandas as pd
import pytest

from bandit_lib.zhuang17.report import exact_rate, per_case, runs_table


def fake_results():
    unit = SimpleNamespace(key="n=20,case=0", params={"n": 20, "k": 2.5, "families": ["a", "b"]})
    payload = {
        "case": {"n_outliers": 2, "gap_min": 0.01, "means": [0.1, 0.9]},
        "rows": [
            {"method": "RR", "run": 0, "k": 2.5, "pulls": 100, "exact": True, "capped": False},
            {"method": "RR", "run": 1, "k": 2.5, "pulls": 300, "exact": False, "capped": False},
            {"method": "WRR", "run": 0, "k": 2.5, "pulls": 50, "exact": True, "capped": False},
        ],
    }
    return [(unit, payload)]


def test_runs_table_flattens_scalars_and_keeps_row_columns():
    table = runs_table(fake_results())
    assert len(table) == 3 and set(table.unit) == {"n=20,case=0"}
    assert (table["case_n_outliers"] == 2).all() and "case_means" not in table and "families" not in table
    assert (table["n"] == 20).all()


def test_per_case_and_exact_rate():
    table = runs_table(fake_results())
    pc = per_case(table).set_index("method")
    assert pc.loc["RR", "pulls"] == 200 and pc.loc["RR", "exact"] == 0.5
    assert exact_rate(table, "WRR") == 1.0
    with pytest.raises(ValueError, match="'IB'"):
        exact_rate(table, "IB")
    with pytest.raises(ValueError, match="none"):
        runs_table([])
    assert isinstance(table, pd.DataFrame)
