r"""Loader of the political-blogs network (Adamic & Glance 2005) in Mark Newman's GML format.

The book cannot download the file; a user with a copy of ``polblogs.gml`` (from Newman's
network-data page, ``polblogs.zip``) gets the exact graph of GRAPL20's Fig. 3 with::

    from bandit_lib.grapl20.polblogs_gml import load_polblogs_gml
    graph, means = load_polblogs_gml("path/to/polblogs.gml")

Preprocessing, as in the paper (§4.3) and the authors' code:

1. parse the GML as a *directed multigraph*: the file repeats some links without declaring
   ``multigraph 1``, which networkx refuses, so the declaration is added when it is missing;
2. make it undirected, the weight of {u, v} being the number of links u→v plus v→u, duplicates
   included (a self-loop keeps its count; it does not change the Laplacian);
3. keep the largest connected component, nodes in file order (the order decides GrAPL's ties,
   including its first pull);
4. the signal is the node attribute ``value``: 0 liberal, 1 conservative (μ_i = value_i).

Checks to run on a copy: 1490 nodes in the file; after preprocessing 1222 nodes (586 with value
0, 636 with value 1) and 16,717 edges as networkx counts them (16,714 without the self-loops),
mean degree ≈ 27, maximum degree ≈ 350. :func:`bandit_lib.grapl20.polblogs_like.graph_statistics`
computes these.
"""

from __future__ import annotations

import re
import warnings

import networkx as nx
import numpy as np

from bandit_lib.checks import check_text_file
from bandit_lib.grapl20.polblogs_like import largest_component

_GRAPH_OPEN = re.compile(r"\bgraph\s*\[")


#: The original distribution repeats some links: its edge records, and the edges of its largest
#: component once undirected. A copy with no repeated record has been de-duplicated.
ORIGINAL_EDGE_RECORDS = 19090
ORIGINAL_COMPONENT_EDGES = 16717

#: What the book's copy of polblogs is (Newman's polblogs.zip): a copy that differs in any of these
#: is not the graph the book's Fig. 3 was computed from, and :func:`check_polblogs` refuses it.
POLBLOGS_CONTENT = {
    "file nodes": 1490,
    "file edge records": ORIGINAL_EDGE_RECORDS,
    "component nodes": 1222,
    "component liberal": 586,
    "component conservative": 636,
    "component edges": ORIGINAL_COMPONENT_EDGES,
    "component weight": 19089.0,
}


def parse_polblogs_gml(text: str, *, source: str = "the GML text") -> tuple[nx.Graph, np.ndarray]:
    """:func:`load_polblogs_gml` on the text of a GML file (``source`` names it in errors)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a string; got {type(text).__name__}")
    match = _GRAPH_OPEN.search(text)
    if match is None:
        raise ValueError(f"{source} is not a GML graph: no 'graph [' block found")
    if not re.search(r"\bmultigraph\s+1\b", text):
        text = text[: match.end()] + "\n  multigraph 1" + text[match.end() :]
    try:
        raw = nx.parse_gml(text, label="id")
    except (nx.NetworkXError, ValueError) as exc:
        raise ValueError(f"could not parse {source} as GML: {exc}") from exc
    if raw.number_of_nodes() == 0:
        raise ValueError(f"the GML graph of {source} has no nodes")
    for v, value in raw.nodes(data="value"):
        if value not in (0, 1):
            raise ValueError(
                f"{source}: every node needs a 0/1 'value' (the blog's leaning); node {v!r} has value={value!r}"
            )
    records = raw.number_of_edges()
    repeated = records - len({(u, v) for u, v, _ in raw.edges(keys=True)})
    if repeated == 0:
        warnings.warn(
            f"{source} repeats no link ({records} edge records): it looks de-duplicated. The original "
            f"polblogs.gml has {ORIGINAL_EDGE_RECORDS} records, some repeated, and the weights GRAPL20 uses count "
            "the repeats; results on this copy will differ from the book's",
            UserWarning,
            stacklevel=3,
        )
    graph = nx.Graph()
    graph.add_nodes_from(raw.nodes(data=True))
    for u, v in raw.edges():
        if graph.has_edge(u, v):
            graph[u][v]["weight"] += 1.0
        else:
            graph.add_edge(u, v, weight=1.0)
    graph = largest_component(graph)
    means = np.array([float(graph.nodes[v]["value"]) for v in graph.nodes])
    return graph, means


def polblogs_content(text: str, *, source: str = "the GML text") -> dict:
    """The counts of :data:`POLBLOGS_CONTENT` for a GML text."""
    return _parse_with_content(text, source)[2]


def _parse_with_content(text: str, source: str) -> tuple[nx.Graph, np.ndarray, dict]:
    """``(graph, means, content)``: :func:`parse_polblogs_gml` and the counts of
    :data:`POLBLOGS_CONTENT`, from one parse (the GML parser is the slow part)."""
    found = _GRAPH_OPEN.search(text)
    if found is None:
        raise ValueError(f"{source} is not a GML graph: no 'graph [' block found")
    records = len(re.findall(r"\bedge\s*\[", text))
    nodes = len(re.findall(r"\bnode\s*\[", text))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the record count below says it more precisely
        graph, means = parse_polblogs_gml(text, source=source)
    content = {
        "file nodes": nodes,
        "file edge records": records,
        "component nodes": graph.number_of_nodes(),
        "component liberal": int((means == 0).sum()),
        "component conservative": int((means == 1).sum()),
        "component edges": graph.number_of_edges(),
        "component weight": float(sum(w for _, _, w in graph.edges(data="weight"))),
    }
    return graph, means, content


def check_polblogs(text: str, *, source: str = "the GML text") -> dict:
    """The content counts of a polblogs GML text, after checking them against
    :data:`POLBLOGS_CONTENT`; a copy that differs is refused with the numbers that differ."""
    return _checked_content(polblogs_content(text, source=source), source)


def _checked_content(content: dict, source: str) -> dict:
    wrong = {k: (content[k], v) for k, v in POLBLOGS_CONTENT.items() if content[k] != v}
    if wrong:
        detail = "; ".join(f"{k} {got} (expected {want})" for k, (got, want) in wrong.items())
        hint = (
            " It looks de-duplicated: the original repeats some links."
            if content["file edge records"] < ORIGINAL_EDGE_RECORDS and content["component nodes"] == 1222
            else ""
        )
        raise ValueError(f"{source} is not the polblogs.gml this book was computed from: {detail}.{hint}")
    return content


def load_polblogs_checked(path) -> tuple[nx.Graph, np.ndarray, dict]:
    """``(graph, means, content)`` of a polblogs copy that passes :func:`check_polblogs`."""
    text = check_text_file("path", path, what="GML")
    graph, means, content = _parse_with_content(text, str(path))
    return graph, means, _checked_content(content, str(path))


def load_polblogs_gml(path) -> tuple[nx.Graph, np.ndarray]:
    """``(graph, means)`` of a local ``polblogs.gml`` after the preprocessing of the module docstring."""
    text = check_text_file("path", path, what="GML")
    return parse_polblogs_gml(text, source=str(path))
