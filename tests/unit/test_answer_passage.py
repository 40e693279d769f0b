"""The passage under a direct answer: the paragraph (the blocks of its context unit) that
holds the answer's quotes, each marked at its place, English and Chinese."""

from __future__ import annotations

from askalong.answer.passage import PASSAGE_CHARS, answer_passage
from askalong.context.units import ContextUnit
from askalong.types import CHUNK_JOINER, BlockSpan, Quote

INTRO = "The shared buffer pool holds pages read from disk."
DEFAULT = "The default is typically 128 megabytes (128MB)."
START = "This setting can only be set at server start."
OTHER = "Determines the maximum number of concurrent connections."


def unit(*texts: str, document: str = "d1", first: int = 0) -> ContextUnit:
    spans = tuple(BlockSpan(f"b{first + k}", 0, len(t)) for k, t in enumerate(texts))
    joined = CHUNK_JOINER.join(texts)
    return ContextUnit(document, ("c1",), joined, spans, spans, (), 3, 3, "retrieved", 1.0)


def quote(number: int, block: str, text: str, within: str, document: str = "d1") -> Quote:
    start = within.index(text)
    return Quote(number, document, block, start, start + len(text), text, 3, ("Buffers",))


def test_the_answer_sentence_is_marked_inside_its_paragraph() -> None:
    paragraph = f"{INTRO} {DEFAULT} {START}"
    units = (unit("Other document.", document="d0"), unit("Buffers", paragraph))
    passage = answer_passage([1], [quote(1, "b1", DEFAULT, paragraph)], units)
    assert passage is not None
    assert passage.text == paragraph  # the block, not its heading nor another unit
    assert passage.spans == (BlockSpan("b1", 0, len(paragraph)),)
    (mark,) = passage.answer_spans
    assert passage.text[mark.start : mark.end] == DEFAULT and mark.quote == 1
    assert passage.page == 3 and passage.section_path == ("Buffers",)


def test_a_chinese_answer_is_marked_by_character() -> None:
    paragraph = (
        "共享缓冲池保存从磁盘读取的页面。默认值通常是128兆字节。这个设置只能在服务器启动时设置。"
    )
    answer = "默认值通常是128兆字节。"
    passage = answer_passage([1], [quote(1, "b0", answer, paragraph)], (unit(paragraph),))
    assert passage is not None
    (mark,) = passage.answer_spans
    assert (mark.start, passage.text[mark.start : mark.end]) == (16, answer)


def test_two_quotes_of_neighbouring_blocks_make_one_passage_with_two_marks() -> None:
    one, two = f"{INTRO} {DEFAULT}", START
    quotes = [quote(1, "b0", DEFAULT, one), quote(2, "b1", START, two)]
    passage = answer_passage([1, 2], quotes, (unit(one, two, "Unrelated block."),))
    assert passage is not None
    assert passage.text == one + CHUNK_JOINER + two
    assert [b.block_id for b in passage.spans] == ["b0", "b1"]
    texts = [passage.text[m.start : m.end] for m in passage.answer_spans]
    assert texts == [DEFAULT, START]


def test_a_quote_of_another_unit_is_not_marked_in_the_first_ones_passage() -> None:
    quotes = [quote(1, "b0", DEFAULT, DEFAULT), quote(2, "b5", OTHER, OTHER, document="d2")]
    units = (unit(DEFAULT), unit(OTHER, document="d2", first=5))
    passage = answer_passage([1, 2], quotes, units)
    assert passage is not None and passage.text == DEFAULT
    assert [m.quote for m in passage.answer_spans] == [1]


def test_a_long_paragraph_keeps_the_sentences_around_the_answer() -> None:
    filler = [f"Filler sentence number {i} says nothing at all here." for i in range(60)]
    paragraph = " ".join([*filler[:30], DEFAULT, *filler[30:]])
    passage = answer_passage([1], [quote(1, "b0", DEFAULT, paragraph)], (unit(paragraph),))
    assert passage is not None
    assert len(passage.text) <= PASSAGE_CHARS
    assert passage.text.startswith("Filler") and passage.text.rstrip().endswith(".")
    (mark,) = passage.answer_spans
    assert passage.text[mark.start : mark.end] == DEFAULT
    (span,) = passage.spans  # the block offsets of the window, for the reader to scroll to
    assert paragraph[span.start : span.end] == passage.text


def test_no_passage_without_a_quote_the_units_hold() -> None:
    assert answer_passage([], [quote(1, "b0", DEFAULT, DEFAULT)], (unit(DEFAULT),)) is None
    stray = quote(1, "b9", DEFAULT, DEFAULT)
    assert answer_passage([1], [stray], (unit(DEFAULT),)) is None
