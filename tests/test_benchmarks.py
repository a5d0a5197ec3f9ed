"""`make bench`'s entry point: what it says about the machine, and how it refuses a wrong name (the
benchmarks themselves measure speed, which no test asserts)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bandit_lib.infra.environment import environment  # noqa: E402
from benchmarks.__main__ import header, main  # noqa: E402


def test_the_header_names_the_cpu_its_cores_and_the_kernels_in_effect():
    env = environment()
    text = header()
    assert env["cpu"] in text and f"{env['cores']} cores" in text
    assert ("(pinned)" in text) == env["kernels"]["pinned"]
    for arch in env["kernels"]["openblas"]:
        assert f"OpenBLAS {arch}" in text


def test_an_unknown_benchmark_is_refused_with_the_known_names(capsys):
    assert main(["bench_nothing"]) == 2
    err = capsys.readouterr().err
    assert "bench_nothing" in err and "bench_tapes" in err
