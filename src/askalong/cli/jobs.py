"""Ingestion job commands: ``worker`` (run queued jobs) and ``retry`` (queue one again)."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

import click

from askalong.cli.output import console, err_console, print_json, shown
from askalong.cli.progress import ReindexBar
from askalong.jobs.outbox import retry_document
from askalong.jobs.worker import Worker
from askalong.library import opened_library
from askalong.types import Access
from askalong.wire import document_json


@click.command()
@click.option("--once", is_flag=True, help="Stop when no job is left instead of waiting.")
@click.option(
    "--concurrency",
    type=click.IntRange(1, 16),
    default=1,
    show_default=True,
    help="Jobs run at once in this process (each with its own parser).",
)
def worker(once: bool, concurrency: int) -> None:
    """Run queued ingestion jobs (from `add --queue` and finished uploads), one log line
    per step. Several workers (processes or --concurrency) share the queue safely; a
    worker killed mid-job is noticed by the others' sweep, which queues the job again
    (ASKALONG_JOB_STALE seconds after its last heartbeat)."""
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, _terminated)
    stopped = False
    with opened_library(ReindexBar()) as library:
        workers = [Worker(library, _log, sweeps=i == 0) for i in range(concurrency)]
        threads = [
            threading.Thread(target=w.run, args=(stop,), kwargs={"once": once}, daemon=True)
            for w in workers
        ]
        try:
            for thread in threads:
                thread.start()
            for thread in threads:
                while thread.is_alive():
                    thread.join(0.5)
        except (KeyboardInterrupt, Terminated):
            signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second one ends it at once
            err_console.print("stopping: the jobs at hand go back to the queue...")
            _stopped(stop, workers, threads)
            stopped = True
        finally:
            signal.signal(signal.SIGTERM, previous)
            for w in workers:
                w.close()
    if stopped:
        _exit_now()


def _exit_now() -> None:
    """End a stopped worker without finalising the interpreter: a job stopped while its
    thread was in the embedding model's native code (loading it from a warm cache) left a
    native thread that the process's exit handlers destroyed while still joinable, which
    aborted the process (SIGABRT, "terminate called without an active exception"). Its
    job is back in the queue and the library is closed: nothing is left to finalise."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


STOP_GRACE_SECONDS = 5.0  # for a loop to reach its next heartbeat and put its job back


class Terminated(Exception):
    """SIGTERM reached the worker process (a service manager stopping it)."""


def _terminated(signum: int, frame: object) -> None:
    raise Terminated


def _stopped(stop: threading.Event, workers: list[Worker], threads: list[threading.Thread]) -> None:
    """Stop every loop; a job still held after the grace goes back to the queue now, not
    ASKALONG_JOB_STALE seconds later when a sweep would notice its lease is dead."""
    stop.set()
    for w in workers:
        w.wakeup.set()
    deadline = time.monotonic() + STOP_GRACE_SECONDS
    for thread in threads:
        thread.join(max(deadline - time.monotonic(), 0.0))
    for w in workers:
        w.put_back("the worker was stopped")


def _log(line: str) -> None:
    console.print(shown(line), markup=False, highlight=False)


@click.command()
@click.argument("doc")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see README).")
def retry(doc: str, as_json: bool) -> None:
    """Queue a document (id or id prefix) for ingestion again: a failed job gets fresh
    attempts; `askalong worker` (or a running server) does the work."""
    with opened_library(ReindexBar()) as library:
        document, job = retry_document(library.store, doc, Access.local())
        library.wakeups.announce()
    if as_json:
        print_json({"document": document_json(document, job)})
    else:
        console.print(f"queued {document.id}  {shown(document.title)}  ({job.step})")
