"""Fetch a web page or PDF by URL: redirects followed, size limited, errors named."""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from askalong.errors import FetchError, TooLarge

MAX_REDIRECTS = 5


@dataclass(frozen=True)
class Fetched:
    url: str  # the final URL, after redirects
    data: bytes
    content_type: str


def is_url(text: str) -> bool:
    return text.lower().startswith(("http://", "https://"))


def fetch_url(url: str, *, max_bytes: int, timeout: float) -> Fetched:
    """GET ``url``; raise ``FetchError`` or ``TooLarge`` naming the URL."""
    try:
        with (
            httpx.Client(
                follow_redirects=True, max_redirects=MAX_REDIRECTS, timeout=timeout
            ) as client,
            client.stream("GET", url, headers={"User-Agent": "AskAlong/0.1"}) as response,
        ):
            _check_status(response, url)
            data = _read_limited(response, url, max_bytes)
            kind = response.headers.get("content-type", "")
            return Fetched(url=str(response.url), data=data, content_type=kind)
    except httpx.TooManyRedirects as exc:
        raise FetchError(f"more than {MAX_REDIRECTS} redirects", source=url) from exc
    except httpx.HTTPError as exc:
        raise FetchError(f"cannot fetch: {exc.__class__.__name__}: {exc}", source=url) from exc


def _check_status(response: httpx.Response, url: str) -> None:
    if response.status_code >= 400:
        raise FetchError(f"the server answered HTTP {response.status_code}", source=url)


def _read_limited(response: httpx.Response, url: str, max_bytes: int) -> bytes:
    declared = response.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise TooLarge.of(int(declared), max_bytes, source=url)
    parts: list[bytes] = []
    size = 0
    for part in response.iter_bytes():
        size += len(part)
        if size > max_bytes:
            raise TooLarge.of(size, max_bytes, source=url)
        parts.append(part)
    return b"".join(parts)
