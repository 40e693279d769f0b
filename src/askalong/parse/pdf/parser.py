"""PDF bytes -> ParsedDocument, with pypdfium2.

The stages, each in its own module: ``chars`` (characters -> printed lines),
``layout`` (columns, reading order, lines -> blocks), ``text`` (block text with
exact line offsets), ``kinds`` (headers/footers, captions, footnotes, headings and
section paths). This module opens the document, walks the pages and always closes what
it opened, so thousands of files leak nothing.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from askalong.errors import CorruptDocument, EmptyDocument, EncryptedDocument
from askalong.parse.navigation import mark_navigation
from askalong.parse.ocr.budget import OcrBudget
from askalong.parse.ocr.engine import OCR_INSTALL, LineReader, Recognizer, ocr_installed
from askalong.parse.pdf.chars import page_lines
from askalong.parse.pdf.figures import labels_after_captions
from askalong.parse.pdf.geometry import PageGeometry, page_geometry
from askalong.parse.pdf.hyphens import Vocabulary, vocabulary
from askalong.parse.pdf.kinds import Draft, build_blocks, renumbered
from askalong.parse.pdf.layout import reading_order
from askalong.parse.pdf.listings import is_listing, strip_line_numbers
from askalong.parse.pdf.outline import SECTION_DEPTH
from askalong.parse.pdf.page_breaks import join_page_breaks
from askalong.parse.pdf.printed import Line, PageFrame
from askalong.parse.pdf.rotate import turn_blocks
from askalong.parse.pdf.tables import table_text
from askalong.parse.pdf.text import clean_line, join_lines
from askalong.parse.progress import report
from askalong.types import Block, BlockKind, ParsedDocument

# OCR starts no page that would end after this many seconds (as slow as the slowest page
# so far), so one parse of a long scan stays inside the caller's per-file time limit
# (120 s by default); the rest keep a notice.
OCR_BUDGET_SECONDS = 80.0
_SAME_SIZE = 0.6
_SENTENCE_END = ".!?:;。！？：；"
_CJK = re.compile(r"[\u4e00-\u9fff]")
# Stand-in lines from the layout: what their block is.
_ROLE_KINDS: dict[str, BlockKind] = {"table": "table", "formula": "formula", "margin": "header"}
_NOTE_MARKS = re.compile(r"[\s\u2070-\u209f¹²³∗*†‡§]+$")  # footnote marks closing a title
# Why scanned pages are left unread, said in the notice that names them.
_UNREAD_MARK = " left unread ("
_UNREAD_MISSING = f"OCR is not installed: {OCR_INSTALL}"
_UNREAD_OFF = "OCR was off for this file"
_UNREAD_LATE = "not read in time; Read it now in the reader reads it"
_JUNK_TITLE = re.compile(r"^(?:microsoft \w+ - |untitled)|\.(?:dvi|pdf|docx?|tex|indd)$", re.I)


@dataclass(frozen=True)
class Page:
    """One page's geometry and printed lines (``page_read`` reads one on its own too)."""

    number: int  # 1-based
    geometry: PageGeometry
    lines: tuple[Line, ...]
    scanned: bool  # no text but a picture: needs OCR (a blank page does not)
    recognised: bool = False  # its lines come from OCR

    @property
    def frame(self) -> PageFrame:
        return self.geometry.frame

    @property
    def rotation(self) -> int:
        return self.geometry.rotation

    @property
    def size(self) -> tuple[float, float]:
        """(width, height) as displayed."""
        return self.geometry.size


def parse(
    data: bytes,
    *,
    source: str,
    ocr: bool = True,
    ocr_budget: float = OCR_BUDGET_SECONDS,
    engine: Callable[[], LineReader | None] = Recognizer.load,
    clock: Callable[[], float] = time.monotonic,
) -> ParsedDocument:
    """Parse a PDF into blocks in reading order; raise an input error for bad files.

    Image-only pages are read by OCR when ``ocr`` is on and the OCR ``engine`` loads, as
    long as a page fits in what is left of ``ocr_budget`` seconds (``ocr/budget``); pages
    left over are named in a notice that says why they were not read.
    """
    document = _open(data, source)
    try:
        pages = _read_pages(document, source)
        why = _UNREAD_OFF if ocr_installed() else _UNREAD_MISSING
        if ocr and ocr_budget > 0 and any(page.scanned for page in pages):
            recognizer = engine()
            why = _UNREAD_MISSING if recognizer is None else _UNREAD_LATE
            if recognizer is not None:
                pages = _recognise(document, pages, recognizer, OcrBudget(ocr_budget, clock))
        elif ocr and why == _UNREAD_OFF:
            why = _UNREAD_LATE  # no time for OCR here (a job reads the pages one by one)
        metadata_title = _metadata_title(document)
    finally:
        document.close()
    known = vocabulary(clean_line(line.text) for page in pages for line in page.lines)
    blocks = build_blocks([draft for page in pages for draft in page_drafts(page, known)])
    blocks = renumbered(join_page_breaks(turn_blocks(blocks, _turns(pages))))
    blocks = mark_navigation(blocks)
    return ParsedDocument(
        format="pdf",
        blocks=blocks,
        title=metadata_title or heading_title(blocks),
        page_count=len(pages),
        page_sizes=tuple(page.size for page in pages),
        page_turns=_page_turns(pages),
        ocr_pages=tuple(page.number for page in pages if page.scanned),
        unread_pages=_unread(pages) if why != _UNREAD_MISSING else (),
        notices=_ocr_notices(pages, why),
    )


def _open(data: bytes, source: str) -> pdfium.PdfDocument:
    if not data:
        raise EmptyDocument("the file is empty", source=source)
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if exc.err_code == pdfium_c.FPDF_ERR_PASSWORD:
            raise EncryptedDocument("the PDF is password-protected", source=source) from exc
        raise CorruptDocument("the PDF is damaged or truncated", source=source) from exc
    if len(document) == 0:
        document.close()
        raise CorruptDocument("the PDF has no pages", source=source)
    return document


def _read_pages(document: pdfium.PdfDocument, source: str) -> list[Page]:
    pages: list[Page] = []
    for index in range(len(document)):
        report("parse", index, len(document))
        try:
            pages.append(read_page(document, index))
        except pdfium.PdfiumError as exc:
            message = f"page {index + 1} of the PDF cannot be read"
            raise CorruptDocument(message, source=source) from exc
    report("parse", len(pages), len(pages))
    return pages


def read_page(document: pdfium.PdfDocument, index: int) -> Page:
    page = document[index]
    try:
        geometry = page_geometry(page)
        rotation = geometry.rotation
        if rotation:
            # pdfium orders a turned page's text as displayed, some words back to front;
            # read it upright (only this in-memory copy changes) and turn the boxes later.
            page.set_rotation(0)
        textpage = page.get_textpage()
        try:
            found = page_lines(textpage.raw, geometry.frame)
            lines = tuple(line for line in found if line.text.strip())
        finally:
            textpage.close()
        scanned = not lines and _has_image(page)
        if rotation:
            page.set_rotation(rotation)  # OCR renders the page as displayed
    finally:
        page.close()
    return Page(index + 1, geometry, lines, scanned)


def _turns(pages: Sequence[Page]) -> dict[int, tuple[int, float, float]]:
    """Turned pages read from their text (OCR reads the page as rendered, turned)."""
    return {
        page.number: (page.rotation, page.frame.width, page.frame.height)
        for page in pages
        if page.rotation and not page.recognised
    }


def _page_turns(pages: Sequence[Page]) -> tuple[int, ...]:
    """How each page's text lines run on the displayed page; () when all run upright."""
    turns = _turns(pages)
    if not turns:
        return ()
    return tuple(turns[page.number][0] if page.number in turns else 0 for page in pages)


def _unread(pages: Sequence[Page]) -> tuple[int, ...]:
    return tuple(page.number for page in pages if page.scanned and not page.recognised)


def _recognise(
    document: pdfium.PdfDocument, pages: list[Page], recognizer: LineReader, budget: OcrBudget
) -> list[Page]:
    """The pages with OCR lines on scanned pages, as many as the time budget fits."""
    out: list[Page] = []
    scanned, read = sum(page.scanned for page in pages), 0
    report("ocr", 0, scanned)
    for page in pages:
        if page.scanned and budget.fits_a_page():
            lines = budget.spend(functools.partial(ocr_lines, document, page, recognizer))
            page = replace(page, lines=lines, recognised=True)
            read += 1
            report("ocr", read, scanned)
        out.append(page)
    return out


def ocr_lines(document: pdfium.PdfDocument, page: Page, recognizer: LineReader) -> tuple[Line, ...]:
    pdf_page = document[page.number - 1]
    try:
        return recognizer.page_lines(pdf_page, page.frame)
    finally:
        pdf_page.close()


def _has_image(page: pdfium.PdfPage) -> bool:
    images = page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=3)
    return next(images, None) is not None


def page_drafts(page: Page, known: Vocabulary) -> list[Draft]:
    drafts: list[Draft] = []
    lines, listing = strip_line_numbers(page.lines)
    for group in labels_after_captions(_join_continued(reading_order(lines))):
        role = group[0].role
        members = _members(group)
        code = is_listing(members, listing)
        if role == "table":
            joined = table_text(group[0].rows)
        else:
            joined = join_lines(members, known, code=code)
        if not joined.text:
            continue
        size, bold = _font(group)
        kind = "code" if code else _ROLE_KINDS.get(role)
        height = page.frame.height
        drafts.append(Draft(page.number, height, joined.text, joined.boxes, size, bold, kind))
    return drafts


def _members(group: Sequence[Line]) -> list[Line]:
    """The printed lines of a group: a stand-in line gives the lines it stands for."""
    return [member for line in group for row in (line.rows or ((line,),)) for member in row]


def _join_continued(groups: Sequence[tuple[Line, ...]]) -> list[tuple[Line, ...]]:
    """One group for a paragraph that runs on from the foot of a column to the next."""
    joined: list[tuple[Line, ...]] = []
    for group in groups:
        if joined and _continues(joined[-1], group):
            joined[-1] = joined[-1] + group
        else:
            joined.append(group)
    return joined


def _continues(prev: Sequence[Line], group: Sequence[Line]) -> bool:
    last, first = prev[-1], group[0]
    if last.role or first.role:
        return False
    next_column = first.bottom < last.top and first.x0 > last.x1 - 1
    same_font = abs(last.size - first.size) <= _SAME_SIZE and last.bold == first.bold
    if not (next_column and same_font and len(prev) >= 2):
        return False
    end, start = last.text.rstrip()[-1:], first.text.lstrip()[:1]
    if not end or not start or end in _SENTENCE_END:
        return False
    return start.islower() or bool(_CJK.match(end) and _CJK.match(start))


def _font(lines: Sequence[Line]) -> tuple[float, bool]:
    """The size and boldness carrying most of the block's characters."""
    sizes = sorted(lines, key=lambda line: len(line.text), reverse=True)
    bold_chars = sum(len(line.text) for line in lines if line.bold)
    total = sum(len(line.text) for line in lines)
    return sizes[0].size, bold_chars * 2 > total


def _metadata_title(document: pdfium.PdfDocument) -> str:
    title = " ".join(document.get_metadata_value("Title").split())
    return "" if len(title) < 4 or _JUNK_TITLE.search(title) else title


def heading_title(blocks: Sequence[Block]) -> str:
    """The first page's top heading, without the note marks after it ("简介∗", "介绍¹"),
    and without its section number when the other headings are numbered too ("1 Debian
    Edu 12" opening a manual whose next section is "2 关于 Debian Edu")."""
    first_page = [b for b in blocks if b.page == 1 and b.kind == "heading"]
    if not first_page:
        return ""
    top = min(first_page, key=lambda b: (b.heading_level, b.order))
    text = _NOTE_MARKS.sub("", top.text).rstrip()
    headings = (b for b in blocks if b.kind == "heading" and b is not top)
    number = SECTION_DEPTH.match(text)
    if (
        number
        and text[number.end() :].strip()
        and any(SECTION_DEPTH.match(b.text) for b in headings)
    ):
        return text[number.end() :].strip()
    return text


def is_unread_notice(notice: str) -> bool:
    """Whether ``notice`` is the one naming the scanned pages left unread."""
    return _UNREAD_MARK in notice


def _ocr_notices(pages: Sequence[Page], why: str) -> tuple[str, ...]:
    """What OCR did: the pages it read, and the pages left unread with ``why``."""
    total = len(pages)
    read = sum(page.recognised for page in pages)
    left = sum(page.scanned and not page.recognised for page in pages)
    notices: list[str] = []
    if read:
        verb = "was" if read == 1 else "were"
        notices.append(f"{read} of {total} pages {verb} read by OCR; the text may hold errors")
    if left:
        verb = "is a scanned image" if left == 1 else "are scanned images"
        notices.append(f"{left} of {total} pages {verb}{_UNREAD_MARK}{why})")
    return tuple(notices)
