"""Argument checks shared by every public function.

Each check returns the validated value (converted to the canonical type) or raises
``ValueError``/``TypeError`` with a message that names the argument and the bad value, so that
nothing is silently clipped, dropped or coerced.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np


def _is_real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_real(name: str, value: Any) -> float:
    """A finite real number."""
    if not _is_real(value):
        raise TypeError(f"{name} must be a real number; got {name}={value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite; got {name}={value!r}")
    return value


def check_open_unit(name: str, value: Any) -> float:
    """A number strictly inside (0, 1), such as a confidence parameter delta."""
    value = check_real(name, value)
    if not 0.0 < value < 1.0:
        raise ValueError(f"{name} must lie in the open interval (0, 1); got {name}={value!r}")
    return value


def check_in_range(
    name: str, value: Any, low: float, high: float, *, low_open: bool = True, high_open: bool = True
) -> float:
    """A number in an interval with the given open/closed ends."""
    value = check_real(name, value)
    too_low = value <= low if low_open else value < low
    too_high = value >= high if high_open else value > high
    if too_low or too_high:
        interval = f"{'(' if low_open else '['}{low}, {high}{')' if high_open else ']'}"
        raise ValueError(f"{name} must lie in {interval}; got {name}={value!r}")
    return value


def check_positive(name: str, value: Any) -> float:
    """A finite number > 0."""
    value = check_real(name, value)
    if value <= 0:
        raise ValueError(f"{name} must be > 0; got {name}={value!r}")
    return value


def check_nonnegative(name: str, value: Any) -> float:
    """A finite number >= 0."""
    value = check_real(name, value)
    if value < 0:
        raise ValueError(f"{name} must be >= 0; got {name}={value!r}")
    return value


def check_int(name: str, value: Any, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer (numpy integers accepted; floats and bools refused) within optional bounds."""
    if not _is_int(value):
        raise TypeError(f"{name} must be an integer; got {name}={value!r}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}; got {name}={value!r}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum}; got {name}={value!r}")
    return value


#: The largest pull count and pull index the int64 engines and tapes can hold.
MAX_PULLS = 2**63 - 1


def check_cap(cap: Any, *, minimum: int = 1) -> int:
    """A pull cap: a whole number of pulls from ``minimum`` to :data:`MAX_PULLS`. An integral float
    such as ``1e7`` is accepted (and becomes an int); a fractional or non-finite one, a bool or a
    string is refused."""
    if isinstance(cap, numbers.Real) and not isinstance(cap, (bool, np.bool_, numbers.Integral)):
        if not (math.isfinite(cap) and float(cap).is_integer()):
            raise ValueError(f"cap must be a whole number of pulls; got cap={cap!r}")
        cap = int(cap)
    cap = check_int("cap", cap, minimum=minimum)
    if cap > MAX_PULLS:
        raise ValueError(f"cap must be at most 2**63 - 1 = {MAX_PULLS} (pull counts are int64); got cap={cap!r}")
    return cap


#: The engines of an algorithm with a fast engine: the numba engine and the readable per-pull loop.
ENGINES = ("fast", "reference")


def check_engine(engine: Any) -> str:
    """``"fast"`` or ``"reference"``."""
    return check_choice("engine", engine, ENGINES)


def check_choice(name: str, value: Any, choices: Iterable[Any]) -> Any:
    """One of a fixed set of options."""
    choices = tuple(choices)
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}; got {name}={value!r}")
    return value


def check_vector(
    name: str,
    values: Any,
    *,
    low: float | None = None,
    high: float | None = None,
    min_length: int = 1,
) -> np.ndarray:
    """A non-empty 1-D float64 array of finite numbers within optional closed bounds.

    The first offending entry is named in the error (index and value).
    """

    # Booleans and strings would convert to numbers without a word (True -> 1.0, "0.5" -> 0.5).
    def is_not_a_number(v: Any) -> bool:
        return isinstance(v, (bool, np.bool_, str, bytes))

    if isinstance(values, np.ndarray):
        raw = values
        bad = raw.dtype.kind in "bUSV" or (raw.dtype.kind == "O" and any(map(is_not_a_number, raw.ravel())))
        first = next((v for v in raw.ravel() if is_not_a_number(v)), None) if bad else None
    else:
        if isinstance(values, (str, bytes)):
            raise TypeError(f"{name} must be a sequence of real numbers; got {name}={values!r}")
        try:
            raw = np.asarray(values)
        except (TypeError, ValueError) as exc:  # ragged nested sequences
            raise TypeError(f"{name} must be a sequence of real numbers; got {name}={values!r}") from exc
        items = values if isinstance(values, (list, tuple)) else raw.ravel()
        first = next((v for v in items if is_not_a_number(v)), None)
        bad = first is not None or raw.dtype.kind in "bUSV"
    if bad:
        raise TypeError(f"{name} must hold real numbers, not booleans or strings; got {first!r} in {name}")
    try:
        array = np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a sequence of real numbers; got {name}={values!r}") from exc
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional; got shape {array.shape}")
    if array.size < min_length:
        raise ValueError(f"{name} must hold at least {min_length} value(s); got {array.size} ({name}={values!r})")
    bad = ~np.isfinite(array)
    if low is not None:
        bad |= array < low
    if high is not None:
        bad |= array > high
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        bounds = f" within [{low}, {high}]" if (low is not None or high is not None) else ""
        raise ValueError(f"{name} must be finite{bounds}; got {name}[{i}]={array[i].item()!r}")
    return array


def check_index(name: str, value: Any, n: int) -> int:
    """An arm index in 0..n-1."""
    return check_int(name, value, minimum=0, maximum=n - 1)


def check_index_set(name: str, values: Any, n: int | None = None) -> np.ndarray:
    """A set of arm indices given as any iterable of integers; returns a sorted unique int array."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (Iterable, np.ndarray)):
        raise TypeError(f"{name} must be an iterable of arm indices; got {name}={values!r}")
    items = list(values.tolist() if isinstance(values, np.ndarray) else values)
    for item in items:
        if not _is_int(item):
            raise TypeError(f"{name} must contain integer arm indices; got {item!r} in {name}")
        if item < 0 or (n is not None and item >= n):
            bound = f"0..{n - 1}" if n is not None else ">= 0"
            raise ValueError(f"{name} must contain arm indices in {bound}; got {item!r} in {name}")
    return np.array(sorted(set(int(i) for i in items)), dtype=np.int64)


def check_same_length(names: Sequence[str], *arrays: np.ndarray) -> None:
    """All arrays have the same length."""
    lengths = [len(a) for a in arrays]
    if len(set(lengths)) > 1:
        detail = ", ".join(f"len({n})={m}" for n, m in zip(names, lengths))
        raise ValueError(f"{' and '.join(names)} must have the same length; got {detail}")


# Magic numbers of files that are not text (a data file given by mistake).
_BINARY_MAGIC = {
    b"PK\x03\x04": "a zip archive (unzip it first)",
    b"\x1f\x8b": "a gzip file (gunzip it first)",
    b"\xd0\xcf\x11\xe0": "an Excel/Office file",
    b"%PDF": "a PDF file",
    b"\x89PNG": "a PNG image",
}


def check_text_file(name: str, path: Any, *, what: str = "data") -> str:
    """The text of the UTF-8 file ``path``; a missing path, a folder, a binary or an archive file
    raises an error naming the file (``name`` is the argument, ``what`` the kind of file)."""
    from pathlib import Path

    if not isinstance(path, (str, Path)):
        raise TypeError(f"{name} must be a file path; got {name}={path!r}")
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no {what} file at {name}={str(path)!r}")
    if not path.is_file():
        raise ValueError(f"{name} must be a file; got a {'folder' if path.is_dir() else 'special file'}: {str(path)!r}")
    raw = path.read_bytes()
    for magic, kind in _BINARY_MAGIC.items():
        if raw.startswith(magic):
            raise ValueError(f"{path} is {kind}, not a {what} text file")
    if b"\x00" in raw[:65536]:
        raise ValueError(f"{path} is a binary file (it holds NUL bytes), not a {what} text file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{path} is not UTF-8 text (byte {exc.start}: {raw[exc.start : exc.start + 1]!r}); a {what} file must be plain text"
        ) from None
