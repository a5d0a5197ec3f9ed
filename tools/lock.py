"""Resolve requirements.in into the pinned requirements.txt and environment.yml.

Run by `make lock` (needs the package registry). It builds a throw-away virtual
environment from requirements.in, freezes it, and writes the same pins to both files,
so pip users (`make`) and conda users (`environment.yml`) get identical versions.

The current pins are kept as constraints: adding a package to requirements.in pins it and
what it needs without moving any package already pinned (a moved numpy or numba could change
the cached results' numbers). `make lock UPGRADE=1` (`--upgrade`) re-resolves everything.
`tests/test_environment.py` fails if the two files drift apart.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = f"{sys.version_info.major}.{sys.version_info.minor}"

HEADER = """\
# Pinned by `make lock` from requirements.in; do not edit by hand.
# Python {python}. The same pins are listed in environment.yml.
"""

ENV_YML = """\
# Conda environment with the same pins as requirements.txt (written by `make lock`).
#   conda env create -f environment.yml && conda activate bandit-book && pip install --no-deps -e .
name: bandit-book
channels:
  - conda-forge
dependencies:
  - python={python}
  - pip
  - pip:
{pins}
"""


def main(argv: list[str] | None = None) -> None:
    upgrade = "--upgrade" in (sys.argv[1:] if argv is None else argv)
    with tempfile.TemporaryDirectory() as tmp:
        venv.create(tmp, with_pip=True)
        pip = [str(Path(tmp) / "bin" / "python"), "-m", "pip"]
        keep = [] if upgrade or not (ROOT / "requirements.txt").exists() else ["-c", str(ROOT / "requirements.txt")]
        subprocess.run([*pip, "install", "--quiet", "-r", str(ROOT / "requirements.in"), *keep], check=True)
        frozen = subprocess.run([*pip, "freeze"], check=True, capture_output=True, text=True).stdout
    pins = sorted((line.strip() for line in frozen.splitlines() if "==" in line), key=str.lower)
    (ROOT / "requirements.txt").write_text(HEADER.format(python=PYTHON) + "\n".join(pins) + "\n")
    (ROOT / "environment.yml").write_text(ENV_YML.format(python=PYTHON, pins="\n".join(f"      - {p}" for p in pins)))
    print(f"pinned {len(pins)} packages for Python {PYTHON}")


if __name__ == "__main__":
    main()
