"""DOCX: the body's paragraphs and tables in document order, headings from their styles.

A heading is a paragraph whose style is "Title" or "Heading N", or whose paragraph or
style (up the ``basedOn`` chain) sets an outline level: that is how localized and custom
heading styles ("标题 1", "Überschrift 2") are recognised.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import docx
from docx.document import Document as DocxDocument
from docx.oxml.ns import qn
from docx.styles.style import ParagraphStyle
from docx.table import Table
from docx.text.paragraph import Paragraph
from lxml import etree

from askalong.errors import CorruptDocument, EmptyDocument
from askalong.parse.boundary import parser_boundary
from askalong.parse.flow.builder import OutlineBuilder, clean_text
from askalong.types import ParsedDocument

_HEADING_NAME = re.compile(r"^(heading|标题|標題|überschrift|titre|título|titolo|見出し)\s*(\d)$")
_BODY_TEXT_LEVEL = 9  # w:outlineLvl 9 means "body text", not a heading


def parse(data: bytes, *, source: str) -> ParsedDocument:
    """DOCX bytes -> headings, paragraphs, list items and tables in document order."""
    if not data.strip():
        raise EmptyDocument("the file is empty", source=source)
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises zip, XML and key errors alike
        raise CorruptDocument(f"not a readable DOCX file: {exc}", source=source) from exc
    with parser_boundary("DOCX", source):
        return _parse(document, source)


def _parse(document: DocxDocument, source: str) -> ParsedDocument:
    builder = OutlineBuilder()
    title = ""
    for item in _body_items(document):
        if isinstance(item, Table):
            builder.add("table", _table_text(item))
            continue
        text = clean_text(item.text)
        level = heading_level(item)
        if level is None:
            builder.add("list_item" if _is_list(item) else "paragraph", text)
        elif level == 0:
            title = title or text
            builder.heading(text, 1, rank=0)  # the title encloses the level-1 headings
        else:
            builder.heading(text, level)
    core_title = clean_text(document.core_properties.title or "")
    return builder.build("docx", source=source, title=core_title or title)


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


def heading_level(paragraph: Paragraph) -> int | None:
    """0 for the document title, 1-9 for headings, None for everything else."""
    style = paragraph.style
    name = (style.name or "").strip().lower() if style is not None else ""
    if name == "title":
        return 0
    match = _HEADING_NAME.match(name)
    if match:
        return int(match.group(2))
    level = _outline_level(paragraph._p.pPr) if paragraph._p.pPr is not None else None
    if level is None:
        level = _style_outline_level(style)
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


def _is_list(paragraph: Paragraph) -> bool:
    """Numbered or bulleted: a numbering reference on the paragraph or its style."""
    ppr = paragraph._p.pPr
    if ppr is not None and ppr.find(qn("w:numPr")) is not None:
        return True
    style = paragraph.style
    if style is None:
        return False
    style_ppr = style.element.find(qn("w:pPr"))
    has_numbering = style_ppr is not None and style_ppr.find(qn("w:numPr")) is not None
    return has_numbering or (style.name or "").lower().startswith("list")


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
