"""An app served by a real uvicorn server on a free loopback port, in a thread of this
process, configured as ``askalong serve`` configures it (for tests that need real
connections: slow clients, streams held open)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from fastapi import FastAPI

from askalong.server.edge import SERVE_TIMEOUTS, EdgeTimeouts
from askalong.server.listen import server_config


@contextmanager
def served(app: FastAPI, timeouts: EdgeTimeouts = SERVE_TIMEOUTS) -> Iterator[int]:
    """Serve ``app`` until the block ends; yields the port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    server = uvicorn.Server(server_config(app, "127.0.0.1", port, timeouts))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started, "the server did not start within 30 s"
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)
