r"""Instances of the UIG chapter: random arms with their similarity graph and side information,
and the designed instances of the theory checks.

* :func:`random_instance`: means i.i.d. uniform on [low, high], the similarity graph at ε, its
  candidate set and classes (CSI-OFF, checked in mean order), and, given p, a random revelation
  (S, D) with its PSI-OFF set B0 and exploration values z.
* :func:`line_instance`: a top class of given means, a connector, evenly spread middle arms and a
  bottom arm, so that the candidate set stays the same as K grows (Theorem 2 checks).
* :func:`clustered_instance`: m clusters of N arms at means 0.1 + 0.7 ε k (k = 0..m-1),
  consecutive clusters similar and clusters two apart not (Assumptions 3 and 4; Theorem 5 checks).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bandit_lib.checks import check_in_range, check_int, check_nonnegative, check_positive, check_vector
from bandit_lib.uig.candidates import candidate_classes, candidate_set_complete, eliminate_partial
from bandit_lib.uig.domination import exploration_values
from bandit_lib.uig.problem import components, reveal, similarity_graph
from bandit_lib.uig.protocol import check_generator


@dataclass
class UIGInstance:
    """Means, the similarity graph A at eps, the candidate set B* and its classes; with partial
    side information also S, D, B0 and z (over B0)."""

    means: np.ndarray
    eps: float
    A: np.ndarray
    candidates: np.ndarray
    classes: list[np.ndarray]
    S: np.ndarray | None = None
    D: np.ndarray | None = None
    B0: np.ndarray | None = None
    z: np.ndarray | None = None
    info: dict = field(default_factory=dict)

    @property
    def n_arms(self) -> int:
        return len(self.means)

    @property
    def best(self) -> int:
        return int(np.argmax(self.means))

    def summary(self) -> dict:
        out = {
            "K": self.n_arms,
            "B*": len(self.candidates),
            "classes": len(self.classes),
            "components": len(components(self.A)),
            "best in B*": bool(self.best in self.candidates),
        }
        if self.B0 is not None:
            out.update({"B0": len(self.B0), "C2": float(self.z.sum()), "best in B0": bool(self.best in self.B0)})
        return out


def instance_from_means(
    means, eps: float, *, p: float | None = None, rng: np.random.Generator | None = None, with_z: bool = True
) -> UIGInstance:
    """Graph, candidate set and classes of ``means`` at ``eps``; with ``p``, a revelation from ``rng``."""
    means = check_vector("means", means)
    eps = check_nonnegative("eps", eps)
    A = similarity_graph(means, eps)
    B = candidate_set_complete(A, order=np.argsort(means, kind="stable"))
    inst = UIGInstance(means, eps, A, B, candidate_classes(A, B))
    if p is not None:
        p = check_in_range("p", p, 0.0, 1.0, low_open=False, high_open=False)
        inst.S, inst.D = reveal(A, p, p, check_generator(rng))
        inst.B0 = eliminate_partial(inst.S, inst.D)
        if with_z:
            inst.z = exploration_values(inst.S[np.ix_(inst.B0, inst.B0)])
    return inst


def random_instance(
    rng: np.random.Generator,
    K: int,
    eps: float,
    *,
    low: float = 0.0,
    high: float = 1.0,
    p: float | None = None,
    with_z: bool = True,
) -> UIGInstance:
    """Means uniform on [low, high] (drawn first), then the revelation at ``p`` (if given)."""
    rng = check_generator(rng)
    K = check_int("K", K, minimum=1)
    means = rng.uniform(low, high, K)
    return instance_from_means(means, eps, p=p, rng=rng, with_z=with_z)


def line_instance(
    K: int, *, top=(1.0, 0.9), connector: float = 0.75, middle_high: float = 0.6, bottom: float = 0.0
) -> np.ndarray:
    """Means: the ``top`` arms, a ``connector`` arm, then K - len(top) - 1 arms evenly spread on
    [bottom, middle_high]. With eps = 0.3 the top arms form the top class (the connector is
    similar to both, the middle arms to neither), the bottom arm is the bottom class alone, and
    the graph is connected: ``|B*|`` = len(top) + 1 whatever K."""
    top = check_vector("top", top)
    K = check_int("K", K, minimum=len(top) + 3)
    middle = np.linspace(middle_high, bottom, K - len(top) - 1)
    return np.concatenate([top, [connector], middle])


def clustered_instance(m: int, N: int, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """(means, cluster of each arm): m clusters of N equal means 0.1 + 0.7 eps k."""
    m = check_int("m", m, minimum=2)
    N = check_int("N", N, minimum=1)
    eps = check_positive("eps", eps)
    cluster = np.repeat(np.arange(m), N)
    return 0.1 + 0.7 * eps * cluster, cluster
