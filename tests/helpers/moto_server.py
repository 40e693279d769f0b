"""moto's S3 in server mode, a subprocess on a free loopback port: boto3 talks to it over
real HTTP, as it would to MinIO or AWS (only the endpoint differs)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any

import boto3
import pytest

START_SECONDS = 30.0
# The environment boto3 reads; moto takes any credentials.
AWS = {
    "AWS_ACCESS_KEY_ID": "test",
    "AWS_SECRET_ACCESS_KEY": "test",
    "AWS_DEFAULT_REGION": "us-east-1",
}


@dataclass(frozen=True)
class MotoServer:
    endpoint: str

    def environment(self) -> dict[str, str]:
        return {**AWS, "AWS_ENDPOINT_URL": self.endpoint}

    def use(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Point boto3 (in this process and its children) at this server."""
        for name, value in self.environment().items():
            monkeypatch.setenv(name, value)

    def new_bucket(self) -> str:
        name = f"askalong-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)
        return name

    def client(self) -> Any:
        env = self.environment()
        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            region_name=env["AWS_DEFAULT_REGION"],
            aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"],
        )

    def keys(self, bucket: str) -> list[str]:
        listed = self.client().list_objects_v2(Bucket=bucket).get("Contents", [])
        return sorted(entry["Key"] for entry in listed)


@contextmanager
def moto_server() -> Iterator[MotoServer]:
    """Start one; failing to start fails the tests that need it (``.ci/run`` installs
    moto through the dev extra)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)]
    env = {**os.environ, **AWS}
    # Its request log goes to a file: a pipe nobody reads would fill and stop the server.
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_ready(process, port, log)
            yield MotoServer(f"http://127.0.0.1:{port}")
        finally:
            process.kill()
            process.wait(10)


def _wait_ready(process: subprocess.Popen[bytes], port: int, log: IO[bytes]) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)
            error = log.read().decode(errors="replace")
            raise AssertionError(f"moto's server exited at start: {error[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"moto's server did not listen within {START_SECONDS:g} s")
