"""Hypothesis example counts for property tests that pin their own ``max_examples``.

``make test`` (profile "ci") runs the count given; ``make fuzz`` (HYPOTHESIS_PROFILE=fuzz) runs ten
times as many, as the profiles of tests/conftest.py do for tests that keep the default count."""

import os


def examples(n: int) -> int:
    """``n`` under ``make test``, ``10 * n`` under ``make fuzz``."""
    return n * 10 if os.environ.get("HYPOTHESIS_PROFILE") == "fuzz" else n
