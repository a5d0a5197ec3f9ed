"""Zachary's karate club (real data shipped with networkx) as a thresholding graph bandit.

34 members, 78 friendships weighted by the number of contexts in which the two interacted
(networkx's ``weight``); the signal is the faction each member joined after the split:
μ = 1 for "Officer", 0 for "Mr. Hi". Used in the GRAPL20 chapter as a small real-data companion
of the political-blogs experiment (same parameters, noise-free labels, T = N).
"""

from __future__ import annotations

import networkx as nx
import numpy as np


def karate_club() -> tuple[nx.Graph, np.ndarray]:
    """``(graph, means)``: the weighted karate club graph and its 0/1 faction labels."""
    graph = nx.karate_club_graph()
    means = np.array([1.0 if graph.nodes[v]["club"] == "Officer" else 0.0 for v in graph.nodes])
    return graph, means
