"""Fetch a web page or PDF by URL: redirects followed, size limited, errors named.

Two clocks bound a fetch: ``timeout`` for each connect and read (a silent server), and
``total`` for the whole exchange (a server trickling a byte a second answers every read
in time and would otherwise hold ``add`` for as long as it likes). The exchange runs as
a coroutine so that the total deadline cancels it wherever it is, headers or body, and
closes the connection.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from askalong.errors import FetchError, TooLarge

if TYPE_CHECKING:
    import httpx

MAX_REDIRECTS = 5


@dataclass(frozen=True)
class Fetched:
    url: str  # the final URL, after redirects
    data: bytes
    content_type: str


def is_url(text: str) -> bool:
    return text.lower().startswith(("http://", "https://"))


def fetch_url(url: str, *, max_bytes: int, timeout: float, total: float = 60.0) -> Fetched:
    """GET ``url`` within ``total`` seconds; raise ``FetchError`` or ``TooLarge`` naming
    the URL. Called from synchronous code (it runs its own event loop)."""
    import httpx  # ~0.25 CPU-s, paid by the commands that fetch, not by every one

    try:
        return _run_alone(asyncio.wait_for(_fetch(url, max_bytes, timeout), total))
    except TimeoutError as exc:
        problem = f"no complete answer within {total:g} s (ASKALONG_FETCH_TOTAL_TIMEOUT)"
        raise FetchError(problem, source=url) from exc
    except httpx.TooManyRedirects as exc:
        raise FetchError(f"more than {MAX_REDIRECTS} redirects", source=url) from exc
    except httpx.HTTPError as exc:
        raise FetchError(f"cannot fetch: {exc.__class__.__name__}: {exc}", source=url) from exc


def _run_alone(download: Coroutine[Any, Any, Fetched]) -> Fetched:
    """Run ``download`` on an event loop of its own: in this thread, or, when this thread
    already runs a loop (a caller inside async code), in a thread of its own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(download)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, download).result()


async def _fetch(url: str, max_bytes: int, timeout: float) -> Fetched:
    import httpx

    headers = {"User-Agent": "AskAlong/0.1"}
    async with (
        httpx.AsyncClient(
            follow_redirects=True, max_redirects=MAX_REDIRECTS, timeout=timeout
        ) as client,
        client.stream("GET", url, headers=headers) as response,
    ):
        _check_status(response, url)
        data = await _read_limited(response, url, max_bytes)
        kind = response.headers.get("content-type", "")
        return Fetched(url=str(response.url), data=data, content_type=kind)


def _check_status(response: httpx.Response, url: str) -> None:
    if response.status_code >= 400:
        raise FetchError(f"the server answered HTTP {response.status_code}", source=url)


async def _read_limited(response: httpx.Response, url: str, max_bytes: int) -> bytes:
    declared = response.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise TooLarge.of(int(declared), max_bytes, source=url)
    parts: list[bytes] = []
    size = 0
    async for part in response.aiter_bytes():
        size += len(part)
        if size > max_bytes:
            raise TooLarge.of(size, max_bytes, source=url)
        parts.append(part)
    return b"".join(parts)
