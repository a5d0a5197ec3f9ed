"""`make lab`: JupyterLab from the project's environment, to rerun a chapter cell by cell.

    python tools/lab.py [--port N] [--token T] [--chapter KEY [--profile quick|full]]

It serves the repository on 127.0.0.1 only and opens in ``notebooks/``. Jupytext's contents
manager (a server extension installed with jupytext) makes each chapter's ``notebooks/<key>.md``
a notebook: it opens as one (double-click), runs in the project's kernel, and saving writes both
paired files (the ``.md`` source and the ``.ipynb``). JupyterLab prints the address with its
token when it is ready. The profile is ``BANDIT_PROFILE`` as everywhere (``full`` by default: the
cached results; ``BANDIT_PROFILE=quick make lab`` for the small instances). The chapters' MyST
(roles such as ``{cite:t}`` and ``{prf:ref}``, directives) renders through jupyterlab-myst.

``--chapter KEY`` (``make lab CHAPTER=KEY [PROFILE=...]``) opens the notebook ``make chapter``
wrote for that profile, ``build/chapters/<profile>/<KEY>.ipynb``, or the chapter's source
``notebooks/<KEY>.md`` if it has not run yet.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Double-clicking a chapter's .md opens it as a notebook rather than as Markdown text.
SETTINGS = {
    "@jupyterlab/docmanager-extension:plugin": {
        "defaultViewers": {"markdown": "Jupytext Notebook", "myst": "Jupytext Notebook"}
    }
}


def chapter_file(key: str, profile: str) -> Path:
    """What ``--chapter`` opens, relative to the repository: ``make chapter``'s notebook for
    ``profile``, else the chapter's source."""
    if not (ROOT / "notebooks" / f"{key}.md").is_file():
        keys = sorted(p.stem for p in (ROOT / "notebooks").glob("*.md"))
        raise SystemExit(f"no chapter {key!r}; chapters: {' '.join(keys)}")
    if profile not in ("quick", "full"):
        raise SystemExit(f"profile must be quick or full; got profile={profile!r}")
    built = Path("build") / "chapters" / profile / f"{key}.ipynb"
    return built if (ROOT / built).is_file() else Path("notebooks") / f"{key}.md"


def command(port: int | None, token: str | None, open_file: Path | None = None) -> list[str]:
    """The JupyterLab command line (the test of `make lab` starts exactly this)."""
    args = [
        str(Path(sys.executable).with_name("jupyter")),
        "lab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--ServerApp.root_dir={ROOT}",
        f"--ServerApp.preferred_dir={ROOT / 'notebooks'}",
    ]
    if os.geteuid() == 0:  # containers and CI run as root
        args.append("--allow-root")
    if port is not None:
        args += [f"--port={port}", "--ServerApp.port_retries=0"]
    if token is not None:
        args.append(f"--IdentityProvider.token={token}")
    if open_file is not None:
        # the address JupyterLab prints (and / redirects to) opens the file in its viewer
        args.append(f"--LabApp.default_url=/lab/tree/{open_file.as_posix()}")
    return args


def write_settings() -> Path:
    """JupyterLab's settings overrides inside the project's environment (not in the user's home)."""
    path = Path(sys.prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    current = json.loads(path.read_text()) if path.exists() else {}
    path.write_text(json.dumps({**current, **SETTINGS}, indent=2) + "\n")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=None, help="default: 8888, or the next free port")
    parser.add_argument("--token", default=None, help="default: a random token, printed with the address")
    parser.add_argument("--chapter", default=None, help="open this chapter's `make chapter` notebook (or its source)")
    parser.add_argument("--profile", default="quick", help="the profile of the --chapter notebook (quick or full)")
    args = parser.parse_args(argv)
    write_settings()
    opened = chapter_file(args.chapter, args.profile) if args.chapter else None
    if opened is not None:
        print(f"opening {opened}", flush=True)
    args_list = command(args.port, args.token, opened)
    os.execv(args_list[0], args_list)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
