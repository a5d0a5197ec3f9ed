"""The book's one scorecard format and its verdict policy: a paper's claims, our numbers, and
verdicts computed by stated rules.

Every chapter ends with a scorecard built here, so that all chapters read alike and a verdict is
never typed in. The rules every row follows are :data:`POLICY`; the book prints them on its
"How verdicts are given" page, and every scorecard links there.

* a :class:`Claim` is one row: the claim, what the paper reports, what we measured, the verdict,
  and the rule that turned our number into the verdict;
* where the verdict depends on a setting the paper *leaves open* (an interval family it never
  names, a rule for choosing k), the claim gets one row per plausible ``reading``, each naming in
  ``open_because`` the passage that leaves the setting open (or saying the paper is silent), and
  :func:`summary` gives the claim a *conditional* verdict ("reproduced under X; not reproduced
  under Y") when the readings disagree. A setting the paper states is applied, never read: its
  other values are ``role="sensitivity"`` rows that explain a verdict;
* rows with ``role="sensitivity"`` or ``role="extra"`` (the book's own ablations and checks) are
  shown but are not in the reproduced/partly/not-reproduced counts of the paper's claims;
* ``inconclusive`` is the verdict of a claim whose evidence cannot decide it: a stand-in outside
  its calibration gate (a :class:`Gate`, tested against a mis-calibration of its stand-in), an
  instance outside a theorem's hypotheses (a :class:`Hypothesis` checked in code), a check that
  cannot fail, or an algorithm or setting the book had to design itself; the row then names the
  experiment that would decide it (``to_decide``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import wraps
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

REPRODUCED, PARTLY, NOT_REPRODUCED, INCONCLUSIVE = "reproduced", "partly", "not reproduced", "inconclusive"
VERDICTS = (REPRODUCED, PARTLY, NOT_REPRODUCED, INCONCLUSIVE)
#: A row's role: a claim of the paper (counted), another value of a stated setting that explains
#: a verdict (shown, not counted), or a row of the book's own (an ablation, a check; not counted).
CLAIM, SENSITIVITY, EXTRA = "claim", "sensitivity", "extra"
ROLES = (CLAIM, SENSITIVITY, EXTRA)
#: The columns of every scorecard, in order (``conditions``: the gates, hypotheses and stated setting
#: a verdict rests on; ``to_decide``: for an inconclusive row, the experiment that would decide it).
COLUMNS = ("claim", "reading", "open_because", "paper", "ours", "verdict", "rule", "conditions", "to_decide", "role")
#: A claim about one of the paper's theorems: it must check the theorem's hypotheses on its instance.
THEOREM = re.compile(r"\b(Theorem|Lemma|Corollary|Proposition|Thm\.)s?\b")

#: The verdict policy: every row of every scorecard follows these rules (name, rule). The book's
#: page "How verdicts are given" prints them from here.
POLICY = (
    (
        "Verdicts",
        "*reproduced*: our number meets the row's stated rule; *partly*: it meets the rule's weaker "
        "stated form; *not reproduced*: it meets neither; *inconclusive*: the evidence cannot decide "
        "the claim (the rules below say when), and the row names the experiment that would decide it, "
        "or says why none is feasible here. A verdict is computed from the cached results by the rule "
        "printed in its row, never typed in.",
    ),
    (
        "Stated settings are applied, not read",
        "What the paper states (an interval family, a constant, a horizon) is the setting, quoted "
        "with its section. A *reading* exists only for a setting the paper leaves open, and each "
        "reading names the passage that leaves it open, or says the paper is silent. A claim whose "
        "readings disagree is *conditional* and counted apart. Other values of a stated setting are "
        "*sensitivity* rows, each quoting the statement: they explain a verdict and are not counted.",
    ),
    (
        "An inferred setting is a reading",
        "A setting inferred from the paper's reported results (a sentence describing a figure), or "
        "taken from another paper's convention, is a *reading*, not a stated setting: the rows with "
        "its other values are readings of the claim, not sensitivity rows, and the claim is "
        "conditional when they disagree.",
    ),
    (
        "A stand-in needs a calibration gate",
        "A claim judged on a stand-in (a generator imitating data we do not have) is decided only "
        "inside a calibration gate: a statistic of the stand-in beside what the paper (or the real "
        "data, where we have it) reports, with its source; outside the stated range the verdict is "
        "*inconclusive*. A stand-in whose parameters were changed so that an algorithm terminates or "
        "wins says so, and its claims are *inconclusive*.",
    ),
    (
        "A gate checks what the generator does not set",
        "A gate statistic is one the stand-in's generator does not set by construction and that "
        "bears on the claim: the drivers of the cost (the spread of the means, the gaps, the noise, "
        "the share of arms near the threshold). The size of the data, or any other input of the "
        "generator, calibrates nothing. Every gate is tested against a plausible mis-calibration of "
        "its stand-in (the generator with another spread or noise), which it must reject, so a gate "
        "that cannot fail cannot be written. Where no such statistic of the real data is published, "
        "the stand-in's claims are *inconclusive*.",
    ),
    (
        "A theorem is tested on instances that satisfy its hypotheses",
        "A theorem is a universal statement: any instance that satisfies its hypotheses is a valid "
        "test, the book's own instances included, and the row is then decisive. The hypotheses are "
        "checked in code on every instance a theorem row uses; an instance that violates them is "
        "reported as outside the theorem, never as evidence for or against it.",
    ),
    (
        "A check that cannot fail is inconclusive",
        "A bound that is vacuous over the measured range, or a comparison in which every observed "
        "value is 0 or every method hits its cap, cannot refute the claim, so it cannot confirm it.",
    ),
    (
        "A claim that holds by construction is inconclusive",
        "Where the measured statistic is fixed by how the instances were built, not by what the "
        "algorithm does (an algorithm that stops before it can find an outlier is right exactly on "
        "the instances generated without one; an intermediate arm that the generator never makes "
        "an outlier), the row says what fixes it and its verdict is *inconclusive*, in every "
        "chapter alike: the check would give the same answer for any algorithm.",
    ),
    (
        "A bounded missing part decides where every value of it agrees",
        "Where part of a claim's evidence cannot be obtained here (a data set we do not have) but is "
        "bounded (a saving or an accuracy is at most 1, a count at least 0), the claim is judged at "
        "both ends of that bound: if both give the same verdict, that is the verdict, whatever the "
        "missing part is; otherwise the claim is *inconclusive*. The row shows the bound and the "
        "verdict at each end.",
    ),
    (
        "The book's own designs are not the paper's",
        "Where the paper's algorithm or setting is unpublished and the book designed one, the row "
        "reports the result and the verdict is *inconclusive*, not *not reproduced*. This never "
        "applies to a theorem: the book choosing the instance does not make the theorem its design.",
    ),
    (
        "The paper's totals count the paper's claims",
        "Ablations, sensitivity rows and the book's own extra rows are shown (role *sensitivity* or "
        "*extra*) but are not in the reproduced / partly / not reproduced counts. The book's own "
        "chapters (foundations, arena) are counted apart from the five papers.",
    ),
    (
        "One name, one statistic",
        "A statistic that a rule uses is defined once and used the same way in the prose, the "
        "scorecard and the reproduction notes. A verdict drawn from fewer runs or cells than the "
        'paper used says so in its row ("3 of 10 runs").',
    ),
    (
        "Prose follows the results",
        "Every number and ordering the prose states is asserted against the results when the chapter "
        "runs at paper scale, so the text cannot drift from the numbers.",
    ),
)


# --- gates and hypotheses ------------------------------------------------------------------------


@dataclass(frozen=True)
class Gate:
    """A calibration gate of a stand-in: one statistic of the stand-in, how it is computed, and the
    range the paper (or the real data, where the book has it) puts it in, with its source.

    ``measure`` computes the statistic from whatever the chapter's stand-in is (an instance, a
    ratings matrix, a results table). ``standin`` builds an input the gate must pass: the chapter's
    stand-in where it is calibrated, else the real data (where the book has it) or a setting of the
    generator that meets the gate, which shows that the gate can be met at all. Every entry of
    ``miscalibrations`` builds a plausible mis-calibration (the generator with another spread, noise
    or rate; the chapter's own stand-in where it misses the gate), which the gate must reject.
    ``tests/test_gates.py`` runs them all (keep them small), so a gate whose statistic the generator
    sets by construction, which no mis-calibration can move, cannot be written. Gates are built by a
    factory registered with :func:`gate_factory`; a :class:`Claim` accepts only their results.
    """

    key: str
    statistic: str
    measure: Callable[[Any], float]
    low: float
    high: float
    paper: str
    source: str
    bears_on: str
    standin: Callable[[], Any]
    miscalibrations: Mapping[str, Callable[[], Any]]

    def __post_init__(self) -> None:
        for name in ("key", "statistic", "paper", "source", "bears_on"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"a gate's {name} must be a non-empty string; got {name}={value!r}")
        for name in ("measure", "standin"):
            if not callable(getattr(self, name)):
                raise TypeError(f"gate {self.key!r}: {name} must be callable; got {getattr(self, name)!r}")
        low, high = float(self.low), float(self.high)
        if not (low <= high) or np.isnan(low) or np.isnan(high):
            raise ValueError(f"gate {self.key!r}: need low <= high; got low={self.low!r}, high={self.high!r}")
        if not isinstance(self.miscalibrations, Mapping) or not self.miscalibrations:
            raise ValueError(
                f"gate {self.key!r} needs at least one mis-calibration of its stand-in that it must reject "
                f"(a gate that cannot fail calibrates nothing); got miscalibrations={self.miscalibrations!r}"
            )
        bad = [label for label, make in self.miscalibrations.items() if not callable(make)]
        if bad:
            raise TypeError(f"gate {self.key!r}: mis-calibration {bad[0]!r} must be a callable building a stand-in")

    def check(self, standin: Any) -> GateResult:
        """The gate on ``standin``: its statistic and whether it lies in ``[low, high]``."""
        value = float(self.measure(standin))
        passed = bool(np.isfinite(value) and self.low <= value <= self.high)
        return GateResult(self.key, self.statistic, value, float(self.low), float(self.high), passed)


@dataclass(frozen=True)
class GateResult:
    """A :class:`Gate` applied to the stand-in a claim was judged on."""

    key: str
    statistic: str
    value: float
    low: float
    high: float
    passed: bool

    def __str__(self) -> str:
        if self.key.startswith("ungated."):
            return f"no gate: {self.statistic}"
        mark = "in" if self.passed else "OUTSIDE"
        return f"gate: {self.statistic} {_g(self.value)} {mark} [{_g(self.low)}, {_g(self.high)}]"


def _g(x: float) -> str:
    return f"{x:.3g}"


#: The registered gate factories: key -> zero-argument function returning the gates of one stand-in.
GATE_FACTORIES: dict[str, Callable[[], Sequence[Gate]]] = {}


def gate_factory(key: str):
    """Register a function returning the gates of one stand-in under ``key`` (every gate's key starts
    with ``key + "."``). The chapter calls the function to judge its stand-in; the test suite calls
    every registered factory and checks each gate against its stand-in and mis-calibrations."""
    if not isinstance(key, str) or not key.strip() or key in GATE_FACTORIES:
        raise ValueError(f"a gate factory needs a new non-empty key; got {key!r}")

    def register(factory: Callable[[], Sequence[Gate]]):
        @wraps(factory)
        def gates() -> tuple[Gate, ...]:
            out = tuple(factory())
            if not out:
                raise ValueError(f"gate factory {key!r} returned no gate")
            for gate in out:
                if not isinstance(gate, Gate) or not gate.key.startswith(key + "."):
                    raise ValueError(
                        f"gate factory {key!r} returned {gate!r}: a Gate whose key starts with {key + '.'!r}"
                    )
            return out

        GATE_FACTORIES[key] = gates
        return gates

    return register


def _registered(result: GateResult) -> bool:
    return any(result.key.startswith(key + ".") for key in GATE_FACTORIES)


def ungated(statistic: str, reason: str) -> GateResult:
    """The gate result of a stand-in of whose real data no statistic that bears on the claim is
    published: it cannot be calibrated, so its claims are inconclusive. ``reason`` says what the
    paper reports and why none of it bears on the cost."""
    for name, value in (("statistic", statistic), ("reason", reason)):
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"ungated needs a non-empty {name}; got {value!r}")
    return GateResult(
        f"ungated.{statistic}", f"{statistic} ({reason})", float("nan"), float("nan"), float("nan"), False
    )


@dataclass(frozen=True)
class Hypothesis:
    """One hypothesis of a theorem, checked in code on the instance a theorem row uses: its name
    (with the paper's label, e.g. "Assumption 5: κ ≥ 2.79 at p = 0.8"), whether it holds, and the
    numbers that decided it."""

    name: str
    holds: bool
    detail: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"a hypothesis needs a name; got {self.name!r}")
        if not isinstance(self.holds, bool | np.bool_):
            raise TypeError(f"hypothesis {self.name!r}: holds must be a bool computed in code; got {self.holds!r}")

    def __str__(self) -> str:
        return f"{self.name}: {'holds' if self.holds else 'VIOLATED'}" + (f" ({self.detail})" if self.detail else "")


@dataclass(frozen=True)
class Bound:
    """A claim judged over a missing part of its evidence that is bounded (the POLICY's bound rule).

    ``missing`` names what cannot be obtained here ("the Twitter and Yahoo! savings"), ``low`` and
    ``high`` its range ("each saving ≤ 1"), and ``at_low`` / ``at_high`` the verdicts the claim gets
    with the missing part at each end (computed by the chapter from its own numbers). The row's
    verdict is the common one if they agree, else *inconclusive*: :attr:`verdict`."""

    missing: str
    low: float
    high: float
    at_low: str
    at_high: str

    def __post_init__(self) -> None:
        if not isinstance(self.missing, str) or not self.missing.strip():
            raise ValueError(f"a bound must name the missing part; got missing={self.missing!r}")
        low, high = float(self.low), float(self.high)
        if not (low <= high):
            raise ValueError(f"bound on {self.missing!r}: need low <= high; got low={self.low!r}, high={self.high!r}")
        for name in ("at_low", "at_high"):
            if getattr(self, name) not in VERDICTS:
                raise ValueError(
                    f"bound on {self.missing!r}: {name} must be one of {VERDICTS}; got {getattr(self, name)!r}"
                )

    @property
    def verdict(self) -> str:
        """The claim's verdict whatever the missing part is, or *inconclusive* where it matters."""
        return self.at_low if self.at_low == self.at_high else INCONCLUSIVE

    def __str__(self) -> str:
        agree = "the same verdict at both ends" if self.at_low == self.at_high else "different verdicts"
        return (
            f"bound: {self.missing} in [{_g(self.low)}, {_g(self.high)}] gives {self.at_low} at {_g(self.low)} "
            f"and {self.at_high} at {_g(self.high)} ({agree})"
        )


def verdict(
    ok: bool,
    partly: bool = False,
    *,
    gates: Sequence[GateResult] = (),
    hypotheses: Sequence[Hypothesis] = (),
    can_fail: bool = True,
    designed: bool = False,
) -> str:
    """``reproduced`` if ``ok``, else ``partly`` if ``partly``, else ``not reproduced``; and
    ``inconclusive`` whatever the numbers say when a stand-in fails one of its ``gates`` (or was
    never gated: :func:`ungated`), when the instance violates one of the theorem's ``hypotheses``
    (it is then outside the theorem, no test of it), when the check cannot fail (``can_fail`` False:
    a vacuous bound, all zeros, every method at its cap), or when the setting is the book's own
    design (``designed``; never for a theorem, whose instances are valid tests)."""
    gates, hypotheses = tuple(gates), tuple(hypotheses)
    for g in gates:
        if not isinstance(g, GateResult):
            raise TypeError(f"gates must be GateResult objects (Gate.check or ungated); got {g!r}")
    for h in hypotheses:
        if not isinstance(h, Hypothesis):
            raise TypeError(f"hypotheses must be Hypothesis objects; got {h!r}")
    if designed and hypotheses:
        raise ValueError(
            "a theorem row is decisive on any instance that satisfies its hypotheses: designed=True does not apply"
        )
    if not all(g.passed for g in gates) or not all(h.holds for h in hypotheses) or not can_fail or designed:
        return INCONCLUSIVE
    return REPRODUCED if ok else (PARTLY if partly else NOT_REPRODUCED)


def verdict_of_checks(checks: Sequence[bool], partly: bool | None = None) -> str:
    """``reproduced`` if every check holds; ``partly`` if some do (or as ``partly`` says); else not."""
    checks = [bool(c) for c in checks]
    if checks and all(checks):
        return REPRODUCED
    return PARTLY if (any(checks) if partly is None else partly) else NOT_REPRODUCED


@dataclass(frozen=True)
class Claim:
    """One scorecard row.

    ``reading`` names the value the row assumes for a setting the paper leaves open ('' if none),
    and ``open_because`` is then required: the passage that leaves it open (quoted, with its
    section) or "the paper is silent". ``role`` is :data:`CLAIM` for a claim of the paper,
    :data:`SENSITIVITY` for another value of a stated setting, :data:`EXTRA` for the book's own rows.
    ``headline`` marks a claim of the paper's abstract or conclusion (the "Verdicts at a glance"
    page lists those); it is not shown in the chapter's table.

    The policy's structural rules are enforced here, so that a row that breaks them cannot be built:

    * ``gates``: the :class:`GateResult` of every gate of the stand-in the row was judged on (from a
      registered :func:`gate_factory`, or :func:`ungated`); if one fails, the verdict must be
      *inconclusive*;
    * ``hypotheses``: a row about a theorem, lemma, corollary or proposition of the paper checks the
      result's hypotheses on its instance (:class:`Hypothesis`, computed in code); if one fails, the
      instance is outside the theorem and the verdict must be *inconclusive*;
    * ``stated``: a sensitivity row quotes the paper's statement of the setting it varies (with its
      section); a setting only inferred from results is a ``reading``, not a stated setting;
    * ``to_decide``: an *inconclusive* claim of the paper names the experiment that would decide it,
      or says in one sentence why none is feasible here (shown only while the row is inconclusive).
    """

    claim: str
    paper: str
    ours: str
    verdict: str
    rule: str
    reading: str = ""
    open_because: str = ""
    role: str = CLAIM
    headline: bool = False
    gates: tuple[GateResult, ...] = field(default=())
    hypotheses: tuple[Hypothesis, ...] = field(default=())
    stated: str = ""
    to_decide: str = ""
    by_construction: str = ""
    bound: Bound | None = None

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(
                f"verdict must be one of {VERDICTS}; got verdict={self.verdict!r} for claim {self.claim!r}"
            )
        if self.role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}; got role={self.role!r} for claim {self.claim!r}")
        if self.reading and not (isinstance(self.open_because, str) and self.open_because.strip()):
            raise ValueError(
                f"a reading needs open_because (the passage that leaves the setting open, or 'the paper is "
                f"silent'); got reading={self.reading!r} with open_because={self.open_because!r} for claim {self.claim!r}"
            )
        if self.headline and self.role != CLAIM:
            raise ValueError(
                f"only a claim of the paper can be a headline; got role={self.role!r} for claim {self.claim!r}"
            )
        if self.open_because and not self.reading:
            raise ValueError(
                f"open_because is only for a reading; got open_because={self.open_because!r} with no reading"
            )
        for name in ("claim", "paper", "ours", "rule"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name).strip():
                raise ValueError(f"a claim's {name} must be a non-empty string; got {name}={getattr(self, name)!r}")
        object.__setattr__(self, "gates", tuple(self.gates))
        object.__setattr__(self, "hypotheses", tuple(self.hypotheses))
        for g in self.gates:
            if not isinstance(g, GateResult):
                raise TypeError(f"gates must be GateResult objects; got {g!r} for claim {self.claim!r}")
            if not g.key.startswith("ungated.") and not _registered(g):
                raise ValueError(
                    f"gate {g.key!r} of claim {self.claim!r} comes from no registered gate factory "
                    "(bandit_lib.infra.scorecard.gate_factory): every gate must be tested against a mis-calibration"
                )
        for h in self.hypotheses:
            if not isinstance(h, Hypothesis):
                raise TypeError(f"hypotheses must be Hypothesis objects; got {h!r} for claim {self.claim!r}")
        broken = [str(g) for g in self.gates if not g.passed] + [str(h) for h in self.hypotheses if not h.holds]
        if broken and self.verdict != INCONCLUSIVE:
            raise ValueError(
                f"claim {self.claim!r} is {self.verdict!r} although {broken[0]}: a stand-in outside its gate or an "
                "instance outside the theorem's hypotheses is no evidence, the verdict must be inconclusive"
            )
        if self.role == CLAIM and THEOREM.search(self.claim) and not self.hypotheses:
            raise ValueError(
                f"claim {self.claim!r} is about a theorem: give the hypotheses checked on its instance (Hypothesis)"
            )
        if self.role == SENSITIVITY and not (isinstance(self.stated, str) and self.stated.strip()):
            raise ValueError(
                f"sensitivity row {self.claim!r} must quote the paper's statement of the setting it varies (stated=); "
                "a setting inferred from the results is a reading"
            )
        if self.role != SENSITIVITY and self.stated:
            raise ValueError(f"stated is for sensitivity rows; got stated={self.stated!r} on a {self.role} row")
        if not isinstance(self.by_construction, str):
            raise TypeError(f"by_construction must say what fixes the statistic; got {self.by_construction!r}")
        if self.by_construction.strip() and self.verdict != INCONCLUSIVE:
            raise ValueError(
                f"claim {self.claim!r} holds by construction ({self.by_construction}) and is {self.verdict!r}: "
                "a check that gives the same answer for any algorithm is inconclusive"
            )
        if self.bound is not None:
            if not isinstance(self.bound, Bound):
                raise TypeError(f"bound must be a Bound; got {self.bound!r} for claim {self.claim!r}")
            if self.verdict != self.bound.verdict:
                raise ValueError(
                    f"claim {self.claim!r} is {self.verdict!r}, but its bound decides it: {self.bound}; "
                    f"the verdict must be {self.bound.verdict!r}"
                )
        if (
            self.role == CLAIM
            and self.verdict == INCONCLUSIVE
            and not (isinstance(self.to_decide, str) and self.to_decide.strip())
        ):
            raise ValueError(
                f"inconclusive claim {self.claim!r} must say what experiment would decide it, or why none is "
                "feasible here (to_decide=)"
            )

    @property
    def conditions(self) -> str:
        """The gates, hypotheses, stated setting, bound and construction the verdict rests on, as
        one line."""
        parts = [str(g) for g in self.gates] + [str(h) for h in self.hypotheses]
        if self.stated:
            parts.append(f"stated: {self.stated}")
        if self.bound is not None:
            parts.append(str(self.bound))
        if self.by_construction:
            parts.append(f"holds by construction: {self.by_construction}")
        return "; ".join(parts)


def scorecard(claims: Iterable[Claim]) -> pd.DataFrame:
    """The rows as a table with the columns :data:`COLUMNS` (``reading`` dropped if never used)."""
    claims = list(claims)
    if not claims:
        raise ValueError("a scorecard needs at least one claim; got none")
    bad = [c for c in claims if not isinstance(c, Claim)]
    if bad:
        raise TypeError(f"scorecard rows must be Claim objects; got {type(bad[0]).__name__}: {bad[0]!r}")
    frame = pd.DataFrame(
        [
            {
                **{name: getattr(c, name) for name in COLUMNS if name not in ("conditions", "to_decide")},
                "conditions": c.conditions,
                "to_decide": c.to_decide if c.verdict == INCONCLUSIVE else "",
            }
            for c in claims
        ],
        columns=list(COLUMNS),
    )
    frame.attrs["headlines"] = list(dict.fromkeys(c.claim for c in claims if c.headline))
    if not frame["reading"].astype(bool).any():
        frame = frame.drop(columns=["reading", "open_because"])
    for name in ("conditions", "to_decide"):
        if not frame[name].astype(bool).any():
            frame = frame.drop(columns=name)
    if (frame["role"] == CLAIM).all():
        frame = frame.drop(columns="role")
    return frame


def overall(verdicts: Sequence[str], readings: Sequence[str]) -> str:
    """One claim's verdict over its readings: the common verdict, or a conditional one."""
    if len(set(verdicts)) == 1:
        return verdicts[0]
    by_verdict: dict[str, list[str]] = {}
    for v, r in zip(verdicts, readings):
        by_verdict.setdefault(v, []).append(r or "the default reading")
    every = [r or "the default reading" for r in readings]
    return "; ".join(
        f"{v} under {_readings_label(rs, every)}"
        for v, rs in sorted(by_verdict.items(), key=lambda kv: VERDICTS.index(kv[0]))
    )


def _readings_label(group: list[str], every: list[str]) -> str:
    """The readings of one verdict, shortened when a reading is a combination of settings ("A, B"):
    if the group is exactly the readings sharing some settings, those settings name it
    ("Hoeffding intervals (all 3 readings)"); otherwise every reading is listed."""
    parts = [r.split(", ") for r in group]
    common = [p for p in parts[0] if all(p in q for q in parts[1:])]
    if len(group) > 1 and common:
        peers = [r for r in every if all(p in r.split(", ") for p in common)]
        if len(peers) == len(group):
            return f"{', '.join(common)} (all {len(group)} readings)"
    cover = _cover(group, every)
    return " / ".join(cover) if len(cover) < len(group) else " / ".join(group)


def _cover(group: list[str], every: list[str]) -> list[str]:
    """The readings of ``group`` named by as few shared settings as possible: each item is a set of
    settings all of whose readings (in ``every``) are in the group ("target Δmin (all 4 readings)"),
    or a reading alone; chosen greedily, the most readings first, without overlap where possible."""
    from itertools import combinations

    members, split = set(group), {r: r.split(", ") for r in every}
    candidates = {}
    for r in group:
        for size in range(1, len(split[r])):
            for subset in combinations(split[r], size):
                peers = frozenset(q for q in every if all(p in split[q] for p in subset))
                if len(peers) > 1 and peers <= members:
                    candidates.setdefault(peers, subset)
    out, left = [], [r for r in every if r in members]
    while left:
        best = max(
            candidates.items(),
            key=lambda kv: (len(kv[0] & set(left)), kv[0] <= set(left), -len(kv[1])),
            default=None,
        )
        if best is None or len(best[0] & set(left)) < 2 or not best[0] <= set(left):
            out.append(left.pop(0))
            continue
        peers, subset = best
        out.append(f"{', '.join(subset)} (all {len(peers)} readings)")
        left = [r for r in left if r not in peers]
    return out


def paper_claims(card: pd.DataFrame) -> pd.DataFrame:
    """The rows that are claims of the paper (``role`` :data:`CLAIM`), without sensitivity and extra rows."""
    return card[card["role"] == CLAIM] if "role" in card else card


def summary(card: pd.DataFrame, *, everything: bool = False) -> pd.DataFrame:
    """One row per claim of the paper (in first-appearance order; with ``everything``, the
    sensitivity and extra rows too, with their ``role``): its readings' verdicts combined by
    :func:`overall`, and ``conditional`` telling whether the readings disagree."""
    if not everything:
        card = paper_claims(card)
    readings = card["reading"] if "reading" in card else pd.Series([""] * len(card), index=card.index)
    roles = card["role"] if "role" in card else pd.Series([CLAIM] * len(card), index=card.index)
    rows = []
    for claim, role in dict.fromkeys(zip(card["claim"], roles)):
        mask = (card["claim"] == claim) & (roles == role)
        verdicts, rs = list(card.loc[mask, "verdict"]), list(readings[mask])
        row = {"claim": claim, "verdict": overall(verdicts, rs), "conditional": len(set(verdicts)) > 1}
        if everything:
            row["role"] = role
        rows.append(row)
    return pd.DataFrame(rows, columns=["claim", "verdict", "conditional", *(["role"] if everything else [])])


def counts(card: pd.DataFrame) -> dict[str, int]:
    """How many of the paper's claims got each verdict (a conditional claim counts as
    ``conditional``); sensitivity and extra rows are not counted."""
    table = summary(card)
    out = {v: int((table["verdict"] == v).sum()) for v in VERDICTS}
    out["conditional"] = int(table["conditional"].sum())
    return {k: v for k, v in out.items() if v}


#: The chapters on the five papers, and the book's own chapters (whose rows are the book's claims,
#: counted apart: the policy's totals are over the papers only).
PAPERS = {"zhuang17": "ZHUANG17", "ade20": "ADE20", "gold20": "GOLD20", "uig": "UIG", "grapl20": "GRAPL20"}
BOOK_CHAPTERS = {"foundations": "Foundations (the book's own checks)", "arena": "Arena (the book's own)"}


def verdict_counts(cards: Mapping[str, pd.DataFrame], names: Mapping[str, str], *, total: bool = False) -> pd.DataFrame:
    """One row per chapter of ``cards`` (in the order of ``names``, which gives each chapter's label):
    how many of its claims got each verdict, how many are conditional, the number of claims and the
    shares that are inconclusive and conditional (the claims without a single verdict); with
    ``total``, a last row summing the chapters."""
    missing = [key for key in names if key not in cards]
    if missing:
        raise ValueError(f"no scorecard for chapter(s) {missing}; got {sorted(cards)}")
    rows = []
    for key, label in names.items():
        c = counts(cards[key])
        rows.append(
            {
                "chapter": label,
                **{v: c.get(v, 0) for v in (*VERDICTS, "conditional")},
                "claims": len(summary(cards[key])),
            }
        )
    frame = pd.DataFrame(rows, columns=["chapter", *VERDICTS, "conditional", "claims"])
    if total:
        frame.loc[len(frame)] = ["all papers", *frame[[*VERDICTS, "conditional", "claims"]].sum()]
    claims = frame["claims"].where(frame["claims"] > 0)
    for name in (INCONCLUSIVE, "conditional"):
        frame[f"share {name}"] = (frame[name] / claims).map(lambda x: "—" if pd.isna(x) else f"{x:.0%}")
    return frame


def show(card: pd.DataFrame):
    """The table styled for the book (left-aligned text, no index, cells HTML-escaped so that a
    quoted "<" or "&" prints as written)."""
    return card.style.hide(axis="index").format(escape="html").set_properties(**{"text-align": "left"})


# --- the verdicts page ---------------------------------------------------------------------------
#: Environment variable naming the folder where chapters publish their scorecards while the book
#: builds (the Makefile sets it); unset, :func:`publish` writes nothing.
PUBLISH_ENV = "BANDIT_SCORECARDS"


# --- the register of settings the chapters share --------------------------------------------------
#: How a chapter treats a setting: the paper states it and the chapter applies it; states it and the
#: chapter also shows other values as sensitivity rows; leaves it open, and the chapter's claims get
#: one row per reading; or the paper has nothing to state and the book designed it.
STATED, STATED_SENSITIVITY, READING, DESIGNED = (
    "stated",
    "stated, with sensitivity rows",
    "reading",
    "the book's design",
)
#: The treatments a :class:`Setting` may have.
TREATMENTS = (STATED, STATED_SENSITIVITY, READING, DESIGNED)


@dataclass(frozen=True)
class Setting:
    """One setting a chapter's verdicts rest on, as the register of the verdicts page shows it.

    ``name`` is the setting's name across chapters ("interval family and R", "pull cap", "run
    count", ...), ``treatment`` one of :data:`TREATMENTS`, ``value`` what the chapter uses, and
    ``source`` the paper's words with their section (for a stated setting), or the passage that
    leaves it open, or "the paper is silent". Where parallel sentences of two papers get different
    treatments, ``why`` says why (:func:`register_problems` asks for it)."""

    name: str
    treatment: str
    value: str
    source: str
    why: str = ""

    def __post_init__(self) -> None:
        for field_name in ("name", "value", "source"):
            value = getattr(self, field_name)
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"a setting's {field_name} must be a non-empty string; got {field_name}={value!r}")
        if self.treatment not in TREATMENTS:
            raise ValueError(f"setting {self.name!r}: treatment must be one of {TREATMENTS}; got {self.treatment!r}")
        if not isinstance(self.why, str):
            raise TypeError(f"setting {self.name!r}: why must be a string; got {self.why!r}")


def register(settings: Mapping[str, Sequence[Setting]], names: Mapping[str, str]) -> pd.DataFrame:
    """The settings that appear in more than one chapter: one row per (setting, chapter) with its
    treatment, value, source and reason, sorted by setting then by the chapters' order."""
    rows = []
    for key, label in names.items():
        for setting in settings.get(key, ()):
            if not isinstance(setting, Setting):
                raise TypeError(f"chapter {key!r}: settings must be Setting objects; got {setting!r}")
            rows.append(
                {
                    "setting": setting.name,
                    "chapter": label,
                    "treatment": setting.treatment,
                    "value": setting.value,
                    "source": setting.source,
                    "why": setting.why,
                }
            )
    frame = pd.DataFrame(rows, columns=["setting", "chapter", "treatment", "value", "source", "why"])
    shared = (
        frame.groupby("setting")["chapter"].transform("nunique") > 1 if len(frame) else frame["setting"].astype(bool)
    )
    order = {label: i for i, label in enumerate(names.values())}
    frame = frame[shared].assign(_order=lambda d: d["chapter"].map(order))
    return frame.sort_values(["setting", "_order"], kind="stable").drop(columns="_order").reset_index(drop=True)


def register_problems(table: pd.DataFrame) -> list[str]:
    """Shared settings with two treatments where no chapter says why (the POLICY: parallel sentences
    get the same treatment, or the register says why not)."""
    problems = []
    for name, group in table.groupby("setting", sort=False):
        if group["treatment"].nunique() > 1 and not group["why"].astype(bool).any():
            seen = "; ".join(f"{c}: {t}" for c, t in zip(group["chapter"], group["treatment"]))
            problems.append(f"the setting {name!r} has two treatments and no reason: {seen}")
    return problems


def publish(card: pd.DataFrame, chapter: str, settings: Sequence[Setting] = ()) -> Path | None:
    """Save ``card`` (a :func:`scorecard`) as ``<$BANDIT_SCORECARDS>/<chapter>.json`` for the book's
    "Verdicts at a glance" page, with the chapter's ``settings`` for its register, and return the
    path; nothing when the variable is unset (a chapter run outside the book build) or the profile
    is not ``full`` (quick runs are not the book's numbers)."""
    from bandit_lib.infra.profiles import current_profile
    from bandit_lib.infra.store import check_key

    check_key("chapter", chapter)
    if not isinstance(card, pd.DataFrame) or "verdict" not in card:
        raise TypeError(f"card must be a scorecard DataFrame; got {type(card).__name__}")
    settings = list(settings)
    bad = [x for x in settings if not isinstance(x, Setting)]
    if bad:
        raise TypeError(f"settings must be Setting objects; got {bad[0]!r}")
    folder = os.environ.get(PUBLISH_ENV)
    if not folder or current_profile() != "full":
        return None
    path = Path(folder) / f"{chapter}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "chapter": chapter,
        "rows": card.to_dict(orient="records"),
        "headlines": list(card.attrs.get("headlines", [])),
        "settings": [asdict(x) for x in settings],
    }
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    return path


def load_published(chapter: str, folder: Path | str | None = None) -> pd.DataFrame:
    """The scorecard a chapter published (see :func:`publish`), with its headlines in ``attrs``."""
    folder = folder or os.environ.get(PUBLISH_ENV)
    if not folder:
        raise RuntimeError(f"no scorecard folder: set {PUBLISH_ENV} (make book does)")
    path = Path(folder) / f"{chapter}.json"
    if not path.is_file():
        raise FileNotFoundError(
            f"chapter {chapter!r} published no scorecard at {path}: the chapter must run (in the full profile) "
            "before the verdicts page; `make book` runs it"
        )
    data = json.loads(path.read_text())
    frame = pd.DataFrame(data["rows"])
    frame.attrs["headlines"] = data["headlines"]
    frame.attrs["settings"] = [Setting(**x) for x in data.get("settings", [])]
    return frame
