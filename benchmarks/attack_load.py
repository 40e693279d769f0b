"""The attack suite's ``load`` section (issue 11, "the suite"): 30 concurrent askers against a
real ``askalong serve`` for the budget with no ingestion, then the same askers for the same
time while two uploaders add manual pages from ``../shared/evaldata`` one after another.

Every ask is ``POST /api/ask`` (not streamed) about one of the documents stored before the
run, with a question from a fixed list; an error is any answer but 200 or any transport
failure (there must be none). Per phase: asks completed, errors, p50 / p95 / max latency,
documents added. The two phases run in the same process on the same server, so their ratio
is the cost of ingestion to askers. The section takes twice its budget. Keyword search
only (``ASKALONG_EMBEDDER=none``): the shared embedder is not loaded on this 2-core box.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from attack_common import Row, spawned
from e2e.live import LiveServer
from evaldata import EVALDATA

ASKERS = 30
UPLOADERS = 2
MANUAL = EVALDATA / "manuals" / "postgresql-15-html"
STORED = ("sql-select.html", "sql-insert.html", "tutorial-join.html", "datatype-json.html")
QUESTIONS = (
    "What does SELECT DISTINCT do?",
    "How does a LEFT OUTER JOIN treat rows without a match?",
    "How do I insert several rows at once?",
    "What is the difference between json and jsonb?",
    "What does ON CONFLICT DO NOTHING mean?",
    "连接查询是如何工作的？",
)
ASK_TIMEOUT = 120.0


@dataclass
class Phase:
    name: str
    latencies: list[float] = field(default_factory=list)  # seconds, one per completed ask
    errors: list[str] = field(default_factory=list)
    added: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def line(self, seconds: float) -> str:
        ms = sorted(t * 1000 for t in self.latencies) or [0.0]
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        return (
            f"| {self.name} | {len(self.latencies)} | {len(self.errors)} | {self.added} |"
            f" {statistics.median(ms):.0f} | {p95:.0f} | {ms[-1]:.0f} |"
            f" {len(self.latencies) / seconds:.1f} |"
        )


def asker(server: LiveServer, ids: list[str], phase: Phase, until: float, seed: int) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=server.url, headers=server.headers, timeout=ASK_TIMEOUT) as client:
        while time.monotonic() < until:
            body = {"document_id": rng.choice(ids), "question": rng.choice(QUESTIONS)}
            started = time.monotonic()
            try:
                response = client.post("/api/ask", json={**body, "stream": False})
                problem = None if response.status_code == 200 else response.text[:120]
            except httpx.HTTPError as exc:
                problem = repr(exc)
            with phase.lock:
                if problem is None:
                    phase.latencies.append(time.monotonic() - started)
                else:
                    phase.errors.append(f"{body}: {problem}")


def uploader(server: LiveServer, files: list[Path], phase: Phase, until: float) -> None:
    with httpx.Client(base_url=server.url, headers=server.headers, timeout=ASK_TIMEOUT) as client:
        for path in files:
            if time.monotonic() >= until:
                return
            try:
                response = client.post(
                    "/api/documents", files={"file": (path.name, path.read_bytes())}
                )
                problem = None if response.status_code in (200, 201) else response.text[:120]
            except httpx.HTTPError as exc:
                problem = repr(exc)
            with phase.lock:
                if problem is None:
                    phase.added += 1
                else:
                    phase.errors.append(f"upload {path.name}: {problem}")


def run_phase(
    server: LiveServer, ids: list[str], phase: Phase, seconds: float, files: list[Path]
) -> None:
    until = time.monotonic() + seconds
    workers = [
        threading.Thread(target=asker, args=(server, ids, phase, until, n)) for n in range(ASKERS)
    ]
    workers += [
        threading.Thread(target=uploader, args=(server, files[n::UPLOADERS], phase, until))
        for n in range(UPLOADERS if files else 0)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()


def load(seconds: float, rng: random.Random) -> Row:
    row = Row("load")
    pages = sorted(p for p in MANUAL.glob("*.html") if p.name not in STORED)
    rng.shuffle(pages)
    quiet, busy = Phase("askers alone"), Phase("askers + ingestion")
    with tempfile.TemporaryDirectory() as scratch, spawned(Path(scratch) / "home") as (server, _):
        ids = [server.upload(MANUAL / name) for name in STORED]
        run_phase(server, ids, quiet, seconds, [])
        run_phase(server, ids, busy, seconds, pages)
    row.cases = len(quiet.latencies) + len(busy.latencies) + len(quiet.errors) + len(busy.errors)
    row.failures = len(quiet.errors) + len(busy.errors)
    row.examples = (quiet.errors + busy.errors)[:3]
    row.slowest_ms = max(quiet.latencies + busy.latencies, default=0.0) * 1000
    header = (
        "| phase | asks | errors | documents added | p50 (ms) | p95 (ms) | max (ms) | asks/s |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|"
    )
    lines = (quiet.line(seconds), busy.line(seconds))
    row.note = f"{ASKERS} askers, {seconds:g} s a phase\n\n{header}\n" + "\n".join(lines)
    return row
