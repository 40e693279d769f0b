"""The per-user request windows' protocol (``server/limits``): one of the aggregates
``Store`` joins (``askalong.store.base``)."""

from __future__ import annotations

from typing import Protocol


class LimitStore(Protocol):
    """Per-user request counts in fixed windows (``server/limits.py`` decides the limit):
    kept in the store so that every server process over one store counts together."""

    def count_request(self, user_id: str, window_start: int) -> int:
        """Count one request of ``user_id`` in the window starting at ``window_start``
        (seconds since the epoch, a multiple of the window's length) and return how many
        that window holds now; a new start begins a new count."""
        ...
