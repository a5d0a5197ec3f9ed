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
  its calibration gate, a check that cannot fail, or a setting the book had to design itself.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import pandas as pd

REPRODUCED, PARTLY, NOT_REPRODUCED, INCONCLUSIVE = "reproduced", "partly", "not reproduced", "inconclusive"
VERDICTS = (REPRODUCED, PARTLY, NOT_REPRODUCED, INCONCLUSIVE)
#: A row's role: a claim of the paper (counted), another value of a stated setting that explains
#: a verdict (shown, not counted), or a row of the book's own (an ablation, a check; not counted).
CLAIM, SENSITIVITY, EXTRA = "claim", "sensitivity", "extra"
ROLES = (CLAIM, SENSITIVITY, EXTRA)
#: The columns of every scorecard, in order.
COLUMNS = ("claim", "reading", "open_because", "paper", "ours", "verdict", "rule", "role")

#: The verdict policy: every row of every scorecard follows these rules (name, rule). The book's
#: page "How verdicts are given" prints them from here.
POLICY = (
    (
        "Verdicts",
        "*reproduced*: our number meets the row's stated rule; *partly*: it meets the rule's weaker "
        "stated form; *not reproduced*: it meets neither; *inconclusive*: the evidence cannot decide "
        "the claim (the rules below say when). A verdict is computed from the cached results by the "
        "rule printed in its row, never typed in.",
    ),
    (
        "Stated settings are applied, not read",
        "What the paper states (an interval family, a constant, a horizon) is the setting, quoted "
        "with its section. A *reading* exists only for a setting the paper leaves open, and each "
        "reading names the passage that leaves it open, or says the paper is silent. A claim whose "
        "readings disagree is *conditional* and counted apart. Other values of a stated setting are "
        "*sensitivity* rows: they explain a verdict and are not counted.",
    ),
    (
        "A stand-in needs a calibration gate",
        "A claim judged on a stand-in (a generator imitating data we do not have) states a statistic "
        "of the stand-in beside what the paper reports of its real data; outside the stated range the "
        "verdict is *inconclusive*. A stand-in whose parameters were changed so that an algorithm "
        "terminates or wins says so, and its claims are *inconclusive*.",
    ),
    (
        "A check that cannot fail is inconclusive",
        "A bound that is vacuous over the measured range, or a comparison in which every observed "
        "value is 0 or every method hits its cap, cannot refute the claim, so it cannot confirm it.",
    ),
    (
        "The book's own designs are not the paper's",
        "Where the paper's algorithm or setting is unpublished and the book designed one, the row "
        "reports the result and the verdict is *inconclusive*, not *not reproduced*.",
    ),
    (
        "The paper's totals count the paper's claims",
        "Ablations, sensitivity rows and the book's own extra rows are shown (role *sensitivity* or "
        "*extra*) but are not in the reproduced / partly / not reproduced counts.",
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


def verdict(
    ok: bool, partly: bool = False, *, calibrated: bool = True, can_fail: bool = True, designed: bool = False
) -> str:
    """``reproduced`` if ``ok``, else ``partly`` if ``partly``, else ``not reproduced``; and
    ``inconclusive`` whatever the numbers say when the evidence is not ``calibrated`` (a stand-in
    outside its gate), when the check cannot fail (``can_fail`` False: a vacuous bound, all zeros,
    every method at its cap), or when the setting is the book's own design (``designed``)."""
    if not calibrated or not can_fail or designed:
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


def scorecard(claims: Iterable[Claim]) -> pd.DataFrame:
    """The rows as a table with the columns :data:`COLUMNS` (``reading`` dropped if never used)."""
    claims = list(claims)
    if not claims:
        raise ValueError("a scorecard needs at least one claim; got none")
    bad = [c for c in claims if not isinstance(c, Claim)]
    if bad:
        raise TypeError(f"scorecard rows must be Claim objects; got {type(bad[0]).__name__}: {bad[0]!r}")
    frame = pd.DataFrame([asdict(c) for c in claims], columns=list(COLUMNS))
    frame.attrs["headlines"] = list(dict.fromkeys(c.claim for c in claims if c.headline))
    if not frame["reading"].astype(bool).any():
        frame = frame.drop(columns=["reading", "open_because"])
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
    return " / ".join(group)


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


def show(card: pd.DataFrame):
    """The table styled for the book (left-aligned text, no index, cells HTML-escaped so that a
    quoted "<" or "&" prints as written)."""
    return card.style.hide(axis="index").format(escape="html").set_properties(**{"text-align": "left"})


# --- the verdicts page ---------------------------------------------------------------------------
#: Environment variable naming the folder where chapters publish their scorecards while the book
#: builds (the Makefile sets it); unset, :func:`publish` writes nothing.
PUBLISH_ENV = "BANDIT_SCORECARDS"


def publish(card: pd.DataFrame, chapter: str) -> Path | None:
    """Save ``card`` (a :func:`scorecard`) as ``<$BANDIT_SCORECARDS>/<chapter>.json`` for the book's
    "Verdicts at a glance" page, and return the path; nothing when the variable is unset (a chapter
    run outside the book build) or the profile is not ``full`` (quick runs are not the book's
    numbers)."""
    from bandit_lib.infra.profiles import current_profile
    from bandit_lib.infra.store import check_key

    check_key("chapter", chapter)
    if not isinstance(card, pd.DataFrame) or "verdict" not in card:
        raise TypeError(f"card must be a scorecard DataFrame; got {type(card).__name__}")
    folder = os.environ.get(PUBLISH_ENV)
    if not folder or current_profile() != "full":
        return None
    path = Path(folder) / f"{chapter}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "chapter": chapter,
        "rows": card.to_dict(orient="records"),
        "headlines": list(card.attrs.get("headlines", [])),
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
    return frame
