r"""A seeded synthetic stand-in for the political-blogs graph of GRAPL20's Fig. 3 (paper §4.3).

The real graph (Adamic & Glance 2005) is read with
:func:`bandit_lib.grapl20.polblogs_gml.load_polblogs_checked` from a local copy (``make data``);
this stand-in serves where that copy is absent (the quick profile) and as a labelled second panel.
It was built before the real graph could be used, and aims at its size, density, degree
heterogeneity and, above all, its *heterophily*: a
few percent of blogs sit among blogs of the other side, and those drive the long tail of
Algorithm 1's error. It is a degree-corrected two-block model:

* two blocks of 586 (label 0, "liberal") and 636 (label 1, "conservative") nodes;
* expected degrees :math:`\theta_i`: Pareto (Lomax) with tail exponent ``tail`` (survival
  :math:`P(\theta > x) \sim x^{-\text{tail}}`), rescaled to mean ``mean_degree``, capped at
  ``max_degree`` (the default mean 32 gives a realised mean degree ≈ 27.4 once the edge
  probabilities are capped at 1, as in the real graph);
* cross-affinities :math:`c_i \sim` Beta(1, 30) for most nodes and Uniform(0.4, 1) for a
  fraction ``mixed`` of "mixed" blogs;
* edge {i, j} with probability :math:`\min(1, \theta_i\theta_j B_{ij} / \sum_k \theta_k)`,
  :math:`B_{ij} = 2(1 - \bar c_{ij})` within a block and :math:`2\bar c_{ij}` across,
  :math:`\bar c_{ij} = (c_i + c_j)/2`; weight 1; then the largest connected component, in node
  order.

Every figure drawn from it is labelled *synthetic stand-in*. :func:`graph_statistics` reports the
statistics to compare with the real graph (1222 nodes, 16,714 edges without self-loops, mean
degree ≈ 27, maximum degree ≈ 350). Its cross-label edge fraction (0.147 for the chapter's seed)
lies outside the chapter's calibration gate (within 0.02 of the real graph's 0.094), so no verdict
on the paper's claims rests on it.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from bandit_lib.checks import check_in_range, check_int, check_positive, check_vector
from bandit_lib.seeding import SeedLike, as_seed_sequence


def largest_component(graph: nx.Graph) -> nx.Graph:
    """The subgraph on the largest connected component, keeping the original node order."""
    if not isinstance(graph, nx.Graph) or graph.is_directed():
        raise TypeError(f"graph must be an undirected networkx graph; got {type(graph).__name__}")
    if graph.number_of_nodes() == 0:
        raise ValueError("graph must have at least one node; got an empty graph")
    keep = max(nx.connected_components(graph), key=len)
    sub = nx.Graph()
    sub.add_nodes_from((v, graph.nodes[v]) for v in graph.nodes if v in keep)
    sub.add_edges_from((u, v, d) for u, v, d in graph.edges(data=True) if u in keep)
    return sub


def polblogs_like(
    seed: SeedLike,
    *,
    sizes: tuple[int, int] = (586, 636),
    mean_degree: float = 32.0,
    max_degree: float = 350.0,
    tail: float = 1.4,
    mixed: float = 0.15,
) -> tuple[nx.Graph, np.ndarray]:
    """``(graph, means)`` of the stand-in; means are the 0/1 block labels of the kept nodes."""
    n0 = check_int("sizes[0]", sizes[0], minimum=2)
    n1 = check_int("sizes[1]", sizes[1], minimum=2)
    mean_degree = check_positive("mean_degree", mean_degree)
    max_degree = check_positive("max_degree", max_degree)
    tail = check_positive("tail", tail)
    mixed = check_in_range("mixed", mixed, 0.0, 1.0, low_open=False, high_open=False)
    rng = np.random.default_rng(as_seed_sequence(seed))
    n = n0 + n1
    label = np.r_[np.zeros(n0), np.ones(n1)]
    theta = 1.0 + rng.pareto(tail, size=n)
    theta = np.minimum(theta * (mean_degree / theta.mean()), max_degree)
    cross = rng.beta(1.0, 30.0, size=n)
    is_mixed = rng.random(n) < mixed
    cross[is_mixed] = rng.uniform(0.4, 1.0, size=int(is_mixed.sum()))
    cbar = 0.5 * (cross[:, None] + cross[None, :])
    same = label[:, None] == label[None, :]
    B = np.where(same, 2.0 * (1.0 - cbar), 2.0 * cbar)
    prob = np.minimum(1.0, np.outer(theta, theta) * B / theta.sum())
    draw = rng.random((n, n))
    rows, cols = np.nonzero(np.triu(draw < prob, k=1))
    graph = nx.Graph()
    graph.add_nodes_from((i, {"value": int(label[i]), "mixed": bool(is_mixed[i])}) for i in range(n))
    graph.add_edges_from(zip(rows.tolist(), cols.tolist()), weight=1.0)
    graph = nx.convert_node_labels_to_integers(largest_component(graph), ordering="default")
    means = np.array([float(graph.nodes[v]["value"]) for v in graph.nodes])
    return graph, means


def graph_statistics(graph: nx.Graph, means) -> dict:
    """Size, degrees, cross-label edge fraction and the fraction of nodes whose weighted
    neighbours mostly carry the other label (0/1 labels in ``means``)."""
    if not isinstance(graph, nx.Graph):
        raise TypeError(f"graph must be a networkx graph; got {type(graph).__name__}")
    means = check_vector("means", means, low=0.0, high=1.0)
    if len(means) != graph.number_of_nodes():
        raise ValueError(f"means has {len(means)} entries but the graph has {graph.number_of_nodes()} nodes")
    if not np.all((means == 0) | (means == 1)):
        bad = means[(means != 0) & (means != 1)][0]
        raise ValueError(f"means must be 0/1 labels; got {float(bad)!r}")
    nodes = list(graph.nodes)
    index = {v: k for k, v in enumerate(nodes)}
    deg = np.array([d for _, d in graph.degree()])
    edges = [(index[u], index[v], w) for u, v, w in graph.edges(data="weight", default=1.0) if u != v]
    cross = sum(1 for a, b, _ in edges if means[a] != means[b])
    vote = np.zeros(len(nodes))
    for a, b, w in edges:
        vote[a] += w * (1 if means[b] == 1 else -1)
        vote[b] += w * (1 if means[a] == 1 else -1)
    disagree = np.mean(np.where(means == 1, vote < 0, vote > 0))
    return {
        "nodes": len(nodes),
        "edges": len(edges),
        "label 1": int(means.sum()),
        "label 0": int((means == 0).sum()),
        "mean degree": float(deg.mean()),
        "max degree": int(deg.max()),
        "cross-label edge fraction": cross / max(len(edges), 1),
        "disagreeing nodes": float(disagree),
    }
