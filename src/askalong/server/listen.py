"""How ``askalong serve`` listens: uvicorn with timeouts a slow client cannot outwait.

uvicorn (0.54) closes idle keep-alive connections but has no deadline for a request's
headers: a client sending one header byte a second holds its connection forever, and each
such byte even cancels the keep-alive timer. ``HeaderDeadlineProtocol`` is uvicorn's h11
protocol plus that deadline: from the connection (or the previous response) the request
line and headers must be complete within ``EdgeTimeouts.header`` seconds, or the
connection is closed. The body's own clock is ``edge.BodyGuard``'s.

On SIGTERM (or Ctrl+C) requests still running after ``GRACEFUL_STOP`` seconds are cut
off, so a stop never waits on a long request; the app's shutdown then stops the worker
and the embedder within seconds (``app.stop_server``).
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI
from uvicorn.protocols.http.h11_impl import H11Protocol

from askalong.server.edge import SERVE_TIMEOUTS, EdgeTimeouts
from askalong.server.presence import announce, withdraw

GRACEFUL_STOP = 2  # seconds running requests get to finish once the server is told to stop


class HeaderDeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers."""

    header_timeout: float = SERVE_TIMEOUTS.header

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        before = self.cycle
        super().handle_events()
        if self.cycle is not before:  # a request's headers are complete
            self._disarm()

    def on_response_complete(self) -> None:
        # Armed first: the call below may start a pipelined request, which disarms it.
        self._arm()
        super().on_response_complete()

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()


def protocol_with(timeouts: EdgeTimeouts) -> type[HeaderDeadlineProtocol]:
    """The protocol class with ``timeouts.header`` as its deadline."""
    if timeouts.header == HeaderDeadlineProtocol.header_timeout:
        return HeaderDeadlineProtocol
    attributes = {"header_timeout": timeouts.header}
    return type("HeaderDeadlineProtocol", (HeaderDeadlineProtocol,), attributes)


def server_config(
    app: FastAPI, host: str, port: int, timeouts: EdgeTimeouts = SERVE_TIMEOUTS
) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=protocol_with(timeouts),
        timeout_keep_alive=timeouts.keep_alive,
        timeout_graceful_shutdown=GRACEFUL_STOP,
    )


class AnnouncedServer(uvicorn.Server):
    """uvicorn's server that says where it listens in ``home`` once it does (the port it
    got, ``--port 0`` too) and takes that back as it stops (``server/presence.py``)."""

    def __init__(self, config: uvicorn.Config, home: Path) -> None:
        super().__init__(config)
        self.home = home

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and self.servers and self.servers[0].sockets:
            port = self.servers[0].sockets[0].getsockname()[1]
            announce(self.home, self.config.host, port)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        withdraw(self.home)
        await super().shutdown(sockets)
