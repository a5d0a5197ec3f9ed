"""Runs the probes of tests/arena_probes.py for tests/test_arena_probes.py, one per line of stdin
(its index), and answers each with one JSON line: what happened (returned, or the exception's type and
message). Started as a subprocess, so that the parent can time each probe out and kill a hang."""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import arena_probes  # noqa: E402


def run(i: int) -> dict:
    probe = arena_probes.PROBES[i]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)  # a numpy warning is an obscure answer too
            value = probe.call()
    except Exception as exc:  # noqa: BLE001 - the probe records every kind of failure
        return {"i": i, "raised": type(exc).__name__, "message": str(exc)[:2000]}
    ok = None
    if probe.expect.kind == "value":
        try:
            ok = bool(probe.expect.check(value))
        except Exception as exc:  # noqa: BLE001
            ok = False
            value = f"check failed: {exc!r}"
    return {"i": i, "raised": None, "value": repr(value)[:300], "ok": ok}


def main() -> None:
    print(json.dumps({"ready": len(arena_probes.PROBES)}), flush=True)
    for line in sys.stdin:
        print(json.dumps(run(int(line))), flush=True)


if __name__ == "__main__":
    main()
