"""GRAPL20: instance generators, the political-blogs stand-in and the GML loader."""

import networkx as nx
import numpy as np
import pytest

from bandit_lib.grapl20.karate import karate_club
from bandit_lib.grapl20.polblogs_gml import load_polblogs_gml, parse_polblogs_gml
from bandit_lib.grapl20.polblogs_like import graph_statistics, largest_component, polblogs_like
from bandit_lib.grapl20.sbm import two_block_sbm
from bandit_lib.grapl20.small_world import newman_watts_smooth, smooth_signal


def test_two_block_sbm():
    g, means = two_block_sbm(1000, 3)
    assert list(g.nodes) == list(range(1000)) and not g.is_directed()
    assert np.array_equal(means, np.r_[np.ones(500), -np.ones(500)])
    inside = sum(1 for u, v in g.edges if (u < 500) == (v < 500))
    across = g.number_of_edges() - inside
    # expected 2 * C(500, 2) * log(500)/500 = 3101 inside, 500^2 * log(500)/500^1.5 = 139 across
    assert 2900 < inside < 3300 and 90 < across < 190
    g2, _ = two_block_sbm(1000, 3)
    assert set(g.edges) == set(g2.edges)
    with pytest.raises(ValueError, match="n_arms=7"):
        two_block_sbm(7, 0)


def test_newman_watts_smooth_signal():
    g, means = newman_watts_smooth(1000, 8)
    assert nx.is_connected(g) and 2000 <= g.number_of_edges() < 2080
    assert means.min() >= 0 and means.max() <= 1
    assert np.median(means) == pytest.approx(0.5, abs=1e-12)
    inside = (means > 0) & (means < 1)
    assert abs(np.std(means) - 0.2) < 0.02 and inside.mean() > 0.95
    # smooth: neighbours differ far less than random pairs
    diffs = np.array([abs(means[u] - means[v]) for u, v in g.edges])
    assert diffs.mean() < 0.2 * np.abs(means - means.mean()).mean()
    assert not np.array_equal(smooth_signal(g, 1), smooth_signal(g, 1, ridge=1e-3))
    with pytest.raises(ValueError, match="k=1"):
        newman_watts_smooth(100, 1, k=1)
    with pytest.raises(ValueError, match="ridge=-1"):
        smooth_signal(g, 1, ridge=-1.0)


def test_polblogs_standin_matches_the_real_graphs_statistics():
    g, means = polblogs_like(2005)
    stats = graph_statistics(g, means)
    assert nx.is_connected(g) and list(g.nodes) == list(range(len(means)))
    assert 1150 <= stats["nodes"] <= 1222
    assert 14_000 <= stats["edges"] <= 19_000 and 24 <= stats["mean degree"] <= 31
    assert 250 <= stats["max degree"] <= 400
    assert 0.10 <= stats["cross-label edge fraction"] <= 0.17
    assert 0.03 <= stats["disagreeing nodes"] <= 0.05
    with pytest.raises(ValueError, match="mixed=1.5"):
        polblogs_like(1, mixed=1.5)


def test_karate_club_is_the_real_data():
    g, means = karate_club()
    assert g.number_of_nodes() == 34 and g.number_of_edges() == 78
    assert means.sum() == 17 and means[0] == 0 and means[33] == 1
    cross = sum(1 for u, v in g.edges if means[u] != means[v])
    assert cross == 11
    assert all(isinstance(w, int) and w >= 1 for _, _, w in g.edges(data="weight"))


GML = """Creator "a fixture written for the tests"
graph
[
  directed 1
  node
  [
    id 10
    label "left.example"
    value 0
    source "test"
  ]
  node
  [
    id 3
    label "right.example"
    value 1
  ]
  node
  [
    id 7
    label "middle.example"
    value 1
  ]
  node
  [
    id 42
    label "island.example"
    value 0
  ]
  node
  [
    id 5
    label "pair-a"
    value 0
  ]
  node
  [
    id 6
    label "pair-b"
    value 1
  ]
  edge
  [
    source 10
    target 3
  ]
  edge
  [
    source 10
    target 3
  ]
  edge
  [
    source 3
    target 10
  ]
  edge
  [
    source 7
    target 3
  ]
  edge
  [
    source 7
    target 7
  ]
  edge
  [
    source 5
    target 6
  ]
]
"""


def test_gml_loader_on_a_fixture(tmp_path):
    path = tmp_path / "polblogs.gml"
    path.write_text(GML)
    g, means = load_polblogs_gml(path)
    # largest component {10, 3, 7} in file order; island 42 and the pair {5, 6} dropped
    assert list(g.nodes) == [10, 3, 7]
    assert np.array_equal(means, [0.0, 1.0, 1.0])
    assert g[10][3]["weight"] == 3.0  # two duplicate links 10->3 plus one 3->10
    assert g[7][3]["weight"] == 1.0 and g[7][7]["weight"] == 1.0
    assert g.nodes[10]["label"] == "left.example"
    # a file that already declares multigraph parses the same way
    g2, means2 = parse_polblogs_gml(GML.replace("directed 1", "directed 1\n  multigraph 1"))
    assert list(g2.edges(data="weight")) == list(g.edges(data="weight")) and np.array_equal(means, means2)


def test_largest_component_keeps_node_order():
    g = nx.Graph([(5, 1), (9, 9), (2, 8), (8, 3)])
    assert list(largest_component(g).nodes) == [2, 8, 3]


@pytest.mark.parametrize(
    "text, message",
    [
        ("no graph here", "no 'graph \\[' block"),
        (GML.replace("value 1\n  ]\n  node\n  [\n    id 7", "value 2\n  ]\n  node\n  [\n    id 7"), "value=2"),
        (GML.replace("    value 0\n    source", "    source"), "value=None"),
        ("graph [ node [ id 1 value 0 ] edge [ source 1 target 2 ] ]", "could not parse"),
        ("graph [ ]", "no nodes"),
    ],
)
def test_gml_loader_rejects_bad_files_naming_the_problem(text, message):
    with pytest.raises(ValueError, match=message):
        parse_polblogs_gml(text)


def test_gml_loader_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="polblogs.gml"):
        load_polblogs_gml(tmp_path / "polblogs.gml")
    with pytest.raises(TypeError, match="string"):
        parse_polblogs_gml(b"graph [ ]")


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: graph_statistics(nx.path_graph(3), [0.0, 1.0]), "2 entries"),
        (lambda: graph_statistics(nx.path_graph(2), [0.0, 0.5]), "0/1 labels; got 0.5"),
        (lambda: graph_statistics("graph", [0.0]), "networkx graph"),
        (lambda: largest_component(nx.Graph()), "empty graph"),
        (lambda: largest_component(nx.DiGraph([(0, 1)])), "undirected"),
        (lambda: polblogs_like(1, sizes=(1, 5)), r"sizes\[0\]=1"),
        (lambda: polblogs_like(1, tail=0.0), "tail=0.0"),
    ],
)
def test_bad_graph_inputs_raise_naming_the_value(make, message):
    with pytest.raises((ValueError, TypeError), match=message):
        make()


def test_experiment_inputs_are_checked():
    from bandit_lib.grapl20.experiments.polblogs import fig3_instance
    from bandit_lib.grapl20.experiments.synthetic import compute_synthetic, make_instance
    from bandit_lib.grapl20.experiments.theory import compute_theory

    with pytest.raises(ValueError, match="figure='ring'"):
        make_instance("ring", 0, 10)
    with pytest.raises(ValueError, match="data='blogs'"):
        fig3_instance("blogs")
    with pytest.raises(ValueError, match="part='plot'"):
        compute_synthetic(0, part="plot")
    with pytest.raises(ValueError, match="check='bounds'"):
        compute_theory(0, check="bounds")
