"""A queued scan's notices through the job's steps: the parse leaves its scanned page
unread ("not read in time", never "install OCR"), the OCR step reads it and the notice
goes, for one page as for many. The OCR child is the boundary: a stand-in reads the page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from askalong.config import Settings
from askalong.ingest.inputs import Upload
from askalong.jobs.outbox import queue_upload
from askalong.jobs.steps import JobSteps
from askalong.library import Library
from askalong.types import Access, Block, LineBox

SCAN = "pdf/scanned/linn_2col_scan.pdf"  # one scanned page


class InstantReader:
    def read(self, original: str, page: int, source: str) -> tuple[Block, ...]:
        box = LineBox(72.0, 72.0, 200.0, 84.0, 0, 20)
        return (
            Block(f"p{page}b0", "paragraph", "Recording a Sequence", 0, page=page, boxes=(box,)),
        )

    def close(self) -> None:
        pass


@pytest.fixture
def library(settings: Settings) -> Iterator[Library]:
    with Library(settings) as opened:
        yield opened


def test_a_one_page_scan_read_by_its_job_keeps_no_unread_notice(
    library: Library, settings: Settings, evaldata: Path
) -> None:
    data = (evaldata / SCAN).read_bytes()
    queued = queue_upload(
        library.ingestor, library.store, Upload(data, "scan.pdf", "scan.pdf"), Access.local()
    )
    assert queued.document is not None
    steps = JobSteps(settings, library.store, library.indexes)
    steps.pages.reader = InstantReader()  # type: ignore[assignment]
    try:
        parsed = steps.parse(queued.document, lambda *progress: None)
        assert parsed.unread_pages == (1,)
        [notice] = parsed.notices
        assert "not read in time" in notice and "install" not in notice
        done = steps.ocr(parsed, lambda *progress: None)
    finally:
        steps.close()
    assert done.unread_pages == ()
    assert done.notices == ("1 of 1 pages was read by OCR; the text may hold errors",)
