"""HTML parser: the real PostgreSQL 15 manual, an article page with furniture, Chinese."""

from __future__ import annotations

from pathlib import Path

import pytest

from askalong.errors import CorruptDocument, EmptyDocument
from askalong.parse.flow import html
from askalong.types import Block, ParsedDocument

NAV_WORDS = {"Prev", "Next", "Up", "Home"}


def manual(evaldata: Path) -> Path:
    return evaldata / "manuals" / "postgresql-15-html"


def parse_page(evaldata: Path, name: str) -> ParsedDocument:
    return html.parse((manual(evaldata) / name).read_bytes(), source=name)


def find(doc: ParsedDocument, start: str) -> Block:
    return next(b for b in doc.blocks if b.text.startswith(start))


def test_manual_page_heading_paragraphs_and_list(evaldata: Path) -> None:
    doc = parse_page(evaldata, "tutorial-arch.html")
    assert doc.title == "1.2. Architectural Fundamentals"
    heading, first = doc.blocks[0], doc.blocks[1]
    assert (heading.kind, heading.heading_level) == ("heading", 2)
    assert heading.section_path == ("1.2. Architectural Fundamentals",)
    assert first.kind == "paragraph"
    assert first.text == (
        "Before we proceed, you should understand the basic PostgreSQL system architecture. "
        "Understanding how the parts of PostgreSQL interact will make this chapter "
        "somewhat clearer."
    )
    assert first.section_path == ("1.2. Architectural Fundamentals",)
    assert first.lines == (3, 7)
    items = [b for b in doc.blocks if b.kind == "list_item"]
    assert len(items) == 2
    assert items[0].text.startswith("A server process, which manages the database files")
    # The navheader repeats the page title: it must appear once, as the heading.
    assert [b.text for b in doc.blocks].count("1.2. Architectural Fundamentals") == 1
    assert not NAV_WORDS & {word for b in doc.blocks for word in b.text.split()}


def test_manual_nested_sections_and_boxed_caution(evaldata: Path) -> None:
    doc = parse_page(evaldata, "sql-syntax-lexical.html")
    c_style = "4.1.2.2. String Constants with C-Style Escapes"
    path = ("4.1. Lexical Structure", "4.1.2. Constants", c_style)
    assert find(doc, c_style).section_path == path
    assert find(doc, c_style).heading_level == 4
    caution = find(doc, "If the configuration parameter standard_conforming_strings is off")
    assert caution.section_path == (*path, "Caution")
    after = find(doc, "The character with the code zero cannot be in a string constant.")
    assert after.section_path == path  # the caution box's label closes with the box
    unicode = find(doc, "4.1.2.3. String Constants with Unicode Escapes")
    assert unicode.section_path == (*path[:2], "4.1.2.3. String Constants with Unicode Escapes")


def test_manual_table_caption_and_code(evaldata: Path) -> None:
    doc = parse_page(evaldata, "functions-comparison.html")
    caption = find(doc, "Table 9.1. Comparison Operators")
    assert caption.kind == "caption"
    table = doc.blocks[caption.order + 1]
    assert table.kind == "table"
    rows = table.text.split("\n")
    assert rows[0] == "Operator | Description"
    assert rows[1] == "datatype < datatype → boolean | Less than"
    assert rows[-1] == "datatype != datatype → boolean | Not equal"
    assert len([b for b in doc.blocks if b.text.startswith("datatype < datatype")]) == 0
    code = find(doc, "a IS DISTINCT FROM b")
    assert code.kind == "code"
    assert code.text == "a IS DISTINCT FROM b\na IS NOT DISTINCT FROM b"
    note = find(doc, "<> is the standard SQL notation")
    assert note.section_path == ("9.2. Comparison Functions and Operators", "Note")


def test_manual_reference_page_synopsis_keeps_layout(evaldata: Path) -> None:
    doc = parse_page(evaldata, "sql-createindex.html")
    assert doc.title == "CREATE INDEX"
    assert [b.text for b in doc.blocks[:3]] == [
        "CREATE INDEX",
        "CREATE INDEX — define a new index",
        "Synopsis",
    ]
    synopsis = doc.blocks[3]
    assert synopsis.kind == "code"
    assert synopsis.text.startswith("CREATE [ UNIQUE ] INDEX [ CONCURRENTLY ]")
    assert "\n    [ INCLUDE ( column_name [, ...] ) ]\n" in synopsis.text
    description = find(doc, "CREATE INDEX constructs an index on the specified column(s)")
    assert description.section_path == ("Description",)
    term = find(doc, "CONCURRENTLY")
    assert term.kind == "paragraph"
    assert term.text.startswith("CONCURRENTLY — When this option is used, PostgreSQL will build")
    assert term.section_path == ("Parameters", "CONCURRENTLY")


def test_manual_definition_is_one_block_with_its_term(evaldata: Path) -> None:
    """ON COMMIT > DROP: a nested <dt>/<dd>; its definition must be found by the term."""
    doc = parse_page(evaldata, "sql-createtable.html")
    drop = find(doc, "DROP — ")
    assert drop.text.startswith(
        "DROP — The temporary table will be dropped at the end of the current transaction block."
    )
    assert drop.section_path == ("Parameters", "ON COMMIT", "DROP")
    assert drop.lines == (837, 841)
    on_commit = find(doc, "ON COMMIT — ")
    assert on_commit.text.endswith("The three options are:")
    assert on_commit.section_path == ("Parameters", "ON COMMIT")
    # The term is not left behind as a block of its own, and the outline resumes after.
    assert not [b for b in doc.blocks if b.text in ("DROP", "ON COMMIT")]
    after = find(doc, "Compatibility")
    assert after.section_path == ("Compatibility",)


def test_definition_list_terms_and_odd_definitions() -> None:
    markup = (
        "<h1>Options</h1><dl>"
        "<dt>-v</dt><dt>--verbose</dt><dd><p>Print more.</p><p>Twice is louder.</p></dd>"
        "<dt>--sample</dt><dd><pre>run --sample</pre></dd>"
        "<dt>--orphan</dt>"
        "</dl><p>After the list.</p>"
    )
    doc = html.parse(markup.encode(), source="options.html")
    assert [(b.text, b.section_path) for b in doc.blocks] == [
        ("Options", ("Options",)),
        ("-v, --verbose — Print more.", ("Options", "-v, --verbose")),
        ("Twice is louder.", ("Options", "-v, --verbose")),
        ("--sample", ("Options", "--sample")),
        ("run --sample", ("Options", "--sample")),
        ("--orphan", ("Options",)),
        ("After the list.", ("Options",)),
    ]


@pytest.mark.slow
def test_whole_manual_parses_clean(evaldata: Path) -> None:
    pages = sorted(manual(evaldata).glob("*.html"))
    assert len(pages) == 1169  # 1174 files: 1169 pages + stylesheet, 3 SVGs, copyright
    docs = [html.parse(page.read_bytes(), source=page.name) for page in pages]
    for page, doc in zip(pages, docs, strict=True):
        assert doc.title, page.name
        assert doc.blocks, page.name
        assert [b.order for b in doc.blocks] == list(range(len(doc.blocks)))
        assert all(b.id == f"b{b.order}" and b.text.strip() for b in doc.blocks)
        assert all(b.lines and b.lines[0] <= b.lines[1] for b in doc.blocks), page.name
        assert not any(b.text in NAV_WORDS for b in doc.blocks), page.name
    assert sum(len(d.blocks) for d in docs) > 30_000


ARTICLE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Tide Pools | Coast Journal</title>
<script>var tracking = "TRACKING-CODE";</script><style>body { color: red }</style></head>
<body>
<header class="site-header"><a href="/">Coast Journal</a>
<nav><ul><li><a href="/">Home page</a></li><li>About us</li></ul></nav></header>
<div id="cookie-banner">We use cookies to improve your visit. <button>Accept</button></div>
<div class="breadcrumbs"><a href="/">Journal</a> / Nature</div>
<main>
<article>
<header><h1>Life in Tide Pools</h1></header>
<p>Tide pools are <em>rocky</em> hollows that hold
   seawater at low tide.</p>
<div>Loose text in a div <b>with bold</b> words.<p>A nested paragraph.</p>Trailing text.</div>
<h2>Animals</h2>
<ul><li>Sea anemones</li><li>Hermit crabs</li></ul>
<figure><img src="a.png" alt="anemone"><figcaption>An anemone at dusk.</figcaption></figure>
<table><tr><th>Species</th><th>Count</th></tr><tr><td>Crab</td><td>12</td></tr></table>
<pre><code>count = 12
if count:
    print(count)</code></pre>
<dl><dt>Littoral zone</dt><dd>The shore between the tides.</dd></dl>
<blockquote>The sea, once it casts its spell.</blockquote>
</article>
<aside><h3>Related stories</h3><p>Other stories you may like</p></aside>
</main>
<footer><p>Copyright 2024 Coast Journal</p></footer>
<noscript>Please enable JavaScript</noscript>
</body></html>"""


def test_article_page_keeps_the_article_only_in_order() -> None:
    doc = html.parse(ARTICLE.encode(), source="article.html")
    assert doc.title == "Tide Pools | Coast Journal"
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("heading", "Life in Tide Pools"),
        ("paragraph", "Tide pools are rocky hollows that hold seawater at low tide."),
        ("paragraph", "Loose text in a div with bold words."),
        ("paragraph", "A nested paragraph."),
        ("paragraph", "Trailing text."),
        ("heading", "Animals"),
        ("list_item", "Sea anemones"),
        ("list_item", "Hermit crabs"),
        ("caption", "An anemone at dusk."),
        ("table", "Species | Count\nCrab | 12"),
        ("code", "count = 12\nif count:\n    print(count)"),
        ("paragraph", "Littoral zone — The shore between the tides."),
        ("paragraph", "The sea, once it casts its spell."),
    ]
    assert doc.blocks[1].lines == (12, 13)
    assert doc.blocks[10].lines == (19, 21)
    assert doc.blocks[7].section_path == ("Life in Tide Pools", "Animals")
    assert doc.page_count == 1 and all(b.page is None for b in doc.blocks)


def test_inline_text_in_divs_is_neither_lost_nor_doubled() -> None:
    page = b"<div>one<span>two</span><br>three<br><br>four<div>five</div>six <i>seven</i></div>"
    doc = html.parse(page, source="mixed.html")
    assert [b.text for b in doc.blocks] == ["onetwo three", "four", "five", "six seven"]


CHINESE = """<html><head><meta http-equiv="Content-Type" content="text/html; charset=gb2312">
<title>数据库简介</title></head><body>
<h1>第一章 概述</h1><p>数据库是按照数据结构来组织、
存储和管理数据的仓库。</p>
<h2>1.1 历史</h2><p>关系模型由 E. F. Codd 提出。</p></body></html>"""


@pytest.mark.parametrize(
    ("data", "label"),
    [
        (CHINESE.encode("gbk"), "gbk declared"),
        (CHINESE.replace("gb2312", "utf-8").encode("utf-8"), "utf-8 declared"),
        (CHINESE.replace("charset=gb2312", "").encode("utf-8"), "undeclared utf-8"),
        (CHINESE.replace("gb2312", "utf-8").encode("gb18030"), "wrong declaration"),
    ],
)
def test_chinese_page_round_trips(data: bytes, label: str) -> None:
    doc = html.parse(data, source=f"{label}.html")
    assert doc.title == "数据库简介"
    assert [b.text for b in doc.blocks] == [
        "第一章 概述",
        "数据库是按照数据结构来组织、存储和管理数据的仓库。",  # the source line wrap vanishes
        "1.1 历史",
        "关系模型由 E. F. Codd 提出。",
    ]
    assert doc.blocks[3].section_path == ("第一章 概述", "1.1 历史")


def test_title_falls_back_to_first_heading() -> None:
    doc = html.parse(b"<body><h2>Minor</h2><h1>Main</h1><p>x</p></body>", source="t.html")
    assert doc.title == "Main"


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (b"", EmptyDocument),
        (b"  \n\t  ", EmptyDocument),
        (
            b"<html><head><title>T</title><script>x()</script></head><body><nav>Menu</nav>"
            b"</body></html>",
            EmptyDocument,
        ),
        (bytes(range(256)) * 8, CorruptDocument),
    ],
)
def test_errors_name_the_source(data: bytes, error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        html.parse(data, source="bad.html")
    assert "bad.html" in str(info.value)


def test_deep_div_soup_parses_and_absurd_nesting_is_a_clear_error() -> None:
    deep = b"<div>" * 1500 + b"<p>deep text</p>" + b"</div>" * 1500
    assert [b.text for b in html.parse(deep, source="deep.html").blocks] == ["deep text"]
    absurd = b"<div>" * 3000 + b"<p>deep text</p>" + b"</div>" * 3000
    with pytest.raises(CorruptDocument, match="nested too deeply"):
        html.parse(absurd, source="absurd.html")


def test_standalone_multiline_code_is_a_code_block() -> None:
    page = b"<div><code>x = 1\n  y = 2</code></div><p><code>a\nb</code> then text</p>"
    doc = html.parse(page, source="code.html")
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("code", "x = 1\n  y = 2"),
        ("paragraph", "a b then text"),
    ]


def test_an_enormous_html_title_is_cut() -> None:
    page = (
        f"<html><head><title>{'Title words ' * 5000}</title></head><body><p>Body.</p></body></html>"
    )
    assert len(html.parse(page.encode(), source="t.html").title) <= 201
