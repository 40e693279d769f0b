"""Jobs on PostgreSQL with more than one worker: a claim skips a job another claim holds
(``FOR UPDATE SKIP LOCKED``) rather than waiting for it, and a worker whose connections die
mid-job loses that job to the sweep, which hands it to the other worker: every job is done
exactly once, and the first worker, were it to come back, could not touch it. A clock the
test moves stands in for the minutes of ``job_stale``."""

from __future__ import annotations

import dataclasses
import threading

import psycopg
import pytest

from askalong.config import Settings
from askalong.ingest.inputs import Upload
from askalong.jobs.outbox import queue_upload
from askalong.jobs.queue import JobQueue, LeaseLost
from askalong.library import Library
from askalong.store.backends import open_store
from askalong.types import Access

STALE = 60.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def server_settings(settings: Settings, postgres_url: str) -> Settings:
    """Four queued notes in a PostgreSQL database of the test's own."""
    chosen = dataclasses.replace(settings, database_url=postgres_url, job_stale=STALE)
    with Library(chosen) as library:
        for i in range(4):
            data = f"# Note {i}\n\nThe pump at station {i} feeds valve {i}.\n".encode()
            upload = Upload(data, f"n{i}.md", f"n{i}.md")
            assert queue_upload(library.ingestor, library.store, upload, Access.local()).document
    return chosen


def named(settings: Settings, application: str) -> Settings:
    """The settings with connections the server lists as ``application``."""
    url = settings.database_url
    joined = f"{url}{'&' if '?' in url else '?'}application_name={application}"
    return dataclasses.replace(settings, database_url=joined)


def terminate(settings: Settings, application: str) -> None:
    """End, on the server, every connection of ``application``: its machine is gone."""
    with psycopg.connect(settings.database_url, autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
            (application,),
        )


def drain(queue: JobQueue) -> list[str]:
    """Claim and finish jobs until none is left to claim; the ids finished."""
    done = []
    while (lease := queue.claim()) is not None:
        assert lease.finish()
        done.append(lease.job.id)
    return done


def test_a_worker_killed_mid_job_leaves_every_job_done_once(server_settings: Settings) -> None:
    clock = Clock()
    with (
        open_store(named(server_settings, "doomed")) as doomed_store,
        open_store(server_settings) as store,
    ):
        doomed = JobQueue(doomed_store, server_settings, "doomed", clock)
        survivor = JobQueue(store, server_settings, "survivor", clock)
        lease = doomed.claim()
        assert lease is not None
        lease.beat("parsing", 1, 3)  # mid-job
        terminate(server_settings, "doomed")  # its machine is gone, connections and all
        done = drain(survivor)  # the other three, while the dead one's lease runs
        assert len(done) == 3 and lease.job.id not in done
        clock.now += STALE + 1
        assert [job.id for job in survivor.sweep(lambda _document_id: None)] == [lease.job.id]
        done += drain(survivor)
        with pytest.raises(LeaseLost):  # back from the dead, it may not touch the job
            lease.beat("parsing", 2, 3)
        assert not lease.finish()
        jobs = store.jobs()
    assert sorted(done) == sorted(job.id for job in jobs)  # each job finished once
    assert all(job.state == "ready" for job in jobs)
    assert {job.id: job.attempts for job in jobs}[lease.job.id] == 2


def test_a_claim_skips_a_job_another_claim_holds(server_settings: Settings) -> None:
    """Another worker's claim holds the oldest job's row (its transaction still open):
    this claim takes the next job at once instead of waiting to find the first gone."""
    with open_store(server_settings) as store:
        oldest, following = (job.id for job in store.jobs()[:2])
        with psycopg.connect(server_settings.database_url) as holder:
            holder.execute("SELECT 1 FROM jobs WHERE id = %s FOR UPDATE", (oldest,))
            # let the row go after a while: a claim that waited would then take ``oldest``
            releaser = threading.Timer(3.0, holder.rollback)
            releaser.start()
            try:
                claimed = store.claim_job("second", 1_000.0, 1_060.0)
            finally:
                releaser.cancel()
            holder.rollback()
        assert claimed is not None and claimed.id == following
