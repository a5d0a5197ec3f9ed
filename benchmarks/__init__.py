"""Performance benchmarks, run by `make bench` (`python -m benchmarks`).

Each module ``benchmarks/bench_<topic>.py`` defines ``run() -> list[dict]``: rows with at least
``benchmark`` and, where two engines are compared on the same work, ``reference_per_s``,
``fast_per_s`` and their ``ratio``. Speed targets are checked here, never in timed tests.
"""
