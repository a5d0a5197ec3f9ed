"""Every real-data loader on real-size files: what the real files look like, what a wrong copy
looks like, and the errors a wrong file gets (each names the file and what is wrong).

Tests that need the real data sets find them where the library does: HCB is committed in
data/raw/hcb; polblogs is looked for in $BANDIT_DATA/polblogs and data/raw/polblogs (where
`make data` puts it), then in ../shared/data/polblogs beside the repository (the project's CI).
Where it is absent they skip with the step that provides it.
"""

from __future__ import annotations

import re
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest

from bandit_lib.ade20.instances import HCB_FILES, hcb_error_rates
from bandit_lib.ade20.square import worker_error_rates
from bandit_lib.grapl20.experiments.polblogs import polblogs_path
from bandit_lib.grapl20.polblogs_gml import load_polblogs_gml
from bandit_lib.ksigma import ksigma_gaps, ksigma_outliers
from bandit_lib.uig.jester import jester_summary, load_jester, write_jester_csv
from bandit_lib.zhuang17.tweets import load_tweets

ROOT = Path(__file__).resolve().parents[1]
HCB = ROOT / "data" / "raw" / "hcb"
SHARED_POLBLOGS = ROOT.parent / "shared" / "data" / "polblogs" / "polblogs.gml"


def real_polblogs() -> Path | None:
    """The real polblogs.gml: where the library looks ($BANDIT_DATA/polblogs, then data/raw/polblogs,
    :func:`~bandit_lib.grapl20.experiments.polblogs.polblogs_path`), else ../shared/data/polblogs."""
    return polblogs_path() or (SHARED_POLBLOGS if SHARED_POLBLOGS.is_file() else None)


POLBLOGS = real_polblogs()
needs_polblogs = pytest.mark.skipif(
    POLBLOGS is None,
    reason="the real polblogs.gml is not committed (no licence) and is in none of $BANDIT_DATA/polblogs, "
    "data/raw/polblogs, ../shared/data/polblogs: run `make data` (downloads it), or download polblogs.zip "
    "from Mark Newman's network data page and run `make data POLBLOGS=/path/to/polblogs.zip`",
)


# --- every loader refuses files that are not text --------------------------------------------------


def _zip_of(tmp_path, name="data.txt"):
    path = tmp_path / "archive.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(name, "1 2 3\n")
    return path


def _binary(tmp_path):
    path = tmp_path / "binary.dat"
    path.write_bytes(bytes(range(256)) * 4)
    return path


LOADERS = {
    "jester": lambda p: load_jester(p),
    "square responses": lambda p: worker_error_rates(p, HCB / "responses_gt.txt"),
    "square gold": lambda p: worker_error_rates(HCB / "responses_eval.txt", p),
    "gml": lambda p: load_polblogs_gml(p),
    "tweets": lambda p: load_tweets(p),
}


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize("kind", ["zip", "binary", "latin-1", "folder"])
def test_a_file_that_is_not_text_gets_a_clear_error_naming_it(tmp_path, loader, kind):
    if kind == "zip":
        path, message = _zip_of(tmp_path), "zip archive"
    elif kind == "binary":
        path, message = _binary(tmp_path), "binary file"
    elif kind == "latin-1":
        path, message = tmp_path / "latin.txt", "not UTF-8"
        path.write_bytes("caf\xe9 1 2\n".encode("latin-1"))
    else:
        path, message = tmp_path / "folder", "must be a file"
        path.mkdir()
    with pytest.raises(ValueError, match=message) as info:
        LOADERS[loader](path)
    assert str(path) in str(info.value)


# --- Jester -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def jester_real_size(tmp_path_factory):
    """A file the size of jester-data-1 (24,983 users x 100 jokes), comma-separated."""
    rng = np.random.default_rng(1)
    ratings = np.round(rng.uniform(-10, 10, (24_983, 100)), 2)
    ratings[rng.random(ratings.shape) < 0.3] = np.nan
    path = write_jester_csv(ratings, tmp_path_factory.mktemp("jester") / "jester.csv")
    return ratings, path


@pytest.mark.parametrize("separator", [",", ";", "\t"])
def test_jester_real_size_files_with_any_separator(jester_real_size, tmp_path, separator):
    ratings, path = jester_real_size
    copy = tmp_path / "jester.txt"
    copy.write_text(path.read_text().replace(",", separator))
    loaded = load_jester(copy)
    assert loaded.shape == (24_983, 100)
    np.testing.assert_allclose(np.nan_to_num(loaded, nan=99), np.nan_to_num(ratings, nan=99))


def test_jester_blank_cells_say_that_not_rated_is_99(jester_real_size, tmp_path):
    _, path = jester_real_size
    lines = path.read_text().splitlines()
    lines[41] = re.sub(r",99(,|$)", r",\1", lines[41], count=1)
    copy = tmp_path / "blank.csv"
    copy.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match=r"row 42, column \d+: the cell is blank; .* is written 99"):
        load_jester(copy)


def test_jester_summary_of_nothing_is_a_clear_error():
    with pytest.raises(ValueError, match="non-empty 2-D"):
        jester_summary([])
    with pytest.raises(ValueError, match="no rating at all"):
        jester_summary(np.full((3, 4), np.nan))


# --- SQUARE (HCB) -----------------------------------------------------------------------------------


def test_the_committed_hcb_files_are_the_pinned_ones_and_give_the_published_statistics():
    data = hcb_error_rates()
    y = data.means
    assert data.source["sha256"] == HCB_FILES and len(y) == 722
    assert y.mean() == pytest.approx(0.32775, abs=5e-6) and y.std() == pytest.approx(0.29241, abs=5e-6)
    assert len(ksigma_outliers(y, 2.0)) == 63 and np.all(y[ksigma_outliers(y, 2.0)] == 1.0)
    assert len(ksigma_outliers(y, 3.0)) == 0
    assert ksigma_gaps(y, 2.0).min() == pytest.approx(0.0554, abs=1e-4)


def test_hcb_with_other_content_is_refused(tmp_path, monkeypatch):
    copy = tmp_path / "hcb"
    copy.mkdir()
    (copy / "responses_eval.txt").write_text((HCB / "responses_eval.txt").read_text().replace(" 1\n", " 0\n", 1))
    (copy / "responses_gt.txt").write_text((HCB / "responses_gt.txt").read_text())
    monkeypatch.setenv("BANDIT_DATA", str(tmp_path))
    with pytest.raises(ValueError, match="not the HCB file this book was computed from"):
        hcb_error_rates()


def test_square_refuses_a_header_line_in_either_file(tmp_path):
    responses = tmp_path / "responses.txt"
    responses.write_text("question worker response\n" + (HCB / "responses_eval.txt").read_text())
    with pytest.raises(ValueError, match="looks like a header"):
        worker_error_rates(responses, HCB / "responses_gt.txt")
    gold = tmp_path / "gold.txt"
    gold.write_text("question gold\n" + (HCB / "responses_gt.txt").read_text())
    with pytest.raises(ValueError, match=r"gold.txt:1: .* looks like a header"):
        worker_error_rates(HCB / "responses_eval.txt", gold)


def test_square_refuses_swapped_columns_and_names_the_right_order(tmp_path):
    swapped = tmp_path / "swapped.txt"
    rows = [line.split() for line in (HCB / "responses_eval.txt").read_text().splitlines() if line.strip()]
    swapped.write_text("".join(f"{w} {q} {r}\n" for q, w, r in rows))
    with pytest.raises(ValueError, match="look swapped.*order='worker question response'"):
        worker_error_rates(swapped, HCB / "responses_gt.txt")
    fixed = worker_error_rates(swapped, HCB / "responses_gt.txt", order="worker question response")
    assert fixed.n_workers == 722


def test_square_says_when_question_ids_do_not_match_the_gold_file(tmp_path):
    gold = tmp_path / "gold.txt"
    gold.write_text("".join(f"q{i} 1\n" for i in range(100)))
    with pytest.raises(ValueError, match="do not match the gold file"):
        worker_error_rates(HCB / "responses_eval.txt", gold)


# --- GML (polblogs) ---------------------------------------------------------------------------------


@needs_polblogs
def test_the_real_polblogs_graph():
    graph, means = load_polblogs_gml(POLBLOGS)
    assert graph.number_of_nodes() == 1222 and graph.number_of_edges() == 16_717
    assert (int((means == 0).sum()), int((means == 1).sum())) == (586, 636)


@needs_polblogs
def test_a_de_duplicated_polblogs_copy_is_warned_about_with_its_edge_count(tmp_path):
    seen = set()

    def first_only(match):
        key = match.group(1, 2)
        if key in seen:
            return ""
        seen.add(key)
        return match.group(0)

    text = re.sub(r"\s*edge\s*\[\s*source\s+(\d+)\s+target\s+(\d+)\s*\]", first_only, POLBLOGS.read_text())
    copy = tmp_path / "dedup.gml"
    copy.write_text(text)
    with pytest.warns(UserWarning, match=r"repeats no link \(\d+ edge records\): it looks de-duplicated"):
        load_polblogs_gml(copy)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_polblogs_gml(POLBLOGS)  # the original repeats links: no warning


def test_the_real_polblogs_graph_is_found_where_make_data_puts_it(tmp_path, monkeypatch):
    """After `make data` (here into $BANDIT_DATA) the tests find the graph without ../shared."""
    (tmp_path / "polblogs").mkdir()
    (tmp_path / "polblogs" / "polblogs.gml").write_text("graph [\n]\n")
    monkeypatch.setenv("BANDIT_DATA", str(tmp_path))
    assert real_polblogs() == tmp_path / "polblogs" / "polblogs.gml"


def test_gml_parse_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.gml"
    bad.write_text("graph [\n  node [ id 1 value 0 ]\n  edge [ source 1 \n")
    with pytest.raises(ValueError, match=f"could not parse {re.escape(str(bad))} as GML"):
        load_polblogs_gml(bad)
    odd = tmp_path / "odd.gml"
    odd.write_text("graph [\n  node [ id 1 value 7 ]\n]\n")
    with pytest.raises(ValueError, match=f"{re.escape(str(odd))}: every node needs a 0/1 'value'"):
        load_polblogs_gml(odd)
