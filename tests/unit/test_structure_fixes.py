"""Structure rules that hold on documents nobody tuned the parsers on (issue 31): each
on a small input that broke before."""

from __future__ import annotations

from askalong.chunk.prose import chunk_blocks
from askalong.ingest.pipeline import document_language
from askalong.parse.detect import detect_format
from askalong.parse.flow import html, text
from askalong.parse.navigation import mark_navigation
from askalong.parse.pdf.layout import reading_order
from askalong.parse.pdf.listings import is_listing, strip_line_numbers
from askalong.parse.pdf.markers import candidates
from askalong.parse.pdf.outline import open_section
from askalong.parse.pdf.page_breaks import continues, join_page_breaks
from askalong.parse.pdf.parser import heading_title
from askalong.parse.pdf.printed import Line
from askalong.parse.pdf.text import join_lines
from askalong.types import Block, LineBox


def test_a_heading_left_open_around_the_body_heads_it_only() -> None:
    # sqlite's keyword index: "<h2>Keyword Index</h1>" leaves the h2 open to the end.
    links = "".join(f"<li><a href='x{i}.html'>keyword {i}</a></li>" for i in range(40))
    page = f"<html><body><h2>Keyword Index</h1><p>Other indexes:</p><ul>{links}</ul></body></html>"
    parsed = html.parse(page.encode(), source="keyword_index.html")
    heading = [b for b in parsed.blocks if b.kind == "heading"]
    assert [b.text for b in heading] == ["Keyword Index"]
    assert max(len(" > ".join(b.section_path)) for b in parsed.blocks) == len("Keyword Index")


def test_a_link_list_is_navigation_kept_in_the_reader_and_out_of_chunks() -> None:
    links = "".join(f"<li><a href='p{i}.html'>Page {i}</a></li>" for i in range(8))
    page = f"<html><body><h1>Manual</h1><ul>{links}</ul><p>The manual explains it all.</p>"
    parsed = html.parse(page.encode(), source="m.html")
    assert sum(b.kind == "navigation" for b in parsed.blocks) == 8
    chunks = chunk_blocks("d", parsed.blocks)
    assert all("Page 3" not in chunk.text for chunk in chunks)
    assert any("explains" in chunk.text for chunk in chunks)


def test_a_list_of_features_without_links_stays_content() -> None:
    items = "".join(f"<li>Feature number {i}</li>" for i in range(8))
    parsed = html.parse(f"<html><body><ul>{items}</ul></body></html>".encode(), source="f.html")
    assert {b.kind for b in parsed.blocks} == {"list_item"}


def test_a_heading_with_body_length_text_is_a_paragraph() -> None:
    long = "word " * 60
    parsed = html.parse(f"<html><body><h1>{long}</h1><p>Body.</p>".encode(), source="h.html")
    assert parsed.blocks[0].kind == "paragraph"
    assert parsed.blocks[1].section_path == ()


def test_table_of_contents_lines_are_navigation() -> None:
    toc = Block("b0", "paragraph", "1 Introduction . . . . . . . 1\n2 Usage . . . . . . . . 5", 0)
    body = Block("b1", "paragraph", "Bash is the shell. . . it reads commands.", 1)
    assert [b.kind for b in mark_navigation([toc, body])] == ["navigation", "paragraph"]


FAQ_TITLES = (
    "1. chrony compared to other programs",
    "1.1. How does chrony compare to ntpd?",
    "2. Configuration issues",
    "2.1. What is the minimum recommended configuration for an NTP client?",
    "2.2. How do I make an NTP server?",
)


def test_contents_listing_the_later_titles_without_page_numbers_are_navigation() -> None:
    # a plain-text FAQ's contents, reflowed into one paragraph: each entry is a later title
    listed = "o " + " ? ".join(FAQ_TITLES)
    body = [Block(f"b{k}", "paragraph", t, k + 2) for k, t in enumerate(FAQ_TITLES)]
    answer = Block("b9", "paragraph", "First, the client needs to know which servers to ask.", 9)
    blocks = [Block("b0", "paragraph", "Table of Contents", 0), Block("b1", "paragraph", listed, 1)]
    kinds = [b.kind for b in mark_navigation([*blocks, *body, answer])]
    assert kinds[1] == "navigation"
    assert set(kinds[2:]) == {"paragraph"}  # the titles themselves stay


def test_a_paragraph_repeating_a_few_later_lines_stays_content() -> None:
    # a paper's test output printed twice, page numbers between: no contents
    output = (
        "data: Job.Satisfaction (ordered) by Income (<5000 < 5000-15000 < 15000-25000 < "
        ">25000) stratified by Gender Z = 2.4812, p-value = 0.01309 alternative hypothesis: "
        "two.sided"
    )
    later = [
        "7",
        "data: Job.Satisfaction (ordered) by",
        "Income (<5000 < 5000-15000 < 15000-25000 < >25000)",
        "stratified by Gender Z = 2.4812, p-value = 0.01309 alternative hypothesis: two.sided",
        "8",
    ]
    blocks = [Block("b0", "paragraph", output, 0)]
    blocks += [Block(f"b{k + 1}", "paragraph", t, k + 1) for k, t in enumerate(later)]
    assert mark_navigation(blocks)[0].kind == "paragraph"


def _line(text: str, top: float, x0: float = 100.0) -> Line:
    return Line(text=text, x0=x0, top=top, x1=400.0, bottom=top + 9, size=9.0, bold=False)


def test_a_numbered_listing_drops_its_numbers_and_is_code() -> None:
    printed = [
        _line("14 \\msg_new:nnnn { ctex } { l3-too-old }", 100),
        _line("15 { Support~package~`#1'~too~old. }", 111),
        _line("16 {", 122),
        _line("Please~update~the~bundles", 133, x0=130),
        _line("17 }", 144),
    ]
    lines, listing = strip_line_numbers(printed)
    assert [line.text for line in lines][:3] == [
        "\\msg_new:nnnn { ctex } { l3-too-old }",
        "{ Support~package~`#1'~too~old. }",
        "{",
    ]
    assert is_listing(lines, listing)
    code = join_lines(lines, code=True).text.split("\n")
    assert code[2:] == ["{", "Please~update~the~bundles", "}"]


def test_a_numbered_list_or_contents_is_no_listing() -> None:
    printed = [_line("1 Introduction", 100), _line("2 Basics", 111), _line("3 Usage", 122)]
    lines, listing = strip_line_numbers(printed)
    assert lines == tuple(printed) and not listing


def test_an_xhtml_page_with_an_xml_declaration_is_html() -> None:
    page = b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html><body><p>x</p>'
    assert detect_format(page, source="git-rebase.html") == "html"


def test_a_markdown_readme_opening_with_html_is_markdown() -> None:
    readme = b'<p align="center"><a href="x"><img src="l.png"></a></p>\n<p>A</p>\n<div>B</div>\n'
    assert detect_format(readme + b"# Features\n\n- one\n", source="README.md") == "markdown"


HELP = """*usr_05.txt*\tFor Vim version 9.0.  Last change: 2019 May 23

\t\t     VIM USER MANUAL - by Bram Moolenaar

\t\t\t      Set your settings

|05.1|\tThe vimrc file

==============================================================================
*05.1*\tThe vimrc file\t\t\t\t\t*vimrc-intro*

You probably got tired of typing commands.  See |vimrc| for where it lives.

For Unix this file is always used and is recommended:

\t~/.vimrc ~

GLOBAL PLUGINS\t\t\t\t\t\t*standard-plugin*

Here {event} cannot be "*".\t\t\t\t*E1155*
Events are names.

*05.4*\tSimple mappings

A mapping binds keys.
"""


def test_help_file_sections_come_from_tags_and_the_markup_is_stripped() -> None:
    parsed = text.parse(HELP.encode(), source="usr_05.txt")
    assert parsed.title == "Set your settings"
    headings = [(b.text, b.heading_level) for b in parsed.blocks if b.kind == "heading"]
    assert headings == [
        ("05.1 The vimrc file", 1),
        ("GLOBAL PLUGINS", 2),
        ("05.4 Simple mappings", 1),
    ]
    body = " ".join(b.text for b in parsed.blocks)
    assert "See vimrc for" in body and "|" not in body and "*vimrc-intro*" not in body
    assert "~/.vimrc" in body and "~/.vimrc ~" not in body
    events = next(b for b in parsed.blocks if b.text.startswith("Here {event}"))
    assert events.section_path == ("05.1 The vimrc file", "GLOBAL PLUGINS")


def test_line_numbers_set_apart_from_their_code_are_dropped() -> None:
    # ctex.pdf: each number a line of its own, left of its code line on the same row.
    printed = []
    for n, code in enumerate(["\\gdef \\CTEX@a { b }", "\\gdef \\CTEX@c { d }", "}"]):
        top = 100.0 + 11 * n
        printed += [Line(str(3298 + n), 80.0, top, 95.0, top + 9, 9.0, False), _line(code, top)]
    lines, listing = strip_line_numbers(printed)
    assert [line.text for line in lines] == ["\\gdef \\CTEX@a { b }", "\\gdef \\CTEX@c { d }", "}"]
    assert is_listing(lines, listing)


def test_an_index_letter_bar_and_leaderless_contents_parts_are_navigation() -> None:
    blocks = [
        Block("b0", "paragraph", "A B C D E F G H J K", 0),
        Block("b1", "paragraph", "1 CTEX 是干什么的？ . . . . . . . 5", 1),
        Block("b2", "paragraph", "G 数学公式 18", 2),
        Block("b3", "paragraph", "The index lists every command.", 3),
        Block("b4", "paragraph", "Figure 3 shows 12", 4),
        Block("b5", "paragraph", "The plot has twelve points.", 5),
        Block("b6", "paragraph", "abort (C-g) . . . . . . . . 12", 6),
        Block("b7", "paragraph", "B", 7),
        Block("b8", "paragraph", "beep (C-b) . . . . . . . . . 13", 8),
        Block("b9", "paragraph", "An operator name is made of these characters:", 9),
        Block("b10", "paragraph", "+ - * / < > = ~ ! @ # % ^ & | ` ?", 10),
    ]
    kinds = [b.kind for b in mark_navigation(blocks)]
    nav, prose = "navigation", "paragraph"
    assert kinds == [nav, nav, nav, prose, prose, prose, nav, nav, nav, prose, prose]


def test_a_long_list_of_definition_terms_labels_its_section_with_the_first() -> None:
    terms = "".join(f"<dt>${{parameter/{'x' * 20}{i}/string}}</dt>" for i in range(4))
    page = f"<html><body><h1>Expansion</h1><dl>{terms}<dd><p>Replaces text.</p></dd></dl>"
    parsed = html.parse(page.encode(), source="bashref.html")
    body = next(b for b in parsed.blocks if b.text.endswith("Replaces text."))
    assert body.section_path[-1].endswith(" …")
    assert len(" > ".join(body.section_path)) < 80


def test_a_chinese_guide_full_of_english_commands_is_chinese() -> None:
    prose = [
        Block(f"p{i}", "paragraph", "安装完成后，打开命令行窗口输入以下命令。", i) for i in range(3)
    ]
    code = [
        Block(f"c{i}", "code", "tlmgr install ctex --repository http://mirror", 3 + i)
        for i in range(6)
    ]
    assert document_language([*prose, *code]) == "zh"


def test_a_sentence_cut_by_a_page_break_is_one_block_and_one_chunk() -> None:
    first = "The shell reads each word " * 6 + "and the result is passed as an"
    blocks = [
        Block("b0", "paragraph", first, 0, page=3, boxes=(LineBox(72, 700, 540, 712, 0, 186),)),
        Block("b1", "footer", "37", 1, page=3),
        Block("b2", "paragraph", "array to the function that runs it.", 2, page=4),
        Block("b3", "paragraph", "A new paragraph on the same page.", 3, page=4),
    ]
    joined = join_page_breaks(blocks)
    assert [b.id for b in joined] == ["b0", "b1", "b3"]
    assert joined[0].text == f"{first} array to the function that runs it."
    chunks = chunk_blocks("d", joined, target=40, maximum=80)
    assert [[s.block_id for s in c.spans] for c in chunks] == [["b0"], ["b3"]]


def test_what_reads_as_the_rest_of_a_sentence_cut_by_a_page_break() -> None:
    assert continues("the value of each field is passed as an", "array to the function")
    assert continues("使用 \\documentstyle 命令定", "义文档类型以及所包含宏包")
    assert continues("另一个是，", "称为 CJK* 模式")
    assert not continues("The function returns.", "then the shell goes on")
    assert not continues("It runs the command", "The next paragraph opens here")
    # a change log's next entry, not the rest of the last one
    assert not continues("与现行 Windows 系统名称统一", "v2022.4.1")


def test_a_bold_word_going_on_with_a_sentence_does_not_end_its_paragraph() -> None:
    # sample-acmsmall.pdf: "• Net-" | bold "works" (taken for a run-in head) | "→ Network …"
    size = 8.97
    lines = [
        Line(
            "Computer systems organization → Embedded systems; Robotics; • Net\ufffe",
            46.0,
            270.0,
            442.0,
            278.0,
            size,
            False,
        ),
        Line("works", 45.0, 280.0, 70.0, 289.0, size, True, run_in=True),
        Line("→ Network reliability.", 73.0, 281.0, 155.0, 289.0, size, False),
        Line(
            "Additional Key Words and Phrases: datasets, neural networks, gaze",
            46.0,
            297.0,
            442.0,
            306.0,
            size,
            False,
        ),
    ]
    groups = reading_order(lines)
    assert len(groups[0]) == 3
    assert join_lines(groups[0]).text.endswith("• Networks → Network reliability.")


def test_a_bold_run_in_head_after_a_finished_sentence_still_starts_a_block() -> None:
    size = 9.0
    lines = [
        Line(
            "The model is trained on the full corpus as described above.",
            46.0,
            100.0,
            442.0,
            109.0,
            size,
            False,
        ),
        Line("Papers.", 45.0, 111.0, 80.0, 120.0, size, True, run_in=True),
        Line(
            "We collect papers from the anthology and keep their abstracts.",
            84.0,
            111.0,
            442.0,
            120.0,
            size,
            False,
        ),
    ]
    assert len(reading_order(lines)) >= 2


def test_a_footnote_marker_after_a_path_or_before_chinese_is_a_candidate() -> None:
    # install-latex-guide-zh-cn.pdf "路径为 X:\Y3 ." and lshort-zh-cn.pdf "book1提供了":
    # the digit is set raised; only raised candidates are rewritten as superscripts.
    for sample, digit in (("路径为 X:\\Y3 . 下载", 8), ("report 和 book1提供了", 13)):
        assert [mark.start for mark in candidates(sample) if not mark.leading] == [digit]
    assert [mark.start for mark in candidates("x11 x12") if not mark.leading] == []


def test_a_glossary_whose_definitions_are_links_stays_content() -> None:
    # PostgreSQL's acronyms.html: each definition is a link to an encyclopaedia.
    entries = "".join(
        f"<dt>AB{i}</dt><dd><p><a href='https://x/{i}'>Something Long {i}</a></p></dd>"
        for i in range(8)
    )
    parsed = html.parse(f"<html><body><dl>{entries}</dl></body></html>".encode(), source="a.html")
    assert {b.kind for b in parsed.blocks} == {"paragraph"}


def test_a_chapter_label_never_nests_under_the_previous_chapter() -> None:
    stack: list[tuple[int, str]] = []
    for level, title in (
        (1, "第 3 章 排版"),
        (2, "3.1 字体"),
        (3, "第 4 章 附录"),
        (2, "Chapter 5 Tools"),
    ):
        open_section(stack, level, title)
    assert [title for _, title in stack] == ["Chapter 5 Tools"]


def test_a_pdf_title_from_its_heading_drops_the_note_marks_after_it() -> None:
    blocks = [
        Block("b0", "heading", "一份简短的关于 LATEX 安装的介绍¹", 0, heading_level=1, page=1),
        Block("b1", "heading", "王然²", 1, heading_level=2, page=1),
    ]
    assert heading_title(blocks) == "一份简短的关于 LATEX 安装的介绍"
    starred = [Block("b0", "heading", "关于 tlmgr 使用方法的简介∗", 0, heading_level=1, page=1)]
    assert heading_title(starred) == "关于 tlmgr 使用方法的简介"


def test_a_pdf_title_from_a_numbered_heading_drops_its_number_among_numbered_ones() -> None:
    numbered = [
        Block("b0", "heading", "1 Debian Edu 12", 0, heading_level=1, page=1),
        Block("b1", "heading", "2 关于 Debian Edu 和 Skolelinux", 1, heading_level=1, page=1),
    ]
    assert heading_title(numbered) == "Debian Edu 12"
    # Alone, a number is part of the title; a year is never a section number.
    assert heading_title(numbered[:1]) == "1 Debian Edu 12"
    year = Block("b0", "heading", "1984 Revisited", 0, heading_level=1, page=1)
    assert heading_title([year, numbered[1]]) == "1984 Revisited"
