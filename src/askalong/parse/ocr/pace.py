"""How fast this machine runs just now against the machine the time limits were set on:
a fixed piece of arithmetic, timed (about 10 ms on one idle core of the development
machine, ``REFERENCE_SECONDS``). A page-reading time limit is stretched by it, so OCR of a
page on a slow or busy machine is given the time it needs there instead of being killed
at a limit measured on an idle one.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

REFERENCE_SECONDS = 0.010
MAX_PACE = 8.0  # past this the machine is stuck rather than busy: the limit stops growing
_RUNS = 3


def arithmetic() -> int:
    """The fixed work that is timed: single-threaded, as a page's OCR is where it waits."""
    total = 0
    for i in range(200_000):
        total += i * i % 7
    return total


def machine_pace(
    work: Callable[[], object] = arithmetic, clock: Callable[[], float] = time.perf_counter
) -> float:
    """How many times slower than the reference ``work`` runs now (1 to ``MAX_PACE``)."""
    taken = []
    for _ in range(_RUNS):
        start = clock()
        work()
        taken.append(clock() - start)
    return min(MAX_PACE, max(1.0, statistics.median(taken) / REFERENCE_SECONDS))
