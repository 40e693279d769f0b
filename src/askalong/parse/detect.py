"""Which format is this? Decided from the bytes (magic numbers, markup), not the file name.

The name is only a tie-breaker between text formats, which share their bytes: Markdown, and
source code (a text file whose name says code, or that opens with a ``#!`` line).
The bytes are hostile until proven otherwise: detection runs in the parser guard's child,
every pattern here matches in time linear in its input (no two quantifiers can claim the
same characters), and a ZIP's declared sizes are checked before anything is inflated.
"""

from __future__ import annotations

import io
import re
import zipfile

from askalong.errors import EmptyDocument, TooLarge, UnsupportedFormat
from askalong.parse.code.file_names import has_shebang, is_code_name
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
# Leading comments are skipped by ``_after_comments`` (a loop, not a nested quantifier:
# ``(<!--.*?-->\s*)*`` backtracked exponentially on ``<!---->`` repeated).
_HTML_OPENING = re.compile(rb"<(!doctype\s+html|html|head|body|meta|title)\b", re.I)
# ``[^<>]*``: a tag that never closes stops at the next ``<``, so no byte is scanned twice.
_HTML_ANYWHERE = re.compile(rb"<(html|body|div|p|h[1-6]|article)\b[^<>]*>", re.I)
# Table and setext lines end in ``[ \t\r]*$``, never ``\s*$`` (which could cross lines, and
# overlap the ``.*`` before it).
_MARKDOWN_SIGNS = re.compile(
    r"^(#{1,6} \S|```|~~~|\* \S|- \S|\d+\. \S|> \S|\|[^\n]*\|[ \t\r]*$|[^\n]+\n(=+|-+)[ \t\r]*$)",
    re.M,
)
_MARKDOWN_HEADING = re.compile(r"^#{1,6} \S", re.M)
_SPACE = re.compile(rb"\s*")
# What a ZIP (a DOCX) may inflate to. ``ZipInfo.file_size`` is honest: zipfile stops at it
# and fails the CRC check on more, so these caps bound what a parser can be made to read.
MB = 2**20
MAX_ZIP_ENTRIES = 10_000
MAX_ZIP_INFLATED = 1024 * MB  # bytes, all entries together
MAX_ZIP_RATIO = 100  # inflated / compressed, for an entry over RATIO_FROM bytes
RATIO_FROM = 16 * MB
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
        entries = zipfile.ZipFile(io.BytesIO(data)).infolist()
    # NotImplementedError: a "version needed to extract" zipfile does not know (a flipped byte).
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError) as exc:
        raise UnsupportedFormat(f"a damaged ZIP archive ({exc})", source=source) from exc
    check_inflation(entries, source)
    if "word/document.xml" in {entry.filename for entry in entries}:
        return "docx"
    raise UnsupportedFormat("a ZIP archive that is not a DOCX document", source=source)


def check_inflation(entries: list[zipfile.ZipInfo], source: str) -> None:
    """Refuse a ZIP bomb from its directory, before any entry is inflated."""
    problem = _inflation_problem(entries)
    if problem is not None:
        raise TooLarge(f"too large to parse: {problem}", source=source)


def _inflation_problem(entries: list[zipfile.ZipInfo]) -> str | None:
    if len(entries) > MAX_ZIP_ENTRIES:
        return f"{len(entries):,} ZIP entries (at most {MAX_ZIP_ENTRIES:,})"
    inflated = sum(entry.file_size for entry in entries)
    if inflated > MAX_ZIP_INFLATED:
        return f"inflates to {inflated / MB:,.0f} MB (at most {MAX_ZIP_INFLATED / MB:,.0f} MB)"
    for entry in entries:
        if entry.file_size > RATIO_FROM and entry.file_size > MAX_ZIP_RATIO * entry.compress_size:
            ratio = entry.file_size / max(entry.compress_size, 1)
            size = entry.file_size / MB
            return (
                f"{entry.filename} inflates {ratio:,.0f} times to {size:,.0f} MB (at most"
                f" {MAX_ZIP_RATIO} times for an entry over {RATIO_FROM // MB} MB: a ZIP bomb?)"
            )
    return None


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
    if is_code_name(source) or has_shebang(sample):
        return "code"  # before HTML: a script's strings may hold markup
    if _starts_as_html(sample):
        return "html"
    if source.lower().endswith(_MARKDOWN_SUFFIXES):
        return "markdown"  # a README opening with a centred <p> logo is still Markdown
    if len(_HTML_ANYWHERE.findall(sample)) >= 3:
        return "html"
    text = sample.decode("utf-8", "ignore")
    if len(_MARKDOWN_SIGNS.findall(text)) >= 2 and _MARKDOWN_HEADING.search(text):
        return "markdown"
    return "text"


def _starts_as_html(sample: bytes) -> bool:
    """An HTML opening tag first, after white space and comments."""
    return _HTML_OPENING.match(sample, _after_comments(sample)) is not None


def _after_comments(sample: bytes) -> int:
    """Where the content starts after leading white space, ``<!-- -->`` comments and an
    XML declaration (XHTML pages open with ``<?xml version="1.0"?>``)."""
    start = _SPACE.match(sample).end()  # type: ignore[union-attr]  # \s* always matches
    while sample.startswith((b"<!--", b"<?xml"), start):
        opening, closing = (
            (b"<!--", b"-->") if sample.startswith(b"<!--", start) else (b"<?", b"?>")
        )
        end = sample.find(closing, start + len(opening))
        if end < 0:
            return start  # an unclosed comment: what follows it is not markup
        start = _SPACE.match(sample, end + len(closing)).end()  # type: ignore[union-attr]
    return start
