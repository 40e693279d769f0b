"""One scanned page read by OCR on its own, after its document was added: the page the
OCR time budget left unread, when the reader's "Read it now" asks for it.

``read_scanned_page`` is the guarded child's work (the bytes meet pdfium and the OCR
engine only there); ``PageReader`` owns that child. The blocks' ids name the page
(``p3b0``, ``p3b1``, ...), so reading the same page again makes the same blocks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pypdfium2 as pdfium

from askalong.errors import AskAlongError, CorruptDocument, NotFound, ParseTimeout, Unavailable
from askalong.parse.guard import ChildFailure, GuardedChild, parse_failure
from askalong.parse.ocr.engine import OCR_INSTALL, Recognizer
from askalong.parse.ocr.pace import machine_pace
from askalong.parse.pdf.hyphens import vocabulary
from askalong.parse.pdf.kinds import build_blocks
from askalong.parse.pdf.parser import ocr_lines, page_drafts, read_page
from askalong.parse.pdf.text import clean_line
from askalong.types import Block


def read_scanned_page(original: str, page: int, source: str) -> tuple[Block, ...]:
    """The blocks OCR reads on ``page`` (1-based) of the PDF at ``original``."""
    recognizer = Recognizer.load()
    if recognizer is None:
        raise Unavailable(f"text recognition is not installed: {OCR_INSTALL}", source=source)
    try:
        document = pdfium.PdfDocument(original)
    except pdfium.PdfiumError as exc:
        raise CorruptDocument(f"cannot open the PDF: {exc}", source=source) from exc
    try:
        if not 1 <= page <= len(document):
            raise NotFound(
                f"page {page} is not in this document (1-{len(document)})", source=source
            )
        sheet = read_page(document, page - 1)
        sheet = replace(sheet, lines=ocr_lines(document, sheet, recognizer), recognised=True)
    except pdfium.PdfiumError as exc:
        raise CorruptDocument(f"cannot read page {page}: {exc}", source=source) from exc
    finally:
        document.close()
    known = vocabulary(clean_line(line.text) for line in sheet.lines)
    blocks = build_blocks(page_drafts(sheet, known))
    return tuple(replace(block, id=f"p{page}b{i}") for i, block in enumerate(blocks))


class PageReader:
    """Reads single pages in a guarded child: ``memory_mb`` of address space per page and
    ``timeout`` seconds (the parser's limits), stretched by the machine's ``pace`` when a
    page starts (``ocr/pace``): a busy machine gives a page the time it takes there."""

    def __init__(
        self, *, timeout: float, memory_mb: int, pace: Callable[[], float] = machine_pace
    ) -> None:
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.pace = pace
        self._child = GuardedChild(read_scanned_page, memory_mb)

    def limit(self) -> float:
        """Seconds the next page may take: the timeout at this machine's pace now."""
        return self.timeout * self.pace()

    def read(self, original: str, page: int, source: str) -> tuple[Block, ...]:
        limit = self.limit()
        try:
            blocks: tuple[Block, ...] = self._child.call((original, page, source), limit)
        except ChildFailure as failure:
            raise self._failed(failure, page, source, limit) from None
        return blocks

    def _failed(self, failure: ChildFailure, page: int, source: str, limit: float) -> AskAlongError:
        if failure.kind == "timeout":
            message = f"page {page} was not read in time (OCR took over {limit:.3g} s)"
            return ParseTimeout(message, source=source)
        error = parse_failure(failure, source, limit, self.memory_mb)
        return type(error)(f"page {page}: {error.message}", source=source)

    def close(self) -> None:
        self._child.close()
