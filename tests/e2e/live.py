"""A real AskAlong server on 127.0.0.1 (a subprocess with a private ASKALONG_HOME) and a
real headless Chromium (Debian's package, driven by Playwright), for the e2e tests and the
reader benchmark."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--font-render-hinting=none",
]
LAUNCH = "from askalong.cli.serve import serve; serve.main(['--port', '{port}'])"


@dataclass(frozen=True)
class LiveServer:
    url: str
    home: Path

    def upload(self, path: Path) -> str:
        """Add a document through the API; returns its id."""
        with path.open("rb") as handle:
            response = httpx.post(
                self.url + "/api/documents", files={"file": (path.name, handle)}, timeout=120
            )
        response.raise_for_status()
        document_id: str = response.json()["document"]["id"]
        return document_id

    def structure(self, document_id: str) -> dict[str, object]:
        response = httpx.get(f"{self.url}/api/documents/{document_id}", timeout=30)
        response.raise_for_status()
        structure: dict[str, object] = response.json()
        return structure


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def live_server(home: Path) -> Iterator[LiveServer]:
    port = free_port()
    env = {**os.environ, "ASKALONG_HOME": str(home), "ASKALONG_EMBEDDER": "none"}
    log = (home.parent / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCH.format(port=port)], env=env, stdout=log, stderr=log
    )
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_until_up(url, process)
        yield LiveServer(url, home)
    finally:
        process.terminate()
        process.wait(timeout=20)
        log.close()


def _wait_until_up(url: str, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode}")
        try:
            if httpx.get(url + "/api/documents", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer at {url} within {timeout} s")
