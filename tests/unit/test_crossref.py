"""Cross-references: detection in English and Chinese, resolution on real documents."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from askalong.context.crossref import CrossRef, cross_references, crossref_units, detect_references
from askalong.context.outline import parse_heading
from askalong.errors import NotFound
from askalong.parse.flow import html
from askalong.parse.pdf import parser as pdf
from askalong.question.reading import read_question
from askalong.text.numerals import chinese_number, numeral, roman_number
from askalong.types import CHUNK_JOINER, FURNITURE_KINDS, Anchor, Block


@pytest.fixture(scope="module")
def n18(evaldata: Path) -> tuple[Block, ...]:
    path = evaldata / "pdf" / "en_2col" / "N18-3011.pdf"
    return pdf.parse(path.read_bytes(), source=path.name).blocks


@pytest.fixture(scope="module")
def lshort(evaldata: Path) -> tuple[Block, ...]:
    path = evaldata / "pdf" / "zh_long" / "lshort-zh-cn.pdf"
    return pdf.parse(path.read_bytes(), source=path.name).blocks


@pytest.fixture(scope="module")
def xjtu(evaldata: Path) -> tuple[Block, ...]:
    path = evaldata / "pdf" / "zh" / "xjtu_journal_2col_sample.pdf"
    return pdf.parse(path.read_bytes(), source=path.name).blocks


@pytest.fixture(scope="module")
def pg_comparison(evaldata: Path) -> tuple[Block, ...]:
    path = evaldata / "manuals" / "postgresql-15-html" / "functions-comparison.html"
    return html.parse(path.read_bytes(), source=path.name).blocks


def blocks_of(ref: CrossRef, blocks: Sequence[Block]) -> list[Block]:
    by_id = {block.id: block for block in blocks}
    return [by_id[i] for i in ref.block_ids]


def only(refs: list[CrossRef]) -> CrossRef:
    assert len(refs) == 1, refs
    return refs[0]


# ------------------------------------------------------------------------ detection


@pytest.mark.parametrize(
    ("question", "kind", "target", "relative"),
    [
        ("What is in chapter 2?", "chapter", "2", None),
        ("Summarise Chapter II for me", "chapter", "2", None),
        ("see section 3.1 for details", "section", "3.1", None),
        ("as defined in §3.1", "section", "3.1", None),
        ("explained in Sec. 3", "section", "3", None),
        ("What does Table 2 show?", "table", "2", None),
        ("numbers in Tab. 2", "table", "2", None),
        ("compare Table II with", "table", "2", None),
        ("look at Figure 3", "figure", "3", None),
        ("the curve of Fig. 3", "figure", "3", None),
        ("derive Eq. (4)", "equation", "4", None),
        ("proof in appendix A", "appendix", "A", None),
        ("第二章讲了什么", "chapter", "2", None),
        ("第2章的内容", "chapter", "2", None),
        ("第十二章", "chapter", "12", None),
        ("第3.1节的方法", "section", "3.1", None),
        ("表2中的数据", "table", "2", None),
        ("如表 2.1 所示", "table", "2.1", None),
        ("图3说明了什么", "figure", "3", None),
        ("公式(4)怎么推导", "equation", "4", None),
        ("上一节讲了什么", "section", "", "previous"),
        ("下一节", "section", "", "next"),
        ("上一章", "chapter", "", "previous"),
        ("what did the previous section say?", "section", "", "previous"),
        ("and in the next section?", "section", "", "next"),
        ("the definition of X in the introduction", "named", "introduction", None),
        ("引言中提到的问题", "named", "introduction", None),
        ("what does the conclusion say", "named", "conclusion", None),
        ("结论是什么", "named", "conclusion", None),
        ("which papers are discussed in the related work", "named", "related work", None),
        ("what does the abstract claim", "named", "abstract", None),
        ("摘要里写了什么", "named", "abstract", None),
    ],
)
def test_detects_references(question: str, kind: str, target: str, relative: str | None) -> None:
    ref = only(detect_references(question))
    assert (ref.kind, ref.target, ref.relative) == (kind, target, relative)
    assert ref.phrase in question and not ref.resolved


@pytest.mark.parametrize(
    "question",
    [
        "How does the model handle tables?",
        "What figures are reported for accuracy?",
        "这个方法代表2种思路",  # 代表 is not 表
        "试图3次以后",  # 试图 is not 图
        "chapter in a book",
        "Write an introduction to graphs",
    ],
)
def test_no_reference_in_plain_questions(question: str) -> None:
    assert detect_references(question) == []


def test_several_references_in_order() -> None:
    refs = detect_references("Compare Table 2 with Figure 1 and the conclusion of section 4")
    assert [(r.kind, r.target) for r in refs] == [
        ("table", "2"),
        ("figure", "1"),
        ("named", "conclusion"),
        ("section", "4"),
    ]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("一", 1),
        ("十", 10),
        ("十二", 12),
        ("二十", 20),
        ("二十三", 23),
        ("一百零五", 105),
        ("7", 7),
    ],
)
def test_chinese_numbers(text: str, value: int) -> None:
    assert chinese_number(text) == value


def test_roman_numbers() -> None:
    assert [roman_number(r) for r in ("I", "ii", "IV", "IX", "XII", "XL")] == [1, 2, 4, 9, 12, 40]
    assert roman_number("ABC") is None


@pytest.mark.parametrize(
    ("text", "label", "number", "title"),
    [
        ("3.1 Method", None, ("3", "1"), "method"),
        ("11.2. Index Types", None, ("11", "2"), "index types"),
        ("Chapter 2", "chapter", ("2",), ""),
        ("Chapter IV: Results", "chapter", ("4",), "results"),
        ("第二章 总则", "chapter", ("2",), "总则"),
        ("第3.1节 方法", "section", ("3", "1"), "方法"),
        ("一、编程规约", None, ("1",), "编程规约"),
        ("II. RELATED WORK", None, ("2",), "related work"),
        ("Appendix A Proofs", "appendix", ("A",), "proofs"),
        ("Abstract", None, (), "abstract"),
    ],
)
def test_parse_heading(text: str, label: str | None, number: tuple[str, ...], title: str) -> None:
    heading = parse_heading(0, text)
    assert (heading.label, heading.number, heading.title) == (label, number, title)


# ----------------------------------------------------------------------- resolution


def test_table_2_is_its_caption_table_and_mentions(n18: tuple[Block, ...]) -> None:
    ref = only(cross_references("What does Table 2 show about the hybrid approach?", n18))
    parts = blocks_of(ref, n18)
    caption = next(b for b in parts if b.id == ref.heading_id)
    assert caption.kind == "caption" and caption.text.startswith("Table 2:")
    position = n18.index(caption)
    assert n18[position - 1] in parts  # the table body just above the caption
    assert any(b.text.startswith("Table 2 shows") for b in parts)  # the paragraph citing it
    assert not any(b.text.startswith(("Table 1", "Table 3")) for b in parts)
    [unit] = crossref_units(
        read_question("What does Table 2 show about the hybrid approach?"), [ref], n18
    )
    assert unit.origin == "crossref" and unit.text.startswith(caption.text)
    assert "Hybrid" in unit.text and len(unit.text) <= 1500
    texts = {b.id: b.text for b in n18}
    assert unit.text == CHUNK_JOINER.join(texts[s.block_id][s.start : s.end] for s in unit.spans)


def test_section_3_is_the_whole_section_only(n18: tuple[Block, ...]) -> None:
    ref = only(cross_references("In section 3, how are author names extracted?", n18))
    parts = blocks_of(ref, n18)
    heading = parts[0]
    assert heading.id == ref.heading_id and heading.text == "3 Extracting Metadata"
    assert all("3 Extracting Metadata" in b.section_path for b in parts)
    assert all(b.kind not in FURNITURE_KINDS for b in parts)
    in_section = [
        b
        for b in n18
        if "3 Extracting Metadata" in b.section_path
        and b.kind not in FURNITURE_KINDS
        and b.text.strip()
    ]
    assert parts == in_section
    [unit] = crossref_units(
        read_question("In section 3, how are author names extracted?"), [ref], n18
    )
    assert unit.text.startswith("3 Extracting Metadata")
    assert "author" in unit.text.lower() and unit.score is not None and unit.score > 0


def test_subsection_and_next_section_from_an_anchor(n18: tuple[Block, ...]) -> None:
    node_types = next(b for b in n18 if b.text == "2.1 Node Types")
    inside = n18[n18.index(node_types) + 2]
    refs = cross_references("What does the next section add?", n18, anchor=Anchor("n18", inside.id))
    assert blocks_of(only(refs), n18)[0].text == "2.2 Edge Types"
    refs = cross_references("and the previous section?", n18, anchor=Anchor("n18", inside.id))
    previous = blocks_of(only(refs), n18)
    assert previous[0].text.startswith("2 Structure")
    assert node_types not in previous  # the anchor's own section is not "previous"
    assert (
        only(cross_references("section 2.2", n18)).heading_id
        == blocks_of(
            only(cross_references("next section", n18, anchor=Anchor("n18", inside.id))), n18
        )[0].id
    )


def test_relative_reference_needs_an_anchor(n18: tuple[Block, ...]) -> None:
    ref = only(cross_references("What did the previous section say?", n18))
    assert not ref.resolved and ref.block_ids == ()
    with pytest.raises(NotFound, match="b9999"):
        cross_references("上一节", n18, anchor=Anchor("n18", "b9999"))


def test_the_definition_in_the_introduction(n18: tuple[Block, ...]) -> None:
    question = "What is the definition of the literature graph in the introduction?"
    ref = only(cross_references(question, n18))
    parts = blocks_of(ref, n18)
    assert parts[0].text == "1 Introduction"
    [unit] = crossref_units(read_question(question), [ref], n18, limit_per_ref=2)
    members = [s.block_id for s in unit.spans]
    assert len(members) == 3  # the heading and the two best blocks
    assert "The literature graph is a directed property graph" in unit.text
    assert all(b.section_path[-1:] == ("1 Introduction",) for b in parts)


def test_unknown_parts_stay_unresolved(n18: tuple[Block, ...]) -> None:
    refs = cross_references("Table 9 and chapter 12 and the appendix B", n18)
    assert [r.resolved for r in refs] == [False, False, False]
    assert crossref_units(read_question("Table 9"), refs, n18) == []


def test_chapter_two_in_chinese(lshort: tuple[Block, ...]) -> None:
    ref = only(cross_references("第二章里如何输入破折号？", lshort))
    parts = blocks_of(ref, lshort)
    assert parts[0].text == "Chapter 2" and parts[1].text == "文本排版"
    texts = [b.text for b in parts]
    assert "2.1 文本和语言结构" in texts and "2.13 保护脆弱命令" in texts
    assert not any(t.startswith(("3.1", "1.8", "Chapter 3")) for t in texts)
    [unit] = crossref_units(read_question("第二章里如何输入破折号？"), [ref], lshort)
    assert "破折号" in unit.text


def test_previous_and_next_in_chinese(lshort: tuple[Block, ...]) -> None:
    heading = next(b for b in lshort if b.text == "2.3 内置字符串")
    inside = lshort[lshort.index(heading) + 1]
    anchor = Anchor("zh", inside.id)
    previous = only(cross_references("上一节讲了什么？", lshort, anchor=anchor))
    assert blocks_of(previous, lshort)[0].text == "2.2 断行和分页"
    following = only(cross_references("下一节呢？", lshort, anchor=anchor))
    assert blocks_of(following, lshort)[0].text == "2.4 特殊字符和符号"
    chapter = only(cross_references("下一章讲什么", lshort, anchor=anchor))
    assert [b.text for b in blocks_of(chapter, lshort)[:2]] == ["Chapter 3", "数学公式"]


def test_chinese_table_caption_set_as_a_paragraph(lshort: tuple[Block, ...]) -> None:
    ref = only(cross_references("表2.1中的欧元符号怎么输入？", lshort))
    caption = next(b for b in blocks_of(ref, lshort) if b.id == ref.heading_id)
    assert caption.text.startswith("表 2.1")
    [unit] = crossref_units(read_question("表2.1中的欧元符号怎么输入？"), [ref], lshort)
    assert "欧元" in unit.text


def test_chinese_paper_table_and_conclusion(xjtu: tuple[Block, ...]) -> None:
    table, conclusion = cross_references("表2的测量结果和结论", xjtu)
    assert table.kind == "table" and conclusion.kind == "named"
    caption = next(b for b in blocks_of(table, xjtu) if b.id == table.heading_id)
    assert caption.kind == "caption" and caption.text.startswith("表 2")
    assert blocks_of(conclusion, xjtu)[0].text == "4 结论"


def test_manual_table_with_dotted_number(pg_comparison: tuple[Block, ...]) -> None:
    ref = only(cross_references("Which predicates in Table 9.2 test for null?", pg_comparison))
    parts = blocks_of(ref, pg_comparison)
    kinds = {b.kind for b in parts}
    assert "caption" in kinds and "table" in kinds
    caption = next(b for b in parts if b.id == ref.heading_id)
    assert caption.text == "Table 9.2. Comparison Predicates"
    [unit] = crossref_units(
        read_question("Which predicates in Table 9.2 test for null?"), [ref], pg_comparison
    )
    assert "IS NULL" in unit.text or "NULL" in unit.text
    assert len(unit.text) <= 1500


def test_headings_and_references_read_a_number_alike() -> None:
    """One reading for both sides of a cross-reference: Chinese, roman, letters, digits."""
    raw = ("二十", "XII", "ii", "a", "3", "MIX")
    assert [numeral(r) for r in raw] == ["20", "12", "2", "A", "3", "MIX"]
    assert parse_heading(0, "第二章 文本").number == ("2",)
