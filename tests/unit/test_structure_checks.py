"""The structure sweep's checks (``benchmarks/structure_checks.py``) on small made-up
documents: each check finds what it names and passes what is fine."""

from __future__ import annotations

from askalong.chunk.prose import chunk_blocks
from askalong.types import Block, LineBox, ParsedDocument
from helpers.benchmark_module import benchmark_module

checks = benchmark_module("structure_checks")


def _doc(*blocks: Block, pages: int = 1) -> ParsedDocument:
    return ParsedDocument(format="pdf", blocks=blocks, page_count=pages)


def _block(order: int, text: str, kind: str = "paragraph", **extra: object) -> Block:
    return Block(id=f"b{order}", kind=kind, text=text, order=order, **extra)  # type: ignore[arg-type]


def _found(check: str, parsed: ParsedDocument) -> list[str]:
    chunks = chunk_blocks("d", parsed.blocks)
    return [v.where for v in checks.CHECKS[check](parsed, chunks)]


def test_a_long_section_path_and_heading_are_found() -> None:
    long = "Keyword Index " + "word " * 60
    parsed = _doc(_block(0, long, "heading", section_path=(long,), heading_level=1))
    assert _found("path", parsed) == ["b0"]
    assert _found("heading", parsed) == ["b0"]
    short = _doc(_block(0, "Keyword Index", "heading", section_path=("Keyword Index",)))
    assert _found("path", short) == _found("heading", short) == []


def test_table_of_contents_and_link_lists_are_navigation() -> None:
    toc = ["1 Introduction . . . . . . . . 1", "1.1 What is Bash? . . . . . . 1", "2 Basics ... 3"]
    assert checks.navigation_lines(toc)
    links = ["Home", "Download", "License", "Support", "Purchase", "Search", "About"]
    assert checks.navigation_lines(links)
    prose = [*links, "The SELECT statement is used to query the database for rows."]
    assert not checks.navigation_lines(prose)


def test_a_numbered_heading_under_a_sibling_is_not_monotone() -> None:
    parsed = _doc(
        _block(0, "2.3 试验工况", "heading", section_path=("2.3 试验工况",), heading_level=2),
        _block(1, "3.1 结果", "heading", section_path=("2.3 试验工况", "3.1 结果")),
        _block(2, "第二章 安装", "heading", section_path=("第一章 简介", "第二章 安装")),
        _block(3, "2.3.1 Data", "heading", section_path=("2 Model", "2.3 X", "2.3.1 Data")),
    )
    assert _found("monotone", parsed) == ["b1", "b2"]


def test_a_paragraph_cut_at_a_page_break_is_found() -> None:
    parsed = _doc(
        _block(0, "The array is passed as an", page=3),
        _block(1, "7", "footer", page=3),
        _block(2, "array to the function.", page=4),
        _block(3, "A new paragraph starts here.", page=4),
        _block(4, "It ends.", page=5),
    )
    assert _found("page_split", parsed) == ["b2 p.4"]


def test_a_heading_or_listing_opening_the_next_page_is_no_page_split() -> None:
    for kind in ("heading", "code"):
        parsed = _doc(
            _block(0, "Run the installer and then", page=3),
            _block(1, "setup --all", kind, page=4),
            _block(2, "restart the shell.", page=4),
        )
        assert _found("page_split", parsed) == []


def test_a_block_repeated_at_one_place_on_most_pages_is_a_running_header() -> None:
    box = (LineBox(72, 30, 300, 40, 0, 12),)
    body = (LineBox(72, 300, 500, 310, 0, 10),)
    blocks = [_block(p, "ACM Journal", page=p + 1, boxes=box) for p in range(4)]
    blocks.append(_block(4, "Some body text", page=2, boxes=body))
    assert _found("running", _doc(*blocks, pages=4)) == ["b0 p.1"]


def test_numbered_code_lines_are_found_but_not_numbered_lists() -> None:
    assert checks.numbered_listing(["14 \\msg_new:nnnn { ctex }", "15 { Support }", "16 }"])
    assert checks.numbered_listing(["1int main() {", "2  return 0;", "3}"])
    assert not checks.numbered_listing(["1. Install it", "2. Run it", "3. Test it"])
    assert not checks.numbered_listing(["1 Introduction", "2 Basics", "3 Usage"])
