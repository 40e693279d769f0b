"""What the parser fuzz (``benchmarks/attack_parsers.py``) found, each case cut down to the
bytes that still show it. Every test names the case (format, seed, number) it came from."""

from __future__ import annotations

import io

import docx
import pytest
from samples import sized_pdf, zip_of

from askalong.errors import UnsupportedFormat
from askalong.parse.detect import detect_format
from askalong.parse.flow import docx as docx_parser
from askalong.parse.flow import html, markdown, text
from askalong.parse.pdf import parser as pdf_parser


def test_a_zip_of_an_unknown_version_is_a_damaged_archive() -> None:
    """docx 11/3: zipfile raised NotImplementedError for a flipped "version needed to
    extract", and it crossed detection."""
    data = bytearray(zip_of(["word/document.xml"]))
    central = data.index(b"PK\x01\x02")
    data[central + 6 : central + 8] = (110).to_bytes(2, "little")  # version 11.0
    with pytest.raises(
        UnsupportedFormat, match=r"v.docx: a damaged ZIP archive \(zip file version"
    ):
        detect_format(bytes(data), source="v.docx")


@pytest.mark.parametrize(
    ("parse", "data"),
    [
        (text.parse, b"Str\x00ay b\x1bytes\x7f.\n\n" + b"Words. " * 100),
        (
            markdown.parse,
            b"Str\x00ay b\x1bytes\x7f.\n\n```\nco\x00de\n```\n" + b"Words. " * 300,
        ),
        (
            html.parse,
            b"<p>Str\x00ay b\x1bytes\x7f.</p><pre>co\x00de</pre>" + b"<p>Words.</p>" * 100,
        ),
    ],
)
def test_stray_control_bytes_are_not_stored_as_text(parse: object, data: bytes) -> None:
    """text 11/34: 51 NUL bytes past detection's first 4 KB went into the blocks' text;
    ESC and DEL did too, in every flowing format."""
    parsed = parse(data, source="stray")  # type: ignore[operator]
    texts = [parsed.title, *(block.text for block in parsed.blocks)]
    assert not [t for t in texts if any(c in t for c in "\x00\x1b\x7f")]
    assert [t for t in texts if t.endswith("ay bytes.")]  # markdown-it and lxml make NUL U+FFFD


def _many_styles(styles: int, paragraphs: int) -> bytes:
    """A DOCX with ``styles`` extra paragraph styles and ``paragraphs`` unstyled paragraphs."""
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    document = docx.Document()
    for n in range(styles):
        document.styles.element.append(
            parse_xml(
                f'<w:style {nsdecls("w")} w:type="paragraph" w:styleId="S{n}">'
                f'<w:name w:val="S{n}"/></w:style>'
            )
        )
    for n in range(paragraphs):
        document.add_paragraph(f"Paragraph {n}.", style="Heading 2" if n % 100 == 0 else None)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


@pytest.mark.timeout(60)  # stops the quadratic scan (143 s)
def test_many_paragraphs_over_many_styles_parse_in_linear_time() -> None:
    """docx 11/7: python-docx scanned every style for each paragraph's style, twice a
    paragraph: 1,000 paragraphs over 3,000 styles took 143 s (past the 120 s budget)."""
    data = _many_styles(3000, 1000)
    parsed = docx_parser.parse(data, source="styles.docx")
    assert len(parsed.blocks) == 1000
    assert [b.heading_level for b in parsed.blocks if b.kind == "heading"] == [2] * 10


@pytest.mark.parametrize(
    ("size", "expected"),
    [((-300.0, 400.0), (300.0, 400.0)), ((300.0, -400.0), (300.0, 400.0)), ((0, 0), (612, 792))],
)
def test_page_sizes_come_from_boxes_put_in_order(
    size: tuple[float, float], expected: tuple[float, float]
) -> None:
    """pdf 11/27, 11/5083, 11/5440: a MediaBox of [0 0 0 0], or with its corners the other
    way round, was stored as a page of zero or negative size."""
    parsed = pdf_parser.parse(sized_pdf(size), source="box.pdf", ocr=False)
    assert parsed.page_sizes == (pytest.approx(expected),)
