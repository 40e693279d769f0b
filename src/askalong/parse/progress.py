"""Progress of a long step, reported as it goes: pages parsed n/N, pages read by OCR n/N,
chunks given vectors n/N.

A parser calls ``report(stage, done, total)``; whoever runs it says where the reports go
with ``reporting(sink)`` (the guarded child sends them to its parent, ``parse/guard.py``),
and nothing happens without one. Reports are throttled (``Throttle``): at most one per
stage every ``INTERVAL`` seconds, the first and the last (``done == total``) always, so a
10,000-page manual sends a few hundred messages, not 10,000.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal, get_args

Stage = Literal["parse", "ocr", "vectors"]
STAGES: tuple[Stage, ...] = get_args(Stage)
INTERVAL = 0.25  # seconds: a progress bar moving four times a second looks continuous


@dataclass(frozen=True)
class Progress:
    stage: Stage
    done: int
    total: int


Sink = Callable[[Progress], None]


class Throttle:
    """Passes a stage's first and last report to ``sink``, others ``interval`` apart."""

    def __init__(self, sink: Sink, interval: float = INTERVAL) -> None:
        self._sink = sink
        self._interval = interval
        self._last: dict[str, float] = {}

    def __call__(self, progress: Progress) -> None:
        now = time.monotonic()
        last = self._last.get(progress.stage)
        if last is None or progress.done >= progress.total or now - last >= self._interval:
            self._last[progress.stage] = now
            self._sink(progress)


_sink: Sink | None = None


def report(stage: Stage, done: int, total: int) -> None:
    """Report ``done`` of ``total`` for ``stage`` to the sink in force, if any."""
    if _sink is not None:
        _sink(Progress(stage, done, total))


@contextmanager
def reporting(sink: Sink, interval: float = INTERVAL) -> Iterator[None]:
    """Send this process's reports to ``sink`` (throttled) while inside."""
    global _sink
    previous, _sink = _sink, Throttle(sink, interval)
    try:
        yield
    finally:
        _sink = previous
