r"""Loader for a local copy of geotagged tweets: the real-data form of ZHUANG17's Twitter application.

The paper (§5.1): 1.5 M geotagged tweets from New York; space is divided into cells of
"2'' x 2''" in latitude and longitude; the 47 cells with more than 5,000 tweets are the arms; for
a keyword, arm i's mean is the fraction of cell i's tweets that contain the keyword. The data was
never released, so the book uses :mod:`bandit_lib.zhuang17.twitter_like`; this loader lets a
user with a copy of comparable data run the same experiment.

Input: a CSV file (or a DataFrame) with one tweet per row and the columns ``lat``, ``lon`` (decimal
degrees) and ``text``. Cells are ``cell_arcmin`` arc-minutes wide in both coordinates (default 2;
the paper prints seconds, but 2'' cells are about 60 m wide and would hold few tweets — minutes are
the plausible reading); a cell is the pair (floor(lat / size), floor(lon / size)). A tweet
*contains* a keyword when the keyword occurs as a whole word, ignoring case.

:func:`load_tweets` reads and checks the tweets; :func:`keyword_instances` builds the test cases (the
same structure as the stand-in: ``region_sizes`` and one :class:`~bandit_lib.zhuang17.twitter_like.Keyword` per keyword, whose
``means`` are the per-cell fractions and ``counts`` the numbers of matching tweets).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pandas as pd

from bandit_lib.checks import check_int, check_positive, check_text_file
from bandit_lib.zhuang17.twitter_like import Keyword, TwitterLike

#: The columns a tweets CSV must have.
COLUMNS = ("lat", "lon", "text")


def load_tweets(source) -> pd.DataFrame:
    """Read tweets from a CSV path or a DataFrame and check the columns lat, lon, text."""
    if isinstance(source, (str, Path)):
        path = Path(source)
        text = check_text_file("source", path, what="tweets CSV")
        try:
            frame = pd.read_csv(io.StringIO(text))
        except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
            raise ValueError(f"could not read {path} as CSV: {exc}") from None
    elif isinstance(source, pd.DataFrame):
        frame = source
    else:
        raise TypeError(f"source must be a CSV path or a pandas DataFrame; got source={source!r}")
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(
            f"the tweets need the columns {list(COLUMNS)}; missing {missing} (columns: {list(frame.columns)})"
        )
    frame = frame[list(COLUMNS)].copy()
    for col in ("lat", "lon"):
        values = pd.to_numeric(frame[col], errors="coerce")
        bad = values.isna() | ~np.isfinite(values)
        if bad.any():
            i = int(np.flatnonzero(bad.to_numpy())[0])
            raise ValueError(f"column {col} must hold finite numbers; got {frame[col].iloc[i]!r} in row {i}")
        frame[col] = values
    frame["text"] = frame["text"].fillna("").astype(str)
    return frame


def keyword_instances(
    tweets, keywords, *, cell_arcmin: float = 2.0, min_tweets: int = 5000, k: float = 2.5
) -> TwitterLike:
    """One test case per keyword over the cells holding more than ``min_tweets`` tweets."""
    frame = load_tweets(tweets)
    size = check_positive("cell_arcmin", cell_arcmin) / 60.0
    min_tweets = check_int("min_tweets", min_tweets, minimum=0)
    keywords = list(keywords)
    if not keywords or not all(isinstance(w, str) and w.strip() for w in keywords):
        raise ValueError(f"keywords must be a non-empty list of non-empty strings; got keywords={keywords!r}")
    cell = pd.Series(
        list(zip(np.floor(frame["lat"] / size).astype(np.int64), np.floor(frame["lon"] / size).astype(np.int64))),
        index=frame.index,
    )
    sizes = cell.value_counts()
    kept = sorted(sizes[sizes > min_tweets].index)
    if len(kept) < 3:
        raise ValueError(f"only {len(kept)} cells hold more than min_tweets={min_tweets} tweets; need at least 3 arms")
    in_kept = cell.isin(set(kept))
    cells = cell[in_kept]
    region_sizes = np.array([sizes[c] for c in kept], dtype=np.int64)
    out = []
    for w in keywords:
        pattern = re.compile(r"\b" + re.escape(w.strip()) + r"\b", re.IGNORECASE)
        hit = frame.loc[in_kept, "text"].map(lambda t: bool(pattern.search(t)))
        counts = hit.groupby(cells).sum().reindex(kept, fill_value=0).to_numpy(dtype=np.int64)
        out.append(
            Keyword(
                w,
                counts / region_sizes,
                counts,
                float(counts.sum() / region_sizes.sum()),
                float("nan"),
                np.array([], dtype=np.int64),
                0,
            )
        )
    return TwitterLike(region_sizes, out, float(k), label="Twitter (local copy)")
