"""Ingestion jobs in one process: queueing is one transaction, claims never overlap, a
stale job is swept back with its half-written rows gone, failures count attempts, and a
re-run stores the same chunks (real stores, real parsers, the real keyword index); the
tests over a ``library`` run on each store backend."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hash_embedder import HashEmbedder

from askalong.cli import main
from askalong.config import Settings, load_settings
from askalong.errors import InputError
from askalong.index.sync import SearchIndexes
from askalong.ingest.inputs import Upload
from askalong.ingest.pipeline import Ingestor
from askalong.jobs.outbox import queue_upload
from askalong.jobs.queue import JobQueue, LeaseLost
from askalong.jobs.steps import JobSteps
from askalong.jobs.worker import Worker
from askalong.library import Library
from askalong.store.backends import open_store
from askalong.types import Access

LOCAL = Access.local()


def note(i: int) -> bytes:
    body = "\n\n".join(f"Paragraph {j} of note {i} about valves and pumps." for j in range(40))
    return f"# Note {i}\n\n{body}\n".encode()


@pytest.fixture
def library(backend_settings: Settings) -> Library:
    """A library over each store backend."""
    with Library(backend_settings) as opened:
        yield opened


def queue(library: Library, data: bytes, name: str = "n.md") -> str:
    outcome = queue_upload(library.ingestor, library.store, Upload(data, name, name), LOCAL)
    assert outcome.document is not None, outcome
    return outcome.document.id


def test_queueing_stores_the_pending_document_and_its_job_once(library: Library) -> None:
    doc_id = queue(library, note(1))
    (document,) = library.store.list_documents(LOCAL)
    assert document.id == doc_id and library.store.chunks(doc_id) == ()
    again = queue_upload(library.ingestor, library.store, Upload(note(1), "x.md", "x.md"), LOCAL)
    assert again.status == "exists"
    (job,) = library.store.jobs()
    assert (job.document_id, job.state, job.attempts) == (doc_id, "pending", 0)


def test_a_bad_file_is_refused_when_queued_and_nothing_is_stored(library: Library) -> None:
    with pytest.raises(InputError, match="not a document"):
        queue(library, b"\x00\x01\x02 not a document", "x.bin")
    assert library.store.list_documents(LOCAL) == [] and library.store.jobs() == []


def test_two_workers_racing_in_threads_never_claim_one_job(
    library: Library, backend_settings: Settings
) -> None:
    ids = {queue(library, note(i), f"{i}.md") for i in range(24)}
    claimed: list[list[str]] = [[], [], [], []]

    def claim_all(mine: list[str]) -> None:
        with open_store(backend_settings) as store:  # a connection of its own, as a process has
            queue_ = JobQueue(store, backend_settings, f"w{len(mine)}-{id(mine)}")
            while (lease := queue_.claim()) is not None:
                mine.append(lease.job.document_id)

    threads = [threading.Thread(target=claim_all, args=(mine,)) for mine in claimed]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    every = [doc for mine in claimed for doc in mine]
    assert sorted(every) == sorted(ids)  # each exactly once
    assert all(job.attempts == 1 and job.state == "parsing" for job in library.store.jobs())


def test_a_stale_job_is_swept_back_without_its_half_written_rows(
    library: Library, backend_settings: Settings
) -> None:
    doc_id = queue(library, note(2))
    first = JobQueue(library.store, backend_settings, "killed")
    lease = first.claim()
    assert lease is not None
    steps = JobSteps(backend_settings, library.store, library.indexes)
    try:
        steps.parse(library.store.get_document(doc_id, LOCAL), lease.beat)  # then "killed"
    finally:
        steps.close()
    written = len(library.store.chunks(doc_id))
    assert written > 1 and doc_id in library.indexes.keyword.document_ids()

    early = JobQueue(library.store, backend_settings, "sweeper")
    assert early.sweep(lambda _: None) == []  # its heartbeat is fresh: left alone
    later = JobQueue(library.store, backend_settings, "sweeper", clock=lambda: time.time() + 601)
    worker = Worker(library, queue=later)
    (swept,) = later.sweep(worker._clean)
    assert swept.document_id == doc_id
    (job,) = library.store.jobs()
    assert job.state == "pending" and "stopped" in job.error and job.lease_owner is None
    assert library.store.chunks(doc_id) == ()
    assert doc_id not in library.indexes.keyword.document_ids()
    with pytest.raises(LeaseLost):  # the old worker, had it lived, writes nothing more
        lease.beat("embedding", 1, 2)

    worker.queue = JobQueue(library.store, backend_settings, "fresh")
    try:
        assert worker.run(threading.Event(), once=True) == 1
    finally:
        worker.close()
    (job,) = library.store.jobs()
    assert job.state == "ready" and job.attempts == 2
    assert len(library.store.chunks(doc_id)) == written


def test_a_job_that_keeps_failing_fails_after_its_attempts_with_the_reason(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASKALONG_JOB_ATTEMPTS", "2")
    with Library(load_settings(home=settings.home)) as library:
        doc_id = queue(library, b"%PDF-1.4\n% a header and nothing else\n", "broken.pdf")
        worker = Worker(library)
        try:
            finished = worker.run(threading.Event(), once=True)
        finally:
            worker.close()
        (job,) = library.store.jobs()
        assert finished == 1 and job.document_id == doc_id
        assert (job.state, job.attempts) == ("failed", 2)
        assert "damaged" in job.error or "PDF" in job.error


def test_running_a_job_again_stores_the_same_chunks(library: Library) -> None:
    doc_id = queue(library, note(3))
    worker = Worker(library)
    try:
        worker.run(threading.Event(), once=True)
        first = library.store.chunks(doc_id)
        library.store.retry_job(doc_id)
        assert library.store.jobs()[0].state == "pending"
        worker.run(threading.Event(), once=True)
    finally:
        worker.close()
    assert library.store.chunks(doc_id) == first and len(first) > 1
    hits = library.indexes.keyword.search("valves pumps note", LOCAL, limit=200)
    assert len({hit.chunk_id for hit in hits}) == len(hits) <= len(first)  # no duplicates


def test_the_cli_queues_shows_state_works_and_retries(settings: Settings, tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_bytes(note(4))
    runner = CliRunner()
    added = runner.invoke(main, ["add", "--queue", str(path), "--json"], catch_exceptions=False)
    assert added.exit_code == 0 and '"queued": 1' in added.output
    listed = runner.invoke(main, ["docs"], catch_exceptions=False)
    assert "pending" in listed.output
    ran = runner.invoke(main, ["worker", "--once"], catch_exceptions=False)
    assert ran.exit_code == 0 and "ready" in ran.output
    shown = runner.invoke(main, ["docs", "--json"], catch_exceptions=False)
    assert '"state": "ready"' in shown.output
    doc_id = shown.output.split('"id": "')[1][:16]
    again = runner.invoke(main, ["retry", doc_id[:6]], catch_exceptions=False)
    assert again.exit_code == 0 and "queued" in again.output
    assert "pending" in runner.invoke(main, ["docs"], catch_exceptions=False).output


def test_a_stopping_worker_puts_its_job_back_between_batches(
    library: Library, evaldata: Path
) -> None:
    """The parser's page reports are relayed to the end of the call (the guard's child is
    never left with an unread answer), then the job is pending again, not failed."""
    paper = min((evaldata / "pdf" / "en_1col").glob("*.pdf"), key=lambda p: p.stat().st_size)
    doc_id = queue(library, paper.read_bytes(), paper.name)
    worker = Worker(library)
    try:
        lease = worker.queue.claim()
        assert lease is not None
        stopping = threading.Event()
        stopping.set()
        worker._stop = stopping  # as ``run`` sets it, asked to stop before the first report
        assert worker.run_job(lease) == 0
        (job,) = library.store.jobs()
        assert (job.state, job.lease_owner) == ("pending", None) and "stopping" in job.error
        worker._stop = threading.Event()
        assert worker.run(threading.Event(), once=True) == 1  # the same parser child, fine
    finally:
        worker.close()
    assert library.store.jobs()[0].state == "ready" and library.store.chunks(doc_id)


def test_a_parsed_document_is_reported_readable_before_the_embedder_loads(
    settings: Settings,
) -> None:
    """Loading the local model takes seconds; the step that says the document can be read
    and asked about must not wait for it (the library page and the first question do)."""
    events: list[object] = []

    def load() -> HashEmbedder:
        events.append("embedder loaded")
        return HashEmbedder()

    with (
        open_store(settings) as store,
        SearchIndexes(settings, store, load) as indexes,
        Ingestor(settings, store, indexes) as ingestor,
    ):
        queued = queue_upload(ingestor, store, Upload(note(5), "n.md", "n.md"), LOCAL)
        assert queued.document is not None
        steps = JobSteps(settings, store, indexes)
        try:
            document = steps.parse(queued.document, lambda *progress: None)
            steps.embed(document, lambda state, done, total: events.append((state, done)))
        finally:
            steps.close()
        chunks = len(store.chunks(document.id))
    assert events[:2] == [("embedding", 0), "embedder loaded"]
    assert events[-1] == ("embedding", chunks) and chunks > 1
