"""Issue 38's "Done when": a new user installs ``bandit_lib`` from a clone into a fresh virtual
environment, runs RR, WRR, GrAPL and every arena detector on 20 arms of their own (Bernoulli and
Gaussian), reruns ADE20 with another n into a scratch store, and the book's store stays fresh.

The fresh environment is kept cheap: a venv without pip, the project's dependencies made visible
to it by a ``.pth`` file (what ``pip install`` would have fetched; the project's own ``bandit_lib``
is not among them), then ``uv pip install --no-deps -e`` of this clone, offline. The clone is this
repository, so the numba caches the tests compiled serve the script too. Also: the reader's
commands (``make chapter``, ``make lab``) name their outputs and keep the profiles apart."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bandit_lib.infra.registry import select
from bandit_lib.infra.store import ResultStore

REPO = Path(__file__).resolve().parents[1]
DEADLINE = 600  # seconds for the script (about 30 s with the numba caches of make test)


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            h.update(path.relative_to(folder).as_posix().encode() + path.read_bytes())
    return h.hexdigest()


@pytest.fixture
def fresh_venv(tmp_path) -> Path:
    """A virtual environment with bandit_lib installed from the clone (editable) and nothing else
    of the project's."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    dependencies = [p for p in sys.path if p.endswith("site-packages")]
    (site / "_project_dependencies.pth").write_text("\n".join(dependencies) + "\n")
    done = subprocess.run(
        [str(Path(sys.executable).with_name("uv")), "pip", "install", "--python", str(python), "--offline"]
        + ["--no-deps", "--no-build-isolation", "-e", str(REPO)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return python


@pytest.mark.slow
def test_a_new_user_installs_from_a_clone_runs_the_algorithms_and_reruns_ade20_into_their_store(fresh_venv, tmp_path):
    book = REPO / "data" / "results" / "ade20"
    before = _digest(book)
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "BANDIT_RESULTS")}
    env.update(BANDIT_USER_RESULTS=str(tmp_path / "mine"), BANDIT_PROGRESS="0")
    done = subprocess.run(
        [str(fresh_venv), str(REPO / "tests" / "new_user_script.py")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    # the script ran in the fresh environment, on the clone's code
    assert Path(out["prefix"]) == fresh_venv.parent.parent and Path(out["bandit_lib"]).is_relative_to(REPO)
    truth = out["truth"]
    assert truth == [19]
    assert all(found == truth for found in out["zhuang17"].values()), out["zhuang17"]
    assert out["grapl"]["found"] == out["grapl"]["truth"], out["grapl"]
    arena = out["arena"]
    refused = {key for key, row in arena.items() if "refused" in row}
    # the detectors that need bounded rewards refuse a Gaussian tape, saying why; no other refuses
    assert refused == {"gaussian/RR (Agresti–Coull)", "gaussian/WRR (Agresti–Coull)", "gaussian/ADE"}, refused
    assert all("tape" in arena[key]["refused"] for key in refused)
    wrong = [key for key, row in arena.items() if row.get("delta_correct") and row["found"] != truth]
    assert not wrong and len(arena) - len(refused) >= 30, wrong
    # ADE20 with n = 50: computed into the user's store, the book's store untouched and fresh
    ade = out["ade20"]
    assert ade["n"] == [50] and ade["methods"] == 11 and ade["computed"] == ["n=50,k=2.5,window=0.1-0.2,case=0"]
    assert all(Path(p).is_relative_to(tmp_path / "mine" / "quick") for p in ade["paths"])
    assert _digest(book) == before
    store = ResultStore(REPO / "data" / "results")
    stale = {e.name: e.status("full", store=store) for e in select("ade20")}
    assert all(s["fresh"] and not (s["stale"] or s["missing"] or s["corrupt"]) for s in stale.values()), stale


def test_make_chapter_writes_a_notebook_and_a_page_per_profile_and_make_lab_opens_them():
    def dry(*args: str) -> str:
        return subprocess.run(
            ["make", "-n", "--no-print-directory", *args], cwd=REPO, capture_output=True, text=True, check=True
        ).stdout

    for profile in ("quick", "full"):
        plan = dry("chapter", "CHAPTER=ade20", f"PROFILE={profile}")
        assert f"build/chapters/{profile}/ade20.ipynb" in plan and "nbconvert --log-level WARN --to html" in plan
        assert f"BANDIT_PROFILE={profile}" in plan and "wrote build/chapters" in plan
    assert "--chapter ade20 --profile full" in dry("lab", "CHAPTER=ade20", "PROFILE=full")
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import lab
    finally:
        sys.path.remove(str(REPO / "tools"))
    opened = lab.chapter_file("ade20", "quick")
    expected = Path("build/chapters/quick/ade20.ipynb")
    assert opened == (expected if (REPO / expected).is_file() else Path("notebooks/ade20.md"))
    assert f"--LabApp.default_url=/lab/tree/{opened.as_posix()}" in lab.command(None, None, opened)
    with pytest.raises(SystemExit, match="no chapter 'nope'"):
        lab.chapter_file("nope", "quick")
