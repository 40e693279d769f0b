"""Which format is this? Decided from the bytes (magic numbers, markup), not the file name.

The name is only a tie-breaker between plain text and Markdown, which share their bytes.
"""

from __future__ import annotations

import io
import re
import zipfile

from askalong.errors import EmptyDocument, UnsupportedFormat
from askalong.types import DocumentFormat

# Magic numbers of common binary files that are not documents we read.
_BINARY_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"\x7fELF", "an executable (ELF)"),
    (b"MZ", "a Windows executable"),
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"BZh", "bzip2-compressed data"),
    (b"\xfd7zXZ", "xz-compressed data"),
    (b"7z\xbc\xaf", "a 7-Zip archive"),
    (b"Rar!", "a RAR archive"),
    (b"\xd0\xcf\x11\xe0", "a legacy Office file (.doc/.xls); save it as .docx or PDF"),
    (b"SQLite format 3", "an SQLite database"),
    (b"OggS", "an Ogg media file"),
    (b"ID3", "an MP3 file"),
)
_HTML_START = re.compile(
    rb"^\s*(<!--.*?-->\s*)*<(!doctype\s+html|html|head|body|meta|title)\b", re.I | re.S
)
_HTML_ANYWHERE = re.compile(rb"<(html|body|div|p|h[1-6]|article)\b[^>]*>", re.I)
_MARKDOWN_SIGNS = re.compile(
    r"^(#{1,6} \S|```|~~~|\* \S|- \S|\d+\. \S|> \S|\|.*\|\s*$|[^\n]+\n(=+|-+)\s*$)", re.M
)
_TEXT_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
_MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkd")


def detect_format(data: bytes, *, source: str) -> DocumentFormat:
    """Return the format of ``data`` or raise an input error naming ``source``."""
    if not data.strip():
        raise EmptyDocument("the file is empty", source=source)
    head = data[:4096]
    if b"%PDF-" in head[:1024]:
        return "pdf"
    if head.startswith(b"PK\x03\x04"):
        return _zip_format(data, source)
    for magic, what in _BINARY_MAGIC:
        if head.startswith(magic):
            raise UnsupportedFormat(f"this is {what}, not a document", source=source)
    if _looks_binary(head):
        raise UnsupportedFormat("binary data, not a document", source=source)
    return _text_format(head, source)


def _zip_format(data: bytes, source: str) -> DocumentFormat:
    try:
        names = set(zipfile.ZipFile(io.BytesIO(data)).namelist())
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise UnsupportedFormat(f"a damaged ZIP archive ({exc})", source=source) from exc
    if "word/document.xml" in names:
        return "docx"
    raise UnsupportedFormat("a ZIP archive that is not a DOCX document", source=source)


def _looks_binary(head: bytes) -> bool:
    """NUL bytes or many control characters mean binary (UTF-16 text has a BOM)."""
    if head.startswith(_TEXT_BOMS):
        return False
    if b"\x00" in head:
        return True
    controls = sum(1 for b in head if b < 9 or 13 < b < 32)
    return controls > len(head) * 0.05


def _text_format(head: bytes, source: str) -> DocumentFormat:
    ascii_view = head.decode("utf-16", "ignore") if head.startswith(_TEXT_BOMS[1:]) else None
    sample = ascii_view.encode("utf-8", "ignore") if ascii_view else head.lstrip(_TEXT_BOMS[0])
    if _HTML_START.search(sample) or len(_HTML_ANYWHERE.findall(sample)) >= 3:
        return "html"
    if source.lower().endswith(_MARKDOWN_SUFFIXES):
        return "markdown"
    text = sample.decode("utf-8", "ignore")
    if len(_MARKDOWN_SIGNS.findall(text)) >= 2 and re.search(r"^#{1,6} \S", text, re.M):
        return "markdown"
    return "text"
