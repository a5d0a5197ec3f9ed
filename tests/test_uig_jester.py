"""UIG chapter: the Jester loader (on fixture files written here), the stand-in, the protocol."""

import numpy as np
import pytest

from bandit_lib.uig.jester import jester_summary, load_jester, normalise, write_jester_csv
from bandit_lib.uig.jester_like import GAUGE, jester_like
from bandit_lib.uig.protocol import simulate
from bandit_lib.uig.recommendation import candidates_at, pair_distances, replay, select_epsilon, side_information

FIXTURE = """3,-9.81,99,8.5,99,1.00
2,99,99,10,-10,99
5,0.5,-0.25,3.75,2,-1.5
"""


def test_load_jester_reads_the_dataset_1_layout(tmp_path):
    path = tmp_path / "jester-fixture.csv"
    path.write_text(FIXTURE)
    R = load_jester(path, n_jokes=5)
    assert R.shape == (3, 5)
    assert np.isnan(R[0, 1]) and R[0, 0] == -9.81 and R[1, 2] == 10 and R[1, 3] == -10
    assert (~np.isnan(R)).sum(axis=1).tolist() == [3, 2, 5]
    tabbed = tmp_path / "jester-fixture.tsv"
    tabbed.write_text(FIXTURE.replace(",", "\t"))
    assert np.array_equal(load_jester(tabbed, n_jokes=5), R, equal_nan=True)


def test_write_and_load_round_trip(tmp_path):
    R = jester_like(3, n_users=50)
    path = write_jester_csv(R, tmp_path / "ratings.csv")
    assert np.array_equal(load_jester(path), R, equal_nan=True)
    with pytest.raises(ValueError, match="12.5"):
        write_jester_csv(np.array([[12.5, np.nan]]), tmp_path / "bad.csv")


@pytest.mark.parametrize(
    "text, match",
    [
        ("3,-9.81,99,8.5,99\n", "row 1: expected 6 columns"),
        ("3,-9.81,99,12.5,99,1.00\n", r"row 1, joke 3: a rating must lie in \[-10, 10\].*12.5"),
        ("4,-9.81,99,8.5,99,1.00\n", "row 1: the first column says 4 jokes were rated, but the row holds 3"),
        ("3,-9.81,99,x,99,1.00\n", "row 1: every cell must be a number"),
        ("\n", "holds no rows"),
    ],
)
def test_load_jester_rejects_malformed_rows_naming_them(tmp_path, text, match):
    path = tmp_path / "bad.csv"
    path.write_text(FIXTURE.splitlines()[0] + "\n" + text if "holds" not in match else text)
    with pytest.raises(ValueError, match=match.replace("row 1", "row 2") if "holds" not in match else match):
        load_jester(path, n_jokes=5)


def test_load_jester_errors_for_missing_files_and_excel_without_an_engine(tmp_path):
    with pytest.raises(FileNotFoundError, match="no Jester ratings file"):
        load_jester(tmp_path / "nope.csv")
    xls = tmp_path / "jester-data-1.xls"
    xls.write_bytes(b"not really excel")
    try:
        import xlrd  # noqa: F401  (only probing whether it is installed)
    except ImportError:
        with pytest.raises(ImportError, match="convert the sheet to CSV"):
            load_jester(xls)


def test_the_stand_in_looks_like_jester_dataset_1():
    R = jester_like(1, n_users=3000)
    summary = jester_summary(R)
    assert summary["users"] == 3000 and summary["jokes"] == 100
    assert summary["fewest ratings per user"] >= 36
    assert 0.64 < summary["density"] < 0.72
    assert summary["lowest joke coverage"] > 0.34
    assert 4.0 < summary["rating sd"] < 5.5
    assert (~np.isnan(R[:, np.array(GAUGE) - 1])).all()
    rated = R[~np.isnan(R)]
    assert rated.min() >= -10 and rated.max() <= 10 and np.allclose(rated, np.round(rated, 2))
    assert np.array_equal(R, jester_like(1, n_users=3000), equal_nan=True)
    with pytest.raises(ValueError, match="n_users=0"):
        jester_like(1, n_users=0)
    with pytest.raises(ValueError, match="n_jokes=35"):  # fewer jokes than a user rates
        jester_like(1, n_users=10, n_jokes=35)


def test_pair_distances_use_co_raters_only():
    rng = np.random.default_rng(0)
    R = rng.uniform(0, 1, (40, 6))
    R[rng.random(R.shape) < 0.3] = np.nan
    R[:, 5] = np.nan  # a joke nobody rated
    d = pair_distances(R)
    for i in range(5):
        for j in range(5):
            if i != j:
                both = ~np.isnan(R[:, i]) & ~np.isnan(R[:, j])
                assert d[i, j] == pytest.approx(abs(R[both, i].mean() - R[both, j].mean()))
    assert np.isnan(d[0, 5]) and np.isnan(d[3, 3])
    with pytest.raises(ValueError, match="normalised ratings"):
        pair_distances(R * 20 - 10)


def _pair_distances_reference(R):
    """d[i, j] from its definition, pair by pair, in float64."""
    K = R.shape[1]
    d = np.full((K, K), np.nan)
    for i in range(K):
        for j in range(K):
            both = ~np.isnan(R[:, i]) & ~np.isnan(R[:, j])
            if i != j and both.any():
                d[i, j] = abs(R[both, i].mean() - R[both, j].mean())
    return d


def test_pair_distances_match_the_definition_and_ignore_the_memory_layout():
    R = normalise(jester_like(2, n_users=400, n_jokes=40))
    d = pair_distances(R)
    ref = _pair_distances_reference(R)
    assert np.array_equal(np.isnan(d), np.isnan(ref))
    assert np.nanmax(np.abs(d - ref)) < 1e-12
    # the same numbers stored otherwise give the same bits (no BLAS, whose order follows the layout)
    padded = np.full((2 * R.shape[0], 2 * R.shape[1]), np.nan)
    padded[::2, ::2] = R
    for other in (np.asfortranarray(R), padded[::2, ::2]):  # column-major, and a strided view
        assert np.array_equal(other, R, equal_nan=True)
        assert np.array_equal(pair_distances(other), d, equal_nan=True)


def test_side_information_thresholds_and_epsilon_search():
    d = np.array([[np.nan, 0.05, 0.5], [0.05, np.nan, 0.095], [0.5, 0.095, np.nan]])
    S, D = side_information(d, 0.1, 0.1)
    assert S[0, 1] and not S[1, 2] and not D[1, 2] and D[0, 2]
    with pytest.raises(ValueError, match="alpha=1.5"):
        side_information(d, 0.1, 1.5)
    # a line of 20 jokes 0.02 apart: |B0| is smallest for an eps that links a few neighbours
    means = np.arange(20) * 0.02
    d = np.abs(means[:, None] - means[None, :])
    np.fill_diagonal(d, np.nan)
    eps, trace = select_epsilon(d, 0.1)
    assert len(candidates_at(d, eps, 0.1)) == min(size for _, size in trace if size > 0)
    assert trace[0][0] == 0.01 and all(size >= 1 for e, size in trace if e == eps)


class _Recorder:
    """A policy that proposes arms in turn and records its updates."""

    def __init__(self, K):
        self.K, self.t, self.updates = K, 0, []

    def select(self):
        return self.t % self.K

    def update(self, arm, reward):
        self.updates.append((arm, reward))
        self.t += 1


def test_replay_skips_unrated_events_without_moving_the_clock():
    R = np.array([[0.1, np.nan], [np.nan, 0.7], [0.3, 0.4], [0.9, np.nan]])
    policy = _Recorder(2)
    out = replay(policy, R, [0, 1, 2, 3])
    # user 0: arm 0 rated; user 1: arm 1 rated; user 2: arm 0 rated; user 3: arm 1 not rated
    assert policy.updates == [(0, 0.1), (1, 0.7), (0, 0.3)]
    assert out["valid"] == 3 and out["users"].tolist() == [0, 1, 2]
    assert out["mean_reward"] == pytest.approx((0.1 + 0.7 + 0.3) / 3)
    with pytest.raises(ValueError, match="user indices"):
        replay(_Recorder(2), R, [7])


def test_normalise_maps_the_rating_scale_to_the_unit_interval():
    assert normalise([-10.0, 0.0, 10.0, np.nan])[:3].tolist() == [0.0, 0.5, 1.0]
    assert simulate is not None
