"""Loader for crowdsourcing data in the SQUARE format (Sheshadri & Lease, HCOMP 2013).

ADE20's real-data experiment (its Fig. 3) uses the HyunCatherines data of the SQUARE benchmark:
each crowd worker is an arm whose mean is the worker's **error rate**, the fraction of the
worker's labels that differ from the gold answer. The book ships HCB (``data/raw/hcb``, MIT
licence) and draws Fig. 3 from it through this loader
(:func:`bandit_lib.ade20.instances.hcb_error_rates`).

Format (plain text, one record per line, fields separated by any whitespace):

* a **responses** file, one label per line. In the public SQUARE-2.0 copy of HCB
  (``utir/square-2.0``) the column order is ``question worker response`` (not the
  ``worker question response`` its README states; column 0 then has 3,275 distinct values and
  column 1 has 722): that is the default ``order``; pass ``order="worker question response"``
  for files in the README's order;
* a **gold** file, ``question gold`` per line.

Identifiers and labels are read as strings (``"1"`` and ``"01"`` are different labels). Every row
counts as one label, repeated (question, worker) rows included. A response whose question has no
gold answer cannot be scored: it is not counted in any error rate, and the result reports how
many there were and which workers had no scorable label at all (those workers get no arm).
Malformed lines raise an error naming the file, the line number and its content.

A copy of HCB loaded with :func:`worker_error_rates` should show: 722
workers, 3,275 questions, 19,699 labels all with gold; error rates with mean 0.32775, population
standard deviation 0.29241, 200 zeros, 63 ones and sum 236.636.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bandit_lib.checks import check_choice, check_int, check_text_file

ORDERS = ("question worker response", "worker question response")


@dataclass(frozen=True)
class CrowdErrorRates:
    """Per-worker error rates from a SQUARE responses file and its gold file."""

    workers: tuple[str, ...]
    error_rates: np.ndarray
    labels: np.ndarray
    errors: np.ndarray
    n_rows: int
    n_questions: int
    unscored_rows: int
    workers_without_gold: tuple[str, ...] = field(default=())
    workers_below_min_labels: tuple[str, ...] = field(default=())

    @property
    def n_workers(self) -> int:
        return len(self.workers)


def _is_number(field: str) -> bool:
    try:
        float(field)
        return True
    except ValueError:
        return False


def _refuse_header(path: Path, rows: list[tuple[str, ...]], first_line: str, what: str) -> None:
    """SQUARE files have no header; a first line of words above columns of numbers is one, and
    would silently become a fake worker or question."""
    if len(rows) < 2:
        return
    first, rest = rows[0], rows[1:]
    for c, value in enumerate(first):
        numeric = sum(_is_number(row[c]) for row in rest)
        if not _is_number(value) and numeric >= 0.9 * len(rest):
            raise ValueError(
                f"{path}:1: the first line {first_line!r} looks like a header (column {c + 1} holds "
                f"{value!r} above numbers); SQUARE {what} files have no header line: remove it"
            )


def _rows(path: Path, width: int, what: str) -> list[tuple[str, ...]]:
    text = check_text_file("path", path, what=f"SQUARE {what}")
    rows, first_line = [], None
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != width:
            raise ValueError(f"{path}:{number}: a {what} line needs {width} fields; got {len(fields)} in {line!r}")
        first_line = line if first_line is None else first_line
        rows.append(tuple(fields))
    if not rows:
        raise ValueError(f"{what} file {path} holds no records")
    _refuse_header(path, rows, first_line, what)
    return rows


def read_gold(path: str | Path) -> dict[str, str]:
    """``{question: gold label}`` from a SQUARE gold file; a question given two golds is an error."""
    path = Path(path)
    gold: dict[str, str] = {}
    for question, label in _rows(path, 2, "gold"):
        if gold.setdefault(question, label) != label:
            raise ValueError(f"{path}: question {question!r} has two gold labels, {gold[question]!r} and {label!r}")
    return gold


def read_responses(path: str | Path, *, order: str = ORDERS[0]) -> list[tuple[str, str, str]]:
    """``[(question, worker, response), ...]`` from a SQUARE responses file, in file order."""
    check_choice("order", order, ORDERS)
    rows = _rows(Path(path), 3, "responses")
    if order == ORDERS[0]:
        return rows
    return [(q, w, r) for w, q, r in rows]


def _check_questions_match_gold(responses, gold, rows, truth, order: str) -> None:
    """The question column of the responses must name the gold file's questions. If the worker
    column covers the gold questions better, the columns are swapped (the file is in the other
    ``order``; both columns may hold small integers, so it is coverage that tells them apart)."""
    questions = {q for q, _, _ in rows}
    workers = {w for _, w, _ in rows}
    cover_q = len(questions & truth.keys()) / len(truth)
    cover_w = len(workers & truth.keys()) / len(truth)
    if cover_w > 2 * cover_q and cover_w >= 0.5:
        other = ORDERS[1 - ORDERS.index(order)]
        raise ValueError(
            f"the columns of {responses} look swapped: its worker column names {cover_w:.0%} of the gold file's "
            f"questions and its question column only {cover_q:.0%} ({len(workers)} 'workers' for "
            f"{len(questions)} 'questions'); read it with order={other!r}"
        )
    if cover_q == 0:
        example = next(iter(truth))
        raise ValueError(
            f"the question ids of {responses} do not match the gold file {gold}: none of its {len(rows)} rows "
            f"names a question that has a gold answer (e.g. {rows[0][0]!r}; the gold file has e.g. {example!r})"
        )


def _sort_key(ident: str):
    return (0, int(ident), "") if ident.lstrip("-").isdigit() else (1, 0, ident)


def worker_error_rates(
    responses: str | Path, gold: str | Path, *, order: str = ORDERS[0], min_labels: int = 1
) -> CrowdErrorRates:
    """Each worker's error rate: labels that differ from gold over labels on gold questions.

    Workers are sorted by identifier (numerically when all are integers). Workers with fewer
    than ``min_labels`` scorable labels get no arm and are listed in ``workers_below_min_labels``.
    """
    min_labels = check_int("min_labels", min_labels, minimum=1)
    truth = read_gold(gold)
    rows = read_responses(responses, order=order)
    _check_questions_match_gold(responses, gold, rows, truth, order)
    labels: dict[str, int] = {}
    errors: dict[str, int] = {}
    seen: set[str] = set()
    unscored = 0
    for question, worker, response in rows:
        seen.add(worker)
        if question not in truth:
            unscored += 1
            continue
        labels[worker] = labels.get(worker, 0) + 1
        errors[worker] = errors.get(worker, 0) + (response != truth[question])
    without_gold = tuple(sorted(seen - labels.keys(), key=_sort_key))
    below = tuple(sorted((w for w, c in labels.items() if c < min_labels), key=_sort_key))
    kept = sorted((w for w, c in labels.items() if c >= min_labels), key=_sort_key)
    if not kept:
        raise ValueError(f"no worker has {min_labels} or more labels on gold questions in {responses}")
    lab = np.array([labels[w] for w in kept], dtype=np.int64)
    err = np.array([errors[w] for w in kept], dtype=np.int64)
    return CrowdErrorRates(
        workers=tuple(kept),
        error_rates=err / lab,
        labels=lab,
        errors=err,
        n_rows=len(rows),
        n_questions=len({q for q, _, _ in rows}),
        unscored_rows=unscored,
        workers_without_gold=without_gold,
        workers_below_min_labels=below,
    )


def write_square(directory: str | Path, labels, errors) -> tuple[Path, Path]:
    """Write ``responses.txt`` and ``gold.txt`` in the SQUARE format for given per-worker counts.

    Worker ``i`` (identifier ``i + 1``) answers ``labels[i]`` questions of its own, the first
    ``errors[i]`` of them wrongly (gold ``1``, response ``2``). Loading the files back with
    :func:`worker_error_rates` gives ``errors / labels``: the chapter uses this to run the stand-in
    through the same path a local copy of HCB takes.
    """
    labels = np.asarray(labels)
    errors = np.asarray(errors)
    if labels.ndim != 1 or labels.shape != errors.shape or labels.size == 0:
        raise ValueError(
            f"labels and errors must be vectors of the same length; got shapes {labels.shape} and {errors.shape}"
        )
    if not (np.issubdtype(labels.dtype, np.integer) and np.issubdtype(errors.dtype, np.integer)):
        raise TypeError(f"labels and errors must be integer counts; got dtypes {labels.dtype} and {errors.dtype}")
    bad = np.flatnonzero((labels < 1) | (errors < 0) | (errors > labels))
    if bad.size:
        i = int(bad[0])
        raise ValueError(
            f"need 1 <= labels[i] and 0 <= errors[i] <= labels[i]; got labels[{i}]={labels[i]}, errors[{i}]={errors[i]}"
        )
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    responses, gold = [], []
    question = 0
    for worker, (c, e) in enumerate(zip(labels.tolist(), errors.tolist()), start=1):
        for j in range(c):
            question += 1
            gold.append(f"{question} 1")
            responses.append(f"{question} {worker} {2 if j < e else 1}")
    paths = directory / "responses.txt", directory / "gold.txt"
    paths[0].write_text("\n".join(responses) + "\n")
    paths[1].write_text("\n".join(gold) + "\n")
    return paths
