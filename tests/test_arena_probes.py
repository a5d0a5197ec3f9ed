"""Every public function of ``bandit_lib.arena`` under the probes of issue 27 (tests/arena_probes.py):
bad arguments give a ValueError or TypeError that names them, degenerate instances an error that says
so or a value documented on purpose, and nothing hangs.

The probes run in a worker process (tests/probe_worker.py), each under :data:`PROBE_TIMEOUT` seconds
of the worker's CPU time (numba's first compilation included): a probe past it is killed and fails
as a hang, and a fresh worker takes the rest. CPU time, not wall time, so that a loaded machine
(where a compilation can take minutes of wall time) does not turn a slow probe into a "hang". ``python
tests/test_arena_probes.py`` prints the tally (clear errors, documented values, silent results,
obscure errors, hangs).
"""

from __future__ import annotations

import collections
import importlib
import inspect
import json
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import arena_probes  # noqa: E402

#: seconds a probe may take (they take milliseconds; the largest computes a small certificate)
PROBE_TIMEOUT = float(os.environ.get("ARENA_PROBE_TIMEOUT", "120"))
#: seconds the worker may take to import bandit_lib.arena
START_TIMEOUT = 300.0
WORKER = Path(__file__).resolve().parent / "probe_worker.py"
CLEAR = ("ValueError", "TypeError")


class _Worker:
    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
        )
        self.buffer = b""
        if self.read(START_TIMEOUT) is None:
            self.kill()
            raise RuntimeError(f"the probe worker did not start within {START_TIMEOUT:.0f} s")

    def cpu_seconds(self) -> float | None:
        """The worker's user + system CPU time (Linux /proc), or None where it cannot be read."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def read(self, timeout: float) -> dict | None:
        # A timeout on a probe, not a result. The budget is the worker's CPU time where the system
        # reports it (a loaded machine stretches wall time, not CPU time), else wall time; a worker
        # that neither answers nor computes (blocked) is given up on after ten budgets of wall time.
        start_cpu, start_wall = self.cpu_seconds(), time.monotonic()
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            cpu = self.cpu_seconds()
            used = time.monotonic() - start_wall if cpu is None or start_cpu is None else cpu - start_cpu
            if used > timeout or time.monotonic() - start_wall > 10 * timeout:
                return None
            if not select.select([fd], [], [], 0.5)[0]:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def ask(self, i: int) -> dict | None:
        self.proc.stdin.write(f"{i}\n".encode())
        self.proc.stdin.flush()
        return self.read(PROBE_TIMEOUT)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()


def run_probes(indices) -> dict[int, dict]:
    out: dict[int, dict] = {}
    worker = _Worker()
    try:
        for i in indices:
            answer = worker.ask(i)
            if answer is None:  # a hang (or a crash): kill it, go on with a fresh worker
                out[i] = {"i": i, "hang": True}
                worker.kill()
                worker = _Worker()
            else:
                out[i] = answer
    finally:
        worker.kill()
    return out


def classify(probe: arena_probes.Probe, answer: dict) -> str:
    """'clear error', 'documented value', 'silent result', 'obscure error', 'hang' or 'wrong value'."""
    if answer.get("hang"):
        return "hang"
    if answer["raised"] is None:
        if probe.expect.kind == "value":
            return "documented value" if answer["ok"] else "wrong value"
        return "silent result"
    if probe.expect.kind == "error" and answer["raised"] in CLEAR:
        if re.search(probe.expect.pattern, answer["message"], flags=re.IGNORECASE):
            return "clear error"
    return "obscure error"


def expected(probe: arena_probes.Probe) -> str:
    return "clear error" if probe.expect.kind == "error" else "documented value"


@pytest.fixture(scope="module")
def answers() -> dict[int, dict]:
    return run_probes(range(len(arena_probes.PROBES)))


@pytest.mark.parametrize("i", range(len(arena_probes.PROBES)), ids=[p.id for p in arena_probes.PROBES])
def test_probe(answers, i):
    probe = arena_probes.PROBES[i]
    got = classify(probe, answers[i])
    assert got == expected(probe), (
        f"{probe.id}: {got}; expected {expected(probe)} ({probe.expect}); answer {answers[i]}"
    )


def public_functions() -> set[str]:
    """``module.name`` of every public function and class defined in bandit_lib.arena's modules."""
    import bandit_lib.arena

    names = set()
    for info in __import__("pkgutil").iter_modules(bandit_lib.arena.__path__):
        if info.name in arena_probes.EXEMPT_MODULES:
            continue
        module = importlib.import_module(f"bandit_lib.arena.{info.name}")
        for name, obj in vars(module).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
                continue
            if inspect.isfunction(obj) or inspect.isclass(obj) or hasattr(obj, "py_func"):
                names.add(f"{info.name}.{name}")
    return names


def test_every_public_function_is_probed_or_exempt_with_a_reason():
    probed = {p.function for p in arena_probes.PROBES}
    exempt = {name for names in arena_probes.EXEMPT.values() for name in names}
    public = public_functions()
    assert not (public - probed - exempt), f"public functions without probes: {sorted(public - probed - exempt)}"
    assert not (probed - public), f"probes of functions that are not public: {sorted(probed - public)}"
    assert not (exempt - public), f"exemptions of names that do not exist: {sorted(exempt - public)}"
    assert not (probed & exempt)


def tally(answers: dict[int, dict]) -> collections.Counter:
    return collections.Counter(classify(arena_probes.PROBES[i], a) for i, a in answers.items())


if __name__ == "__main__":
    got = run_probes(range(len(arena_probes.PROBES)))
    counts = tally(got)
    print(f"{len(got)} probes of {len({p.function for p in arena_probes.PROBES})} functions: {dict(counts)}")
    for i, a in sorted(got.items()):
        probe = arena_probes.PROBES[i]
        c = classify(probe, a)
        if c != expected(probe):
            detail = a.get("raised") or ("hang" if a.get("hang") else a.get("value"))
            print(f"  {c:16s} {probe.id}: {detail}: {a.get('message', '')[:150]}")
