"""The attack suite's ``kill9`` section (issue 11, "the suite"): ``kill -9`` at random points.

Two kinds of run, alternating, over one library that grows through the section:

- the CLI: ``askalong add`` of real files from ``../shared/evaldata`` (PDFs and manual
  pages, one to four at a time), or ``askalong rm`` of a stored document, in a subprocess
  killed after a random delay;
- the server: ``askalong serve`` with two uploaders and two askers running against it,
  killed after a random delay; its parser child must not outlive it.

After every kill the library is checked as it lies on disk (every stored document has its
blocks, chunks and original, SQLite's own integrity check passes), then through the real
CLI (in process): ``docs``, ``show`` and ``ask`` work, every stored document has keyword
entries once the library has opened (``sync`` restores what a kill between the store and
the index left), and adding the run's files again succeeds. Stray ``.tmp-*`` originals are
counted (litter for ``askalong doctor``, not damage). There is no background worker yet:
ingestion runs inside the CLI or the request, so those two are the processes killed.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from click.testing import CliRunner

from askalong.cli import main as cli
from attack_common import (
    Row,
    keyword_gaps,
    server_env,
    spawned,
    stored_integrity,
    stray_temporaries,
)
from evaldata import EVALDATA

POOL = (
    "pdf/en_1col/grobid_footnotes_clef2008.pdf",
    "pdf/en_1col/Wang-paperAVE2008.pdf",
    "pdf/en_2col/N18-3011.pdf",
    "pdf/zh/elegantpaper-cn.pdf",
    "pdf/zh/xjtu_journal_2col_sample.pdf",
    "manuals/postgresql-15-html/sql-select.html",
    "manuals/postgresql-15-html/sql-insert.html",
    "manuals/postgresql-15-html/tutorial-join.html",
    "manuals/postgresql-15-html/datatype-json.html",
)
CLI_LAUNCH = "from askalong.cli import main; main()"
KILL_WITHIN = (0.2, 6.0)  # seconds after start: imports, parsing, the store, the index
QUESTION = "What does this document say about the results?"


def kill9(seconds: float, rng: random.Random) -> Row:
    row = Row("kill9")
    deadline = time.perf_counter() + seconds
    temporaries = 0
    with tempfile.TemporaryDirectory() as scratch:
        home = Path(scratch) / "home"
        pool = [EVALDATA / name for name in POOL if (EVALDATA / name).is_file()]
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            files = rng.sample(pool, rng.randint(1, 4))
            run = cli_run if row.cases % 2 == 0 else server_run
            problem = run(home, files, rng)
            problem = problem or after_kill(home, files)
            temporaries = len(stray_temporaries(home))
            row.record(started, problem)
        documents = len(stored_integrity(home).documents)
    row.note = f"{documents} documents stored at the end; {temporaries} stray .tmp-* originals"
    return row


# ------------------------------------------------------------------------------ the kills


def cli_run(home: Path, files: list[Path], rng: random.Random) -> str | None:
    """``add`` of ``files`` (or, one time in four, ``rm`` of a stored document), killed."""
    stored = stored_integrity(home).documents
    if stored and rng.random() < 0.25:
        arguments = ["rm", rng.choice(stored)[0]]
    else:
        arguments = ["add", "--json", *map(str, files)]
    process = subprocess.Popen(
        [sys.executable, "-c", CLI_LAUNCH, *arguments],
        env=server_env(home),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(rng.uniform(*KILL_WITHIN))
    return kill(process, f"askalong {arguments[0]}")


def server_run(home: Path, files: list[Path], rng: random.Random) -> str | None:
    """``serve`` with uploads and asks under way, killed."""
    with spawned(home) as (server, process):
        stop = threading.Event()
        workers = [
            threading.Thread(target=_uploads, args=(server.url, server.headers, files, stop)),
            threading.Thread(target=_uploads, args=(server.url, server.headers, files[::-1], stop)),
            threading.Thread(target=_asks, args=(server.url, server.headers, stop)),
            threading.Thread(target=_asks, args=(server.url, server.headers, stop)),
        ]
        for worker in workers:
            worker.start()
        time.sleep(rng.uniform(*KILL_WITHIN))
        problem = kill(process, "askalong serve")
        stop.set()
        for worker in workers:
            worker.join(timeout=60)
        return problem


def kill(process: subprocess.Popen[bytes], what: str) -> str | None:
    """``kill -9`` the process; its children (the parser guard) must die with it."""
    children = _children(process.pid)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    deadline = time.monotonic() + 10
    while (alive := [pid for pid in children if _alive(pid)]) and time.monotonic() < deadline:
        time.sleep(0.2)
    if alive:
        for pid in alive:  # ours: the child of the process this run started
            os.kill(pid, signal.SIGKILL)
        return f"{what}: child processes {alive} outlived kill -9 of their parent by 10 s"
    return None


def _children(pid: int) -> list[int]:
    tasks = Path(f"/proc/{pid}/task")
    found: list[int] = []
    for task in tasks.iterdir() if tasks.is_dir() else ():
        with contextlib.suppress(OSError):
            found += [int(p) for p in (task / "children").read_text().split()]
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _uploads(url: str, headers: dict[str, str], files: list[Path], stop: threading.Event) -> None:
    for path in files:
        if stop.is_set():
            return
        try:
            httpx.post(
                url + "/api/documents",
                files={"file": (path.name, path.read_bytes())},
                headers=headers,
                timeout=60,
            )
        except httpx.HTTPError:
            return  # the server is gone: that is the point


def _asks(url: str, headers: dict[str, str], stop: threading.Event) -> None:
    """Questions about whichever documents the library lists, until the server is gone."""
    while not stop.is_set():
        try:
            listed = httpx.get(url + "/api/documents", headers=headers, timeout=60).json()
            for document in listed["documents"][:3]:
                body = {"document_id": document["id"], "question": QUESTION, "stream": False}
                httpx.post(url + "/api/ask", json=body, headers=headers, timeout=60)
            if not listed["documents"]:
                time.sleep(0.1)
        except (httpx.HTTPError, ValueError):
            return


# ------------------------------------------------------------------------------ the check


def after_kill(home: Path, files: list[Path]) -> str | None:
    """The library after a kill: whole on disk, usable through the CLI, re-add works."""
    on_disk = stored_integrity(home)
    if on_disk.problems:
        return "; ".join(on_disk.problems[:3])
    runner = CliRunner(env={"ASKALONG_HOME": str(home), "ASKALONG_EMBEDDER": "none"})
    docs = runner.invoke(cli, ["docs", "--json"])
    if docs.exit_code != 0:
        return f"docs failed after a kill: {docs.output[-300:]!r}"
    listed = {d["id"] for d in json.loads(docs.stdout)["documents"]}
    ids = {doc_id for doc_id, _ in on_disk.documents}
    if listed != ids:
        return f"docs lists {len(listed)} documents, the store holds {len(ids)}"
    if gaps := keyword_gaps(home, ids):
        return f"no keyword entries for {sorted(gaps)} after opening"
    for doc_id in sorted(ids)[:2]:
        shown = runner.invoke(cli, ["show", "--json", doc_id])
        asked = runner.invoke(cli, ["ask", "--json", "--doc", doc_id, QUESTION])
        if shown.exit_code != 0 or asked.exit_code != 0:
            return f"show/ask of {doc_id} failed: {(shown.output + asked.output)[-300:]!r}"
    again = runner.invoke(cli, ["add", "--json", *map(str, files)])
    results = json.loads(again.stdout)["results"] if again.exit_code == 0 else []
    if again.exit_code != 0 or any(r["status"] == "failed" for r in results):
        return f"re-add failed: {again.output[-300:]!r}"
    return None
