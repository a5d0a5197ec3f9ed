r"""Candidate sets: the arms that can be optimal under some means consistent with the side
information (the offline step of LSDT).

* :func:`candidate_set_complete` (CSI-OFF): with the whole graph revealed, the candidate set
  :math:`\mathcal B^*` is the set of *left anchors* (nodes that can be the leftmost interval of
  a unit interval model). Per connected component: a clique contributes all its nodes;
  otherwise two breadth-first searches find them (Corneil, Kim, Natarajan, Olariu and Sprague
  1995, Prop. 2.1 and Thm 2.3):

  1. BFS from the smallest node r; let L be the last level; keep the nodes of L of minimum degree;
  2. BFS again from the smallest kept node a; add the nodes of minimum degree of its last level.

  :func:`candidate_set_complete_nx` is the same algorithm written with networkx (the reference
  the tests compare against), :func:`candidate_set_theorem1` the paper's Theorem 1:
  :math:`\mathcal B^* = C(i_{\max}) \cup C(i_{\min})` per component, where :math:`C(i)` is the
  neighbourhood-equivalence class of i.
* :func:`eliminate_partial` (PSI-OFF): with partial side information, remove every arm that is
  similar to two mutually dissimilar arms (Proposition 1); the rest is :math:`\mathcal B_0`.
* :func:`candidate_set_exact` computes the exact candidate set :math:`\mathcal B` under partial
  information (NP-hard in general, Theorem 4) by a pruned search over vertex orderings; it is for
  small graphs (tests and the toy figure). :math:`\mathcal B^* \subseteq \mathcal B \subseteq \mathcal B_0`.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from bandit_lib.checks import check_int
from bandit_lib.uig.problem import (
    bfs_levels,
    check_adjacency,
    check_side_information,
    check_unit_interval_graph,
    closed_neighbourhoods,
    components,
    equivalence_classes,
    is_clique,
    similarity_graph,
)

# --- complete side information -------------------------------------------------------------


def _two_bfs(sub: np.ndarray) -> np.ndarray:
    """Left anchors of a connected, non-complete UIG (local node ids)."""
    degree = sub.sum(axis=1)
    last = bfs_levels(sub, 0)[-1]
    anchors = last[degree[last] == degree[last].min()]
    last = bfs_levels(sub, int(anchors[0]))[-1]
    return np.union1d(anchors, last[degree[last] == degree[last].min()])


def candidate_set_complete(A, *, order=None, check: bool = True) -> np.ndarray:
    """CSI-OFF: the candidate set (left anchors) of a unit interval graph, sorted.

    The graph is first checked to be a UIG (a :class:`~bandit_lib.uig.problem.NotUnitIntervalGraph`
    error otherwise): against ``order`` when given (cheap; e.g. ``np.argsort(means)``), by
    recognition when not. ``check=False`` skips this for callers that have just checked.

    Example (a path of seven arms: the two ends and the isolated best arm can be optimal):

    >>> from bandit_lib.uig import candidate_set_complete, similarity_graph
    >>> A = similarity_graph([0.1, 0.2, 0.3, 0.45, 0.6, 0.7, 0.9], 0.16)
    >>> candidate_set_complete(A).tolist()
    [0, 5, 6]
    """
    A = check_unit_interval_graph(A, order) if check else check_adjacency("A", A)
    out = []
    for comp in components(A):
        if is_clique(A, comp):
            out.append(comp)
        else:
            out.append(comp[_two_bfs(A[np.ix_(comp, comp)])])
    return np.sort(np.concatenate(out))


def candidate_set_complete_nx(G: nx.Graph) -> list[int]:
    """CSI-OFF written with networkx (BFS layers, degrees, components); nodes must be sortable."""
    out: set[int] = set()
    for comp in nx.connected_components(G):
        H = G.subgraph(comp)
        n = H.number_of_nodes()
        if H.number_of_edges() == n * (n - 1) // 2:
            out |= set(comp)
            continue
        last = list(nx.bfs_layers(H, min(comp)))[-1]
        low = min(H.degree[v] for v in last)
        anchors = sorted(v for v in last if H.degree[v] == low)
        last = list(nx.bfs_layers(H, anchors[0]))[-1]
        low = min(H.degree[v] for v in last)
        out |= set(anchors) | {v for v in last if H.degree[v] == low}
    return sorted(out)


def candidate_set_theorem1(A, means) -> np.ndarray:
    r"""Theorem 1 per component: :math:`C(i_{\max}) \cup C(i_{\min})` (a clique: all of it)."""
    A = check_adjacency("A", A)
    means = np.asarray(means, dtype=np.float64)
    closed = closed_neighbourhoods(A)
    out = []
    for comp in components(A):
        top = comp[np.argmax(means[comp])]
        bottom = comp[np.argmin(means[comp])]
        for end in (top, bottom):
            out.append(comp[(closed[comp] == closed[end]).all(axis=1)])
    return np.unique(np.concatenate(out))


def candidate_classes(A, candidates) -> list[np.ndarray]:
    """The candidate set split into neighbourhood-equivalence classes (at most 2 per component)."""
    return equivalence_classes(A, candidates)


def candidate_set_from_means(means, eps) -> tuple[np.ndarray, list[np.ndarray]]:
    """Similarity graph of ``means`` at ``eps``, then CSI-OFF (checked in mean order): (B*, classes)."""
    A = similarity_graph(means, eps)
    B = candidate_set_complete(A, order=np.argsort(means, kind="stable"))
    return B, candidate_classes(A, B)


# --- partial side information --------------------------------------------------------------


def eliminate_partial(S, D) -> np.ndarray:
    """PSI-OFF: arms not similar to two mutually dissimilar arms (the set B0), sorted.

    ``M[i, k] = #{j : S[i, j] and D[j, k]}``; arm i is eliminated when ``M[i, k] > 0`` for some
    S-neighbour k of i.

    Example (the arms of :func:`candidate_set_complete`'s example, 80 % of the pairs revealed):

    >>> import numpy as np
    >>> from bandit_lib.uig import eliminate_partial, reveal, similarity_graph
    >>> A = similarity_graph([0.1, 0.2, 0.3, 0.45, 0.6, 0.7, 0.9], 0.16)
    >>> eliminate_partial(*reveal(A, 0.8, 0.8, np.random.default_rng(1))).tolist()
    [0, 1, 5, 6]
    """
    S, D = check_side_information(S, D)
    M = S.astype(np.int64) @ D.astype(np.int64)  # integer counts: exact (numpy's integer product uses no BLAS)
    return np.flatnonzero(~((M > 0) & S).any(axis=1))


def simplicial_vertices(A) -> np.ndarray:
    """Vertices whose closed neighbourhood is a clique (PSI-OFF's output when p = 1)."""
    A = check_adjacency("A", A)
    return np.array(
        [v for v in range(len(A)) if is_clique(A, np.flatnonzero(closed_neighbourhoods(A)[v]))], dtype=np.int64
    )


def _feasible_prefix(order: list[int], rest: set[int], S: np.ndarray, D: np.ndarray) -> bool:
    """Whether a partial vertex order (positions 0..p-1) can still be completed.

    ``reach[b]`` is a lower bound on the furthest position adjacent to position b in the smallest
    umbrella graph containing S: its furthest S-neighbour placed so far, or beyond the prefix when
    it has an S-neighbour still to place; the closure holds every pair (b, d) with
    ``b < d <= max(reach[:b+1])``. Reaches only grow as vertices are added, so a D pair inside
    the closure of a prefix rules out every completion.
    """
    p = len(order)
    furthest = 0
    for b, u in enumerate(order):
        reach = b
        for d in range(b + 1, p):
            if S[u, order[d]]:
                reach = d
        if any(S[u, w] for w in rest):
            reach = p
        furthest = max(furthest, reach)
        for d in range(b + 1, min(furthest, p - 1) + 1):
            if D[u, order[d]]:
                return False
    return True


def _complete(order: list[int], rest: set[int], S: np.ndarray, D: np.ndarray) -> bool:
    if not _feasible_prefix(order, rest, S, D):
        return False
    if not rest:
        return True
    for v in sorted(rest):
        order.append(v)
        rest.discard(v)
        if _complete(order, rest, S, D):
            return True
        order.pop()
        rest.add(v)
    return False


def can_be_left_anchor(S, D, i: int) -> bool:
    """Whether some UIG sandwiched between S and the complement of D has ``i`` as a left anchor.

    A vertex order is feasible when the smallest umbrella graph containing S in that order (pairs
    (b, d) with d at most the furthest S-neighbour position of any a <= b) contains no D pair;
    ``i`` is a left anchor iff some feasible order starts with it. The search places vertices left
    to right and prunes as soon as a D pair is forced inside the closure.
    """
    S, D = check_side_information(S, D)
    i = check_int("i", i, minimum=0, maximum=len(S) - 1)
    return _complete([i], set(range(len(S))) - {i}, S, D)


def candidate_set_exact(S, D, *, max_arms: int = 14) -> np.ndarray:
    """The exact candidate set B under partial information (exponential time; small graphs)."""
    S, D = check_side_information(S, D)
    if len(S) > max_arms:
        raise ValueError(f"candidate_set_exact is exponential; got {len(S)} arms > max_arms={max_arms}")
    return np.array([i for i in range(len(S)) if can_be_left_anchor(S, D, i)], dtype=np.int64)


def candidate_set_by_permutations(S, D, *, max_arms: int = 7) -> np.ndarray:
    """The exact candidate set by enumerating every vertex order (the tests' slow oracle)."""
    import itertools

    S, D = check_side_information(S, D)
    n = len(S)
    if n > max_arms:
        raise ValueError(f"candidate_set_by_permutations enumerates {n}! orders; got {n} arms > max_arms={max_arms}")
    found: set[int] = set()
    for perm in itertools.permutations(range(n)):
        P = np.array(perm)
        Sp, Dp = S[np.ix_(P, P)], D[np.ix_(P, P)]
        reach = np.array([max([c for c in range(a, n) if Sp[a, c]], default=a) for a in range(n)])
        reach = np.maximum.accumulate(reach)
        pos = np.arange(n)
        closure = (pos[None, :] > pos[:, None]) & (pos[None, :] <= reach[:, None])
        if not (closure & Dp).any():
            found.add(perm[0])
    return np.array(sorted(found), dtype=np.int64)
