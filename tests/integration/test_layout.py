"""PDF layout against ground truth made by others (GROBID TEI) and known sentences.

The figures come from ``benchmarks/layout.py``, the same code that writes the results
table, so the test and the published numbers cannot drift apart.
"""

from __future__ import annotations

import io
import itertools
import re
from functools import cache
from pathlib import Path
from types import ModuleType

import pypdfium2 as pdfium
import pytest
from benchmark_module import benchmark_module

from askalong.parse.pdf.parser import parse
from askalong.types import ParsedDocument


def _layout() -> ModuleType:
    return benchmark_module("layout")


@cache
def _parsed(path: Path) -> ParsedDocument:
    return parse(path.read_bytes(), source=path.name, ocr=False)


def _pdf(evaldata: Path, folder: str, name: str) -> ParsedDocument:
    return _parsed(evaldata / "pdf" / folder / name)


@pytest.fixture(scope="module")
def papers(evaldata: Path) -> list:  # type: ignore[type-arg]
    layout = _layout()
    return [layout.paper_scores(name) for name in layout.ACL_PAPERS]


def test_kendall_tau_counts_pairs() -> None:
    tau = _layout().kendall_tau
    assert tau([1, 2, 3, 4]) == 1.0
    assert tau([4, 3, 2, 1]) == -1.0
    assert tau([1, 3, 2]) == pytest.approx(1 / 3)


def test_acl_section_titles_are_found(papers: list) -> None:  # type: ignore[type-arg]
    assert _layout().pooled_section_recall(papers) >= 0.95
    # SPECTER's TEI holds one bogus title ("ELMo ELMo"): 17 of 18 is all there is.
    assert all(p.section_recall >= 0.94 for p in papers)


def test_acl_reading_order_agrees_with_tei(papers: list) -> None:  # type: ignore[type-arg]
    for paper in papers:
        assert paper.order_tau >= 0.95, paper
        assert paper.order_found >= 0.9, paper


def test_acl_footnotes_never_spliced_into_body(papers: list) -> None:  # type: ignore[type-arg]
    assert sum(p.footnotes for p in papers) >= 5
    assert all(p.spliced == 0 for p in papers)


def test_acl_captions_found(papers: list) -> None:  # type: ignore[type-arg]
    recalls = [p.caption_recall for p in papers if p.caption_recall is not None]
    assert recalls and min(recalls) >= 0.9


def test_abstract_lines_are_one_paragraph_not_headings(evaldata: Path) -> None:
    parsed = _pdf(evaldata, "en_2col", "grobid_sample1_bicriteria.pdf")
    page1 = [b for b in parsed.blocks if b.page == 1]
    abstract = next(b for b in page1 if b.text.startswith("We describe in this paper"))
    assert abstract.kind == "paragraph"
    assert "efficient algorithm for scheduling jobs in a cluster" in abstract.text
    headings = [b.text for b in page1 if b.kind == "heading"]
    assert not any("@" in text for text in headings)
    assert "Pierre-Franc¸ois Dutot" not in headings
    assert {"ABSTRACT", "Keywords"} <= set(headings)
    assert "1. INTRODUCTION" in headings and "1.1 Cluster computing" in headings


def test_title_is_not_in_every_section_path(evaldata: Path) -> None:
    parsed = _pdf(evaldata, "en_2col", "grobid_sample1_bicriteria.pdf")
    title = parsed.blocks[0]
    assert title.kind == "heading" and title.heading_level == 1
    assert title.text.startswith("Bi-criteria Algorithm")
    later = [b for b in parsed.blocks if b.order > 0 and b.section_path]
    assert later and all(title.text not in b.section_path for b in later)
    related = next(b for b in parsed.blocks if b.text == "1.2 Related approaches")
    assert related.section_path == ("1. INTRODUCTION", "1.2 Related approaches")


def test_chinese_numbered_headings_in_the_body_font(evaldata: Path) -> None:
    parsed = _pdf(evaldata, "zh", "xjtu_journal_2col_sample.pdf")
    headings = {b.text: b for b in parsed.blocks if b.kind == "heading"}
    for title in ("2.1 可视化试验台的搭建", "2.2 试验喷嘴的设计", "3.2 喷雾锥角变化规律"):
        assert title in headings
    assert headings["2.1 可视化试验台的搭建"].section_path[-2] == "2 试验方法及研究方案"


def test_manual_syntax_labels_are_not_footers(evaldata: Path) -> None:
    parsed = _parsed(evaldata / "manuals" / "gnuplot-5.4.pdf")
    furniture = [b for b in parsed.blocks if b.kind in ("header", "footer")]
    labels = [b for b in furniture if b.text.rstrip(":") in ("Syntax", "Example", "Examples")]
    assert labels == []
    # The running head is still found on most pages.
    pages_with_header = {b.page for b in furniture if "gnuplot 5.4" in b.text}
    assert len(pages_with_header) > 0.5 * parsed.page_count


def test_paragraph_runs_on_from_left_to_right_column(evaldata: Path) -> None:
    parsed = _pdf(evaldata, "en_2col", "N18-3011.pdf")
    for first, second in itertools.pairwise(parsed.blocks):
        if first.page != second.page or first.kind != "paragraph" or second.kind != "paragraph":
            continue
        moved_up = second.boxes[0].bottom < first.boxes[-1].top
        if moved_up and second.boxes[0].x0 > first.boxes[-1].x1:
            # A column break inside one paragraph is joined; what stays apart is a new
            # sentence or a finished one.
            assert first.text[-1] in ".!?:;" or not second.text[0].islower(), (first, second)


def test_known_sentences_in_order(evaldata: Path) -> None:
    parsed = _pdf(evaldata, "en_2col", "grobid_sample1_bicriteria.pdf")
    text = " ".join(b.text for b in parsed.blocks if b.kind not in ("header", "footer"))
    sentences = [
        "We describe in this paper a new method for building an efficient algorithm",
        "The last few years have been characterized by huge technological changes",
        "Some scheduling algorithms have been developed for classical parallel",
    ]
    positions = [text.find(sentence) for sentence in sentences]
    assert all(p >= 0 for p in positions) and positions == sorted(positions)


def _blocks_of(parsed: ParsedDocument, kind: str, page: int | None = None) -> list:  # type: ignore[type-arg]
    return [b for b in parsed.blocks if b.kind == kind and page in (None, b.page)]


def test_captioned_tables_are_one_block_of_rows_and_cells(evaldata: Path) -> None:
    parsed = _pdf(evaldata, "en_2col", "2020.acl-main.207.pdf")
    tables = _blocks_of(parsed, "table", 7)
    assert len(tables) == 2
    results = tables[0]
    assert "\nSPECTER (Ours) | 82.0 | 86.4 | 83.6 | 91.5 | 84.5" in results.text
    assert "Random | 4.8 | 9.4 | 25.2" in results.text
    # The cells are nowhere else: not shredded into paragraphs.
    prose = " ".join(b.text for b in parsed.blocks if b.kind == "paragraph")
    assert "86.4 83.6 91.5" not in prose and "Doc2vec (2014)" not in prose
    # One LineBox per row, each exactly its row's text.
    rows = results.text.split("\n")
    assert [results.text[box.start : box.end] for box in results.boxes] == rows
    n18 = _pdf(evaldata, "en_2col", "N18-3011.pdf")
    assert any("title | 85.5 | 85.5 | 85.5" in t.text for t in _blocks_of(n18, "table"))


def test_tables_sit_next_to_their_captions(evaldata: Path) -> None:
    names = ("2020.acl-main.207.pdf", "N18-3011.pdf", "mineru_demo3_tableformer.pdf")
    for name in names:
        blocks = _pdf(evaldata, "en_2col", name).blocks
        tables = [i for i, b in enumerate(blocks) if b.kind == "table"]
        assert len(tables) >= 3, name
        for index in tables:
            near = [blocks[j] for j in (index - 1, index + 1) if 0 <= j < len(blocks)]
            assert any(b.kind == "caption" and b.text.startswith("Table") for b in near), (
                name,
                blocks[index].text[:80],
            )


def test_prose_beside_a_caption_across_the_gutter_is_not_a_table(evaldata: Path) -> None:
    # ALCE's Table 1 caption spans both columns; the prose below it pairs up line by line
    # like two cells, and was taken as the table while the real one above was left out.
    parsed = _pdf(evaldata, "en_2col", "ALCE.pdf")
    tables = _blocks_of(parsed, "table", 2)
    assert len(tables) == 1
    assert tables[0].text.startswith("Dataset | Corpus (#passages) | Question type")
    prose = " ".join(b.text for b in parsed.blocks if b.kind == "paragraph")
    assert "the advances of such systems. We present ALCE" in prose


def test_display_formulas_stay_out_of_prose(evaldata: Path) -> None:
    parsed = _pdf(evaldata, "en_2col", "2020.acl-main.207.pdf")
    formulas = _blocks_of(parsed, "formula")
    assert any(f.text.startswith("L = max") and f.text.endswith("(2)") for f in formulas)
    after = next(b for b in parsed.blocks if "is the loss margin hyperparameter" in b.text)
    assert after.kind == "paragraph" and after.text.startswith("where d is a distance")
    assert not any("(2)" in b.text and "= max" in b.text for b in _blocks_of(parsed, "paragraph"))
    tableformer = _pdf(evaldata, "en_2col", "mineru_demo3_tableformer.pdf")
    numbered = [f for f in _blocks_of(tableformer, "formula") if f.text.endswith(("(1)", "(4)"))]
    assert len(numbered) == 2


def test_code_and_chinese_prose_are_not_formulas(evaldata: Path) -> None:
    java = _pdf(evaldata, "zh_long", "alibaba_java_manual_huangshan.pdf")
    assert len(_blocks_of(java, "formula")) <= 2
    chemistry = _pdf(evaldata, "zh", "mineru_chem_formulas_zh.pdf")
    assert all(len(f.text) < 40 for f in _blocks_of(chemistry, "formula"))


def _turned(data: bytes, rotation: int) -> bytes:
    document = pdfium.PdfDocument(data)
    try:
        for index in range(len(document)):
            document[index].set_rotation(rotation)
        buffer = io.BytesIO()
        document.save(buffer)
        return buffer.getvalue()
    finally:
        document.close()


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_turned_pages_read_in_order_with_displayed_boxes(evaldata: Path, rotation: int) -> None:
    data = (evaldata / "pdf" / "en_2col" / "N18-3011.pdf").read_bytes()
    upright = _parsed(evaldata / "pdf" / "en_2col" / "N18-3011.pdf")
    turned = parse(_turned(data, rotation), source="turned.pdf", ocr=False)
    width, height = upright.page_sizes[0]
    expected = (height, width) if rotation != 180 else (width, height)
    assert turned.page_sizes[0] == pytest.approx(expected)
    # Read upright, so the same blocks in the same order (pdfium alone would order a
    # turned page's text as displayed, some words back to front).
    assert [(b.kind, b.text) for b in turned.blocks] == [(b.kind, b.text) for b in upright.blocks]
    for block in turned.blocks:
        page_width, page_height = turned.page_sizes[block.page - 1]  # type: ignore[operator]
        for box in block.boxes:
            assert 0 <= box.x0 <= box.x1 <= page_width + 0.01
            assert 0 <= box.top <= box.bottom <= page_height + 0.01
    # The title, across the top of the upright page, runs down the right edge at 90°.
    title = next(b for b in turned.blocks if b.text == upright.blocks[0].text).boxes[0]
    up = upright.blocks[0].boxes[0]
    if rotation == 90:
        assert title.x0 == pytest.approx(height - up.bottom) and title.top == pytest.approx(up.x0)
    elif rotation == 180:
        assert title.bottom == pytest.approx(height - up.top)
    else:
        assert title.x0 == pytest.approx(up.top) and title.bottom == pytest.approx(width - up.x0)


def test_footnote_markers_are_superscripts_matching_their_notes(evaldata: Path) -> None:
    parsed = _pdf(evaldata, "en_2col", "2020.acl-main.207.pdf")
    body = " ".join(b.text for b in parsed.blocks if b.kind == "paragraph")
    assert "SCIDOCS³" in body and "SCIDOCS3" not in body
    notes = [b.text for b in parsed.blocks if b.kind == "footnote"]
    assert "³ https://github.com/allenai/scidocs" in notes
    # Most markers in the body have their note, opening with the same superscript (after a
    # word: a one-letter variable's, "P²", is an exponent).
    markers = set(re.findall(r"(?<=[^\W\d_]{2})[.,:;]?([⁰¹²³⁴⁵⁶⁷⁸⁹]+)", body))
    openers = {note.split(" ", 1)[0] for note in notes}
    assert len(markers) >= 10 and len(markers & openers) >= 0.8 * len(markers)
    # Exponents in formulas stay exponents; ordinary numbers stay digits.
    assert "Table 1 presents" in body


def test_figure_labels_follow_their_caption(evaldata: Path) -> None:
    blocks = _pdf(evaldata, "en_2col", "2020.acl-main.207.pdf").blocks
    caption = next(b for b in blocks if b.text.startswith("Figure 1: Overview of SPECTER"))
    after = [b.text for b in blocks[caption.order + 1 : caption.order + 4]]
    assert any(text.startswith("Query paper") for text in after)
    assert any("initialized with SciBERT" in text for text in after)
    # What comes before the caption is body text, not the figure's labels.
    before = blocks[caption.order - 1]
    assert before.kind in ("paragraph", "footnote") and len(before.text) > 30
    assert "Query paper" not in before.text


def test_masthead_abstract_and_bold_body(evaldata: Path) -> None:
    xjtu = _pdf(evaldata, "zh", "xjtu_journal_2col_sample.pdf")
    assert xjtu.blocks[0].kind == "header" and "西安交通大学学报" in xjtu.blocks[0].text
    abstract = next(b for b in xjtu.blocks if b.text.startswith("摘要："))
    # Its bold label line and the regular lines after it are one paragraph.
    assert abstract.text.endswith("研究结果对压力旋流喷嘴的结构设计和优化具有一定的指导意义。")
    english = next(b for b in xjtu.blocks if b.text.startswith("Abstract:"))
    assert "In order to study the cavitating flow" in english.text
    # Every character of this paper reports a heavy weight: bold tells nothing there.
    bicriteria = _pdf(evaldata, "en_2col", "grobid_sample1_bicriteria.pdf")
    headings = [b.text for b in bicriteria.blocks if b.kind == "heading"]
    assert "Algorithms, Management" not in headings
    assert not any(text.startswith(("•", "[")) for text in headings)


def test_margin_stamp_does_not_cut_paragraphs(evaldata: Path) -> None:
    parsed = _pdf(evaldata, "en_1col", "arxiv_0807.3577_jcap.pdf")
    stamps = [b for b in parsed.blocks if b.kind == "header" and b.text.startswith("J C A P")]
    assert len(stamps) >= 10
    intro = next(b for b in parsed.blocks if b.text.startswith("Accelerated expansion"))
    assert intro.kind == "paragraph" and len(intro.boxes) >= 10


@pytest.mark.timeout(180)  # ~10 s when linear, loaded: stops a quadratic step
def test_text_pages_parse_without_a_pathological_slowdown(evaldata: Path) -> None:
    """A guard against a gross regression (a quadratic step), not the speed goal: the goal
    (100 pages per CPU second) is measured by benchmarks/layout.py and ingest.py."""
    paths = [
        evaldata / "manuals" / "gnuplot-5.4.pdf",
        evaldata / "pdf" / "en_2col" / "ALCE.pdf",
        evaldata / "pdf" / "en_2col" / "N18-3011.pdf",
    ]
    data = [path.read_bytes() for path in paths]
    pages = sum(parse(d, source="speed.pdf", ocr=False).page_count for d in data)
    assert pages == 342  # 311 + 23 + 8
