"""A real AskAlong server on 127.0.0.1 (a subprocess with a private ASKALONG_HOME) and a
real headless Chromium (Debian's package, driven by Playwright), for the e2e tests and the
reader benchmark. Scripts send the install token as a header; the browser opens the tokened
address once (``entry``), as a person opens the one ``askalong serve`` prints."""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from askalong.server.token import install_token

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
ADD = "from askalong.cli import main; main()"
LAUNCH = "from askalong.cli.serve import serve; serve.main(['--port', '{port}'])"


@dataclass(frozen=True)
class LiveServer:
    url: str
    home: Path
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def entry(self, path: str = "/") -> str:
        """``path`` with ``?token=``: the server sets the session cookie and redirects."""
        return f"{self.url}{path}{'&' if '?' in path else '?'}token={self.token}"

    def upload(self, path: Path) -> str:
        """Add a document through the API; returns its id."""
        with path.open("rb") as handle:
            response = httpx.post(
                self.url + "/api/documents",
                files={"file": (path.name, handle)},
                headers=self.headers,
                timeout=120,
            )
        response.raise_for_status()
        document_id: str = response.json()["document"]["id"]
        return document_id

    def upload_zip(self, name: str, entries: dict[str, bytes]) -> dict[str, Any]:
        """Upload ``entries`` (path in the archive -> bytes) as the archive ``name``; the
        answer's JSON (``files``, ``collection``, ``skipped``)."""
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as archive:
            for path, data in entries.items():
                archive.writestr(path, data)
        response = httpx.post(
            self.url + "/api/documents",
            files={"file": (name, out.getvalue())},
            headers=self.headers,
            timeout=120,
        )
        response.raise_for_status()
        answer: dict[str, Any] = response.json()
        return answer

    def structure(self, document_id: str) -> dict[str, object]:
        response = httpx.get(
            f"{self.url}/api/documents/{document_id}", headers=self.headers, timeout=30
        )
        response.raise_for_status()
        structure: dict[str, object] = response.json()
        return structure

    def ask(self, document_id: str, question: str, thread_id: str | None = None) -> dict[str, Any]:
        """A question asked through the API (not streamed): the answer JSON, stored."""
        body = {"document_id": document_id, "question": question, "thread_id": thread_id}
        response = httpx.post(
            self.url + "/api/ask", json={**body, "stream": False}, headers=self.headers, timeout=60
        )
        response.raise_for_status()
        answer: dict[str, Any] = response.json()
        return answer

    def thread(self, thread_id: str) -> httpx.Response:
        return httpx.get(f"{self.url}/api/threads/{thread_id}", headers=self.headers, timeout=30)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def live_server(
    home: Path, env: dict[str, str] | None = None, *, startup: float = 60
) -> Iterator[LiveServer]:
    """A server on ``home``, keyword search only; ``env`` adds settings (``ASKALONG_*``);
    ``startup``: seconds it may take to answer (loading a model at load 20 takes longer)."""
    port = free_port()
    # made here, read by the server: one token for both (unless the settings give it)
    token = (env or {}).get("ASKALONG_API_TOKEN") or install_token(home)
    env = {**os.environ, "ASKALONG_HOME": str(home), "ASKALONG_EMBEDDER": "none", **(env or {})}
    home.parent.mkdir(parents=True, exist_ok=True)
    log = (home.parent / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCH.format(port=port)], env=env, stdout=log, stderr=log
    )
    try:
        url = f"http://127.0.0.1:{port}"
        server = LiveServer(url, home, token)
        _wait_until_up(server, process, startup)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:  # still finishing a batch of vectors, say
            process.kill()
            process.wait()
        log.close()


def add_by_cli(home: Path, *inputs: Path) -> None:
    """``askalong add --no-embed INPUTS`` into ``home`` before its server starts: files and
    folders from the disk, stored by the paths given (a folder becomes a collection)."""
    env = {**os.environ, "ASKALONG_HOME": str(home), "ASKALONG_EMBEDDER": "none"}
    command = [sys.executable, "-c", ADD, "add", "--no-embed", *map(str, inputs)]
    subprocess.run(command, env=env, check=True, capture_output=True)


def _wait_until_up(
    server: LiveServer, process: subprocess.Popen[bytes], timeout: float = 60
) -> None:
    url = server.url
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode}")
        try:
            listed = httpx.get(url + "/api/documents", headers=server.headers, timeout=2)
            if listed.status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer at {url} within {timeout} s")
