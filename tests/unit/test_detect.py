"""Format detection looks at the bytes, not the name."""

from __future__ import annotations

import pytest
from samples import zip_bomb_docx, zip_of

from askalong.errors import EmptyDocument, TooLarge, UnsupportedFormat
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


def test_docx_is_a_zip_with_word_document() -> None:
    assert detect_format(zip_of(["word/document.xml", "[Content_Types].xml"]), source="d") == "docx"
    with pytest.raises(UnsupportedFormat, match="not a DOCX"):
        detect_format(zip_of(["a.txt"]), source="archive.docx")


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


@pytest.mark.timeout(20)
def test_leading_empty_comments_are_skipped_in_linear_time() -> None:
    """Issue 11: ``<!---->`` * 40 + ``x`` (281 bytes) backtracked exponentially."""
    # The timeout mark stops the exponential backtracking (issue 11).
    assert detect_format(b"<!---->" * 40 + b"x", source="r.txt") == "text"
    assert detect_format(b"<!---->" * 600 + b"x", source="r.txt") == "text"  # 4 KB: all of head
    assert detect_format(b"<!---->" * 40 + b"\n<html><p>x", source="r.txt") == "html"
    assert detect_format(b"<!-- a --><!-- b -->\n <body>x", source="r.txt") == "html"
    assert detect_format(b"<!-- never closed <html>", source="r.txt") == "text"


def test_crlf_markdown_is_still_markdown() -> None:
    data = b"# Title\r\n\r\n| a | b |\r\n|---|---|\r\n"
    assert detect_format(data, source="notes") == "markdown"


def test_a_zip_bomb_docx_is_refused_before_it_is_inflated() -> None:
    bomb = zip_bomb_docx(300)
    assert len(bomb) < 2 * 2**20  # 300 MB in under 2 MB
    with pytest.raises(TooLarge, match=r"bomb.docx: too large to parse: word/document.xml"):
        detect_format(bomb, source="bomb.docx")


def test_a_zip_of_too_many_entries_is_refused() -> None:
    with pytest.raises(TooLarge, match=r"many.docx: too large to parse: 10,001 ZIP entries"):
        detect_format(zip_of([f"e{n}" for n in range(10_001)]), source="many.docx")
