"""The PDF parser on the real evaluation PDFs, checked against GROBID's TEI parses."""

from __future__ import annotations

import hashlib
import itertools
import re
from functools import cache
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from lxml import etree
from samples import encrypted_pdf

from askalong.errors import CorruptDocument, EmptyDocument, EncryptedDocument
from askalong.parse.pdf.parser import parse
from askalong.types import ParsedDocument

TEI = {"t": "http://www.tei-c.org/ns/1.0"}
ACL_PAPERS = ("2020.acl-main.207", "N18-3011")
CJK = re.compile(r"[\u4e00-\u9fff]")


@cache
def _parsed(path: Path) -> ParsedDocument:
    # OCR is slow and has its own tests (test_ocr.py): here scanned pages stay unread.
    return parse(path.read_bytes(), source=path.name, ocr=False)


def _all_pdfs(evaldata: Path) -> list[Path]:
    paths = sorted((evaldata / "pdf").glob("*/*.pdf"))
    assert len(paths) >= 20
    return paths


def _pdfium_pages(path: Path) -> int:
    document = pdfium.PdfDocument(path.read_bytes())
    try:
        return len(document)
    finally:
        document.close()


def _norm(text: str) -> str:
    """Lower case, no section numbers, no punctuation, single spaces."""
    text = re.sub(r"\b\d+(?:\.\d+)*\.?", " ", text.lower())
    return " ".join(re.sub(r"[^\w\s]", " ", text).split())


def _tei(evaldata: Path, name: str) -> etree._ElementTree:
    return etree.parse(str(evaldata / "pdf" / "en_2col" / f"{name}.tei.xml"))


def test_every_pdf_parses_with_the_real_page_count(evaldata: Path) -> None:
    for path in _all_pdfs(evaldata):
        parsed = _parsed(path)
        assert parsed.page_count == _pdfium_pages(path), path.name
        assert len(parsed.page_sizes) == parsed.page_count
        if path.parent.name != "scanned":
            assert len(parsed.blocks) > parsed.page_count, path.name
            # A cover picture may need OCR; the text pages must not.
            assert len(parsed.ocr_pages) <= 1, path.name


def test_scanned_pdfs_report_ocr_pages(evaldata: Path) -> None:
    for path in sorted((evaldata / "pdf" / "scanned").glob("*.pdf")):
        parsed = _parsed(path)
        assert parsed.ocr_pages == tuple(range(1, parsed.page_count + 1)), path.name
        assert parsed.blocks == ()
        assert f"{parsed.page_count} of {parsed.page_count} pages" in parsed.notices[0]
        assert "OCR was off for this file" in parsed.notices[0]  # never "install OCR"


def test_chinese_pdfs_give_chinese_text_without_spaces(evaldata: Path) -> None:
    for path in sorted((evaldata / "pdf").glob("zh*/*.pdf")):
        text = "".join(block.text for block in _parsed(path).blocks)
        assert len(CJK.findall(text)) > 0.2 * len(text), path.name
        spaced = re.findall(r"[\u4e00-\u9fff] [\u4e00-\u9fff]", text)
        assert len(spaced) < 0.01 * len(CJK.findall(text)), (path.name, spaced[:5])


@pytest.mark.parametrize("name", ACL_PAPERS)
def test_tei_section_titles_are_headings(evaldata: Path, name: str) -> None:
    parsed = _parsed(evaldata / "pdf" / "en_2col" / f"{name}.pdf")
    headings = [_norm(b.text) for b in parsed.blocks if b.kind == "heading"]
    # GROBID sometimes merges a section title with the next one ("Model 2.1 Overview").
    known = set(headings) | {f"{a} {b}" for a, b in itertools.pairwise(headings)}
    titles = [
        _norm("".join(h.itertext()))
        for h in _tei(evaldata, name).iterfind(".//t:body//t:div/t:head", TEI)
    ]
    found = [title for title in titles if title in known]
    assert len(titles) >= 10
    assert len(found) >= 0.9 * len(titles), sorted(set(titles) - known)


@pytest.mark.parametrize("name", ACL_PAPERS)
def test_reading_order_follows_tei_paragraphs(evaldata: Path, name: str) -> None:
    parsed = _parsed(evaldata / "pdf" / "en_2col" / f"{name}.pdf")
    ours = _norm(" ".join(block.text for block in parsed.blocks))
    paragraphs = _tei(evaldata, name).iterfind(".//t:body//t:div/t:p", TEI)
    starts = [" ".join(_norm("".join(p.itertext())).split()[:8]) for p in paragraphs]
    starts = [start for start in starts if len(start.split()) == 8]
    positions = [ours.find(start) for start in starts]
    found = [position for position in positions if position >= 0]
    assert len(found) >= 0.8 * len(starts)
    pairs = list(itertools.pairwise(found))
    in_order = sum(a < b for a, b in pairs)
    assert in_order >= 0.9 * len(pairs)


def test_line_boxes_cover_each_block_exactly(evaldata: Path) -> None:
    for path in _all_pdfs(evaldata):
        parsed = _parsed(path)
        for block in parsed.blocks:
            assert block.id == f"b{block.order}"
            width, height = parsed.page_sizes[block.page - 1]  # type: ignore[operator]
            boxes = block.boxes
            assert boxes[0].start == 0 and boxes[-1].end == len(block.text), block
            for prev, box in itertools.pairwise(boxes):
                assert box.start in (prev.end, prev.end + 1), block
            for box in boxes:
                assert 0 <= box.x0 <= box.x1 <= width + 0.01
                assert 0 <= box.top <= box.bottom <= height + 0.01
                assert box.end > box.start


def test_sections_paths_and_ids(evaldata: Path) -> None:
    parsed = _parsed(evaldata / "pdf" / "en_2col" / "2020.acl-main.207.pdf")
    assert parsed.title.startswith("SPECTER")
    assert [b.order for b in parsed.blocks] == list(range(len(parsed.blocks)))
    for block in parsed.blocks:
        if block.kind == "heading":
            assert block.section_path[-1] == block.text and block.heading_level >= 1
    method = next(b for b in parsed.blocks if b.text.startswith("A citation from one document"))
    assert method.section_path[-1] == "2.3 Citation-Based Pretraining Objective"
    assert method.section_path[-2] == "2 Model"
    kinds = {b.kind for b in parsed.blocks}
    assert {"heading", "paragraph", "caption", "footnote", "footer"} <= kinds
    footers = [b.text for b in parsed.blocks if b.kind == "footer"]
    assert "2271" in footers


def test_hyphens_joined_and_ligatures_normalised(evaldata: Path) -> None:
    for name in ACL_PAPERS:
        text = " ".join(
            b.text for b in _parsed(evaldata / "pdf" / "en_2col" / f"{name}.pdf").blocks
        )
        assert not re.search("[\ufb00-\ufb06\ufffe]", text)
    specter = " ".join(
        b.text for b in _parsed(evaldata / "pdf" / "en_2col" / f"{ACL_PAPERS[0]}.pdf").blocks
    )
    # "ingre-" / "dient" and "Trans-" / "former" are split across lines in the abstract.
    assert "critical ingredient for natural" in specter
    assert "pretraining a Transformer language model" in specter
    assert "state-of-the-art" in specter
    # A compound hyphenated elsewhere keeps its hyphen at a line end, with no space after
    # it; a split word joins.
    for kept in ("document-level", "Citation-informed"):
        assert kept in specter and kept.replace("-", "") not in specter


# --- bad input ---------------------------------------------------------------


def test_the_crafted_pdf_really_is_encrypted() -> None:
    data = encrypted_pdf()
    document = pdfium.PdfDocument(data, password="secret")
    try:
        assert len(document) == 1
    finally:
        document.close()
    with pytest.raises(pdfium.PdfiumError):
        pdfium.PdfDocument(data)


def test_encrypted_pdf_raises_encrypted_document() -> None:
    with pytest.raises(EncryptedDocument) as caught:
        parse(encrypted_pdf(), source="locked.pdf")
    assert caught.value.source == "locked.pdf" and "locked.pdf" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_empty_bytes_raise_empty_document() -> None:
    with pytest.raises(EmptyDocument) as caught:
        parse(b"", source="empty.pdf")
    assert "empty.pdf" in str(caught.value)


def test_truncated_pdf_raises_corrupt_document(evaldata: Path, tmp_path: Path) -> None:
    data = (evaldata / "pdf" / "en_2col" / "N18-3011.pdf").read_bytes()
    truncated = tmp_path / "half.pdf"
    truncated.write_bytes(data[: len(data) // 2])
    with pytest.raises(CorruptDocument) as caught:
        parse(truncated.read_bytes(), source=truncated.name)
    assert "half.pdf" in str(caught.value) and "\n" not in str(caught.value)


def test_junk_with_a_pdf_header_raises_corrupt_document() -> None:
    junk = b"%PDF-1.7\n" + hashlib.sha256(b"junk").digest() * 500
    with pytest.raises(CorruptDocument) as caught:
        parse(junk, source="junk.pdf")
    assert caught.value.source == "junk.pdf"


def test_a_pdf_without_pages_raises_corrupt_document() -> None:
    document = pdfium.PdfDocument.new()
    try:
        import io

        buffer = io.BytesIO()
        document.save(buffer)
    finally:
        document.close()
    with pytest.raises(CorruptDocument):
        parse(buffer.getvalue(), source="blank.pdf")
