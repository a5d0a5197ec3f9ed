"""The arena's tables (bandit_lib.arena.report): computed from rows, never typed in."""

import numpy as np
import pandas as pd
import pytest

from bandit_lib.arena.report import cells, leaderboard, wall_times


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
