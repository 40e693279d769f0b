"""The OCR time budget of one parse, with a stand-in OCR engine as slow as a busy machine
(its pages take the seconds it says on a clock it moves, so nothing sleeps): a page is
started only when a page as slow as the slowest so far ends inside the budget, and the
pages left say they were not read in time, never that OCR should be installed."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from askalong.parse.pdf.parser import parse
from askalong.parse.pdf.printed import Line, PageFrame

SCAN = "pdf/scanned/mineru_small_ocr_zh.pdf"  # eight scanned pages


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class SlowEngine:
    """Reads every page as one line, taking ``seconds`` a page on ``clock``."""

    def __init__(self, clock: Clock, seconds: float) -> None:
        self.clock, self.seconds, self.pages = clock, seconds, 0

    def page_lines(self, page: pdfium.PdfPage, frame: PageFrame) -> tuple[Line, ...]:
        self.clock.now += self.seconds
        self.pages += 1
        return (Line(f"Page text {self.pages}.", 72.0, 72.0, 300.0, 84.0, 11.0, False),)


def test_a_busy_machine_reads_the_pages_that_fit_and_ends_inside_the_budget(
    evaldata: Path,
) -> None:
    clock = Clock()
    engine = SlowEngine(clock, seconds=30.0)
    data = (evaldata / SCAN).read_bytes()
    parsed = parse(data, source="scan.pdf", ocr_budget=80.0, engine=lambda: engine, clock=clock)
    assert engine.pages == 2 and clock.now <= 80.0  # a third page would end at 90 s
    assert parsed.unread_pages == (3, 4, 5, 6, 7, 8)
    assert parsed.notices == (
        "2 of 8 pages were read by OCR; the text may hold errors",
        "6 of 8 pages are scanned images left unread"
        " (not read in time; Read it now in the reader reads it)",
    )


def test_pages_left_for_later_say_so_and_never_ask_to_install_ocr(evaldata: Path) -> None:
    clock = Clock()
    engine = SlowEngine(clock, seconds=30.0)
    data = (evaldata / SCAN).read_bytes()
    parsed = parse(data, source="scan.pdf", ocr_budget=0.0, engine=lambda: engine, clock=clock)
    assert engine.pages == 0 and parsed.unread_pages == tuple(range(1, 9))
    [notice] = parsed.notices
    assert "not read in time" in notice and "install" not in notice


def test_without_the_engine_the_notice_names_the_install_command(evaldata: Path) -> None:
    data = (evaldata / SCAN).read_bytes()
    parsed = parse(data, source="scan.pdf", engine=lambda: None)
    assert parsed.unread_pages == ()  # nothing the reader could read now
    assert "OCR is not installed: pip install 'askalong[ocr]'" in parsed.notices[0]
