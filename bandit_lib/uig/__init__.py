"""UIG: regret minimisation on partially revealed unit interval graphs (Xu, Vakili, Zhao & Swami;
the chapter ``notebooks/uig``).

Problem and offline steps:

* :mod:`~bandit_lib.uig.problem` — unit interval graphs over the arms and their partial revelation;
* :mod:`~bandit_lib.uig.candidates` — candidate sets (the arms that can be optimal);
* :mod:`~bandit_lib.uig.domination` — exploration values of LSDT-PSI (LP P2);
* :mod:`~bandit_lib.uig.lower_bound` — the regret lower bound with complete side information (LP P1);
* :mod:`~bandit_lib.uig.theory` — the hypotheses of the paper's theorems, checked on an instance.

Policies (the select/update protocol of :mod:`~bandit_lib.uig.protocol`):

* :mod:`~bandit_lib.uig.lsdt_csi`, :mod:`~bandit_lib.uig.lsdt_psi`, :mod:`~bandit_lib.uig.lsdt_ts`
  — LSDT with complete and partial side information, and with Thompson sampling;
* :mod:`~bandit_lib.uig.ucb1`, :mod:`~bandit_lib.uig.ts` — UCB1 and Thompson sampling;
* :mod:`~bandit_lib.uig.ckl_ucb`, :mod:`~bandit_lib.uig.osub`, :mod:`~bandit_lib.uig.ossb` — the
  structured baselines.

Instances and data:

* :mod:`~bandit_lib.uig.instances` — random and designed instances;
* :mod:`~bandit_lib.uig.jester` — loader of Jester dataset 1; :mod:`~bandit_lib.uig.jester_like`
  its seeded stand-in; :mod:`~bandit_lib.uig.recommendation` — the joke-recommendation replay.

Chapter: :mod:`~bandit_lib.uig.experiments` (one module per figure group) and
:mod:`~bandit_lib.uig.report` (tables, figures and verdicts).
Short imports (each with an example in its docstring)::

    from bandit_lib.uig import (LSDTCSI, LSDTPSI, LSDTTSComplete, LSDTTSPartial, UCB1, ThompsonSampling,
                                CKLUCB, OSUB, OSSB, simulate, similarity_graph, reveal,
                                equivalence_classes, candidate_set_complete, eliminate_partial)
"""

from bandit_lib.uig.candidates import candidate_set_complete, eliminate_partial
from bandit_lib.uig.ckl_ucb import CKLUCB
from bandit_lib.uig.lsdt_csi import LSDTCSI
from bandit_lib.uig.lsdt_psi import LSDTPSI
from bandit_lib.uig.lsdt_ts import LSDTTSComplete, LSDTTSPartial
from bandit_lib.uig.ossb import OSSB
from bandit_lib.uig.osub import OSUB
from bandit_lib.uig.problem import equivalence_classes, reveal, similarity_graph
from bandit_lib.uig.protocol import simulate
from bandit_lib.uig.ts import ThompsonSampling
from bandit_lib.uig.ucb1 import UCB1

__all__ = [
    "LSDTCSI",
    "LSDTPSI",
    "LSDTTSComplete",
    "LSDTTSPartial",
    "UCB1",
    "ThompsonSampling",
    "CKLUCB",
    "OSUB",
    "OSSB",
    "simulate",
    "similarity_graph",
    "reveal",
    "equivalence_classes",
    "candidate_set_complete",
    "eliminate_partial",
]
