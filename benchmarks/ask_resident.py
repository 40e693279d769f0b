"""What a repeated ``askalong ask`` costs on a repository, with and without ``askalong
serve`` running for the same home: each ask a whole process (as a developer runs it),
p50 wall and CPU of the command (user + system of the child), and the server's own CPU
per ask when it answers. The arms are interleaved ask by ask, so a noisy machine loads
them alike; the load average is printed with the figures.

The repository is this interpreter's own standard library packages (``--packages``,
``asyncio json http email`` by default), added as one folder; the questions are code
questions over it.

    python benchmarks/ask_resident.py [--runs 7] [--packages asyncio json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _table import markdown_table, write_results

ASKALONG = str(Path(sys.executable).parent / "askalong")
STDLIB = Path(json.__file__).parent.parent
QUESTIONS = ("who calls _get_loop?", "where is JSONDecoder defined?", "what does raw_decode call?")
ARMS = ("in process (no server)", "askalong serve running")


def run_ask(question: str, env: dict[str, str], *extra: str) -> tuple[float, float]:
    """Wall and CPU seconds of one ``askalong ask`` process on the repository."""
    command = [ASKALONG, "ask", "--collection", "repo", *extra, question]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def process_cpu(pid: int) -> float:
    """User + system CPU seconds a running process has used (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def prepared_home(root: Path, packages: list[str], env: dict[str, str]) -> None:
    repo = root / "repo"
    for name in packages:
        shutil.copytree(STDLIB / name, repo / name, ignore=shutil.ignore_patterns("__pycache__"))
    add = [ASKALONG, "add", "--no-embed", str(repo)]
    subprocess.run(add, env=env, check=True, capture_output=True)


def started_server(home: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """``askalong serve --port 0``, once it says where it listens (``server.json``)."""
    quiet = subprocess.DEVNULL
    serve = [ASKALONG, "serve", "--port", "0"]
    server = subprocess.Popen(serve, env=env, stdout=quiet, stderr=quiet)
    deadline = time.monotonic() + 120
    while not (home / "server.json").exists():
        if time.monotonic() > deadline or server.poll() is not None:
            server.kill()
            raise SystemExit("askalong serve did not start")
        time.sleep(0.2)
    return server


def measure(runs: int, env: dict[str, str], server_pid: int) -> dict[str, list[tuple[float, ...]]]:
    """Per arm, (wall, CPU, server CPU) of each ask; one warm-up ask per arm first."""
    found: dict[str, list[tuple[float, ...]]] = {arm: [] for arm in ARMS}
    for round_ in range(runs + 1):
        question = QUESTIONS[round_ % len(QUESTIONS)]
        here = run_ask(question, env, "--in-process")
        before = process_cpu(server_pid)
        there = run_ask(question, env)
        served = process_cpu(server_pid) - before
        if round_:  # the first round warms the caches of both
            found[ARMS[0]].append((*here, 0.0))
            found[ARMS[1]].append((*there, served))
    return found


def report(found: dict[str, list[tuple[float, ...]]], files: int, runs: int) -> str:
    def p50(arm: str, index: int) -> str:
        return f"{statistics.median(r[index] for r in found[arm]):.2f} s"

    rows = [(arm, p50(arm, 0), p50(arm, 1), p50(arm, 2)) for arm in ARMS]
    table = markdown_table(("ask", "p50 wall", "p50 CPU (ask)", "p50 CPU (server)"), "lrrr", rows)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"# askalong ask on a repository, with and without a server (2026-12-05)\n\n"
        f"{files} source files (the standard library's packages), {runs} asks per arm "
        f"(interleaved; questions {', '.join(repr(q) for q in QUESTIONS)}); load average "
        f"at the end {load} on {os.cpu_count()} cores.\n\n{table}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--packages", nargs="+", default=["asyncio", "json", "http", "email"])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        home = root / "home"
        env = {**os.environ, "ASKALONG_HOME": str(home), "ASKALONG_EMBEDDER": "none"}
        prepared_home(root, args.packages, env)
        files = sum(1 for _ in (root / "repo").rglob("*.py"))
        server = started_server(home, env)
        try:
            found = measure(args.runs, env, server.pid)
        finally:
            server.terminate()
            server.wait(timeout=30)
    write_results(report(found, files, args.runs), "ask-resident-2026-12-05.md", args.out)


if __name__ == "__main__":
    main()
