"""How a scorecard reads in the book: a table that fits its column, verdicts as coloured badges,
math rendered, and the detail of every row one click away.

:mod:`bandit_lib.infra.scorecard` decides the verdicts; this module only draws them. Every chapter
(and the verdicts page) uses the same four views, so that they read alike:

* :func:`answer` — the chapter's opening: its headline claims (those of the paper's abstract or
  conclusion) with their verdicts (what the paper says and what we measured folded under each),
  under one sentence of counts. The chapter computes its scorecard at the end and glues this view to its first screen;
* :func:`claims` — one line per claim of the paper with its verdict (the scorecard at a glance);
* :func:`rows` — every row (claims, readings, sensitivity and extra rows) in four columns (claim,
  paper, ours, verdict); the rule, the reading and the passage that leaves it open, the conditions
  (gates, hypotheses, stated setting) and what would decide an inconclusive row open under each
  claim. Sensitivity and the book's own rows follow in a table of their own, folded;
* :func:`counts_sentence` — the counts in words ("8 claims of the paper: 4 reproduced, 2 partly, 2
  not reproduced; 1 of them conditional").

Text is HTML-escaped (a quoted ``<`` or ``&`` prints as written), and ``$...$`` in a cell is typeset
by MathJax (the tables carry the class MathJax processes). A verdict that depends on a reading
("reproduced under X; partly under Y") shows a *conditional* badge with each reading's badge.
"""

from __future__ import annotations

import html
import re

import pandas as pd

from bandit_lib.infra.scorecard import (
    CLAIM,
    EXTRA,
    INCONCLUSIVE,
    NOT_REPRODUCED,
    PARTLY,
    REPRODUCED,
    SENSITIVITY,
    VERDICTS,
    counts,
    summary,
)

#: The CSS class of every view (book/_static/tables.css styles them; tools/check_book.py finds them).
CSS_CLASS = "scorecard"
#: The class MathJax typesets inside (the book's pages otherwise ignore math in cell outputs).
MATH_CLASS = "tex2jax_process"
#: The class of the chapter's opening (tools/check_book.py checks it is on the first screen).
ANSWER_CLASS = "chapter-answer"
#: A verdict badge's class suffix per verdict.
BADGE = {REPRODUCED: "reproduced", PARTLY: "partly", NOT_REPRODUCED: "not-reproduced", INCONCLUSIVE: "inconclusive"}
_CONDITIONAL = re.compile(r"(reproduced|partly|not reproduced|inconclusive) under ")
_MATH = re.compile(r"\$([^$\n]+?)\$")


class Html(str):
    """An HTML fragment that a notebook displays as HTML (and MyST-NB's ``glue`` can paste)."""

    def _repr_html_(self) -> str:
        return str(self)


def text(value) -> str:
    """``value`` as cell text: HTML-escaped, with ``$...$`` turned into MathJax's inline ``\\(...\\)``."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return ""
    escaped = html.escape(str(value), quote=False)
    return _MATH.sub(lambda m: r"\(" + m.group(1) + r"\)", escaped)


def _is_conditional(verdict: str) -> bool:
    return verdict not in VERDICTS


def badge(verdict: str) -> str:
    """The verdict as a coloured badge; a conditional verdict as a *conditional* badge followed by
    each reading's badge and the readings it holds under."""
    if not isinstance(verdict, str) or not verdict.strip():
        raise ValueError(f"a verdict must be a non-empty string; got {verdict!r}")
    if not _is_conditional(verdict):
        return f'<span class="verdict verdict-{BADGE[verdict]}">{verdict}</span>'
    parts = [p.strip() for p in verdict.split("; ")]
    lines = []
    for part in parts:
        m = _CONDITIONAL.match(part)
        if not m:
            raise ValueError(f"not a verdict nor a conditional verdict ('<verdict> under <reading>; ...'): {verdict!r}")
        lines.append(
            f'<span class="verdict verdict-{BADGE[m.group(1)]}">{m.group(1)}</span> under {text(part[m.end() :])}'
        )
    return (
        '<span class="verdict verdict-conditional">conditional</span><span class="readings">'
        + "<br>".join(lines)
        + "</span>"
    )


def counts_sentence(card: pd.DataFrame, *, what: str = "claims of the paper") -> str:
    """The counts of :func:`bandit_lib.infra.scorecard.counts` in words."""
    c = counts(card)
    total = len(summary(card))
    if not total:
        return f"No {what}: every row is the book's own or a sensitivity row."
    parts = [f"{c[v]} {v}" for v in VERDICTS if c.get(v)]
    noun = what.replace("claims", "claim", 1) if total == 1 else what
    sentence = f"{total} {noun}: " + ", ".join(parts)
    if c.get("conditional"):
        verb = "depends" if c["conditional"] == 1 else "depend"
        sentence += f"; {c['conditional']} of them {verb} on a reading (conditional)"
    return sentence + "."


def _table(head: list[str], body: list[list[str]], widths: list[int], extra_class: str = "") -> str:
    cols = "".join(f'<col style="width:{w}%">' for w in widths)
    th = "".join(f"<th>{h}</th>" for h in head)
    tr = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in body)
    classes = " ".join(c for c in (CSS_CLASS, extra_class) if c)
    return (
        f'<table class="{classes}"><colgroup>{cols}</colgroup><thead><tr>{th}</tr></thead><tbody>{tr}</tbody></table>'
    )


def _wrap(inner: str, extra_class: str = "") -> Html:
    classes = " ".join(c for c in (f"{CSS_CLASS}-view", MATH_CLASS, extra_class) if c)
    return Html(f'<div class="{classes}">{inner}</div>')


def _field(card: pd.DataFrame, row, name: str) -> str:
    return str(row[name]) if name in card and isinstance(row[name], str) else ""


def _details(card: pd.DataFrame, row) -> str:
    """The rule, reading, conditions and what would decide the row, folded under its claim."""
    items = [("Rule", _field(card, row, "rule"))]
    if _field(card, row, "reading"):
        items.append(("Reading", _field(card, row, "reading")))
        items.append(("Open because", _field(card, row, "open_because")))
    if _field(card, row, "conditions"):
        items.append(("Rests on", _field(card, row, "conditions")))
    if _field(card, row, "to_decide"):
        items.append(("Would decide it", _field(card, row, "to_decide")))
    dl = "".join(f"<dt>{name}</dt><dd>{text(value)}</dd>" for name, value in items if value)
    return f'<details class="row-detail"><summary>why</summary><dl>{dl}</dl></details>'


def _claim_cell(card: pd.DataFrame, row) -> str:
    reading = _field(card, row, "reading")
    label = f'<div class="reading">reading: {text(reading)}</div>' if reading else ""
    return f"{text(row['claim'])}{label}{_details(card, row)}"


def rows(card: pd.DataFrame) -> Html:
    """Every row of ``card`` (a :func:`bandit_lib.infra.scorecard.scorecard`): the paper's claims in
    one table, sensitivity and the book's own rows in a second one, folded."""
    roles = card["role"] if "role" in card else pd.Series([CLAIM] * len(card), index=card.index)
    head = ["Claim", "Paper", "Ours", "Verdict"]
    widths = [40, 20, 26, 14]

    def body(mask) -> list[list[str]]:
        return [
            [_claim_cell(card, row), text(row["paper"]), text(row["ours"]), badge(row["verdict"])]
            for _, row in card[mask].iterrows()
        ]

    parts = []
    claims_mask = roles == CLAIM
    if claims_mask.any():
        parts.append(_table(head, body(claims_mask), widths))
    others = roles != CLAIM
    if others.any():
        n_sens, n_extra = int((roles == SENSITIVITY).sum()), int((roles == EXTRA).sum())
        what = " and ".join(
            s
            for s in (
                f"{n_sens} sensitivity row{'s' * (n_sens != 1)}" if n_sens else "",
                f"{n_extra} row{'s' * (n_extra != 1)} of the book's own" if n_extra else "",
            )
            if s
        )
        table = _table(head, body(others), widths)
        if claims_mask.any():
            parts.append(f'<details class="more-rows"><summary>{what} (not counted)</summary>{table}</details>')
        else:
            parts.append(table)
    return _wrap("".join(parts))


def claims(card: pd.DataFrame, *, what: str = "claims of the paper") -> Html:
    """One line per claim of the paper (its readings' verdicts combined), under the counts in words."""
    table = summary(card)
    head = ["Claim", "Verdict"]
    body = [[text(r.claim), badge(r.verdict)] for r in table.itertuples()]
    sentence = f'<p class="counts">{text(counts_sentence(card, what=what))}</p>'
    return _wrap(sentence + (_table(head, body, [68, 32]) if body else ""))


def answer(card: pd.DataFrame, *, show: list[str] | None = None, what: str = "claims of the paper") -> Html:
    """The chapter's opening: its headline claims (``card.attrs["headlines"]``, or the rows named in
    ``show``, for a chapter of the book's own) with the paper's number, ours and the verdict, under
    the counts in words. A claim with several readings shows its combined verdict and the numbers
    of its first reading."""
    names = list(card.attrs.get("headlines", [])) if show is None else list(show)
    if not names:
        raise ValueError(
            "the scorecard names no headline claim (Claim(..., headline=True)) and no row was named in show=: "
            "the answer has nothing to show"
        )
    verdicts = summary(card, everything=True).drop_duplicates("claim").set_index("claim")["verdict"]
    missing = [name for name in names if name not in verdicts.index]
    if missing:
        raise ValueError(f"{missing[0]!r} is not a claim of the scorecard; its claims are {list(verdicts.index)}")
    body = []
    for name in names:
        first = card[card["claim"] == name].iloc[0]
        numbers = (
            '<details class="row-detail"><summary>paper · ours</summary><dl>'
            f"<dt>Paper</dt><dd>{text(first['paper'])}</dd><dt>Ours</dt><dd>{text(first['ours'])}</dd></dl></details>"
        )
        body.append([text(name) + numbers, badge(verdicts[name])])
    head = ["Headline claim" if show is None else "Claim", "Verdict"]
    sentence = f'<p class="counts">{text(counts_sentence(card, what=what))}</p>'
    return _wrap(sentence + _table(head, body, [72, 28]), "answer-table")


_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


def result_line(cards: dict[str, pd.DataFrame], papers: dict[str, str]) -> str:
    """The book's result in one sentence, from the chapters' scorecards (the README and the
    introduction print it; ``make check-book`` fails when they drift from the built book)."""
    from bandit_lib.infra.scorecard import verdict_counts

    total = verdict_counts(cards, papers, total=True).iloc[-1]
    return (
        f"Of the {int(total['claims'])} claims of the {_WORDS.get(len(papers), len(papers))} papers, {int(total[REPRODUCED])} reproduced, "
        f"{int(total[PARTLY])} partly, {int(total[NOT_REPRODUCED])} did not reproduce, {int(total[INCONCLUSIVE])} "
        f"are inconclusive and {int(total['conditional'])} depend on a setting the paper leaves open."
    )


def headlines(cards: dict[str, pd.DataFrame], names: dict[str, str]) -> Html:
    """Every chapter's headline claims with their verdicts, one table (the verdicts page)."""
    body = []
    for key, label in names.items():
        card = cards[key]
        verdicts = summary(card).set_index("claim")["verdict"]
        for claim in card.attrs.get("headlines", []):
            body.append([text(label), text(claim), badge(verdicts[claim])])
    return _wrap(_table(["Chapter", "Headline claim", "Verdict"], body, [16, 56, 28]))


def register(table: pd.DataFrame) -> Html:
    """The register of shared settings (:func:`bandit_lib.infra.scorecard.register`): one row per
    setting and chapter, the paper's words and any reason folded under the value."""
    body = []
    for row in table.itertuples():
        items = [("Source", row.source)] + ([("Why it differs", row.why)] if row.why else [])
        dl = "".join(f"<dt>{name}</dt><dd>{text(value)}</dd>" for name, value in items)
        detail = f'<details class="row-detail"><summary>source</summary><dl>{dl}</dl></details>'
        body.append([text(row.setting), text(row.chapter), text(row.treatment), text(row.value) + detail])
    return _wrap(_table(["Setting", "Chapter", "Treatment", "Value"], body, [22, 14, 22, 42]))
