"""DOCX: the body's paragraphs and tables in document order, headings from their styles.

A heading is a paragraph whose style is "Title" or "Heading N", or whose paragraph or
style (up the ``basedOn`` chain) sets an outline level: that is how localized and custom
heading styles ("标题 1", "Überschrift 2") are recognised. What a style says is worked out
once per style (``_StyleBook``): python-docx finds a paragraph's style by scanning all of
them, so asking it for every paragraph was quadratic.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass

import docx
from docx.document import Document as DocxDocument
from docx.enum.style import WD_STYLE_TYPE
from docx.oxml.ns import qn
from docx.styles.style import ParagraphStyle
from docx.table import Table
from docx.text.paragraph import Paragraph
from lxml import etree

from askalong.errors import CorruptDocument, EmptyDocument, TooLarge
from askalong.parse.boundary import parser_boundary
from askalong.parse.detect import MB, check_inflation
from askalong.parse.flow.builder import OutlineBuilder, clean_text
from askalong.types import ParsedDocument

_HEADING_NAME = re.compile(r"^(heading|标题|標題|überschrift|titre|título|titolo|見出し)\s*(\d)$")
_BODY_TEXT_LEVEL = 9  # w:outlineLvl 9 means "body text", not a heading
BODY_PART = "word/document.xml"
# The body's XML, inflated: at 1-2 s a MB, this much parses well inside ASKALONG_PARSE_TIMEOUT.
MAX_BODY_BYTES = 32 * MB


def parse(data: bytes, *, source: str) -> ParsedDocument:
    """DOCX bytes -> headings, paragraphs, list items and tables in document order."""
    if not data.strip():
        raise EmptyDocument("the file is empty", source=source)
    check_parsable_size(data, source)
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises zip, XML and key errors alike
        raise CorruptDocument(f"not a readable DOCX file: {exc}", source=source) from exc
    with parser_boundary("DOCX", source):
        return _parse(document, source)


def check_parsable_size(data: bytes, source: str) -> None:
    """Refuse, from the ZIP's directory and in no time, a DOCX whose body is too big to
    parse within the time limit (python-docx reads ~1-2 s a MB of its XML: a 170 MB one ran
    out of time after minutes), or that inflates like a ZIP bomb; ``TooLarge`` names the
    file, the size and the limit. A damaged ZIP is left to the parse, which says so."""
    try:
        entries = zipfile.ZipFile(io.BytesIO(data)).infolist()
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError):
        return
    check_inflation(entries, source)
    body = next((e for e in entries if e.filename == BODY_PART), None)
    if body is not None and body.file_size > MAX_BODY_BYTES:
        raise TooLarge(
            f"too large to parse: its text ({BODY_PART}) inflates to"
            f" {body.file_size / MB:,.0f} MB; at most {MAX_BODY_BYTES // MB} MB"
            " (split the document, or save it as PDF)",
            source=source,
        )


def _parse(document: DocxDocument, source: str) -> ParsedDocument:
    builder = OutlineBuilder()
    styles = _StyleBook(document)
    title = ""
    for item in _body_items(document):
        if isinstance(item, Table):
            builder.add("table", _table_text(item))
            continue
        text = clean_text(item.text)
        facts = styles.facts(item)
        level = heading_level(item, facts)
        if level is None:
            builder.add("list_item" if _is_list(item, facts) else "paragraph", text)
        elif level == 0:
            title = title or text
            builder.heading(text, 1, rank=0)  # the title encloses the level-1 headings
        else:
            builder.heading(text, level)
    core_title = clean_text(document.core_properties.title or "")
    return builder.build("docx", source=source, title=core_title or title)


@dataclass(frozen=True)
class StyleFacts:
    """What a paragraph style says about the paragraphs that use it."""

    named_level: int | None  # 0 for "Title", N for "Heading N" (or a translation)
    outline_level: int | None  # w:outlineLvl on the style or up its basedOn chain
    numbered: bool  # a numbering reference, or a "List ..." name


class _StyleBook:
    """Each paragraph style's facts, worked out the first time a paragraph uses it.

    python-docx scans every style to find a paragraph's (and again for the default when
    the paragraph names none): per paragraph, that made a DOCX of many paragraphs and
    styles take seconds (found by the parser fuzz).
    """

    def __init__(self, document: DocxDocument) -> None:
        self._by_id: dict[str, ParagraphStyle] = {}
        for style in document.styles:
            if style.type == WD_STYLE_TYPE.PARAGRAPH and style.style_id is not None:
                self._by_id.setdefault(style.style_id, style)
        self._default = document.styles.default(WD_STYLE_TYPE.PARAGRAPH)
        self._facts: dict[str | None, StyleFacts] = {}

    def facts(self, paragraph: Paragraph) -> StyleFacts:
        style_id = paragraph._p.style
        key = style_id if style_id in self._by_id else None
        if key not in self._facts:
            style = self._by_id[key] if key is not None else self._default
            self._facts[key] = _facts_of(style)
        return self._facts[key]


def _facts_of(style: ParagraphStyle | None) -> StyleFacts:
    name = (style.name or "").strip().lower() if style is not None else ""
    match = _HEADING_NAME.match(name)
    named = 0 if name == "title" else int(match.group(2)) if match else None
    style_ppr = style.element.find(qn("w:pPr")) if style is not None else None
    numbered = style_ppr is not None and style_ppr.find(qn("w:numPr")) is not None
    return StyleFacts(named, _style_outline_level(style), numbered or name.startswith("list"))


def _body_items(document: DocxDocument) -> Iterator[Paragraph | Table]:
    """Paragraphs and tables in order, including those inside content controls."""
    body = document.element.body
    yield from _items_in(body, document)


def _items_in(element: etree._Element, document: DocxDocument) -> Iterator[Paragraph | Table]:
    for child in element.iterchildren():
        if child.tag == qn("w:p"):
            yield Paragraph(child, document)
        elif child.tag == qn("w:tbl"):
            yield Table(child, document)
        elif child.tag == qn("w:sdt"):
            content = child.find(qn("w:sdtContent"))
            if content is not None:
                yield from _items_in(content, document)


def heading_level(paragraph: Paragraph, facts: StyleFacts) -> int | None:
    """0 for the document title, 1-9 for headings, None for everything else."""
    if facts.named_level is not None:
        return facts.named_level
    level = _outline_level(paragraph._p.pPr) if paragraph._p.pPr is not None else None
    if level is None:
        level = facts.outline_level
    return None if level is None or level >= _BODY_TEXT_LEVEL else level + 1


def _outline_level(ppr: etree._Element | None) -> int | None:
    node = ppr.find(qn("w:outlineLvl")) if ppr is not None else None
    value = node.get(qn("w:val")) if node is not None else None
    return int(value) if value is not None and value.isdigit() else None


def _style_outline_level(style: ParagraphStyle | None) -> int | None:
    seen = 0
    while style is not None and seen < 20:  # basedOn chains can loop in damaged files
        level = _outline_level(style.element.find(qn("w:pPr")))
        if level is not None:
            return level
        style, seen = style.base_style, seen + 1
    return None


def _is_list(paragraph: Paragraph, facts: StyleFacts) -> bool:
    """Numbered or bulleted: a numbering reference on the paragraph or its style."""
    ppr = paragraph._p.pPr
    return (ppr is not None and ppr.find(qn("w:numPr")) is not None) or facts.numbered


def _table_text(table: Table) -> str:
    """One line per row, cells joined by `` | ``; a merged cell counts once."""
    rows: list[str] = []
    for row in table.rows:
        cells: list[str] = []
        previous = None
        for cell in row.cells:
            if cell._tc is not previous:  # a horizontally merged cell repeats
                cells.append(clean_text(cell.text))
            previous = cell._tc
        if any(cells):
            rows.append(" | ".join(cells))
    return "\n".join(rows)
