"""Ingestion jobs across real ``askalong worker`` processes: two share the queue (every job
claimed once, every document in the keyword index, whose one writer is a file lock), and
workers killed with SIGKILL mid-embedding and mid-OCR leave every document ``ready`` once,
with the chunks an uninterrupted run stores."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from model_caches import seeded
from samples import scanned_tops

from askalong.config import Settings, load_settings
from askalong.library import Library
from askalong.store.backends import open_store
from askalong.types import Access
from askalong.values.jobs import Job

ASKALONG = [sys.executable, "-c", "from askalong.cli import main; main()"]
QUICK = {  # a dead worker is noticed within seconds, not minutes
    "ASKALONG_JOB_STALE": "4",
    "ASKALONG_JOB_SWEEP": "1",
    "ASKALONG_JOB_HEARTBEAT": "1",
    "ASKALONG_JOB_POLL": "0.2",
}


def environment(home: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, "ASKALONG_HOME": str(home), "ASKALONG_EMBEDDER": "none", **QUICK}
    src = str(Path(__file__).resolve().parents[2] / "src")
    env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")])
    return {**env, **extra}


def run(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([*ASKALONG, *args], env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr + done.stdout
    return done.stdout


@contextmanager
def worker(env: dict[str, str], *args: str) -> Iterator[subprocess.Popen[bytes]]:
    """A worker process in a session of its own, so a kill takes its parser children too."""
    process = subprocess.Popen(
        [*ASKALONG, "worker", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def kill(process: subprocess.Popen[bytes]) -> None:
    os.killpg(process.pid, signal.SIGKILL)  # kill -9: no cleanup, no last heartbeat
    process.wait()


def jobs(home: Path, database_url: str = "") -> list[Job]:
    with open_store(load_settings(home=home, database_url=database_url)) as store:
        return store.jobs()


def wait_for(home: Path, ready: Callable[[list[Job]], bool], seconds: float = 900) -> list[Job]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = jobs(home)
        if ready(found):
            return found
        time.sleep(0.2)
    raise AssertionError(f"timed out; jobs: {[(j.state, j.done, j.total) for j in jobs(home)]}")


def notes(folder: Path, count: int, sections: int = 3) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        body = "\n\n".join(
            f"## Part {j}\n\nNote {i} part {j}: the pump at station {j} feeds valve {i}."
            for j in range(sections)
        )
        path = folder / f"note{i}.md"
        path.write_text(f"# Note {i}\n\n{body}\n", encoding="utf-8")
        paths.append(path)
    return paths


def scan(path: Path, evaldata: Path, pages: int) -> Path:
    path.write_bytes(scanned_tops(evaldata, pages))
    return path


def chunk_counts(home: Path) -> dict[str, int]:
    with Library(load_settings(home=home)) as library:
        store = library.store
        return {d.source: len(store.chunks(d.id)) for d in store.list_documents(Access.local())}


def test_two_worker_processes_claim_each_job_once_and_index_every_document(
    tmp_path: Path, backend_settings: Settings
) -> None:
    """On each store backend: with PostgreSQL, the processes share the queue through it."""
    home, url = backend_settings.home, backend_settings.database_url
    env = environment(home, ASKALONG_DATABASE_URL=url)
    run(env, "add", "--queue", *map(str, notes(tmp_path / "in", 16)))
    with worker(env, "--once") as first, worker(env, "--once") as second:
        assert first.wait(300) == 0 and second.wait(300) == 0
    found = jobs(home, url)
    assert len(found) == 16
    assert all(job.state == "ready" and job.attempts == 1 for job in found), found
    with Library(load_settings(home=home, database_url=url)) as library:
        indexed = library.indexes.keyword.document_ids()
        assert indexed == {job.document_id for job in found}


@pytest.mark.slow
def test_workers_killed_mid_embedding_and_mid_ocr_leave_each_document_ready_once(
    tmp_path: Path, evaldata: Path, model_caches: Path
) -> None:
    inputs = [
        *notes(tmp_path / "in", 1, sections=150),  # 150 chunks: three embedding batches
        scan(tmp_path / "in" / "scan.pdf", evaldata, pages=2),
    ]
    baseline = tmp_path / "baseline"
    plain = environment(baseline)
    run(plain, "add", "--queue", *map(str, inputs))
    run(plain, "worker", "--once")  # uninterrupted, no vectors: the chunks to expect
    expected = chunk_counts(baseline)
    assert len(expected) == 2 and min(expected.values()) > 0

    home = seeded(tmp_path / "home", model_caches)
    slow = environment(home, ASKALONG_EMBEDDER="local", ASKALONG_JOB_TEST_DELAY="1")
    run(slow, "add", "--queue", *map(str, inputs))
    note_job, scan_job = jobs(home)
    with worker(slow) as first:  # killed once a batch of vectors is in, others to come
        wait_for(home, lambda js: js[0].state == "embedding" and 0 < js[0].done < js[0].total)
        kill(first)
    with worker(slow) as second:  # sweeps the note back, reads the scan: killed mid-OCR
        wait_for(home, lambda js: any(j.state == "ocr" and j.done >= 1 for j in js))
        kill(second)
    with worker(slow):
        final = wait_for(home, lambda js: all(j.state == "ready" for j in js))
    assert [j.document_id for j in final] == [note_job.document_id, scan_job.document_id]
    assert all(j.attempts >= 2 for j in final)  # both were taken up again after a kill
    assert chunk_counts(home) == expected
    with Library(load_settings(home=home, embedder="local")) as library:
        vectors = library.indexes.vectors
        assert vectors is not None
        for job in final:
            chunks = library.store.chunks(job.document_id)
            assert set(vectors.index.live_keys(job.document_id)) == {c.id for c in chunks}
            hits = library.indexes.keyword.search(
                "pump station valve", Access.local(), documents=[job.document_id], limit=500
            )
            assert len(hits) == len({h.chunk_id for h in hits})  # no chunk indexed twice


@pytest.mark.parametrize("cached", [False, True], ids=["model built", "model cached"])
def test_a_worker_stopped_by_sigterm_puts_its_job_back_at_once(
    tmp_path: Path, model_caches: Path, cached: bool
) -> None:
    """A service manager's stop (SIGTERM to the process group) mid-embedding, with the
    default stale time: the job is pending again, no lease held, within seconds rather than
    ASKALONG_JOB_STALE (600 s) later, and the worker exits cleanly. With its model cached
    the stop can come while the job's thread loads the model: the process used to abort
    at exit (SIGABRT, in 2 of 6 runs)."""
    home = seeded(tmp_path / "home", model_caches) if cached else tmp_path / "home"
    slow = environment(
        home,
        ASKALONG_EMBEDDER="local",
        ASKALONG_JOB_TEST_DELAY="60",  # asleep in a batch: no heartbeat comes to stop it
        ASKALONG_JOB_STALE="600",
        ASKALONG_JOB_HEARTBEAT="30",
    )
    run(slow, "add", "--queue", *map(str, notes(tmp_path / "in", 1, sections=150)))
    with worker(slow) as running:
        wait_for(home, lambda js: js[0].state == "embedding")
        os.killpg(running.pid, signal.SIGTERM)
        assert running.wait(30) == 0
    (job,) = jobs(home)
    assert (job.state, job.lease_owner) == ("pending", None)
    assert "stopped" in job.error
