r"""Unit interval graphs (UIGs) over the arms and their partial revelation.

Arms :math:`1..K` with means :math:`\mu_i` and a threshold :math:`\epsilon > 0` define the
*similarity graph* :math:`G^*_\epsilon`: arms i and j are adjacent iff :math:`i \ne j` and
:math:`|\mu_i - \mu_j| < \epsilon` (strict). It is a unit interval graph: give arm i the interval
:math:`(\mu_i, \mu_i + \epsilon)`; two intervals intersect iff the arms are adjacent.

Graphs are symmetric boolean adjacency matrices without self-loops (``A[i, j]`` is the edge
i–j). :math:`N[i]` is the *closed* neighbourhood of i (its neighbours and i itself).

Recognition. A graph is a UIG iff its vertices have an *umbrella ordering*: an order in which,
for every u < v < w, an edge u–w implies the edges u–v and v–w; equivalently every closed
neighbourhood is a contiguous block of the order (Roberts 1969; Looges and Olariu 1993).
:func:`umbrella_ordering` finds one per connected component with three sweeps of
lexicographic breadth-first search (LBFS, then LBFS+ twice; Corneil 2004, "A simple 3-sweep
LBFS algorithm for the recognition of unit interval graphs") and *verifies* it, so a returned
order is a certificate. A graph without one raises :class:`NotUnitIntervalGraph`, whose
message names a forbidden induced subgraph when it finds one (a claw :math:`K_{1,3}`, or a
chordless cycle of length at least 4).

Partial side information (:func:`reveal`): each edge of :math:`G^*` is revealed as a type-S
("similar") edge with probability :math:`p_S`, each non-edge as a type-D ("dissimilar") edge
with probability :math:`p_D`, independently (the paper's Assumption 5).
"""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
from scipy.sparse.csgraph import connected_components

from bandit_lib.checks import check_in_range, check_index, check_nonnegative, check_vector


class NotUnitIntervalGraph(ValueError):
    """The graph given is not a unit interval graph."""


# --- construction and validation -----------------------------------------------------------


def similarity_graph(means, eps) -> np.ndarray:
    r"""Adjacency of :math:`G^*_\epsilon`: ``|mu_i - mu_j| < eps`` for i != j.

    Example:

    >>> from bandit_lib.uig import similarity_graph
    >>> similarity_graph([0.1, 0.2, 0.5], 0.15).astype(int).tolist()
    [[0, 1, 0], [1, 0, 0], [0, 0, 0]]
    """
    means = check_vector("means", means)
    eps = check_nonnegative("eps", eps)
    A = np.abs(means[:, None] - means[None, :]) < eps
    np.fill_diagonal(A, False)
    return A


def check_adjacency(name: str, A) -> np.ndarray:
    """A square symmetric boolean matrix without self-loops (returned as a bool array)."""
    A = np.asarray(A)
    if A.ndim != 2 or A.shape[0] != A.shape[1] or A.shape[0] == 0:
        raise ValueError(f"{name} must be a non-empty square adjacency matrix; got shape {A.shape}")
    if A.dtype != bool:
        if not np.isin(A, (0, 1)).all():
            bad = tuple(int(x) for x in np.argwhere(~np.isin(A, (0, 1)))[0])
            raise ValueError(f"{name} must hold only 0/1 or booleans; got {name}[{bad[0]}, {bad[1]}]={A[bad]!r}")
        A = A.astype(bool)
    if A.diagonal().any():
        i = int(np.flatnonzero(A.diagonal())[0])
        raise ValueError(f"{name} must have no self-loops; got {name}[{i}, {i}]=True")
    asym = A != A.T
    if asym.any():
        i, j = (int(x) for x in np.argwhere(asym)[0])
        raise ValueError(f"{name} must be symmetric; got {name}[{i}, {j}]={A[i, j]} but {name}[{j}, {i}]={A[j, i]}")
    return A


def to_networkx(A) -> nx.Graph:
    """The graph as a networkx Graph on nodes 0..K-1."""
    A = check_adjacency("A", A)
    G = nx.Graph()
    G.add_nodes_from(range(len(A)))
    G.add_edges_from(zip(*np.nonzero(np.triu(A, 1))))
    return G


def from_networkx(G: nx.Graph) -> np.ndarray:
    """Adjacency of a networkx graph whose nodes are 0..K-1."""
    nodes = sorted(G.nodes)
    if nodes != list(range(len(nodes))):
        raise ValueError(f"the graph's nodes must be 0..K-1; got {nodes[:10]}")
    A = np.zeros((len(nodes), len(nodes)), dtype=bool)
    for u, v in G.edges:
        if u == v:
            raise ValueError(f"the graph must have no self-loops; got the edge ({u}, {v})")
        A[u, v] = A[v, u] = True
    return A


# --- basic structure -----------------------------------------------------------------------


def closed_neighbourhoods(A) -> np.ndarray:
    """``N[i]`` as the rows of ``A | I``."""
    A = check_adjacency("A", A)
    return A | np.eye(len(A), dtype=bool)


def equivalence_classes(A, nodes=None) -> list[np.ndarray]:
    """Classes of arms with identical closed neighbourhoods (neighbourhood equivalence).

    ``nodes`` restricts the partition to a subset (a union of classes, such as a candidate set);
    the neighbourhoods are always taken in the whole graph. Classes are sorted by their smallest
    member, members ascending.

    Example:

    >>> from bandit_lib.uig import equivalence_classes, similarity_graph
    >>> [c.tolist() for c in equivalence_classes(similarity_graph([0.1, 0.2, 0.5], 0.15))]
    [[0, 1], [2]]
    """
    closed = closed_neighbourhoods(A)
    nodes = np.arange(len(closed)) if nodes is None else np.unique(np.asarray(nodes, dtype=np.int64))
    if nodes.size and (nodes.min() < 0 or nodes.max() >= len(closed)):
        raise ValueError(f"nodes must be arm indices in 0..{len(closed) - 1}; got {nodes.tolist()}")
    groups: dict[bytes, list[int]] = {}
    for v in nodes.tolist():
        groups.setdefault(closed[v].tobytes(), []).append(v)
    return sorted((np.array(g, dtype=np.int64) for g in groups.values()), key=lambda c: int(c[0]))


def components(A) -> list[np.ndarray]:
    """Connected components, each sorted, ordered by their smallest node."""
    A = check_adjacency("A", A)
    _, labels = connected_components(A, directed=False)
    comps = [np.flatnonzero(labels == c) for c in np.unique(labels)]
    return sorted(comps, key=lambda c: int(c[0]))


def bfs_levels(A, root: int) -> list[np.ndarray]:
    """Breadth-first-search levels from ``root`` (level 0 is ``[root]``), each sorted."""
    A = check_adjacency("A", A)
    root = check_index("root", root, len(A))
    seen = np.zeros(len(A), dtype=bool)
    seen[root] = True
    frontier = np.array([root])
    levels = []
    while frontier.size:
        levels.append(frontier)
        nxt = A[frontier].any(axis=0) & ~seen
        seen |= nxt
        frontier = np.flatnonzero(nxt)
    return levels


def is_clique(A, nodes=None) -> bool:
    A = check_adjacency("A", A)
    nodes = np.arange(len(A)) if nodes is None else np.asarray(nodes, dtype=np.int64)
    sub = A[np.ix_(nodes, nodes)]
    return bool(sub.sum() == len(nodes) * (len(nodes) - 1))


# --- recognition ---------------------------------------------------------------------------


def is_umbrella_ordering(A, order) -> bool:
    """Whether every closed neighbourhood is a contiguous block of ``order`` (a UIG certificate)."""
    closed = closed_neighbourhoods(A)
    order = np.asarray(order, dtype=np.int64)
    if sorted(order.tolist()) != list(range(len(closed))):
        raise ValueError(f"order must be a permutation of 0..{len(closed) - 1}; got {order.tolist()}")
    P = closed[np.ix_(order, order)]
    first = P.argmax(axis=1)
    last = len(P) - 1 - P[:, ::-1].argmax(axis=1)
    return bool((P.sum(axis=1) == last - first + 1).all())


def _lbfs(adj: list[set[int]], nodes: list[int], previous: list[int] | None) -> list[int]:
    """Lexicographic BFS over ``nodes``; ties go to the node that comes last in ``previous``
    (LBFS+), or to the smallest node when there is no previous sweep."""
    rank = {v: i for i, v in enumerate(previous)} if previous is not None else {v: -v for v in nodes}
    label: dict[int, list[int]] = {v: [] for v in nodes}
    order: list[int] = []
    for step in range(len(nodes), 0, -1):
        v = max(label, key=lambda u: (label[u], rank[u]))
        del label[v]
        order.append(v)
        for w in adj[v]:
            if w in label:
                label[w].append(step)
    return order


def _forbidden_subgraph(A, comp: np.ndarray) -> str:
    G = to_networkx(A).subgraph(comp.tolist())
    for centre in G:
        for a, b, c in itertools.combinations(sorted(G[centre]), 3):
            if not (G.has_edge(a, b) or G.has_edge(a, c) or G.has_edge(b, c)):
                return f"it contains an induced claw K1,3 with centre {centre} and leaves {a}, {b}, {c}"
    if not nx.is_chordal(G):
        for cycle in nx.chordless_cycles(G):
            if len(cycle) >= 4:
                return f"it contains the chordless cycle {'-'.join(map(str, cycle))}"
    return "it contains an induced net or tent (3-sun)"


def umbrella_ordering(A) -> np.ndarray:
    """An umbrella ordering of the whole graph (components one after another).

    Raises :class:`NotUnitIntervalGraph` naming the offending component and, where one is
    found, a forbidden induced subgraph.
    """
    A = check_adjacency("A", A)
    adj = [set(np.flatnonzero(row).tolist()) for row in A]
    order: list[int] = []
    for comp in components(A):
        nodes = comp.tolist()
        sweep = _lbfs(adj, nodes, None)
        for _ in range(2):
            sweep = _lbfs(adj, nodes, sweep)
        sub = A[np.ix_(sweep, sweep)]
        if not is_umbrella_ordering(sub, np.arange(len(sweep))):
            shown = nodes if len(nodes) <= 12 else nodes[:12] + ["..."]
            raise NotUnitIntervalGraph(
                f"the graph is not a unit interval graph: the component with nodes {shown} has no "
                f"umbrella ordering; {_forbidden_subgraph(A, comp)}"
            )
        order.extend(sweep)
    return np.array(order, dtype=np.int64)


def is_unit_interval_graph(A) -> bool:
    try:
        umbrella_ordering(A)
    except NotUnitIntervalGraph:
        return False
    return True


def check_unit_interval_graph(A, order=None) -> np.ndarray:
    """Validate ``A`` as a UIG: cheaply against a known ``order`` (e.g. the arms sorted by mean),
    or by recognition. Returns the adjacency; raises :class:`NotUnitIntervalGraph` otherwise."""
    A = check_adjacency("A", A)
    if order is None:
        umbrella_ordering(A)
    elif not is_umbrella_ordering(A, order):
        raise NotUnitIntervalGraph(
            "the graph is not a unit interval graph in the order given: some closed neighbourhood "
            "is not a contiguous block of it"
        )
    return A


# --- partial revelation --------------------------------------------------------------------


def reveal(A, p_s, p_d, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    r"""Partial side information (S, D): each edge of ``A`` is revealed as type-S with
    probability ``p_s``, each non-edge as type-D with probability ``p_d``, independently.

    One uniform per pair decides both (the two sets are disjoint), so revelations for increasing
    probabilities from the same generator state are nested: a sweep over p is monotone.

    Example (everything revealed at p = 1):

    >>> import numpy as np
    >>> from bandit_lib.uig import reveal, similarity_graph
    >>> A = similarity_graph([0.1, 0.2, 0.5], 0.15)
    >>> S, D = reveal(A, 1.0, 1.0, np.random.default_rng(1))
    >>> bool((S == A).all()), D.astype(int).tolist()
    (True, [[0, 0, 1], [0, 0, 1], [1, 1, 0]])
    """
    A = check_adjacency("A", A)
    p_s = check_in_range("p_s", p_s, 0.0, 1.0, low_open=False, high_open=False)
    p_d = check_in_range("p_d", p_d, 0.0, 1.0, low_open=False, high_open=False)
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator (see bandit_lib.seeding.generator); got {rng!r}")
    U = np.triu(rng.random(A.shape), 1)
    U = U + U.T
    off = ~np.eye(len(A), dtype=bool)
    return A & (U < p_s), ~A & off & (U < p_d)


def check_side_information(S, D) -> tuple[np.ndarray, np.ndarray]:
    """Validate type-S and type-D adjacencies: each an adjacency matrix, same size, disjoint."""
    S = check_adjacency("S", S)
    D = check_adjacency("D", D)
    if S.shape != D.shape:
        raise ValueError(f"S and D must have the same shape; got {S.shape} and {D.shape}")
    both = S & D
    if both.any():
        i, j = (int(x) for x in np.argwhere(both)[0])
        raise ValueError(f"a pair cannot be both similar and dissimilar; got S[{i}, {j}] and D[{i}, {j}] both True")
    return S, D
