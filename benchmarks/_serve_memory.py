"""``askalong serve``'s resident memory once it is ready and idle, for ``startup.py``:
the server on a home holding one small document, beside two anchors taken in the same
run, ``python -c pass`` and a bare Starlette app under uvicorn; then the first answer
asked of it (the server's CPU for it and its memory after it).

Memory is the process's own ``VmRSS`` from ``/proc`` (its helper children, the page
renderer and multiprocessing's resource tracker, are counted apart); ready means the
server has announced itself in ``ASKALONG_HOME/server.json`` (after the app's start-up).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

SETTLE_SECONDS = 3.0  # after ready: the background embedder's first round ends
READY_SECONDS = 120.0
BARE_APP = """
import sys, pathlib, uvicorn
from contextlib import asynccontextmanager
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

@asynccontextmanager
async def lifespan(app):
    pathlib.Path(sys.argv[1]).write_text("ready")
    yield

app = Starlette(routes=[Route("/", lambda r: PlainTextResponse("ok"))], lifespan=lifespan)
uvicorn.run(app, host="127.0.0.1", port=0, log_level="warning")
"""


def rss_mb(pid: int) -> float:
    """The process's resident set now, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise ValueError(f"no VmRSS for {pid}")


def cpu_of(pid: int) -> float:
    """User + system CPU seconds the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_mb(pid: int) -> float:
    """The resident sets of the process's direct children, added up."""
    found = subprocess.run(["ps", "-o", "rss=", "--ppid", str(pid)], capture_output=True)
    return sum(int(kb) for kb in found.stdout.split()) / 1024


def peak_of_pass() -> float:
    """The peak resident set of ``python -c pass``, in MB (``wait4``'s own figure)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    _, _, usage = os.wait4(child.pid, 0)
    return usage.ru_maxrss / 1024


def wait_for(path: Path, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while not path.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the server never became ready ({path} missing)")
        time.sleep(0.1)
    time.sleep(SETTLE_SECONDS)


def bare_app_mb(folder: Path) -> float:
    """A bare Starlette app under uvicorn, idle once started."""
    ready = folder / "bare-ready"
    ready.unlink(missing_ok=True)
    process = subprocess.Popen([sys.executable, "-c", BARE_APP, str(ready)])
    try:
        wait_for(ready, process)
        return rss_mb(process.pid)
    finally:
        stop(process)


def serve_figures(askalong: str, env: dict[str, str], home: Path, question: str) -> list[float]:
    """Idle RSS, the children's, then the first answer's server CPU and the RSS after it;
    then the CPU of the ask process itself, with ``--doc`` and without, the server up."""
    (home / "server.json").unlink(missing_ok=True)
    serve = [askalong, "serve", "--port", "0"]
    process = subprocess.Popen(serve, env=env, stdout=subprocess.DEVNULL)
    try:
        wait_for(home / "server.json", process)
        idle, helpers = rss_mb(process.pid), children_mb(process.pid)
        before = cpu_of(process.pid)
        asked = [askalong, "ask", question, "--doc", only_document(askalong, env)]
        answer = subprocess.run(asked, env=env, check=True, capture_output=True, text=True)
        if f"askalong serve, pid {process.pid}" not in answer.stdout:
            raise RuntimeError(f"the server did not answer: {answer.stdout[-300:]}")
        server_cpu, after = cpu_of(process.pid) - before, rss_mb(process.pid)
        with_doc = ask_cpu([*asked, "--json"], env)
        alone = ask_cpu([askalong, "ask", question, "--json"], env)
        return [idle, helpers, server_cpu, after, with_doc, alone]
    finally:
        stop(process)


def ask_cpu(command: list[str], env: dict[str, str]) -> float:
    """User + system CPU of the ask process alone (not the server's), run to its end."""
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        raise RuntimeError(f"{command} failed ({status})")
    return usage.ru_utime + usage.ru_stime


def only_document(askalong: str, env: dict[str, str]) -> str:
    """The id of the home's one document: a question with ``--doc`` goes to the server."""
    listed = subprocess.run([askalong, "docs", "--json"], env=env, check=True, capture_output=True)
    return str(json.loads(listed.stdout)["documents"][0]["id"])


def stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
