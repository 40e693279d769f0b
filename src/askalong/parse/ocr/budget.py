"""How one parse spends its OCR time: a scanned page is started only when the time a page
takes on this machine, as measured while it reads (the slowest page so far), fits in what
is left of the budget. A busy machine reads fewer pages and leaves the rest unread, with a
notice saying they were not read in time, instead of running past the caller's per-file
time limit, which would lose the whole parse.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class OcrBudget:
    """``seconds`` of OCR from now on ``clock``; ``spend`` times each page it reads."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self.started = clock()
        self.slowest = 0.0  # the longest a page has taken so far

    def fits_a_page(self) -> bool:
        """Whether a page, as slow as the slowest so far, ends inside the budget."""
        left = self.seconds - (self.clock() - self.started)
        return left > 0 and self.slowest <= left

    def spend(self, read: Callable[[], T]) -> T:
        """``read()``, its time taken as the machine's pace when it is the slowest yet."""
        before = self.clock()
        result = read()
        self.slowest = max(self.slowest, self.clock() - before)
        return result
