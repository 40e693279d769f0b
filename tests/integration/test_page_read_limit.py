"""The time a scanned page may take to read now stretches with the machine's measured
pace (``parse/ocr/pace``), and a page that runs out says it was not read in time."""

from __future__ import annotations

from pathlib import Path

import pytest

from askalong.errors import ParseTimeout
from askalong.parse.ocr.pace import MAX_PACE, REFERENCE_SECONDS, machine_pace
from askalong.parse.pdf.page_read import PageReader

SCAN = "pdf/scanned/linn_2col_scan.pdf"


class Clock:
    """A clock that the timed work moves by ``step`` seconds a run (nothing sleeps)."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        return self.now

    def work(self) -> None:
        self.now += self.step


@pytest.mark.parametrize(("times", "pace"), [(0.5, 1.0), (3.0, 3.0), (50.0, MAX_PACE)])
def test_the_pace_is_how_many_times_slower_than_the_reference(times: float, pace: float) -> None:
    clock = Clock(times * REFERENCE_SECONDS)
    assert machine_pace(clock.work, clock) == pytest.approx(pace)


def test_a_page_on_a_busy_machine_is_given_the_time_at_its_pace() -> None:
    reader = PageReader(timeout=120.0, memory_mb=0, pace=lambda: 3.0)
    assert reader.limit() == 360.0
    reader.close()


def test_a_page_that_runs_out_of_time_says_it_was_not_read_in_time(evaldata: Path) -> None:
    reader = PageReader(timeout=0.05, memory_mb=0, pace=lambda: 2.0)
    try:
        with pytest.raises(ParseTimeout) as caught:
            reader.read(str(evaldata / SCAN), 1, "scan.pdf")
    finally:
        reader.close()
    assert caught.value.message == "page 1 was not read in time (OCR took over 0.1 s)"
