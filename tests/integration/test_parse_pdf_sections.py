"""Section paths and Chinese line continuation on the real evaluation PDFs.

The Alibaba Java manual sets its rules a size above the explanations, wraps them under
a hanging indent and spaces its preface lines widely; its contents page is titled "目录".
Papers set figure labels and formula symbols large enough to pass for headings.
"""

from __future__ import annotations

import itertools
import re
from functools import cache
from pathlib import Path

import pytest

from askalong.parse.pdf.parser import parse
from askalong.types import Block, ParsedDocument

JAVA_MANUAL = "zh_long/alibaba_java_manual_huangshan.pdf"
# A real title has a word: three Latin letters in a row, or a Han character.
WORD = re.compile(r"[A-Za-z]{3}|[\u3400-\u9fff]")
ROMAN_PAGE = re.compile(r"^[ivxlcdm]{1,6}$", re.I)
NUMBER = re.compile(r"^(\d{1,2}(?:\.\d{1,2})*)\.?\s")


def _nested_wrongly(path: tuple[str, ...]) -> bool:
    """ "1. Introduction > 2. Method" or "1.1.2 X > 1.2.1 Y": numbered siblings nested."""
    numbers = [m[1] for m in (NUMBER.match(title) for title in path) if m]
    return any(
        not (inner + ".").startswith(outer + ".") or inner == outer
        for outer, inner in itertools.pairwise(numbers)
    )


@cache
def _parsed(path: Path) -> ParsedDocument:
    return parse(path.read_bytes(), source=path.name, ocr=False)


def _java(evaldata: Path) -> ParsedDocument:
    return _parsed(evaldata / "pdf" / JAVA_MANUAL)


def _holding(doc: ParsedDocument, text: str) -> list[Block]:
    return [b for b in doc.blocks if text in b.text]


def test_a_rule_wrapped_under_a_hanging_indent_is_one_block(evaldata: Path) -> None:
    doc = _java(evaldata)
    [rule] = _holding(doc, "这样的处理方")
    assert rule.text == (
        "4.【强制】线程池不允许使用 Executors 去创建，而是通过 ThreadPoolExecutor 的方式，"
        "这样的处理方式让写的同学更加明确线程池的运行规则，规避资源耗尽的风险。"
    )
    assert len(rule.boxes) == 2
    [naming] = _holding(doc, "测试类命名以它要")
    assert naming.text.endswith("测试类命名以它要测试的类的名称开始，以 Test 结尾。")


def test_widely_spaced_preface_lines_form_paragraphs(evaldata: Path) -> None:
    doc = _java(evaldata)
    [first] = _holding(doc, "经历了多次大")
    assert "经历了多次大规模一线实战的检验" in first.text
    assert first.text.endswith("“反例”说明需要提防的雷区，以及真实的错误案例。")
    assert first.kind == "paragraph" and len(first.boxes) == 11


def test_rules_are_not_headings_and_the_contents_page_closes(evaldata: Path) -> None:
    doc = _java(evaldata)
    headings = [b.text for b in doc.blocks if b.kind == "heading"]
    assert "一、编程规约" in headings and "(七) 并发处理" in headings
    assert not [text for text in headings if text.endswith("。")]
    [rule] = _holding(doc, "这样的处理方")
    assert rule.kind == "paragraph"
    assert rule.section_path == ("一、编程规约", "(七) 并发处理")
    # The contents page closes at the first chapter: the body is filed under its chapters.
    chapter = next(b for b in doc.blocks if b.text == "一、编程规约")
    assert chapter.section_path == ("一、编程规约",)
    under_contents = [b for b in doc.blocks if "目录" in b.section_path]
    assert 30 <= len(under_contents) < 40
    assert all(b.order < chapter.order for b in under_contents)


@pytest.mark.slow
def test_no_evaldata_pdf_has_a_junk_section_title(evaldata: Path) -> None:
    paths = sorted((evaldata / "pdf").glob("*/*.pdf"))
    assert len(paths) >= 20
    junk: dict[str, set[str]] = {}
    for path in paths:
        blocks = _parsed(path).blocks
        titles = {title for block in blocks for title in block.section_path}
        bad = {title for title in titles if not WORD.search(title) or ROMAN_PAGE.match(title)}
        bad |= {" > ".join(b.section_path) for b in blocks if _nested_wrongly(b.section_path)}
        # A running head repeating the open section's title does not open it again.
        bad |= {
            " > ".join(b.section_path)
            for b in blocks
            if len(set(b.section_path)) < len(b.section_path)
        }
        if bad:
            junk[path.name] = bad
    assert junk == {}


def test_the_authors_under_a_papers_title_are_body_text(evaldata: Path) -> None:
    doc = _parsed(evaldata / "pdf" / "en_2col" / "ALCE.pdf")
    [authors] = _holding(doc, "Tianyu Gao Howard Yen")
    assert authors.kind == "paragraph" and authors.page == 1
    headings = [b.text for b in doc.blocks if b.kind == "heading" and b.page == 1]
    assert "Abstract" in headings and "1 Introduction" in headings


def test_a_short_chinese_numbered_heading_opens_its_section() -> None:
    """ "3.1 网络" (two Han characters after the number) was too few letters to be a heading,
    so the Debian Edu manual's network section sat under "3 结构"; the manual's title, from
    its first heading "1 Debian Edu 12", drops the section number."""
    path = Path(__file__).parents[2] / "benchmarks/unseen2/docs/debian-edu-manual-zh-cn-ch1-5.pdf"
    parsed = _parsed(path)
    assert parsed.title == "Debian Edu 12"
    network = next(b for b in parsed.blocks if b.text.startswith("文档的这部分叙述 Skolelinux"))
    assert network.section_path == ("3 结构", "3.1 网络")
