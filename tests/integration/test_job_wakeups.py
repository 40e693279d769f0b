"""Idle workers woken through a real Redis (ASKALONG_REDIS_URL): a job queued by another
process's command reaches a worker whose poll interval is a minute; with Redis killed the
workers fall back to polling the database and every job still finishes."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from redis_server import RedisServer, redis_server

from askalong.cli import main
from askalong.config import Settings, load_settings
from askalong.jobs.worker import Worker
from askalong.library import Library
from askalong.wakeups import CHANNEL

BOUND = 30.0  # seconds: far above a wake-up, far below the minute-long poll below


@pytest.fixture(scope="session")
def shared_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    with redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


def note(i: int) -> bytes:
    return f"# Note {i}\n\nValves and pumps, paragraph {i}.\n".encode()


def add_queued(tmp_path: Path, i: int) -> None:
    """``askalong add --queue`` as another process runs it: its own library and store."""
    path = tmp_path / f"note-{i}.md"
    path.write_bytes(note(i))
    added = CliRunner().invoke(main, ["add", "--queue", str(path)], catch_exceptions=False)
    assert added.exit_code == 0, added.output


def wait_until(done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + BOUND
    while not done():
        assert time.monotonic() < deadline, f"not within {BOUND:g} s: {what}"
        time.sleep(0.05)


class Running:
    """A worker loop in a thread, its log kept in order."""

    def __init__(self, settings: Settings) -> None:
        self.library = Library(settings)
        self.lines: list[str] = []
        self.worker = Worker(self.library, self.lines.append)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.worker.run, args=(self.stop,), daemon=True)

    def __enter__(self) -> Running:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.worker.wakeup.set()
        self.thread.join(BOUND)
        self.worker.close()
        self.library.close()

    def ready(self) -> int:
        return sum(job.state == "ready" for job in self.library.store.jobs())


def subscribers(server: RedisServer) -> int:
    return int(dict(server.client().pubsub_numsub(CHANNEL))[CHANNEL.encode()])


def redis_settings(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, url: str, poll: float
) -> Settings:
    monkeypatch.setenv("ASKALONG_REDIS_URL", url)  # the queueing command's too
    monkeypatch.setenv("ASKALONG_JOB_POLL", str(poll))
    return load_settings(home=settings.home)


def test_an_idle_worker_wakes_when_another_process_queues_a_job(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, shared_redis: RedisServer
) -> None:
    woken = redis_settings(settings, monkeypatch, shared_redis.url, poll=600.0)
    before = subscribers(shared_redis)
    with Running(woken) as running:
        wait_until(lambda: subscribers(shared_redis) > before, "the worker subscribes")
        assert running.lines == []  # idle: it found nothing to do
        add_queued(tmp_path, 1)
        wait_until(lambda: running.ready() == 1, "the queued job is read by the idle worker")
    assert [line.split()[1] for line in running.lines] == ["parsing", "embedding", "ready"]


def test_with_redis_killed_mid_run_every_job_still_finishes(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with redis_server(tmp_path / "redis") as server:
        polled = redis_settings(settings, monkeypatch, server.url, poll=0.2)
        with Running(polled) as running:
            add_queued(tmp_path, 1)
            wait_until(lambda: running.ready() == 1, "the first job, with Redis up")
            server.kill()
            for i in (2, 3):
                add_queued(tmp_path, i)  # announcing to a dead Redis is no error
            wait_until(lambda: running.ready() == 3, "the jobs queued after Redis died")
    assert any("redis unreachable" in line for line in running.lines), running.lines
