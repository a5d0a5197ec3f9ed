r"""Loader for the Jester joke ratings (Goldberg, Roeder, Gupta and Perkins 2001), dataset 1.

The UIG paper's recommendation experiment uses "100 jokes and 25K users": Jester dataset 1,
part 1 (``jester-data-1.xls``: 24,983 users who rated 36 or more jokes), from
http://eigentaste.berkeley.edu/dataset/. The data cannot be downloaded here and is not shipped;
this module reads a local copy.

Format (one row per user, no header): the first column is the number of jokes the user rated,
the next 100 columns the ratings of jokes 1..100, real numbers in [-10, 10], with the code
``99`` for "not rated". :func:`load_jester` reads

* a CSV export of that sheet (comma-, semicolon- or tab-separated; what
  ``pandas.read_excel(...).to_csv(index=False, header=False)`` writes), or
* the original ``.xls``/``.xlsx`` when pandas has an Excel engine installed (``xlrd`` /
  ``openpyxl``; neither is a dependency of this project, so convert to CSV otherwise),

and returns a float array of shape (users, jokes) with NaN where a joke was not rated. Every row is
checked: the right number of columns, ratings in [-10, 10] or exactly 99, and the count column
equal to the number of ratings; an error names the file, the row and the column.
:func:`jester_summary` gives the statistics to compare with the published description.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from bandit_lib.checks import check_int, check_text_file

NOT_RATED = 99.0
LOW, HIGH = -10.0, 10.0


def _delimiter(lines: list[str]) -> str:
    """The separator of a text export: the one of ``, ; tab`` that splits the first lines into the
    same number of fields, the most fields (a real-size row is over 500 characters, so a fixed-size
    sample would cut it: whole lines are compared)."""
    sample = [line for line in lines[:20] if line.strip()]
    best, best_width = ",", 1
    for delimiter in (",", ";", "\t"):
        widths = {len(line.split(delimiter)) for line in sample}
        if len(widths) == 1 and (width := widths.pop()) > best_width:
            best, best_width = delimiter, width
    return best


def _rows_from_text(path: Path) -> list[list[str]]:
    lines = check_text_file("path", path, what="Jester ratings").splitlines()
    delimiter = _delimiter(lines)
    return [row for row in csv.reader(lines, delimiter=delimiter) if any(cell.strip() for cell in row)]


def _rows_from_excel(path: Path) -> list[list[str]]:
    import pandas as pd

    if not path.is_file():
        raise FileNotFoundError(f"no Jester ratings file at path={str(path)!r}")
    engine = "xlrd" if path.suffix.lower() == ".xls" else "openpyxl"
    try:
        frame = pd.read_excel(path, header=None, engine=engine)
    except ImportError as exc:
        raise ImportError(
            f"reading {path.name} needs an Excel engine for pandas (xlrd for .xls, openpyxl for .xlsx), which "
            f"this project does not install; convert the sheet to CSV (no header) and load that instead"
        ) from exc
    return [[str(v) for v in row] for row in frame.itertuples(index=False)]


def load_jester(path, *, n_jokes: int = 100) -> np.ndarray:
    """Ratings of a Jester dataset-1 file: shape (users, n_jokes), NaN where not rated."""
    path = Path(path)
    n_jokes = check_int("n_jokes", n_jokes, minimum=1)
    rows = _rows_from_excel(path) if path.suffix.lower() in (".xls", ".xlsx") else _rows_from_text(path)
    if not rows:
        raise ValueError(f"{path}: the file holds no rows")
    out = np.empty((len(rows), n_jokes))
    for r, row in enumerate(rows, start=1):
        if len(row) != n_jokes + 1:
            raise ValueError(
                f"{path}, row {r}: expected {n_jokes + 1} columns (a count, then {n_jokes} ratings); got {len(row)}"
            )
        blank = [c for c, cell in enumerate(row, start=1) if not cell.strip()]
        if blank:
            raise ValueError(
                f"{path}, row {r}, column {blank[0]}: the cell is blank; in Jester a joke that was not rated "
                "is written 99, not left empty"
            )
        try:
            values = np.array([float(cell) for cell in row])
        except ValueError as exc:
            raise ValueError(f"{path}, row {r}: every cell must be a number; {exc}") from None
        ratings = values[1:]
        missing = ratings == NOT_RATED
        bad = ~missing & ~((ratings >= LOW) & (ratings <= HIGH))
        if bad.any():
            j = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"{path}, row {r}, joke {j + 1}: a rating must lie in [-10, 10] or be 99 (not rated); "
                f"got {ratings[j]!r}"
            )
        if values[0] != (~missing).sum():
            raise ValueError(
                f"{path}, row {r}: the first column says {values[0]:g} jokes were rated, but the row "
                f"holds {(~missing).sum()} ratings"
            )
        out[r - 1] = np.where(missing, np.nan, ratings)
    return out


def write_jester_csv(ratings, path) -> Path:
    """Write ratings (NaN = not rated) in the dataset-1 layout, as CSV (for fixtures and conversions)."""
    R = np.asarray(ratings, dtype=np.float64)
    if R.ndim != 2:
        raise ValueError(f"ratings must be a 2-D array (users, jokes); got shape {R.shape}")
    rated = ~np.isnan(R)
    if ((R[rated] < LOW) | (R[rated] > HIGH)).any():
        bad = R[rated][(R[rated] < LOW) | (R[rated] > HIGH)][0]
        raise ValueError(f"ratings must lie in [-10, 10] (NaN for not rated); got {bad!r}")
    path = Path(path)
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        for row, mask in zip(R, rated):
            writer.writerow([int(mask.sum())] + [f"{x:.2f}" if m else "99" for x, m in zip(row, mask)])
    return path


def normalise(ratings) -> np.ndarray:
    """Ratings in [-10, 10] mapped to [0, 1]: (r + 10) / 20 (NaN stays NaN)."""
    return (np.asarray(ratings, dtype=np.float64) + 10.0) / 20.0


def jester_summary(ratings) -> dict:
    """Statistics to check a loaded copy against the published description of dataset 1
    (24,983 users, 100 jokes, every user with at least 36 ratings)."""
    R = np.asarray(ratings, dtype=np.float64)
    if R.ndim != 2 or R.size == 0:
        raise ValueError(f"ratings must be a non-empty 2-D array (users, jokes); got shape {R.shape}")
    rated = ~np.isnan(R)
    if not rated.any():
        raise ValueError(f"ratings hold no rating at all (every one of the {R.size} cells is NaN)")
    return {
        "users": int(R.shape[0]),
        "jokes": int(R.shape[1]),
        "ratings": int(rated.sum()),
        "density": float(rated.mean()),
        "fewest ratings per user": int(rated.sum(axis=1).min()),
        "lowest joke coverage": float(rated.mean(axis=0).min()),
        "mean rating": float(np.nanmean(R)),
        "rating sd": float(np.nanstd(R)),
    }
