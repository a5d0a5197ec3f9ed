r"""The hypotheses of ZHUANG17's Theorems 1-3, checked in code on an instance (the book's verdict
policy: a theorem row checks them on every instance it uses, and an instance that violates one is
outside the theorem, never evidence).

* **Theorem 1** (correctness, §4.1): with probability :math:`1-\delta`, a run that *terminates with
  no active arm* returns :math:`\Omega`. It needs intervals that are valid at level
  :math:`\delta'(T)` (Eq. 1); the book checks it with the intervals of §4.3 for rewards bounded in an
  interval of length R (Hoeffding, McDiarmid), which are valid when every reward lies in an interval
  of length at most R. Bernoulli rewards lie in [0, 1]: R must be at least 1. The problem (§3)
  defines an arm as an outlier iff :math:`y_i > \theta` and normal iff :math:`y_i < \theta`, so no
  arm may sit on the threshold. Capped runs did not terminate with no active arm: outside.
* **Theorems 2 and 3** (pulls, §4.1-4.2): the same bounded rewards and intervals, a finite
  :math:`H_1` (every gap positive), and for WRR a weight :math:`\rho \ge 1`.

:func:`theorem_hypotheses` returns them for one instance; :func:`combine` joins those of several
instances into one :class:`~bandit_lib.infra.scorecard.Hypothesis` per name. :func:`bound_can_fail`
says whether a bound can be exceeded at all before the cap stops a run (a bound at or above the
cap is vacuous: no run can exceed it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from bandit_lib.checks import check_open_unit, check_positive, check_vector
from bandit_lib.infra.scorecard import Hypothesis
from bandit_lib.ksigma import ksigma_gaps

#: The range of a Bernoulli reward (every reward of every experiment of the chapter is Bernoulli).
BERNOULLI_RANGE = 1.0
THEOREMS = ("Theorem 1", "Theorem 2", "Theorem 3")


def theorem_hypotheses(
    theorem: str,
    y,
    k: float,
    delta: float,
    *,
    R: float,
    reward_range: float = BERNOULLI_RANGE,
    rho: float | None = None,
    capped_runs: int = 0,
) -> tuple[Hypothesis, ...]:
    """The hypotheses of ``theorem`` ("Theorem 1", "Theorem 2" or "Theorem 3") on the instance with
    means ``y``, run with the bounded-reward intervals of range ``R`` on rewards whose range is
    ``reward_range``; ``rho`` is WRR's weight (Theorem 3), ``capped_runs`` how many runs on the
    instance reached the cap (Theorem 1 covers only runs that terminate with no active arm)."""
    if theorem not in THEOREMS:
        raise ValueError(f"theorem must be one of {THEOREMS}; got theorem={theorem!r}")
    y = check_vector("y", y, min_length=2)
    check_open_unit("delta", delta)  # delta outside (0, 1) is an error, not an instance outside the theorem
    R = check_positive("R", R)
    reward_range = check_positive("reward_range", reward_range)
    gap = float(ksigma_gaps(y, k).min())
    out = [
        Hypothesis(
            "§4.3: rewards in an interval of length $R$ (Hoeffding, McDiarmid)",
            bool(reward_range <= R),
            f"reward range {reward_range:g}, intervals for $R = {R:g}$",
        ),
        Hypothesis(
            "§3: no arm on the threshold ($\\Delta_{\\min} > 0$)", bool(gap > 0), f"$\\Delta_{{\\min}} = {gap:.3g}$"
        ),
    ]
    if theorem == "Theorem 1":
        capped_runs = int(capped_runs)
        if capped_runs < 0:
            raise ValueError(f"capped_runs must be >= 0; got capped_runs={capped_runs!r}")
        out.append(
            Hypothesis(
                "Theorem 1: the run terminates with no active arm (not at the cap)",
                capped_runs == 0,
                f"{capped_runs} capped run(s)",
            )
        )
    if theorem == "Theorem 3":
        if rho is None:
            raise ValueError("Theorem 3 needs WRR's weight rho; got rho=None")
        out.append(Hypothesis("Theorem 3: ρ ≥ 1", bool(rho >= 1), f"ρ = {rho:.3g}"))
    return tuple(out)


def combine(per_instance: Iterable[Sequence[Hypothesis]], label: str = "instance") -> tuple[Hypothesis, ...]:
    """One hypothesis per name over several instances: it holds iff it holds on every one; the
    detail says on how many it holds (and gives the first violation)."""
    groups: dict[str, list[Hypothesis]] = {}
    for hyps in per_instance:
        for h in hyps:
            if not isinstance(h, Hypothesis):
                raise TypeError(f"expected Hypothesis objects; got {h!r}")
            groups.setdefault(h.name, []).append(h)
    if not groups:
        raise ValueError("combine needs the hypotheses of at least one instance; got none")
    out = []
    for name, hs in groups.items():
        bad = [h for h in hs if not h.holds]
        detail = (
            f"holds on all {len(hs)} {label}s"
            if not bad
            else f"violated on {len(bad)} of {len(hs)} {label}s, e.g. {bad[0].detail}"
        )
        out.append(Hypothesis(name, not bad, detail))
    return tuple(out)


def bound_can_fail(bounds, cap: float) -> bool:
    """Whether a run could exceed every one of ``bounds`` before the ``cap`` stops it: a bound at
    or above the cap is vacuous (every run ends at or below the cap)."""
    bounds = np.asarray(check_vector("bounds", bounds, min_length=1), dtype=float)
    cap = check_positive("cap", cap)
    return bool((bounds < cap).all())
