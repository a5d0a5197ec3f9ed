r"""The hypotheses of GOLD20's theorems, checked in code on the instances a theorem row uses.

A theorem is tested only on instances that satisfy its hypotheses (the book's verdict policy);
these functions say, instance by instance, which hypotheses hold, and :func:`hypotheses` turns
the checks over a set of instances into (name, holds, detail) triples, which
:func:`bandit_lib.gold20.report.hypotheses` makes the scorecard's ``Hypothesis`` objects (a
hypothesis holds for a row when it holds on every one of its instances).

The hypotheses, as the paper states or uses them:

* ``eps``: :math:`\varepsilon > e^{1/16} - 1`, so that :math:`b(\varepsilon) > 1` (§4.1; Theorem
  5.1, Lemmas 5.3-5.5 and Theorem 5.7 all rest on it);
* ``rho``: :math:`0.5 < \rho < 1` (§3, Theorem 5.1);
* ``bounded``: rewards bounded in an interval of length :math:`R` (§4.1, "Bounded Distribution";
  Bernoulli rewards lie in [0, 1], so :math:`R = 1` and every mean lies in [0, 1]);
* ``hoeffding``: the width is Hoeffding's, eq. (4): Lemma 5.2 (the good event :math:`\mathcal E`)
  is proved for it, and every later result uses :math:`\mathcal E`. The Bernoulli (Agresti–Coull)
  width of the experiments carries no guarantee;
* ``distinct``: the means are distinct (§3: "we assume that all arms have distinct expected
  rewards"); Theorem 5.7 divides by the smallest gap :math:`\hat\Delta`;
* ``group``: an :math:`(\varepsilon,\rho)`-outlier group exists (Theorem 5.1: "If an
  (ε, ρ)-outlier arm group exists in Ψ"; Lemmas 5.4-5.5 assume one), under the size test GOLD
  runs with (the proof needs the group's community to count as small; the reading is the
  chapter's, reproduction note N2);
* ``terminable``: a single arm is a small community (:math:`(1-\rho)n \ge 1` under the inclusive
  size test, :math:`> 1` under the strict one). Theorem 5.7's proof bounds the pull at which every
  pair is cut and so every arm is isolated; that ends GOLD only if an isolated arm is terminal.
  The paper leaves this implicit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from bandit_lib.checks import check_choice, check_positive, check_vector
from bandit_lib.gold20.problem import EPS_MIN, check_reading, label_groups, outlier_budget, small_limit

#: The name the scorecard prints for each hypothesis.
NAMES = {
    "eps": "ε > e^{1/16} − 1, so b(ε) > 1 (§4.1)",
    "rho": "0.5 < ρ < 1 (§3)",
    "bounded": "rewards bounded, range R = 1 (Bernoulli; §4.1, eq. (4))",
    "hoeffding": "Hoeffding width, eq. (4) (Lemma 5.2 is proved for it)",
    "distinct": "distinct means (§3)",
    "group": "an (ε, ρ)-outlier group exists, under GOLD's size test (Theorem 5.1)",
    "terminable": "a single arm is a small community, (1 − ρ)n ≥ 1 (implicit in Theorem 5.7's proof)",
}
#: The hypotheses of each result the chapter checks.
RESULTS = {
    "Theorem 5.1": ("eps", "rho", "bounded", "hoeffding", "distinct", "group"),
    "Lemma 5.3": ("eps", "bounded", "hoeffding", "distinct"),
    "Lemma 5.4": ("eps", "rho", "bounded", "hoeffding", "distinct", "group"),
    "Theorem 5.7": ("eps", "rho", "bounded", "hoeffding", "distinct", "terminable"),
}
WIDTHS = ("hoeffding", "bernoulli")


def instance_checks(y, eps: float, rho: float, *, width: str, reading: str = "inclusive", R: float = 1.0) -> dict:
    """Which hypotheses (see the module docstring) hold on the means ``y`` when GOLD runs with
    ``eps``, ``rho``, ``width``, ``reading`` and range ``R``: name -> bool."""
    y = check_vector("y", y, min_length=2)
    eps = check_positive("eps", eps)
    width = check_choice("width", width, WIDTHS)
    reading = check_reading(reading)
    R = check_positive("R", R)
    rho_ok = 0.5 < float(rho) < 1.0
    distinct = bool(len(np.unique(y)) == len(y))
    out = {
        "eps": bool(eps > EPS_MIN),
        "rho": rho_ok,
        "bounded": bool(R >= 1.0 and y.min() >= 0.0 and y.max() <= 1.0),
        "hoeffding": width == "hoeffding",
        "distinct": distinct,
        "group": False,
        "terminable": False,
    }
    if rho_ok:
        K = outlier_budget(len(y), rho)
        out["terminable"] = bool(small_limit(K, reading) >= 1)
        if distinct and out["eps"]:
            out["group"] = bool(len(label_groups(y, eps, rho, reading).groups) > 0)
    return out


def hypotheses(
    result: str, checks: Iterable[Mapping[str, bool]], what: str = "instances"
) -> list[tuple[str, bool, str]]:
    """The hypotheses of ``result`` (a key of :data:`RESULTS`) over a set of instances, each given
    by its :func:`instance_checks`: one (name, holds, detail) triple per hypothesis, holding when it
    holds on every instance (the detail counts them)."""
    result = check_choice("result", result, RESULTS)
    checks = list(checks)
    if not checks:
        raise ValueError(f"{result}: need the checks of at least one instance; got none")
    out = []
    for key in RESULTS[result]:
        ok = sum(bool(c[key]) for c in checks)
        out.append((NAMES[key], ok == len(checks), f"{ok} of {len(checks)} {what}"))
    return out
