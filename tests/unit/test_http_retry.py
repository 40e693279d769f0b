"""The providers' one retry policy: its schedule, its bounds, and ``post_json`` against a
local server that answers with scripted statuses (``chat_server.py``'s ``/rerank``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from itertools import pairwise

import httpx
import pytest
from chat_server import Reply, ScriptedChatServer

from askalong.errors import ProviderError
from askalong.providers.http import (
    MAX_RETRY_AFTER,
    RetriesExhausted,
    Retry,
    RetryPolicy,
    post_json,
    retryable_status,
)

PAYLOAD = {"model": "m", "query": "tides", "documents": ["The moon pulls the sea."]}


@pytest.fixture
def server() -> Iterator[ScriptedChatServer]:
    with ScriptedChatServer() as scripted:
        yield scripted


@pytest.fixture
def client() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=5.0) as opened:
        yield opened


def post(server: ScriptedChatServer, client: httpx.Client, policy: RetryPolicy) -> httpx.Response:
    return post_json(client, server.url + "/rerank", PAYLOAD, policy)


# ---------------------------------------------------------------- the schedule


def test_backoff_doubles_without_a_retry_after() -> None:
    policy = RetryPolicy(attempts=5, backoff=0.5)
    assert [policy.delay(n) for n in range(4)] == [0.5, 1.0, 2.0, 4.0]
    for unusable in ("", "Wed, 21 Oct 2015 07:28:00 GMT", "soon", "nan"):
        assert policy.delay(2, unusable) == 2.0  # our own schedule


def test_retry_after_is_honoured_up_to_one_cap() -> None:
    policy = RetryPolicy(backoff=0.5, max_retry_after=3.0)
    assert policy.delay(0, "2.5") == 2.5
    assert policy.delay(0, "120") == policy.delay(0, "inf") == 3.0
    assert policy.delay(1, "-4") == 0.0
    assert RetryPolicy().delay(0, "3600") == MAX_RETRY_AFTER == 10.0


def test_which_statuses_are_worth_another_try() -> None:
    assert [s for s in (200, 400, 401, 404, 422, 429, 500, 502, 503) if retryable_status(s)] == [
        429,
        500,
        502,
        503,
    ]


def test_attempts_must_be_at_least_one() -> None:
    with pytest.raises(ValueError, match="attempts"):
        RetryPolicy(attempts=0)


# ---------------------------------------------------------------- the loop


def test_gives_up_after_n_attempts_with_the_last_problem() -> None:
    calls: list[float] = []  # when each try started

    def failing() -> str:
        calls.append(time.monotonic())
        raise Retry(f"HTTP 50{len(calls)}")

    with pytest.raises(RetriesExhausted) as caught:
        RetryPolicy(attempts=3, backoff=0.1).run(failing)
    assert len(calls) == 3
    assert (caught.value.attempts, caught.value.problem) == (3, "HTTP 503")
    assert str(caught.value) == "failed after 3 tries (HTTP 503)"
    assert isinstance(caught.value, ProviderError)
    gaps = [b - a for a, b in pairwise(calls)]
    assert gaps[0] >= 0.1 and gaps[1] >= 0.2  # slept between tries, doubling
    assert time.monotonic() - calls[-1] < 0.2  # and not after the last one (0.4 s)


def test_other_errors_are_not_retried() -> None:
    calls = []

    def broken() -> str:
        calls.append(1)
        raise KeyError("not a network problem")

    with pytest.raises(KeyError):
        RetryPolicy(attempts=5, backoff=0.01).run(broken)
    assert len(calls) == 1


# ---------------------------------------------------------------- over HTTP


def test_rate_limit_storm_waits_at_most_the_cap_then_gives_up(
    server: ScriptedChatServer, client: httpx.Client
) -> None:
    server.script_rerank(*[Reply.error(429, "quota", retry_after=120)] * 3)
    started = time.monotonic()
    with pytest.raises(RetriesExhausted, match=r"failed after 3 tries \(HTTP 429\)"):
        post(server, client, RetryPolicy(attempts=3, max_retry_after=0.2))
    # Two waits of the 0.2 s cap; the bound only tells them from two of the 120 s asked.
    assert 0.4 <= time.monotonic() - started < 60
    assert len(server.requests) == 3


def test_a_server_error_then_success_honours_retry_after(
    server: ScriptedChatServer, client: httpx.Client
) -> None:
    server.script_rerank(Reply.error(503, "warming up", retry_after=0.3))
    response = post(server, client, RetryPolicy(attempts=3, backoff=0.01))
    assert response.status_code == 200 and response.json()["results"][0]["index"] == 0
    first, second = server.requests
    assert second.at - first.at >= 0.3 and second.body == first.body == PAYLOAD


def test_a_400_is_returned_at_once(server: ScriptedChatServer, client: httpx.Client) -> None:
    server.script_rerank(Reply.error(400, "bad request"), Reply.rerank([0.5]))
    response = post(server, client, RetryPolicy(attempts=3, backoff=0.01))
    assert response.status_code == 400 and "bad request" in response.text
    assert len(server.requests) == 1


def test_a_refused_connection_is_retried_then_named(client: httpx.Client) -> None:
    with ScriptedChatServer() as closed:
        url = closed.url + "/rerank"
    with pytest.raises(RetriesExhausted, match=r"failed after 2 tries \(ConnectError: "):
        post_json(client, url, PAYLOAD, RetryPolicy(attempts=2, backoff=0.01))
