"""Test inputs made on the fly (no fixtures checked into the repo)."""

from __future__ import annotations

import hashlib
import io
import shutil
import zipfile
import zlib
from functools import cache
from pathlib import Path

import pypdfium2 as pdfium

from askalong.parse.pdf.parser import parse
from askalong.types import Block

# Eight pages of the PostgreSQL manual on transactions: a small real collection.
MANUAL_PAGES = (
    "explicit-locking.html",
    "mvcc-intro.html",
    "mvcc.html",
    "sql-begin.html",
    "sql-commit.html",
    "sql-rollback.html",
    "sql-set-transaction.html",
    "transaction-iso.html",
)


def manual_folder(evaldata: Path, parent: Path, name: str = "pg-transactions") -> Path:
    """A folder ``name`` under ``parent`` holding ``MANUAL_PAGES`` copied from the
    PostgreSQL manual in the evaluation data."""
    manual = evaldata / "manuals" / "postgresql-15-html"
    folder = parent / name
    folder.mkdir(parents=True)
    for page in MANUAL_PAGES:
        shutil.copyfile(manual / page, folder / page)
    return folder


def scanned_tops(evaldata: Path, pages: int, share: float = 0.15) -> bytes:
    """A scanned PDF of ``pages`` copies of the top ``share`` of a real scanned page (the
    two-column ``linn_2col_scan.pdf``; 0.15: its title and a few lines): OCR reads such a
    page in seconds, not the minute a whole page takes on a busy machine."""
    source = pdfium.PdfDocument(evaldata / "pdf" / "scanned" / "linn_2col_scan.pdf")
    out = pdfium.PdfDocument.new()
    out.import_pages(source, [0] * pages)
    for index in range(pages):
        left, bottom, right, top = out[index].get_mediabox()
        out[index].set_mediabox(left, top - (top - bottom) * share, right, top)
    buffer = io.BytesIO()
    out.save(buffer)
    return buffer.getvalue()


@cache
def parsed_pdf_blocks(path: Path) -> tuple[Block, ...]:
    """The blocks of a real PDF as parsed without OCR, once per test session."""
    return tuple(parse(path.read_bytes(), source=path.name, ocr=False).blocks)


def encrypted_pdf() -> bytes:
    """A one-page PDF under the standard security handler (RC4, revision 2), user
    password "secret": Algorithms 3.2-3.4 of the PDF 1.7 reference."""
    pad = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")
    doc_id = hashlib.md5(b"askalong").digest()
    owner_key = hashlib.md5((b"owner" + pad)[:32]).digest()[:5]
    o_value = _rc4(owner_key, (b"secret" + pad)[:32])
    permissions = (-4).to_bytes(4, "little", signed=True)
    key = hashlib.md5((b"secret" + pad)[:32] + o_value + permissions + doc_id).digest()[:5]
    u_value = _rc4(key, pad)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
        b"<< /Filter /Standard /V 1 /R 2 /O <"
        + o_value.hex().encode()
        + b"> /U <"
        + u_value.hex().encode()
        + b"> /P -4 >>",
    ]
    trailer = b"/Encrypt 4 0 R /ID [<%s> <%s>]" % (doc_id.hex().encode(), doc_id.hex().encode())
    return _assemble(objects, trailer)


def sized_pdf(*sizes: tuple[float, float], text: str = "A page of plain text.") -> bytes:
    """A PDF with one page per ``(width, height)`` in points, each with ``text`` in
    Helvetica at its top left: pages of any shape, with text so that no page needs OCR."""
    return _pages_pdf([(size, _stream(_text_at_top(text, size[1]))) for size in sizes])


def slow_page_pdf(fills: int, text: str = "A page of plain text.") -> bytes:
    """Two letter pages with ``text``; the second also fills itself ``fills`` times, its
    content stream deflated: a few KB that pdfium takes about a second per 5,000 fills
    to draw, while reading its text stays fast."""
    content = _text_at_top(text, 792.0) + b"\n" + b"0 0 612 792 re f\n" * fills
    bomb = _stream(zlib.compress(content, 9), b"/Filter /FlateDecode")
    letter = (612.0, 792.0)
    return _pages_pdf([(letter, _stream(_text_at_top(text, 792.0))), (letter, bomb)])


def page_break_pdf() -> bytes:
    """Two letter pages whose paragraph runs on across the break, as a manual sets one:
    page 1 ends "...is passed as an" above its page number, page 2 opens "array to ..."."""
    first = PAGE_BREAK_LINES[:-1]
    second = [PAGE_BREAK_LINES[-1], "", "A new paragraph starts on the second page here."]
    pages = enumerate((first, second), start=1)
    return _pages_pdf([((612.0, 792.0), _stream(_body(lines, 792.0, n))) for n, lines in pages])


PAGE_BREAK_LINES = [
    "The shell reads its input and divides it into words and operators, then it",
    "expands each word and splits the result into fields, and the value of each",
    "field is passed as an",
    "array to the function that runs the command, which waits for it to finish.",
]


def _body(lines: list[str], height: float, page: int) -> bytes:
    """``lines`` from the top margin down at 14 pt, blank strings a paragraph's gap; the
    page number centred at the foot."""
    shown = [
        b"BT /F1 11 Tf 72 %r Td (%s) Tj ET" % (height - 90 - 14 * row, line.encode("latin-1"))
        for row, line in enumerate(lines)
        if line
    ]
    shown.append(b"BT /F1 10 Tf 300 40 Td (%d) Tj ET" % page)
    return b"\n".join(shown)


def _text_at_top(text: str, height: float) -> bytes:
    return b"BT /F1 12 Tf 2 %r Td (%s) Tj ET" % (height - 14, text.encode("latin-1"))


def _stream(content: bytes, entries: bytes = b"") -> bytes:
    return b"<< /Length %d %s>>\nstream\n%s\nendstream" % (len(content), entries, content)


def _pages_pdf(pages: list[tuple[tuple[float, float], bytes]]) -> bytes:
    """One page per ``((width, height), content stream object)``, Helvetica as /F1."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>"
        % (b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(len(pages))), len(pages)),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for number, ((width, height), stream) in enumerate(pages):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %r %r] /Contents %d 0 R"
            b" /Resources << /Font << /F1 3 0 R >> >> >>" % (width, height, 5 + 2 * number)
        )
        objects.append(stream)
    return _assemble(objects)


def _assemble(objects: list[bytes], trailer: bytes = b"") -> bytes:
    """Numbered objects (the first is the catalog), a cross-reference table, a trailer."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R %s >>\n" % (len(objects) + 1, trailer)
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def _rc4(key: bytes, data: bytes) -> bytes:
    state = list(range(256))
    j = 0
    for i in range(256):
        j = (j + state[i] + key[i % len(key)]) % 256
        state[i], state[j] = state[j], state[i]
    out = bytearray()
    i = j = 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + state[i]) % 256
        state[i], state[j] = state[j], state[i]
        out.append(byte ^ state[(state[i] + state[j]) % 256])
    return bytes(out)


def zip_of(names: list[str]) -> bytes:
    """A ZIP archive holding ``names``, each a one-byte file."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in names:
            archive.writestr(name, "x")
    return buffer.getvalue()


def zip_bomb_docx(inflated_mb: int, compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A DOCX whose document.xml inflates to ``inflated_mb`` MB of one repeated byte
    (``ZIP_STORED``: as big on disk, no bomb, only a body too big to parse)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression, compresslevel=1) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("word/document.xml", "w") as entry:
            block = b"<" * 2**20
            for _ in range(inflated_mb):
                entry.write(block)
    return buffer.getvalue()


def typeset_pdf(
    width: float, height: float, lines: list[tuple[float, float, float, bool, str]]
) -> bytes:
    """One uncompressed page of ``(x, y, size, bold, text)`` lines in Helvetica (bold:
    Helvetica-Bold), ``y`` from the page's bottom: a real page's lines set again, so
    that its content stream can be read and edited as text."""
    content = b"\n".join(
        b"BT /F%d %.2f Tf %.2f %.2f Td (%s) Tj ET"
        % (2 if bold else 1, size, x, y, _pdf_string(text))
        for x, y, size, bold, text in lines
    )
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>" % (width, height),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>",
    ]
    return _assemble(objects)


def _pdf_string(text: str) -> bytes:
    raw = text.encode("latin-1", "replace")
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def inline_math_pdf() -> bytes:
    """One letter page of inline mathematics set as TeX sets it, glyph run by glyph run:
    "if P¹ −cite→ P² then": scripts raised in a smaller size, the arrow drawn as two
    minus signs and an arrowhead (Symbol), its label over it; "but P¹ −cite↛ P³," with a
    slash struck through the arrow; "water is H₂O." with a lowered 2; "so A =⇒ B holds"
    with a long double arrow drawn as "=" and "⇒"."""
    runs = [
        (1, 11, 72, 700, "if P"),
        (1, 7, 88.4, 704, "1"),
        (1, 7, 97.5, 708, "cite"),
        (2, 11, 96, 702, "\x2d"),
        (2, 11, 101, 702, "\x2d"),
        (2, 11, 106, 700, "\xae"),
        (1, 11, 121, 700, "P"),
        (1, 7, 128.6, 704, "2"),
        (1, 11, 135, 700, "then the"),
        (1, 11, 72, 684, "but P"),
        (1, 7, 98.2, 688, "1"),
        (1, 7, 112.5, 692, "cite"),
        (2, 11, 111, 686, "\x2d"),
        (2, 11, 116, 686, "\x2d"),
        (2, 11, 121, 684, "\xae"),
        (1, 11, 117, 682, "/"),
        (1, 11, 136, 684, "P"),
        (1, 7, 143.6, 688, "3"),
        (1, 11, 147.6, 684, ", so"),
        (1, 11, 72, 668, "water is H"),
        (1, 7, 121.4, 665, "2"),
        (1, 11, 125.4, 668, "O. So A"),
        (2, 11, 177, 668, "\x3d"),
        (2, 11, 181, 668, "\xde"),
        (1, 11, 196, 668, "B holds."),
    ]
    content = b"\n".join(
        b"BT /F%d %d Tf %.1f %.1f Td (%s) Tj ET" % (font, size, x, y, _pdf_string(text))
        for font, size, x, y, text in runs
    )
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>",
    ]
    return _assemble(objects)
