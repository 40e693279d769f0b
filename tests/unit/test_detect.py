"""Format detection looks at the bytes, not the name."""

from __future__ import annotations

import io
import zipfile

import pytest

from askalong.errors import EmptyDocument, UnsupportedFormat
from askalong.parse.detect import detect_format


@pytest.mark.parametrize(
    ("data", "name", "expected"),
    [
        (b"%PDF-1.7\n...", "x.bin", "pdf"),
        (b"<!DOCTYPE html><html><body>hi</body></html>", "report.pdf", "html"),
        (b"\xef\xbb\xbf<html><p>x</p></html>", "a.txt", "html"),
        (b"  <!-- c --> <HTML lang=en><p>x", "a", "html"),
        ("<html><body>中文</body></html>".encode("utf-16"), "a", "html"),
        (b"# Title\n\nSome text.\n\n## Part\n\n- item\n", "notes", "markdown"),
        (b"plain words here", "readme.md", "markdown"),
        (b"Just a paragraph.\n\nAnother one.\n", "a.md.txt", "text"),
        ("第一章 总则\n\n这是正文。".encode("gb18030"), "a", "text"),
        ("hello".encode("utf-16"), "a", "text"),
    ],
)
def test_formats_come_from_content(data: bytes, name: str, expected: str) -> None:
    assert detect_format(data, source=name) == expected


def _zip(names: list[str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in names:
            archive.writestr(name, "x")
    return buffer.getvalue()


def test_docx_is_a_zip_with_word_document() -> None:
    assert detect_format(_zip(["word/document.xml", "[Content_Types].xml"]), source="d") == "docx"
    with pytest.raises(UnsupportedFormat, match="not a DOCX"):
        detect_format(_zip(["a.txt"]), source="archive.docx")


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\x89PNG\r\n\x1a\n" + bytes(100), "PNG image"),
        (b"\x7fELF" + bytes(100), "executable"),
        (bytes(range(256)) * 4, "binary data"),
        (b"PK\x03\x04garbage", "damaged ZIP"),
    ],
)
def test_binary_junk_is_refused_with_a_reason(data: bytes, reason: str) -> None:
    with pytest.raises(UnsupportedFormat, match=reason) as info:
        detect_format(data, source="junk.pdf")
    assert str(info.value).startswith("junk.pdf: ")


@pytest.mark.parametrize("data", [b"", b"   \n\t  "])
def test_empty_input_is_named(data: bytes) -> None:
    with pytest.raises(EmptyDocument, match="empty.txt: the file is empty"):
        detect_format(data, source="empty.txt")
