"""Plain-text parser: encodings, paragraphs, conservative titles, errors."""

from __future__ import annotations

import pytest

from askalong.errors import CorruptDocument, EmptyDocument
from askalong.parse.flow import text

CHINESE = (
    "第一章 总则\n\n为了规范数据管理，保障数据安全，\n制定本办法。\n\n"
    "第二章 附则\n\n本办法自发布之日起施行。\n"
)


@pytest.mark.parametrize(
    "data",
    [
        CHINESE.encode("utf-8"),
        b"\xef\xbb\xbf" + CHINESE.encode("utf-8"),
        b"\xff\xfe" + CHINESE.encode("utf-16-le"),
        b"\xfe\xff" + CHINESE.encode("utf-16-be"),
        CHINESE.encode("gb18030"),
        CHINESE.replace("\n", "\r\n").encode("gbk"),
    ],
    ids=["utf8", "utf8-bom", "utf16le-bom", "utf16be-bom", "gb18030", "gbk-crlf"],
)
def test_chinese_round_trips_in_every_encoding(data: bytes) -> None:
    doc = text.parse(data, source="rules.txt")
    assert doc.format == "text" and doc.page_count == 1
    assert doc.title == "第一章 总则"
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("heading", "第一章 总则"),
        ("paragraph", "为了规范数据管理，保障数据安全，制定本办法。"),  # no space at the wrap
        ("heading", "第二章 附则"),
        ("paragraph", "本办法自发布之日起施行。"),
    ]
    assert doc.blocks[1].lines == (3, 4)
    assert doc.blocks[3].section_path == ("第二章 附则",)


ENGLISH = """Field Notes on Tide Pools
=========================

1. Introduction

Tide pools hold seawater
at low tide.

1.1 Scope

We looked at three beaches.

2. Buy rope
3. Buy boots

ANIMALS

- anemones
- crabs
"""


def test_english_titles_paragraphs_and_lines() -> None:
    doc = text.parse(ENGLISH.encode("latin-1"), source="notes.txt")
    assert doc.title == "Field Notes on Tide Pools"
    got = [(b.kind, b.heading_level, b.text, b.lines) for b in doc.blocks]
    assert got == [
        ("heading", 1, "Field Notes on Tide Pools", (1, 2)),
        ("heading", 1, "1. Introduction", (4, 4)),
        ("paragraph", 0, "Tide pools hold seawater at low tide.", (6, 7)),
        ("heading", 2, "1.1 Scope", (9, 9)),
        ("paragraph", 0, "We looked at three beaches.", (11, 11)),
        ("paragraph", 0, "2. Buy rope 3. Buy boots", (13, 14)),
        ("heading", 1, "ANIMALS", (16, 16)),
        ("paragraph", 0, "- anemones - crabs", (18, 19)),
    ]
    assert doc.blocks[4].section_path == ("1. Introduction", "1.1 Scope")
    assert doc.blocks[7].section_path == ("ANIMALS",)


def test_a_run_of_short_numbered_lines_is_a_list_not_headings() -> None:
    doc = text.parse(b"1. Buy milk\n\n2. Buy eggs\n\n3. Buy bread\n", source="todo.txt")
    assert [b.kind for b in doc.blocks] == ["paragraph"] * 3


def test_sentences_are_not_titles() -> None:
    data = b"Ends with a period.\n\nA short line\n\nWARNING:\n\nThe last one, with a comma,\n"
    doc = text.parse(data, source="plain.txt")
    assert {b.kind for b in doc.blocks} == {"paragraph"}


def test_latin1_text_decodes() -> None:
    doc = text.parse("Café au lait, crème brûlée.\n".encode("cp1252"), source="menu.txt")
    assert doc.blocks[0].text == "Café au lait, crème brûlée."


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (b"", EmptyDocument),
        (b" \n\n\t \r\n", EmptyDocument),
        (b"\xff\xfe" + " \n ".encode("utf-16-le"), EmptyDocument),
        (bytes(range(256)) * 16, CorruptDocument),
        (b"\x00\x01\x02\x03\xfe\x80\x81" * 100, CorruptDocument),
    ],
)
def test_errors_name_the_source(data: bytes, error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        text.parse(data, source="bad.txt")
    assert "bad.txt" in str(info.value)


def test_a_text_whose_first_line_is_the_whole_text_gets_a_short_title() -> None:
    # The title is indexed with every chunk: a 72 KB title made a 72 KB text take minutes.
    line = "An upload that outlives its server. " * 2_000
    parsed = text.parse(line.encode(), source="one-line.txt")
    assert len(parsed.title) <= 201
    assert parsed.title.endswith("…") and line.startswith(parsed.title[:-1])


MAN_PAGE = (
    "TREE(1)\t\t\t    General Commands Manual\t\t       TREE(1)\n\n\n"
    "NAME\n       tree - list contents of directories in a tree-like format.\n\n"
    "OPTIONS\n       -a     All files are printed.\n\n\n"
    "Tree 2.1.0\t\t\t\t\t\t\t       TREE(1)\n"
)


def test_a_rendered_man_pages_running_lines_are_page_furniture() -> None:
    """Never searched or quoted: "TREE(1) General Commands Manual TREE(1)" once answered
    a question about sorting by time (unseen6)."""
    parsed = text.parse(MAN_PAGE.encode(), source="tree.1.txt")
    kinds = [(b.kind, b.text) for b in parsed.blocks]
    assert kinds[0] == ("header", "TREE(1) General Commands Manual TREE(1)")
    assert kinds[-1] == ("footer", "Tree 2.1.0 TREE(1)")
    assert all(k not in ("header", "footer") for k, _ in kinds[1:-1])
    assert parsed.title == "TREE(1)"


def test_a_line_ending_in_a_name_and_section_is_furniture_only_under_a_man_header() -> None:
    plain = "See also\n\nThe ls(1) page lists the options of  ls(1)\n"
    assert all(
        b.kind == "paragraph" or b.kind == "heading"
        for b in text.parse(plain.encode(), source="notes.txt").blocks
    )


# A man page rendered to text in Traditional Chinese (msmtp's): a statement ended without a
# full stop on a short line, then the wrapped list that follows it.
ENDED = (
    "logfile [file]\n"
    "  不給引數會關閉記錄，預設如此。\n"
    "  當選擇一個logfile 時，msmtp 會為每一封指定logfile 帳號的郵件新增\n"
    "  一行記錄\n"
    "  記錄中會包含如下資訊：日期、時間、SMTP 伺服器名字、是否用TLS、是\n"
    "  否驗證、信件來自哪裡、收件人地址\n"
)


def test_a_short_chinese_line_its_writer_ended_ends_its_paragraph() -> None:
    doc = text.parse(ENDED.encode("utf-8"), source="msmtp.1.txt")
    paragraphs = [(b.text, b.lines) for b in doc.blocks]
    assert paragraphs[-2][0].endswith("郵件新增一行記錄")  # not run on into the next statement
    listed = "記錄中會包含如下資訊：日期、時間、SMTP 伺服器名字、是否用TLS、是否驗證、"
    assert paragraphs[-1] == (listed + "信件來自哪裡、收件人地址", (5, 6))


@pytest.mark.parametrize(
    "wrapped",
    [
        "为了规范数据管理，保障数据安全，\n制定本办法。\n",  # the wrap width's own line first
        "为了规范数据管理，\n保障数据安全，制定本办法，自发布之日起施行。\n",  # broken by clause
        "用 teatime (下\n午4點)指定，你可以用 AM 或 PM 字尾指定一天的上午或下午。\n",  # Latin words
    ],
)
def test_a_wrapped_chinese_sentence_stays_one_paragraph(wrapped: str) -> None:
    doc = text.parse(wrapped.encode("utf-8"), source="notes.txt")
    assert [b.text for b in doc.blocks] == [text.join_lines(wrapped.strip().split("\n"))]
