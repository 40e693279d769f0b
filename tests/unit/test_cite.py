"""Quotes are found in their sources after normalising, and shown as the exact source text."""

from __future__ import annotations

from dataclasses import replace

import pytest

from askalong.context.units import ContextUnit, places_of
from askalong.types import CHUNK_JOINER, Block, BlockSpan
from askalong.verify.cite import (
    Source,
    SourcePart,
    check_quotes,
    locate_quote,
    retry_message,
    sources_from_units,
)


def source(*texts: str, number: int = 1) -> Source:
    parts = tuple(
        SourcePart(f"b{k}", 10, 10 + len(text), text, page=k + 1, section_path=("S",))
        for k, text in enumerate(texts)
    )
    return Source(number, "doc", parts)


def exact(quote_text: str, src: Source) -> str:
    """The located quote's text, checked to be the source text at its span."""
    quote = locate_quote(quote_text, src)
    assert quote is not None, f"{quote_text!r} not located"
    part = next(p for p in src.parts if p.block_id == quote.block_id)
    assert quote.text == part.text[quote.start - part.start : quote.end - part.start]
    return quote.text


@pytest.mark.parametrize(
    ("block", "quoted", "shown"),
    [
        (
            "The   cell\nmembrane is thin.",
            "The cell membrane is thin",
            "The   cell\nmembrane is thin",
        ),
        (
            "an exam-\nple of hyphenation",
            "an example of hyphenation",
            "an exam-\nple of hyphenation",
        ),
        ("an exam- ple here", "an example here", "an exam- ple here"),
        ("他说，你好：世界！", "他说,你好:世界", "他说，你好：世界"),
        ("ＡＢＣ full width letters", "ABC full width", "ＡＢＣ full width"),
        ("she said “hello there” twice", 'said "hello there"', "said “hello there”"),
        ("the ﬁnal ﬂow rate", "the final flow", "the ﬁnal ﬂow"),
        ("Mixed Case Text here", "mixed case text", "Mixed Case Text"),
        ("「再见」是他说的最后一句话。", '"再见"是他说的', "「再见」是他说的"),
    ],
)
def test_normalised_quotes_show_the_source_text(block: str, quoted: str, shown: str) -> None:
    assert exact(quoted, source("Something before.", block)) == shown


def test_offsets_are_block_offsets_with_page_and_section() -> None:
    src = source("Alpha beta gamma delta.", "Epsilon zeta eta theta.")
    quote = locate_quote("zeta eta theta", src)
    assert quote is not None
    assert (quote.block_id, quote.start, quote.end) == ("b1", 18, 32)
    assert (quote.page, quote.section_path, quote.number, quote.document_id) == (
        2,
        ("S",),
        1,
        "doc",
    )


def test_case_as_written_wins_over_an_earlier_case_insensitive_match() -> None:
    src = source("the apple tree grows. The Apple Tree company.")
    quote = locate_quote("The Apple Tree", src)
    assert quote is not None and quote.text == "The Apple Tree"
    assert quote.start == 10 + src.parts[0].text.index("The Apple Tree")


def test_quote_across_blocks_is_clipped_to_the_block_holding_most() -> None:
    src = source("First block ends here", "and the second block carries most of it.")
    quote = locate_quote("ends here and the second block carries", src)
    assert quote is not None
    assert (quote.block_id, quote.text) == ("b1", "and the second block carries")


def test_chinese_quotes() -> None:
    src = source("长江是亚洲第一长河，全长约六千三百公里。", "黄河是中国第二长河。")
    assert exact("全长约六千三百公里", src) == "全长约六千三百公里"
    assert exact("黄河是中国 第二长河", src) == "黄河是中国第二长河"
    assert locate_quote("长江长", src) is None  # three characters: too weak to prove anything


def test_short_empty_and_absent_quotes_are_not_located() -> None:
    src = source("A reasonably long sentence about nothing in particular.")
    assert locate_quote("", src) is None
    assert locate_quote("   ", src) is None
    assert locate_quote("about", src) is None
    assert locate_quote("a sentence about something else entirely", src) is None


def test_check_quotes_reports_missing_sources_and_absent_text() -> None:
    first = source("The Treaty of Paris was signed in 1783.", number=1)
    second = source("Ratification followed in 1784.", number=2)
    check = check_quotes(
        [(1, "Treaty of Paris was signed"), (3, "anything at all here"), (2, "signed in 1790")],
        [first, second],
    )
    assert [q.text for q in check.valid] == ["Treaty of Paris was signed"]
    assert [q.number for q in check.valid] == [1]
    assert [(bad.number, bad.reason) for bad in check.invalid] == [
        (3, "source 3 does not exist"),
        (2, "not found in source 2"),
    ]
    assert not check.ok
    message = retry_message(check)
    assert "source 3 does not exist" in message and "signed in 1790" in message
    assert "Treaty of Paris" not in message


def test_sources_from_units_map_back_to_blocks() -> None:
    blocks = {
        ("doc", "p1"): Block(
            "p1", "paragraph", "Intro. The key result is 42.", 0, ("Ch 1",), page=3
        ),
        ("doc", "p2"): Block(
            "p2", "paragraph", "A second paragraph follows.", 1, ("Ch 1",), page=4
        ),
    }
    spans = (BlockSpan("p1", 7, 28), BlockSpan("p2", 0, 27))
    text = CHUNK_JOINER.join(blocks["doc", s.block_id].text[s.start : s.end] for s in spans)
    unit = ContextUnit("doc", (), text, spans, spans[:1], ("Ch 1",), 3, 4, "anchor", None)
    (bare,) = sources_from_units([unit])  # its blocks' places unknown: the unit's own
    assert [(p.page, p.section_path) for p in bare.parts] == [(3, ("Ch 1",))] * 2
    unit = replace(unit, places=places_of(blocks.values()))
    (src,) = sources_from_units([unit])
    assert src.text == unit.text and src.origin == "anchor"
    quote = locate_quote("key result is 42", src)
    assert quote is not None
    assert blocks["doc", "p1"].text[quote.start : quote.end] == quote.text == "key result is 42"
    assert quote.page == 3
    other = locate_quote("second paragraph", src)
    assert other is not None and other.page == 4 and other.block_id == "p2"
