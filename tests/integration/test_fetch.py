"""URL fetching against a real HTTP server on localhost."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from askalong.errors import FetchError, TooLarge
from askalong.ingest.fetch import fetch_url

PAGE = b"<html><head><title>T</title></head><body><p>Hello</p></body></html>"


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path.startswith("/trickle"):
            self._trickle()
            return
        routes = {
            "/page": (200, {"Content-Type": "text/html"}, PAGE),
            "/moved": (302, {"Location": "/page"}, b""),
            "/loop": (302, {"Location": "/loop"}, b""),
            "/missing": (404, {}, b"nope"),
            "/big": (200, {}, b"x" * 5000),
        }
        status, headers, body = routes.get(self.path, (500, {}, b""))
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        if self.path != "/chunked":
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _trickle(self) -> None:
        """One byte every 50 ms, in the headers or the body: every read is answered well
        within the per-read timeout, so only a total deadline ends it."""
        head = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Slow: " + b"a" * 400
        body = b"\r\n\r\n" + b"x" * 400
        fast, slow = (b"", head + body) if self.path == "/trickle-headers" else (head, body)
        try:
            self.wfile.write(fast)
            for offset in range(len(slow)):
                self.wfile.write(slow[offset : offset + 1])
                self.wfile.flush()
                time.sleep(0.05)
        except OSError:
            pass  # the client hung up, as it should

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_fetch_follows_redirects(base_url: str) -> None:
    fetched = fetch_url(f"{base_url}/moved", max_bytes=10_000, timeout=5)
    assert fetched.data == PAGE
    assert fetched.url.endswith("/page")
    assert fetched.content_type == "text/html"


def test_redirect_loops_and_http_errors_are_named(base_url: str) -> None:
    with pytest.raises(FetchError, match="redirects"):
        fetch_url(f"{base_url}/loop", max_bytes=10_000, timeout=5)
    with pytest.raises(FetchError, match=r"/missing: the server answered HTTP 404"):
        fetch_url(f"{base_url}/missing", max_bytes=10_000, timeout=5)


def test_size_limit(base_url: str) -> None:
    with pytest.raises(TooLarge, match="over the"):
        fetch_url(f"{base_url}/big", max_bytes=1000, timeout=5)


def test_unreachable_host_is_a_fetch_error() -> None:
    with pytest.raises(FetchError, match="cannot fetch"):
        fetch_url("http://127.0.0.1:9/x", max_bytes=1000, timeout=2)


@pytest.mark.parametrize("path", ["/trickle-headers", "/trickle-body"])
def test_a_trickling_server_is_cut_off_by_the_total_deadline(base_url: str, path: str) -> None:
    with pytest.raises(FetchError, match=rf"{path}: no complete answer within 1 s"):
        fetch_url(f"{base_url}{path}", max_bytes=10_000, timeout=5, total=1)
