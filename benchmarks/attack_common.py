"""What the attack suite's sections share: the ``Row`` each returns, the evaluation data,
a real ``askalong serve`` process that a section may kill, and the library's integrity check.

The live server is the e2e suite's (``tests/e2e/live.py``: a private ``ASKALONG_HOME``,
keyword search only, the install token); ``spawned`` keeps the process handle so the kill
section can ``kill -9`` it where the e2e helper would only stop it politely.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "helpers"))  # the API client, samples, chat server

from askalong.index.keyword import KeywordIndex  # noqa: E402
from askalong.server.token import install_token  # noqa: E402
from e2e.live import LAUNCH, LiveServer, _wait_until_up, free_port  # noqa: E402

MAX_EXAMPLES = 3


@dataclass
class Row:
    """One section's outcome."""

    section: str
    cases: int = 0
    failures: int = 0
    slowest_ms: float = 0.0
    examples: list[str] = field(default_factory=list)
    note: str = ""  # what the section measured beside its cases (the load's latencies)

    def record(self, started: float, problem: str | None) -> None:
        self.cases += 1
        self.slowest_ms = max(self.slowest_ms, (time.perf_counter() - started) * 1000)
        if problem is not None:
            self.failures += 1
            if len(self.examples) < MAX_EXAMPLES:
                self.examples.append(problem)


def server_env(home: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "ASKALONG_HOME": str(home), "ASKALONG_EMBEDDER": "none", **extra}


@contextmanager
def spawned(home: Path, **extra: str) -> Iterator[tuple[LiveServer, subprocess.Popen[bytes]]]:
    """``askalong serve`` on a free port over ``home``; stopped (if still alive) on exit."""
    home.mkdir(parents=True, exist_ok=True)
    port = free_port()
    token = install_token(home)
    with (home.parent / f"server-{port}.log").open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-c", LAUNCH.format(port=port)],
            env=server_env(home, **extra),
            stdout=log,
            stderr=log,
        )
        try:
            server = LiveServer(f"http://127.0.0.1:{port}", home, token)
            _wait_until_up(server, process)
            yield server, process
        finally:
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=30)


# ------------------------------------------------------------------------------ integrity


@dataclass(frozen=True)
class Integrity:
    documents: list[tuple[str, str]]  # (id, content hash) of every stored document
    problems: list[str]


def stored_integrity(home: Path) -> Integrity:
    """Read the store as it lies on disk (no migration, no repair): every document has
    blocks, chunks and its original; no temporary original is left behind."""
    problems: list[str] = []
    database = home / "askalong.sqlite3"
    if not database.exists():
        return Integrity([], [])
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        check = connection.execute("PRAGMA integrity_check").fetchone()[0]
        if check != "ok":
            problems.append(f"integrity_check: {check}")
        rows = connection.execute(
            "SELECT d.id, d.content_hash,"
            " (SELECT count(*) FROM blocks b WHERE b.document_id = d.id),"
            " (SELECT count(*) FROM chunks c WHERE c.document_id = d.id) FROM documents d"
        ).fetchall()
    connection.close()
    for doc_id, content_hash, blocks, chunks in rows:
        if not blocks or not chunks:
            problems.append(f"{doc_id}: half stored ({blocks} blocks, {chunks} chunks)")
        if not (home / "files" / content_hash[:2] / content_hash).is_file():
            problems.append(f"{doc_id}: original {content_hash[:12]} missing")
    return Integrity([(r[0], r[1]) for r in rows], problems)


def stray_temporaries(home: Path) -> list[Path]:
    """Temporary originals a killed write left (``.tmp-*``): litter, not damage."""
    files = home / "files"
    return sorted(files.rglob(".tmp-*")) if files.is_dir() else []


def keyword_gaps(home: Path, document_ids: set[str]) -> set[str]:
    """The stored documents the keyword index holds no entry for."""
    folder = home / "index" / "keyword"
    if not document_ids:
        return set()
    return document_ids - KeywordIndex(folder).document_ids()
