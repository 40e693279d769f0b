"""DOCX parser: documents built with python-docx, read back in document order."""

from __future__ import annotations

import io
import zipfile

import docx
import pytest
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from samples import zip_bomb_docx

from askalong.errors import CorruptDocument, EmptyDocument, TooLarge
from askalong.parse.flow import docx as parse_docx


def saved(document: docx.document.Document) -> bytes:
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def report() -> bytes:
    document = docx.Document()
    document.add_paragraph("Tide Pool Survey", style="Title")
    document.add_heading("Introduction", level=1)
    document.add_paragraph("We surveyed   three beaches.")
    document.add_paragraph("Rocky shores", style="List Bullet")
    document.add_paragraph("Sandy shores", style="List Number")
    document.add_heading("Counts", level=2)
    document.add_paragraph("The table lists what we found.")
    table = document.add_table(rows=3, cols=2)
    rows = [("Species", "Count"), ("Crab", "12"), ("", "")]  # the empty row is dropped
    for row, values in zip(table.rows, rows, strict=True):
        for cell, value in zip(row.cells, values, strict=True):
            cell.text = value
    document.add_paragraph("Crabs were the most common.")
    document.add_heading("Conclusion", level=1)
    document.add_paragraph("Tide pools are busy places.")
    return saved(document)


def test_kinds_order_and_section_paths() -> None:
    doc = parse_docx.parse(report(), source="survey.docx")
    assert doc.format == "docx" and doc.page_count == 1
    assert doc.title == "Tide Pool Survey"
    got = [(b.kind, b.heading_level, b.text) for b in doc.blocks]
    assert got == [
        ("heading", 1, "Tide Pool Survey"),
        ("heading", 1, "Introduction"),
        ("paragraph", 0, "We surveyed three beaches."),
        ("list_item", 0, "Rocky shores"),
        ("list_item", 0, "Sandy shores"),
        ("heading", 2, "Counts"),
        ("paragraph", 0, "The table lists what we found."),
        ("table", 0, "Species | Count\nCrab | 12"),
        ("paragraph", 0, "Crabs were the most common."),
        ("heading", 1, "Conclusion"),
        ("paragraph", 0, "Tide pools are busy places."),
    ]
    paths = [b.section_path for b in doc.blocks]
    assert paths[7] == ("Tide Pool Survey", "Introduction", "Counts")
    assert paths[10] == ("Tide Pool Survey", "Conclusion")
    assert all(b.id == f"b{b.order}" and b.page is None for b in doc.blocks)


def test_outline_level_makes_a_localized_heading() -> None:
    document = docx.Document()
    paragraph = document.add_paragraph("第一章 总则")
    outline = OxmlElement("w:outlineLvl")
    outline.set(qn("w:val"), "0")
    paragraph._p.get_or_add_pPr().append(outline)
    document.add_paragraph("为了规范数据管理，制定本办法。")
    doc = parse_docx.parse(saved(document), source="zh.docx")
    assert [(b.kind, b.heading_level) for b in doc.blocks] == [("heading", 1), ("paragraph", 0)]
    assert doc.blocks[1].section_path == ("第一章 总则",)
    assert doc.title == "第一章 总则"


def test_core_title_wins() -> None:
    document = docx.Document()
    document.core_properties.title = "Official Title"
    document.add_paragraph("Body text.")
    assert parse_docx.parse(saved(document), source="t.docx").title == "Official Title"


def test_zip_without_word_document_is_corrupt() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "not a docx")
    with pytest.raises(CorruptDocument) as info:
        parse_docx.parse(buffer.getvalue(), source="fake.docx")
    assert "fake.docx" in str(info.value)


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (b"", EmptyDocument),
        (b"   \n", EmptyDocument),
        (b"PK\x03\x04" + bytes(range(256)) * 4, CorruptDocument),
        (b"plain text, not a zip", CorruptDocument),
    ],
)
def test_errors_name_the_source(data: bytes, error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        parse_docx.parse(data, source="bad.docx")
    assert "bad.docx" in str(info.value)


def test_document_without_text_is_empty() -> None:
    document = docx.Document()
    document.add_paragraph("   ")
    with pytest.raises(EmptyDocument) as info:
        parse_docx.parse(saved(document), source="blank.docx")
    assert "blank.docx" in str(info.value)


def test_merged_cells_count_once() -> None:
    document = docx.Document()
    table = document.add_table(rows=2, cols=3)
    merged = table.cell(0, 0).merge(table.cell(0, 1))
    merged.text = "Wide header"
    table.cell(0, 2).text = "Right"
    for cell, value in zip(table.rows[1].cells, ["a", "b", "c"], strict=True):
        cell.text = value
    doc = parse_docx.parse(saved(document), source="merged.docx")
    assert [b.text for b in doc.blocks] == ["Wide header | Right\na | b | c"]


def test_a_body_too_big_to_parse_is_refused_at_once_naming_the_limit() -> None:
    stored = zip_bomb_docx(33, zipfile.ZIP_STORED)  # not compressed: no ZIP bomb, only big
    with pytest.raises(TooLarge) as refused:
        parse_docx.parse(stored, source="big.docx")
    message = str(refused.value)
    assert message.startswith("big.docx: too large to parse")
    assert "word/document.xml" in message and "at most 32 MB" in message


def test_a_zip_bomb_body_names_the_ratio_limit() -> None:
    bomb = zip_bomb_docx(33)
    with pytest.raises(TooLarge, match=r"at most 100 times for an entry over 16 MB"):
        parse_docx.parse(bomb, source="bomb.docx")
