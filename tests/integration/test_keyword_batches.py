"""Keyword writes in batches (``index/keyword_batch.py``, issue 28): a run of documents is
one commit (tantivy makes a segment per commit, so the segment count counts commits),
every ``batch_documents`` one more, a timer commits what waits, another thread's write
keeps the order, a crash between commits is repaired from the store at the next open, and
a worker finishes a job only once its entries are committed."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import tantivy

from askalong.config import Settings
from askalong.index.keyword import KeywordIndex
from askalong.ingest.inputs import Upload
from askalong.jobs.outbox import queue_upload
from askalong.jobs.worker import Worker
from askalong.library import Library
from askalong.types import Access, Chunk, Document

LOCAL = Access.local()


def document(doc_id: str) -> Document:
    return Document(
        id=doc_id, content_hash=doc_id, title=doc_id, source=f"{doc_id}.txt", format="text",
        language="en", page_count=0, size_bytes=0, created="2026-01-01T00:00:00Z",
        owner="local", visibility="private",
    )  # fmt: skip


def chunks(doc_id: str) -> list[Chunk]:
    return [Chunk(f"{doc_id}:0", doc_id, 0, (), f"pumps and valves {doc_id}")]


def add(index: KeywordIndex, doc_id: str) -> None:
    index.add(document(doc_id), chunks(doc_id))


def segments(folder: Path) -> int:
    """Tantivy's segments in the folder: one per commit until merges (8 at least) start."""
    return int(tantivy.Index.open(str(folder)).searcher().num_segments)


def test_documents_added_in_a_batch_go_in_one_commit(tmp_path: Path) -> None:
    folder = tmp_path / "keyword"
    index = KeywordIndex(folder, batch_seconds=3600)
    with index.batch():
        for n in range(6):
            add(index, f"d{n}")
    assert index.document_ids() == {f"d{n}" for n in range(6)}
    assert segments(folder) == 1  # a commit per document made 6


def test_a_batch_commits_every_n_documents_and_the_rest_at_its_end(tmp_path: Path) -> None:
    folder = tmp_path / "keyword"
    index = KeywordIndex(folder, batch_documents=3, batch_seconds=3600)
    with index.batch():
        for n in range(7):
            add(index, f"d{n}")
        assert index.document_ids() == {f"d{n}" for n in range(6)}  # d6 waits
    assert index.document_ids() == {f"d{n}" for n in range(7)}
    assert segments(folder) == 3


def test_a_timer_commits_what_waits(tmp_path: Path) -> None:
    index = KeywordIndex(tmp_path / "keyword", batch_seconds=0.05)
    with index.batch():
        add(index, "alone")
        deadline = time.monotonic() + 30
        while not index.document_ids() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert index.document_ids() == {"alone"}  # committed before the batch ended


def test_another_threads_write_commits_at_once_after_what_waits(tmp_path: Path) -> None:
    """A removal from a request thread must not be undone by an add a batch held back."""
    index = KeywordIndex(tmp_path / "keyword", batch_seconds=3600)
    with index.batch():
        add(index, "kept")
        add(index, "removed")
        remover = threading.Thread(target=index.delete, args=("removed",))
        remover.start()
        remover.join()
        assert index.document_ids() == {"kept"}  # the waiting add went first, then the delete
    assert index.document_ids() == {"kept"}


# A process that adds notes inside a batch and is killed before the batch commits.
KILLED_MID_BATCH = """
import os, signal, sys
from pathlib import Path
from askalong.library import opened_library
from askalong.types import Access
with opened_library() as library, library.indexes.keyword.batch():
    for path in sorted(Path(sys.argv[1]).glob("*.md")):
        assert library.ingestor.add(str(path), Access.local()).status == "added"
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_crash_between_commits_is_reindexed_from_the_store(
    settings: Settings, tmp_path: Path
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    for n in range(3):
        (notes / f"n{n}.md").write_text(f"# Note {n}\n\nThe gauge{n} reads pressure.\n")
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    killed = subprocess.run([sys.executable, "-c", KILLED_MID_BATCH, str(notes)], env=env)
    assert killed.returncode == -9
    assert KeywordIndex(settings.index_dir / "keyword").document_ids() == set()  # lost
    with Library(settings) as library:  # opening syncs the index with the store
        stored = {d.id for d in library.store.list_documents(LOCAL)}
        assert len(stored) == 3 and library.indexes.keyword.document_ids() == stored
        hits = library.indexes.keyword.search("gauge2 pressure", LOCAL)
        assert hits and hits[0].document_id in stored


def note(n: int) -> bytes:
    return f"# Note {n}\n\nPumps{n} and valves of unit {n}.\n".encode()


def test_a_worker_commits_a_run_of_jobs_once_and_finishes_them_searchable(
    settings: Settings,
) -> None:
    with Library(settings) as library:
        for n in range(4):
            upload = Upload(note(n), f"n{n}.md", f"n{n}.md")
            queue_upload(library.ingestor, library.store, upload, LOCAL)
        worker = Worker(library)
        try:
            lease = worker.queue.claim()
            assert lease is not None
            with library.indexes.keyword.batch():  # as ``run`` holds one
                worker.run_job(lease)  # its steps are done; the job waits for the commit
                (waiting,) = [j for j in library.store.jobs() if j.id == lease.job.id]
                assert waiting.state != "ready"
                assert lease.job.document_id not in library.indexes.keyword.document_ids()
            assert worker.run(threading.Event(), once=True) == 4  # its idle settles all
        finally:
            worker.close()
        assert all(job.state == "ready" for job in library.store.jobs())
        assert len(library.indexes.keyword.document_ids()) == 4
    assert segments(settings.index_dir / "keyword") == 2  # the test's batch, the run's
