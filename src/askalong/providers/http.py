"""One retry policy for every provider that calls an HTTP endpoint.

A 429 or 5xx reply, a dropped connection or a timeout is worth another try; any other
reply is the caller's to judge, at once. Tries are bounded; between two, the wait
doubles from ``backoff`` (no jitter), unless the server said ``Retry-After`` in
seconds, which is honoured up to ``max_retry_after``: the worst case is known. Then
``RetriesExhausted`` says how many tries were made and what went wrong last.

An attempt signals a failure worth another try by raising ``Retry``: ``post_json``
does that for an ``httpx`` client; the chat client does it for the OpenAI SDK's errors.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from askalong.errors import ProviderError

if TYPE_CHECKING:
    import httpx

T = TypeVar("T")

MAX_RETRY_AFTER = 10.0  # seconds: never sleep longer on a server's say-so


def retryable_status(status: int) -> bool:
    """Rate limited (429) or a server error (5xx): the same request may succeed later."""
    return status == 429 or status >= 500


class Retry(Exception):
    """Raised by an attempt that failed in a way worth another try."""

    def __init__(self, problem: str, retry_after: str | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.retry_after = retry_after  # the server's Retry-After header, if it sent one


class RetriesExhausted(ProviderError):
    """Every try failed; providers re-raise it naming themselves."""

    def __init__(self, attempts: int, problem: str) -> None:
        super().__init__(f"failed after {attempts} tries ({problem})")
        self.attempts = attempts
        self.problem = problem


@dataclass(frozen=True)
class RetryPolicy:
    """How many times to try one request, and how long to wait between tries."""

    attempts: int = 3  # total tries, the first included
    backoff: float = 0.5  # seconds before the first retry, doubled each time
    max_retry_after: float = MAX_RETRY_AFTER

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError("attempts must be 1 or more")

    def delay(self, attempt: int, retry_after: str | None = None) -> float:
        """Seconds to wait after failed try number ``attempt`` (0 is the first)."""
        try:
            said = float(retry_after or "")
        except ValueError:  # absent, an HTTP date, or junk: our own schedule
            said = math.nan
        if math.isnan(said):
            return float(self.backoff * 2**attempt)
        return min(max(said, 0.0), self.max_retry_after)

    def run(self, attempt: Callable[[], T]) -> T:
        """``attempt()``'s result, trying again while it raises ``Retry``; anything
        else it raises goes straight to the caller."""
        problem = ""
        for number in range(self.attempts):
            try:
                return attempt()
            except Retry as failure:
                problem = failure.problem
                if number + 1 < self.attempts:
                    time.sleep(self.delay(number, failure.retry_after))
        raise RetriesExhausted(self.attempts, problem)


def post_json(client: httpx.Client, url: str, payload: Any, policy: RetryPolicy) -> httpx.Response:
    """POST ``payload`` as JSON, tried as ``policy`` says: the first reply whose status
    is not worth retrying (the caller checks it), or ``RetriesExhausted``."""
    import httpx  # the caller made its client: loaded already, nothing paid here

    def attempt() -> httpx.Response:
        try:
            response = client.post(url, json=payload)
        except httpx.TransportError as exc:  # includes timeouts and refused connections
            raise Retry(f"{type(exc).__name__}: {exc}") from exc
        if retryable_status(response.status_code):
            raise Retry(f"HTTP {response.status_code}", response.headers.get("retry-after"))
        return response

    return policy.run(attempt)
