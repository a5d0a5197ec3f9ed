"""`make lab` works: JupyterLab from the project's environment lists each chapter's .md as a notebook
(jupytext's contents manager), and a kernel it starts runs a chapter in the quick profile.

The server runs on 127.0.0.1 and a free port, is stopped by its PID at the end, and takes its
kernel with it. Every wait has a deadline; nothing sleeps for a fixed time.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import lab  # noqa: E402  (tools/lab.py: the command `make lab` runs)

CHAPTERS = sorted(p.stem for p in (ROOT / "notebooks").glob("*.md"))
START_DEADLINE = 90  # seconds for the server to answer on a loaded machine
CELL_DEADLINE = 240  # seconds for one cell of a quick-profile chapter


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, port: int, token: str, env: dict):
        self.base, self.token = f"http://127.0.0.1:{port}", token
        self.proc = subprocess.Popen(
            lab.command(port, token),
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )

    def api(self, path: str, method: str = "GET", body: dict | None = None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", f"token {self.token}")
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=30) as answer:
            text = answer.read()
            return json.loads(text) if text else None

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_DEADLINE
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter lab exited with {self.proc.returncode}: {self.proc.stderr.read()[-2000:]}")
            try:
                self.api("/api/status")
                return
            except OSError:
                time.sleep(0.2)
        raise TimeoutError(f"jupyter lab did not answer within {START_DEADLINE} s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # jupyter shuts its kernels down on SIGTERM
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=30)


def _processes_mentioning(text: str) -> list[int]:
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if text.encode() in cmdline.read_bytes():
                found.append(int(cmdline.parent.name))
        except OSError:
            pass
    return found


def _run_cells(server: Server, kernel_id: str, cells: list[str]) -> list[str]:
    """Execute the cells in the kernel over the server's websocket; the errors, if any."""
    import websocket  # websocket-client, a dependency of jupyter_server

    ws = websocket.create_connection(
        f"ws://{server.base.removeprefix('http://')}/api/kernels/{kernel_id}/channels",
        header=[f"Authorization: token {server.token}"],
        timeout=CELL_DEADLINE,
    )
    errors = []
    try:
        for source in cells:
            msg_id = uuid.uuid4().hex
            ws.send(
                json.dumps(
                    {
                        "header": {
                            "msg_id": msg_id,
                            "msg_type": "execute_request",
                            "username": "test",
                            "session": "test",
                            "version": "5.3",
                            "date": "",
                        },
                        "parent_header": {},
                        "metadata": {},
                        "channel": "shell",
                        "buffers": [],
                        "content": {
                            "code": source,
                            "silent": False,
                            "store_history": False,
                            "user_expressions": {},
                            "allow_stdin": False,
                            "stop_on_error": True,
                        },
                    }
                )
            )
            deadline = time.monotonic() + CELL_DEADLINE
            while True:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"a cell ran longer than {CELL_DEADLINE} s: {source[:200]}")
                msg = json.loads(ws.recv())
                if msg.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                if msg["msg_type"] == "error":
                    errors.append(f"{msg['content']['ename']}: {msg['content']['evalue']} in {source[:120]!r}")
                if msg["channel"] == "shell" and msg["msg_type"] == "execute_reply":
                    break
            if errors:
                break
    finally:
        ws.close()
    return errors


@pytest.fixture
def server(tmp_path):
    env = {
        **os.environ,
        "BANDIT_PROFILE": "quick",
        "BANDIT_PROGRESS": "0",
        "BANDIT_RESULTS": str(tmp_path / "results"),
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
        "HOME": str(tmp_path / "home"),
    }
    srv = Server(_free_port(), uuid.uuid4().hex, env)
    srv.results = tmp_path / "results"
    try:
        srv.wait_ready()
        yield srv
    finally:
        srv.stop()


@pytest.mark.slow
def test_the_lab_opens_each_chapter_as_a_notebook_and_runs_one_in_its_kernel(server):
    listing = {item["name"]: item["type"] for item in server.api("/api/contents/notebooks")["content"]}
    for chapter in CHAPTERS:
        assert listing.get(f"{chapter}.md") == "notebook", f"notebooks/{chapter}.md is not a notebook: {listing}"
    model = server.api("/api/contents/notebooks/foundations.md?type=notebook&content=1")
    cells = ["".join(c["source"]) for c in model["content"]["cells"] if c["cell_type"] == "code"]
    assert cells, "the foundations chapter has no code cells"
    session = server.api(
        "/api/sessions",
        "POST",
        {
            "path": "notebooks/foundations.md",
            "type": "notebook",
            "name": "foundations.md",
            "kernel": {"name": "python3"},
        },
    )
    kernel_id = session["kernel"]["id"]
    assert _processes_mentioning(kernel_id), "the kernel process was not found"
    errors = _run_cells(server, kernel_id, cells)
    assert not errors, errors
    # the kernel ran in the server's environment: the quick profile, the scratch result store
    assert list((server.results / "quick" / "foundations").rglob("*.json")), "the chapter computed nothing"
    server.stop()
    deadline = time.monotonic() + 30
    while _processes_mentioning(kernel_id) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _processes_mentioning(kernel_id), "the kernel outlived the server"
