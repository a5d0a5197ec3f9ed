"""The arena's tables (bandit_lib.arena.report): computed from rows, never typed in."""

import numpy as np
import pandas as pd
import pytest

from bandit_lib.arena.report import cells, decomposition, leaderboard, paired_saving, wall_times, with_bounds


def _rows():
    rows = []
    for det, pulls, correct in [
        ("A", [10, 12, 14], [1, 1, 1]),
        ("B", [5, 5, 5], [1, 0, 1]),
        ("C", [20, 22, 24], [1, 1, 1]),
    ]:
        for p, c in zip(pulls, correct):
            rows.append(
                {
                    "family": "planted",
                    "n": 20,
                    "case": 0,
                    "run": len(rows) % 3,
                    "detector": det,
                    "pulls": p,
                    "correct": bool(c),
                    "factor": p / 2.0,
                    "wall_s": 0.1,
                }
            )
    return pd.DataFrame(rows)


def test_cells_give_means_intervals_and_error_rates():
    t = cells(_rows()).set_index("detector")
    assert t.loc["A", "pulls"] == 12 and t.loc["A", "pulls_lo"] == pytest.approx(12 - 1.96 * 2 / np.sqrt(3))
    assert t.loc["B", "errors"] == 1 and t.loc["B", "error_lo"] < 1 / 3 < t.loc["B", "error_hi"]
    assert t.loc["C", "factor"] == 11
    with pytest.raises(ValueError, match="empty"):
        cells(pd.DataFrame())


def test_leaderboard_takes_the_cheapest_correct_detector():
    t = cells(_rows())
    board = leaderboard(t, {"A": True, "B": True, "C": True})
    # B is cheapest but made an error; A wins, C is the runner-up
    assert board.iloc[0].best == "A" and board.iloc[0].runner_up == "C"
    assert board.iloc[0].runner_up_over_best == pytest.approx(22 / 12)
    assert leaderboard(t, {"A": False, "B": True, "C": True}).iloc[0].best == "C"
    assert wall_times(_rows()).shape == (1, 3)


def test_with_bounds_gives_a_factor_bracket_and_refuses_cells_without_a_yardstick():
    rows = _rows().drop(columns="factor")
    bounds = pd.DataFrame(
        [
            {
                "family": "planted",
                "n": 20,
                "case": 0,
                "bound": 4.0,
                "bound_kind": "cutting planes",
                "T_lower": 2.0,
                "T_upper": 5.0,
            }
        ]
    )
    out = with_bounds(rows, bounds)
    assert out.factor.tolist() == (rows.pulls / 4.0).tolist()
    assert out.factor_lo.tolist() == pytest.approx((rows.pulls / 10.0).tolist())  # T_upper kl = 5 * 2
    with pytest.raises(ValueError, match="no yardstick"):
        with_bounds(rows.assign(n=50), bounds)
    with pytest.raises(ValueError, match="lacks"):
        with_bounds(rows, bounds.drop(columns="T_upper"))


def test_paired_saving_compares_the_same_runs():
    s = paired_saving(_rows(), "B", "A")
    assert s.tolist() == pytest.approx([1 - 5 / 10, 1 - 5 / 12, 1 - 5 / 14])
    with pytest.raises(ValueError, match="no run has both"):
        paired_saving(_rows(), "B", "Z")
    with pytest.raises(ValueError, match="says nothing"):
        leaderboard(cells(_rows()), {"A": True})


def test_decomposition_splits_the_total_ratio_into_steps():
    d = decomposition(_rows(), ["C", "A", "B"]).iloc[0]
    step1 = np.exp(np.mean(np.log([10 / 20, 12 / 22, 14 / 24])))
    step2 = np.exp(np.mean(np.log([5 / 10, 5 / 12, 5 / 14])))
    assert d["runs"] == 3 and d["C → A"] == pytest.approx(step1) and d["A → B"] == pytest.approx(step2)
    assert d["total"] == pytest.approx(step1 * step2)
    with pytest.raises(ValueError, match="at least two"):
        decomposition(_rows(), ["A"])
    with pytest.raises(ValueError, match="no run of"):
        decomposition(_rows(), ["A", "Z"])
