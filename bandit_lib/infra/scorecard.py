"""The book's one scorecard format: a paper's claims, our numbers, and verdicts computed by stated rules.

Every chapter ends with a scorecard built here, so that all chapters read alike and a verdict is
never typed in:

* a :class:`Claim` is one row: the claim, what the paper reports, what we measured, the verdict,
  and the rule that turned our number into the verdict;
* where the verdict depends on a setting the paper does not state (an interval family, a rule
  for choosing k, a generator's margin), the claim gets one row per plausible ``reading`` and
  :func:`summary` gives the claim a *conditional* verdict ("reproduced under X; not reproduced
  under Y") when the readings disagree;
* ``inconclusive`` is the verdict of a claim whose evidence misses a calibration check (a
  stand-in that does not behave like the real data on a statistic the claim depends on): the
  claim is neither confirmed nor refuted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

import pandas as pd

REPRODUCED, PARTLY, NOT_REPRODUCED, INCONCLUSIVE = "reproduced", "partly", "not reproduced", "inconclusive"
VERDICTS = (REPRODUCED, PARTLY, NOT_REPRODUCED, INCONCLUSIVE)
#: The columns of every scorecard, in order.
COLUMNS = ("claim", "reading", "paper", "ours", "verdict", "rule")


def verdict(ok: bool, partly: bool = False, *, calibrated: bool = True) -> str:
    """``reproduced`` if ``ok``, else ``partly`` if ``partly``, else ``not reproduced``; and
    ``inconclusive`` whatever the numbers say when the evidence is not ``calibrated``."""
    if not calibrated:
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
    """One scorecard row. ``reading`` names the unstated setting the row assumes ('' if none)."""

    claim: str
    paper: str
    ours: str
    verdict: str
    rule: str
    reading: str = ""

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(
                f"verdict must be one of {VERDICTS}; got verdict={self.verdict!r} for claim {self.claim!r}"
            )
        for name in ("claim", "paper", "ours", "rule"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name).strip():
                raise ValueError(f"a claim's {name} must be a non-empty string; got {name}={getattr(self, name)!r}")


def scorecard(claims: Iterable[Claim]) -> pd.DataFrame:
    """The rows as a table with the columns :data:`COLUMNS` (``reading`` dropped if never used)."""
    claims = list(claims)
    if not claims:
        raise ValueError("a scorecard needs at least one claim; got none")
    bad = [c for c in claims if not isinstance(c, Claim)]
    if bad:
        raise TypeError(f"scorecard rows must be Claim objects; got {type(bad[0]).__name__}: {bad[0]!r}")
    frame = pd.DataFrame([asdict(c) for c in claims], columns=list(COLUMNS))
    return frame if frame["reading"].astype(bool).any() else frame.drop(columns="reading")


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
    return " / ".join(group)


def summary(card: pd.DataFrame) -> pd.DataFrame:
    """One row per claim (in first-appearance order): its readings' verdicts combined by :func:`overall`,
    and ``conditional`` telling whether the readings disagree."""
    readings = card["reading"] if "reading" in card else pd.Series([""] * len(card), index=card.index)
    rows = []
    for claim in dict.fromkeys(card["claim"]):
        mask = card["claim"] == claim
        verdicts, rs = list(card.loc[mask, "verdict"]), list(readings[mask])
        rows.append({"claim": claim, "verdict": overall(verdicts, rs), "conditional": len(set(verdicts)) > 1})
    return pd.DataFrame(rows)


def counts(card: pd.DataFrame) -> dict[str, int]:
    """How many claims got each verdict (a conditional claim counts as ``conditional``)."""
    table = summary(card)
    out = {v: int((table["verdict"] == v).sum()) for v in VERDICTS}
    out["conditional"] = int(table["conditional"].sum())
    return {k: v for k, v in out.items() if v}


def show(card: pd.DataFrame):
    """The table styled for the book (left-aligned text, no index)."""
    return card.style.hide(axis="index").set_properties(**{"text-align": "left"})
