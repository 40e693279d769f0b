"""The attack suite's ``freeze`` section (issue 25, §1): writes while the worker embeds.

A real ``askalong serve`` whose worker embeds a long document (300 chunks) slowly: the
job test delay (``ASKALONG_JOB_TEST_DELAY``) holds each 16-chunk batch of its vectors for
``BATCH_DELAY`` seconds, the vector index claimed all along; the vectors come from the
scripted OpenAI-style server (``tests/helpers/chat_server.py``), so no model is loaded.
Against it, bursts of 100 concurrent writes (a delete of a missing id, a small multipart
upload, a visibility change of one document, in turn) with ``GET /api/session`` probed
during each burst, for the budget; then SIGTERM.

A case is one write, one probe or the stop. It fails when a write is not answered within
``ANSWER_WITHIN`` seconds (done, or 503 with ``Retry-After`` and a JSON body) or is
answered with another status, when a probe takes ``SESSION_WITHIN`` or more, or when the
server is not gone ``STOP_WITHIN`` seconds after SIGTERM with the job pending again.
Before the fix, the first delete after a small upload hung until the embedding ended
(minutes), and so did every route once ~40 writes waited.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from askalong.config import load_settings
from askalong.ingest.inputs import Upload
from askalong.jobs.outbox import queue_upload
from askalong.library import Library
from askalong.store.backends import open_store
from askalong.types import Access
from askalong.values.jobs import Job
from attack_common import MAX_EXAMPLES, Row, spawned
from e2e.live import LiveServer

BATCH_DELAY = 30.0  # seconds each batch of the long document's vectors is held
SECTIONS = 300  # chunks of the long document: five batches, minutes of embedding
WRITES = 100  # concurrent writes in a burst
PROBES = 5  # session probes during a burst
ANSWER_WITHIN = 2.0
SESSION_WITHIN = 0.2
STOP_WITHIN = 10.0
MISSING = "/api/documents/ffffffffffff0001"
EXPECTED = {"delete": {404, 503}, "upload": {201, 503}, "visibility": {200, 503}}


@dataclass(frozen=True)
class Answer:
    what: str
    status: int  # 0: no answer (the client gave up, or the connection failed)
    seconds: float
    retry_after: str | None = None
    json: bool = False


@dataclass(frozen=True)
class Burst:
    writes: list[Answer]
    sessions: list[Answer]


def long_notes() -> bytes:
    parts = "\n\n".join(
        f"## Station {i}\n\nThe pump at station {i} feeds valve {i} of the cooling loop."
        for i in range(SECTIONS)
    )
    return f"# Pumps\n\n{parts}\n".encode()


def queue_long_document(home: Path) -> str:
    """The long document queued (its row and job), as a tus upload or ``add --queue`` does."""
    with Library(load_settings(home=home, embedder="none")) as library:
        upload = Upload(long_notes(), source="pumps.md", name="pumps.md")
        outcome = queue_upload(library.ingestor, library.store, upload, Access.local())
    assert outcome.document is not None
    return outcome.document.id


def job_of(home: Path, document_id: str) -> Job:
    with open_store(load_settings(home=home, embedder="none")) as store:
        job = store.job_of(document_id)
    assert job is not None
    return job


def wait_for_embedding(home: Path, document_id: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while (job := job_of(home, document_id)).state != "embedding":
        if time.monotonic() > deadline:
            raise RuntimeError(f"the long document's job never started embedding: {job}")
        time.sleep(0.2)
    time.sleep(0.5)  # the vector index is claimed right after the state is written


@contextmanager
def embedding_server(home: Path) -> Iterator[tuple[LiveServer, subprocess.Popen[bytes], str]]:
    """A server whose worker is embedding the long document (for minutes) when it
    yields: the server, its process, the long document's id."""
    from chat_server import (
        ScriptedChatServer,
    )  # tests/helpers: on the path once attack_common loads

    long_id = queue_long_document(home)
    with ScriptedChatServer(embedding_dimension=8) as embeddings:
        env = {
            "ASKALONG_EMBEDDER": "openai",
            "ASKALONG_EMBED_BASE_URL": embeddings.url,
            "ASKALONG_EMBED_MODEL": "scripted-embedder",
            "ASKALONG_JOB_TEST_DELAY": str(BATCH_DELAY),
            "ASKALONG_JOB_POLL": "0.2",
        }
        with spawned(home, **env) as (server, process):
            wait_for_embedding(home, long_id)
            yield server, process, long_id


def timed(client: httpx.Client, what: str, method: str, path: str, **kwargs: object) -> Answer:
    started = time.monotonic()
    try:
        response = client.request(method, path, **kwargs)  # type: ignore[arg-type]
    except httpx.HTTPError:
        return Answer(what, 0, time.monotonic() - started)
    seconds = time.monotonic() - started
    json = response.headers.get("content-type", "").startswith("application/json")
    return Answer(what, response.status_code, seconds, response.headers.get("retry-after"), json)


def write(client: httpx.Client, number: int, shared_id: str, tag: str) -> Answer:
    """A delete of a missing id, a small upload (its text new: ``tag``) or a visibility
    change, by ``number``."""
    kind = number % 3
    if kind == 0:
        return timed(client, "delete", "DELETE", MISSING)
    if kind == 1:
        note = f"# Note {tag} {number}\n\nValve {number} closes the loop.\n"
        files = {"file": (f"note{number}.md", note.encode())}
        return timed(client, "upload", "POST", "/api/documents", files=files)
    body = {"visibility": "public" if number % 2 else "private"}
    return timed(client, "visibility", "PUT", f"/api/documents/{shared_id}/visibility", json=body)


def shared_document(client: httpx.Client) -> str:
    """A small document of our own, uploaded once: its parse also starts the parser child."""
    added = client.post("/api/documents", files={"file": ("a.md", b"# A\n\nA valve.\n")})
    added.raise_for_status()
    return str(added.json()["document"]["id"])


def burst(client: httpx.Client, shared_id: str, tag: str = "", writes: int = WRITES) -> Burst:
    """``writes`` concurrent writes, the session probed one after another meanwhile."""
    with ThreadPoolExecutor(writes) as pool:
        futures = [pool.submit(write, client, n, shared_id, tag) for n in range(writes)]
        time.sleep(0.3)  # the writes are in flight
        sessions = [timed(client, "session", "GET", "/api/session") for _ in range(PROBES)]
        return Burst([f.result() for f in futures], sessions)


def burst_problems(found: Burst, slack: float = 1.0) -> list[str]:
    """What in ``found`` breaks the promise; ``slack`` stretches both time limits."""
    problems = []
    for answer in found.writes:
        if answer.status not in EXPECTED[answer.what] or answer.seconds > ANSWER_WITHIN * slack:
            problems.append(f"{answer.what} -> {answer.status} in {answer.seconds:.2f} s")
        elif answer.status == 503 and not (answer.retry_after and answer.json):
            problems.append(f"{answer.what} -> 503 without Retry-After or JSON")
    for probe in found.sessions:
        if probe.status != 200 or probe.seconds >= SESSION_WITHIN * slack:
            problems.append(f"session -> {probe.status} in {probe.seconds * 1000:.0f} ms")
    return problems


def stop_problem(process: subprocess.Popen[bytes], home: Path, long_id: str) -> str | None:
    """SIGTERM: the process gone within ``STOP_WITHIN`` s, the long job pending again."""
    sent = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=STOP_WITHIN)
    except subprocess.TimeoutExpired:
        process.kill()  # the run goes on to report it
        process.wait()
        return f"still running {STOP_WITHIN:g} s after SIGTERM"
    job = job_of(home, long_id)
    if job.state != "pending" or job.lease_owner is not None:
        return f"stopped in {time.monotonic() - sent:.1f} s, the job still held: {job.step}"
    return None


def client_of(server: LiveServer) -> httpx.Client:
    limits = httpx.Limits(max_connections=WRITES + PROBES)
    return httpx.Client(
        base_url=server.url, headers=server.headers, timeout=STOP_WITHIN * 2, limits=limits
    )


def load_factor() -> float:
    """Runnable threads per core now (1 on an idle machine): what a shared machine's time
    limits are stretched by (at most 5, so a hang still fails)."""
    return min(5.0, max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1)))


def freeze(seconds: float, rng: random.Random) -> Row:
    """Bursts for the budget (at most while one batch is held), then SIGTERM."""
    row = Row("freeze")
    latencies: list[float] = []
    with tempfile.TemporaryDirectory() as scratch:
        home = Path(scratch) / "home"
        with embedding_server(home) as (server, process, long_id), client_of(server) as client:
            shared_id = shared_document(client)
            deadline = time.perf_counter() + min(seconds, BATCH_DELAY / 2)
            while time.perf_counter() < deadline:
                found = burst(client, shared_id, tag=f"{rng.random():.6f}")
                tally(row, len(found.writes) + len(found.sessions), burst_problems(found))
                latencies += [a.seconds for a in found.writes]
            sent = time.monotonic()
            problem = stop_problem(process, home, long_id)
            stopped = time.monotonic() - sent
            tally(row, 1, [problem] if problem else [])
    row.slowest_ms = max(latencies, default=0.0) * 1000
    row.note = f"{figures(latencies)}; SIGTERM to exit {stopped:.1f} s"
    return row


def tally(row: Row, cases: int, problems: list[str]) -> None:
    row.cases += cases
    row.failures += len(problems)
    row.examples += problems[: max(0, MAX_EXAMPLES - len(row.examples))]


def figures(latencies: list[float]) -> str:
    ms = sorted(t * 1000 for t in latencies) or [0.0]
    p50, p95 = ms[len(ms) // 2], ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    load = os.getloadavg()[0]
    return (
        f"{len(ms)} writes in bursts of {WRITES} while the worker embedded:"
        f" p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {ms[-1]:.0f} ms"
        f" (load average {load:.1f} on {os.cpu_count()} cores)"
    )
