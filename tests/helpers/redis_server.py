"""A real ``redis-server`` (Debian's package) on a Unix socket in a temporary folder, for
the tests of worker wake-ups; no persistence, so a kill loses what a real outage would."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import redis

START_SECONDS = 20.0


@dataclass(frozen=True)
class RedisServer:
    url: str
    process: subprocess.Popen[bytes]

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url)

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(10)


@contextmanager
def redis_server(folder: Path) -> Iterator[RedisServer]:
    """Start one; its absence fails the test that needs it (``.ci/run`` installs it)."""
    binary = shutil.which("redis-server")
    assert binary, "redis-server is not installed (apt-get install redis-server; see .ci/run)"
    folder.mkdir(parents=True, exist_ok=True)
    socket = folder / "redis.sock"
    command = [binary, "--port", "0", "--unixsocket", str(socket), "--unixsocketperm", "700"]
    command += ["--save", "", "--appendonly", "no", "--dir", str(folder)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    server = RedisServer(f"unix://{socket}", process)
    try:
        _wait_ready(server)
        yield server
    finally:
        if process.poll() is None:
            server.kill()


def _wait_ready(server: RedisServer) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        assert server.process.poll() is None, "redis-server exited at start"
        try:
            if server.client().ping():
                return
        except redis.ConnectionError:
            time.sleep(0.05)
    raise AssertionError(f"redis-server did not answer within {START_SECONDS:g} s")
