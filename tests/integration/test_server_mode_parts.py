"""The server-mode parts together, as the deployment page runs them: PostgreSQL (pgserver),
Redis, S3 (moto), an ``askalong serve`` without a worker thread and an ``askalong worker``
process, each with a home of its own. The server takes a resumable upload, keeps its
pieces and original in the bucket and announces the job through Redis; the worker, idle
with a ten-minute poll, wakes, reads the original from the bucket and makes it ready."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
from moto_server import MotoServer
from redis_server import RedisServer, redis_server

from askalong.wakeups import CHANNEL
from e2e.live import LiveServer, live_server

COMMAND = "import sys; from askalong.cli import main; sys.argv[0] = 'askalong'; main()"
TUS = {"Tus-Resumable": "1.0.0"}
TEXT = ("Relief valves open at eight bar; pumps stop at once. " * 200).encode()
BOUND = 60.0  # seconds: far above a wake-up, far below the ten-minute poll


def wait_for(check: object, what: str) -> object:
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        found = check()  # type: ignore[operator]
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"not within {BOUND:g} s: {what}")


def uploaded(server: LiveServer, data: bytes) -> str:
    """The upload's URL, every byte sent in two pieces."""
    name = base64.b64encode(b"valves.txt").decode()
    headers = {**server.headers, **TUS}
    made = httpx.post(
        server.url + "/api/uploads",
        headers={**headers, "Upload-Length": str(len(data)), "Upload-Metadata": f"filename {name}"},
        timeout=30,
    )
    assert made.status_code == 201, made.text
    url = server.url + made.headers["Location"]
    half = len(data) // 2
    for offset, piece in ((0, data[:half]), (half, data[half:])):
        sent = httpx.patch(
            url,
            content=piece,
            headers={
                **headers,
                "Content-Type": "application/offset+octet-stream",
                "Upload-Offset": str(offset),
            },
            timeout=60,
        )
        assert sent.status_code == 204, sent.text
    return url


def job_state(server: LiveServer) -> str | None:
    listed = httpx.get(server.url + "/api/documents", headers=server.headers, timeout=30).json()
    jobs = [d["job"]["state"] for d in listed["documents"] if d.get("job")]
    return jobs[0] if jobs else None


def subscribed(redis: RedisServer) -> bool:
    return int(dict(redis.client().pubsub_numsub(CHANNEL))[CHANNEL.encode()]) > 0


def test_an_upload_is_read_by_a_worker_elsewhere_woken_through_redis_from_the_bucket(
    tmp_path: Path, s3_bucket: str, moto_s3: MotoServer, postgres_url: str
) -> None:
    with redis_server(tmp_path / "redis") as redis:
        env = {
            **moto_s3.environment(),
            "ASKALONG_DATABASE_URL": postgres_url,
            "ASKALONG_FILES": f"s3://{s3_bucket}/team",
            "ASKALONG_REDIS_URL": redis.url,
            "ASKALONG_SERVE_WORKER": "false",
            "ASKALONG_JOB_POLL": "600",
        }
        worker_home = str(tmp_path / "worker" / "home")
        worker_env = {
            **os.environ,
            **env,
            "ASKALONG_HOME": worker_home,
            "ASKALONG_EMBEDDER": "none",
        }
        log = (tmp_path / "worker.log").open("wb")
        worker = subprocess.Popen(
            [sys.executable, "-c", COMMAND, "worker"], env=worker_env, stdout=log, stderr=log
        )
        try:
            wait_for(lambda: subscribed(redis), "the idle worker subscribes")
            with live_server(tmp_path / "app" / "home", env) as server:
                uploaded(server, TEXT)
                wait_for(lambda: job_state(server) == "ready", "the worker reads the upload")
        finally:
            worker.terminate()
            worker.wait(30)
            log.close()
    keys = moto_s3.keys(s3_bucket)
    assert len(keys) == 1 and keys[0].startswith("team/originals/"), keys  # pieces gone
    assert "ready" in (tmp_path / "worker.log").read_text()
