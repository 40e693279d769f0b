"""Waking idle workers on every machine when a job is queued (``ASKALONG_REDIS_URL``).

The job table stays the truth: Redis carries only "look now" (a pub/sub message on one
channel), so a message lost to a restart or a network cut costs a poll interval, never a
job. Whoever queues a job announces it after the commit; every idle worker subscribes
and, woken, claims in the database (where only one wins). A Redis outage is logged once
and the workers poll every ``ASKALONG_JOB_POLL`` seconds until it is back; it never
raises. With no URL every call here does nothing and the workers poll as before.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

from askalong.errors import ConfigError

CHANNEL = "askalong:jobs"
SUBSCRIBED_WAIT = 2.0  # seconds a worker waits for its subscription before its first claim
LISTEN_TICK = 1.0  # seconds between the listener's looks at its stop flag
RETRY_SECONDS = 2.0  # between attempts to reach Redis again after an outage
SERVER_INSTALL = "pip install 'askalong[server]'"
_log = logging.getLogger(__name__)

Log = Callable[[str], None]


def redis_module() -> ModuleType:
    """The ``redis`` client package, or a ``ConfigError`` naming the extra to install."""
    try:
        import redis
    except ImportError as exc:
        raise ConfigError(
            f"ASKALONG_REDIS_URL needs the redis client: {SERVER_INSTALL}", source="redis"
        ) from exc
    return redis


class JobWakeups:
    """Announcing queued jobs and listening for them, over Redis when ``url`` is set."""

    def __init__(self, url: str, log: Log | None = None) -> None:
        self.url = url
        self.log = log or _log.warning
        self._redis = redis_module() if url else None
        self._client: Any = None
        self._down = threading.Event()  # set while Redis is unreachable (logged once)

    @property
    def enabled(self) -> bool:
        return self._redis is not None

    def _connect(self) -> Any:
        assert self._redis is not None
        return self._redis.Redis.from_url(
            self.url, socket_connect_timeout=RETRY_SECONDS, socket_timeout=RETRY_SECONDS
        )

    def announce(self) -> None:
        """Tell idle workers a job is waiting (call after the commit that queued it)."""
        if self._redis is None:
            return
        try:
            if self._client is None:
                self._client = self._connect()
            self._client.publish(CHANNEL, b"1")
            self._reached()
        except self._redis.RedisError as exc:
            self._unreachable(exc)

    def listen(self, wake: Callable[[], None], stop: threading.Event) -> threading.Thread | None:
        """A thread calling ``wake`` on each announcement until ``stop``; returned once
        subscribed (or after ``SUBSCRIBED_WAIT`` when Redis is down), so an announcement
        made after this returns is never missed. None without Redis."""
        if self._redis is None:
            return None
        subscribed = threading.Event()
        thread = threading.Thread(
            target=self._listen, args=(wake, stop, subscribed), name="askalong-wakeups"
        )
        thread.daemon = True
        thread.start()
        subscribed.wait(SUBSCRIBED_WAIT)
        return thread

    def _listen(
        self, wake: Callable[[], None], stop: threading.Event, subscribed: threading.Event
    ) -> None:
        assert self._redis is not None
        while not stop.is_set():
            try:
                with self._connect().pubsub(ignore_subscribe_messages=True) as pubsub:
                    pubsub.subscribe(CHANNEL)
                    pubsub.get_message(timeout=RETRY_SECONDS)  # the subscription's reply
                    subscribed.set()
                    self._reached()
                    wake()  # what was announced while this was not listening
                    self._relay(pubsub, wake, stop)
            except self._redis.RedisError as exc:
                self._unreachable(exc)
                stop.wait(RETRY_SECONDS)

    def _relay(self, pubsub: Any, wake: Callable[[], None], stop: threading.Event) -> None:
        while not stop.is_set():
            if pubsub.get_message(timeout=LISTEN_TICK) is not None:
                wake()

    def _unreachable(self, exc: Exception) -> None:
        if not self._down.is_set():
            self._down.set()
            self.log(f"redis unreachable ({exc}): workers poll the database until it is back")

    def _reached(self) -> None:
        if self._down.is_set():
            self._down.clear()
            self.log("redis reachable again: idle workers are woken at once")

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
