"""The parser fuzz's seeds: small real files from ``../shared/evaldata``, one list per format.

Small files make fast cases, so large files are cut down first: a PDF to its first page
(and, set again uncompressed from that page's own lines, a copy whose content stream the
mutations can edit as text), a long text to its first ``SEED_BYTES``. The evaluation data has
no DOCX, so DOCX seeds are written with python-docx from real text: a manual page's
headings, paragraphs, list items and tables, and Chinese paragraphs.
"""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path

import pypdfium2 as pdfium

from askalong.parse.flow.html import parse as parse_html
from askalong.parse.pdf.chars import PageFrame, page_lines
from askalong.types import Block

PDFS = (
    "pdf/en_1col/grobid_footnotes_clef2008.pdf",
    "pdf/en_1col/Wang-paperAVE2008.pdf",
    "pdf/en_2col/N18-3011.pdf",
    "pdf/en_2col/mineru_demo3_tableformer.pdf",
    "pdf/zh/elegantpaper-cn.pdf",
    "pdf/zh/xjtu_journal_2col_sample.pdf",
)
RETYPED = PDFS[:4]  # Helvetica has no Chinese: the Latin pages are the ones set again
MANUAL = "manuals/postgresql-15-html"
HTML_PAGES = (
    "sql-select.html", "sql-begin.html", "explicit-locking.html", "xplang.html",
    "hash-index.html", "view-pg-rules.html", "legalnotice.html", "datatype-numeric.html",
)  # fmt: skip
MARKDOWN_FILES = ("README.md", "qa/drcd/README.md")
TEXT_FILES = (
    "pdf/scanned/linn_2col_scan.gt.txt",
    "manuals/gnuplot.COPYRIGHT.debian",
    "manuals/postgresql-15-html/COPYRIGHT.debian",
)
SEED_BYTES = 160_000  # a text cut to this size
PARAGRAPHS = 12  # of a QA set's contexts, per text seed


@cache
def corpus(evaldata: Path) -> dict[str, tuple[bytes, ...]]:
    """Format -> seed files (``detect`` draws on all of them)."""
    seeds = {
        "pdf": tuple(_first_page(evaldata / name) for name in PDFS)
        + tuple(_retyped(evaldata / name) for name in RETYPED),
        "html": tuple((evaldata / MANUAL / name).read_bytes() for name in HTML_PAGES),
        "markdown": tuple((evaldata / name).read_bytes() for name in MARKDOWN_FILES)
        + tuple(_markdown(evaldata / MANUAL / name) for name in HTML_PAGES[:3]),
        "text": _texts(evaldata),
        "docx": (
            *(_docx(evaldata / MANUAL / name) for name in HTML_PAGES[:3]),
            _chinese_docx(evaldata),
        ),
    }
    seeds["detect"] = tuple(seed for files in seeds.values() for seed in files)
    return seeds


def _first_page(path: Path) -> bytes:
    source = pdfium.PdfDocument(path)
    copy = pdfium.PdfDocument.new()
    try:
        copy.import_pages(source, [0])
        buffer = io.BytesIO()
        copy.save(buffer)
    finally:
        copy.close()
        source.close()
    return buffer.getvalue()


def _retyped(path: Path) -> bytes:
    """The first page's printed lines, set again in an uncompressed content stream."""
    from samples import typeset_pdf  # tests/helpers: on the path once attack_common loads

    document = pdfium.PdfDocument(path)
    try:
        page = document[0]
        left, bottom, right, top = page.get_cropbox()
        frame = PageFrame(left, top, right - left, top - bottom)
        textpage = page.get_textpage()
        lines = page_lines(textpage.raw, frame)
        textpage.close()
        page.close()
    finally:
        document.close()
    height = top - bottom
    placed = [(ln.x0, height - ln.bottom, ln.size, ln.bold, ln.text) for ln in lines]
    return typeset_pdf(right - left, height, placed)


def _blocks(page: Path) -> tuple[Block, ...]:
    return parse_html(page.read_bytes(), source=page.name).blocks


def _markdown(page: Path) -> bytes:
    """A manual page written as Markdown: headings, lists, tables, code fences."""
    out: list[str] = []
    for block in _blocks(page):
        if block.kind == "heading":
            out.append("#" * max(1, min(block.heading_level, 6)) + " " + block.text)
        elif block.kind == "list_item":
            out.append("- " + block.text)
        elif block.kind == "code":
            out.append("```sql\n" + block.text + "\n```")
        elif block.kind == "table":
            rows = [f"| {row} |" for row in block.text.split("\n")]
            width = rows[0].count(" | ") + 1
            out.append("\n".join([rows[0], "|" + "---|" * width, *rows[1:]]))
        else:
            out.append(block.text)
    return "\n\n".join(out).encode()


def _texts(evaldata: Path) -> tuple[bytes, ...]:
    files = tuple((evaldata / name).read_bytes()[:SEED_BYTES] for name in TEXT_FILES)
    chinese = "\n\n".join(_contexts(evaldata / "qa/cmrc2018/cmrc2018_trial.json"))
    english = "\n\n".join(_contexts(evaldata / "qa/xquad/xquad.en.json"))
    legacy = (chinese.encode("gb18030"), chinese.encode("utf-16"))
    legacy += (english.encode("cp1252", "replace"),)
    return (*files, chinese.encode(), english.encode(), *legacy)


def _contexts(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    found = [p["context"] for article in data["data"] for p in article["paragraphs"]]
    return found[:PARAGRAPHS]


def _docx(page: Path) -> bytes:
    import docx  # only the DOCX seeds need python-docx

    document = docx.Document()
    for block in _blocks(page):
        if block.kind == "heading":
            document.add_heading(block.text, max(0, min(block.heading_level, 9)))
        elif block.kind == "list_item":
            document.add_paragraph(block.text, style="List Bullet")
        elif block.kind == "table":
            rows = [row.split(" | ") for row in block.text.split("\n")]
            table = document.add_table(rows=len(rows), cols=max(len(r) for r in rows))
            for cells, row in zip(table.rows, rows, strict=True):
                for cell, text in zip(cells.cells, row, strict=False):
                    cell.text = text
        else:
            document.add_paragraph(block.text)
    document.core_properties.title = page.stem
    return _saved(document)


def _chinese_docx(evaldata: Path) -> bytes:
    import docx

    document = docx.Document()
    document.add_heading("第一章 总则", 1)
    for number, text in enumerate(_contexts(evaldata / "qa/cmrc2018/cmrc2018_trial.json")):
        if number % 4 == 0:
            document.add_heading(f"第{number // 4 + 1}节", 2)
        document.add_paragraph(text)
    return _saved(document)


def _saved(document: object) -> bytes:
    buffer = io.BytesIO()
    document.save(buffer)  # type: ignore[attr-defined]
    return buffer.getvalue()
