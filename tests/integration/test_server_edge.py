"""The HTTP edge against a real uvicorn server on loopback, configured as ``askalong serve``
configures it (shorter clocks): body limits on every route, honest without a
Content-Length, and slow clients dropped, in the headers and in the body."""

from __future__ import annotations

import json
import select
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

import pytest
from uvicorn_thread import served

from askalong.config import Settings
from askalong.server.app import create_app
from askalong.server.edge import JSON_BODY_BYTES, EdgeTimeouts
from askalong.server.token import install_token

# Short clocks so that each case takes a second or two.
TIMEOUTS = EdgeTimeouts(header=1.0, keep_alive=1, body_grace=1.0, body_min_rate=1000)
UPLOAD_MB = 2  # the file limit the live server runs with


@dataclass(frozen=True)
class Live:
    port: int
    token: str

    def head(self, method: str, path: str, *extra: str) -> bytes:
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: 127.0.0.1:{self.port}",
            f"Authorization: Bearer {self.token}",
            *extra,
        ]
        return ("\r\n".join(lines) + "\r\n\r\n").encode()

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=10)


@pytest.fixture
def live(settings: Settings) -> Iterator[Live]:
    app = create_app(replace(settings, max_file_mb=UPLOAD_MB), timeouts=TIMEOUTS)
    with served(app, TIMEOUTS) as port:
        yield Live(port, install_token(settings.home))


def read_response(sock: socket.socket) -> tuple[int, dict[str, object]]:
    """Status and JSON body of one response (the server closes or sends it whole)."""
    data = b""
    while b"\r\n\r\n" not in data:
        part = sock.recv(65536)
        assert part, f"connection closed before a response: {data!r}"
        data += part
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length")
    )
    while len(body) < length:
        body += sock.recv(65536)
    return int(head.split()[1]), json.loads(body[:length])


def closed_within(sock: socket.socket, seconds: float, trickle: bytes) -> float | None:
    """Send ``trickle`` a byte every 0.2 s; the seconds until the server hung up, or None."""
    started = time.monotonic()
    for byte in trickle:
        try:
            sock.sendall(bytes([byte]))
        except OSError:
            return time.monotonic() - started
        sock.settimeout(0.2)
        try:
            if sock.recv(65536) == b"":
                return time.monotonic() - started
        except TimeoutError:
            pass
        except OSError:
            return time.monotonic() - started
        if time.monotonic() - started > seconds:
            return None
    return None


def test_a_client_trickling_its_headers_is_dropped(live: Live) -> None:
    with live.connect() as sock:
        sock.sendall(f"GET /api/documents HTTP/1.1\r\nHost: 127.0.0.1:{live.port}\r\n".encode())
        dropped = closed_within(sock, 6, b"X-Slow: " + b"a" * 100)
    assert dropped is not None  # within the 6 s of trickle: the header deadline is 1 s


def test_a_connection_idle_after_a_response_is_dropped(live: Live) -> None:
    with live.connect() as sock:
        sock.sendall(live.head("GET", "/api/documents"))
        assert read_response(sock)[0] == 200
        # The next request's headers trickle: each byte used to cancel the keep-alive timer.
        dropped = closed_within(sock, 6, b"GET /api/documents HTTP/1.1\r\nX-Slow: " + b"a" * 100)
    assert dropped is not None


def test_a_body_trickling_below_the_minimum_rate_gets_408(live: Live) -> None:
    body = json.dumps({"question": "What is this about?" * 5}).encode()
    with live.connect() as sock:
        head = live.head(
            "POST", "/api/ask", "Content-Type: application/json", f"Content-Length: {len(body)}"
        )
        sock.sendall(head)
        for byte in body[:20]:  # at most 4 s of trickle; the 408 comes after about 1 s
            if select.select([sock], [], [], 0.2)[0]:
                break  # answered
            sock.sendall(bytes([byte]))
        status, payload = read_response(sock)
    assert status == 408
    assert "too slowly" in str(payload["error"])


@pytest.mark.parametrize("path", ["/api/ask", "/api/documents", "/api/threads/x"])
def test_a_declared_length_over_the_limit_is_refused_unread(live: Live, path: str) -> None:
    declared = 10 * 1024**3  # 10 GB: over the upload limit too
    with live.connect() as sock:
        sock.sendall(
            live.head("POST", path, "Content-Type: application/json", f"Content-Length: {declared}")
        )
        status, payload = read_response(sock)
    assert status == 413
    assert payload["error"]["type"] == "TooLarge"  # type: ignore[index]


@pytest.mark.parametrize(
    ("path", "content_type", "limit"),
    [
        ("/api/ask", "application/json", JSON_BODY_BYTES),
        ("/api/documents", "multipart/form-data; boundary=b", UPLOAD_MB * 2**20),
    ],
)
def test_a_chunked_body_is_counted_and_cut_off(
    live: Live, path: str, content_type: str, limit: int
) -> None:
    """No Content-Length at all: the bytes are counted as they arrive, and the answer comes
    as soon as the limit is passed (sending stops once it is readable)."""
    chunks = [_chunk(MULTIPART_START if "multipart" in content_type else b'{"question": "')]
    sent, whole = 0, 8 * limit
    with live.connect() as sock:
        head = live.head(
            "POST", path, f"Content-Type: {content_type}", "Transfer-Encoding: chunked"
        )
        sock.sendall(head)
        while sent < whole and not select.select([sock], [], [], 0)[0]:
            data = chunks.pop() if chunks else _chunk(b"a" * 65536)
            sock.sendall(data)
            sent += len(data)
        status, payload = read_response(sock)
    assert status == 413
    assert "over the" in str(payload["error"])
    # Refused near the limit (the socket buffers on loopback hold a few MB more).
    assert sent < whole


MULTIPART_START = (
    b'--b\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\n'
    b"Content-Type: text/plain\r\n\r\n"
)


def _chunk(data: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data)
