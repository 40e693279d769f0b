"""One fold for selections and quotes: what the reader selects and what a model quotes
are matched the same way, and always map back to the exact text of a block."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from askalong.context.locate import SelectionIndex, locate_selection
from askalong.text.fold import fold, fold_excerpt, fold_with_offsets
from askalong.types import Block
from askalong.verify.cite import Source, SourcePart, check_quotes, locate_quote, too_weak

# Chinese, English, digits, ASCII and CJK punctuation, every quote mark and hyphen the
# fold knows, NBSP and other spaces, full-width and compatibility forms, a ligature,
# line breaks and the invisible characters PDFs leave behind.
ALPHABET = [
    *"abcdeABCDE019",
    *"中文引用长河说",
    *" \n\t\u00a0\u3000",
    *",.;:()!?，。：；！（）",
    *"「」『』“”‘’\"'｢｣﹁﹂",
    *"-\u2010\u2011\uff0d\ufe63\u00ad\u200b",
    *"ＡＢｃ１２Ｘ",
    *"ﬁé",
]
# Whole pieces too, so that texts hold words hyphenated at line ends, quoted phrases and
# runs of Chinese often, not only by chance.
PIECES = ["exam", "ple", "well", "known", "中文", "引用", "Ｗord", "-", "- ", "-\n", "「", "」"]
CHARS_OR_PIECES = st.sampled_from(ALPHABET) | st.sampled_from(PIECES)


def blocks_of(texts: Sequence[str]) -> tuple[Block, ...]:
    return tuple(Block(f"b{k}", "paragraph", text, k) for k, text in enumerate(texts))


def source_of(blocks: Sequence[Block]) -> Source:
    parts = tuple(SourcePart(b.id, 5, 5 + len(b.text), b.text) for b in blocks)
    return Source(1, "doc", parts)


def occurrences(needle: str, haystack: str) -> int:
    """How often ``needle`` is in ``haystack``, overlaps counted."""
    count, at = 0, haystack.find(needle)
    while at >= 0:
        count, at = count + 1, haystack.find(needle, at + 1)
    return count


def browser_forms(text: str) -> list[str]:
    """What a browser selection of ``text`` may give: as is, newlines as spaces, or
    every whitespace run collapsed to one space and the ends trimmed."""
    return [text, text.replace("\n", " "), " ".join(text.split())]


@st.composite
def spans(draw: st.DrawFn, least: int = 1) -> tuple[tuple[Block, ...], int, int, int]:
    """Some blocks, and a block index with a span (start, end) of that block's text, at
    least ``least`` characters long."""
    text = st.lists(CHARS_OR_PIECES, min_size=least, max_size=40).map("".join)
    blocks = blocks_of(draw(st.lists(text, min_size=1, max_size=4)))
    index = draw(st.integers(0, len(blocks) - 1))
    text = blocks[index].text
    start = draw(st.integers(0, len(text) - 1))
    end = draw(st.integers(min(start + least, len(text)), len(text)))
    return blocks, index, start, end


# ------------------------------------------------------------------------- the rules


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("「引用」", '"引用"'),
        ("『引用』", '"引用"'),
        ("｢引用｣", '"引用"'),
        ("“Quoted” ‘text’", "\"quoted\"'text'"),
        ("exam-ple", "example"),
        ("exam\u2010ple", "example"),
        ("exam\u2011ple", "example"),
        ("exam\uff0dple", "example"),
        ("exam- ple", "example"),
        ("exam-\nple", "example"),
        ("well - known", "wellknown"),  # whitespace goes before the hyphen rule
        ("exam\u00adple", "example"),
        ("ＡＢＣ　１２３，", "abc123,"),
        ("ﬁnal", "final"),
        ("中 文\u00a0引\n用", "中文引用"),
        ("(-x) a--y", "(-x)a-y"),  # a hyphen after a non-letter stays
    ],
)
def test_the_fold_rules(text: str, folded: str) -> None:
    assert fold(text) == folded
    assert fold_with_offsets(text)[0] == folded


def test_case_is_kept_on_request() -> None:
    assert fold("「Exam- ple」", casefold=False) == '"Example"'
    assert fold("「Exam- ple」") == '"example"'


def test_an_excerpt_drops_the_hyphens_it_opens_with() -> None:
    assert fold("NAACL-HLT") == "naaclhlt"
    assert fold_excerpt("-HLT") == "hlt"
    assert fold_excerpt(" \u2010\u2011HLT-") == "hlt"
    assert fold_excerpt("--") == ""


# ------------------------------------- selections and quotes agree (they did not before)


@pytest.mark.parametrize(
    ("block", "asked"),
    [
        ("他说「引用一句很长的话」然后走了。", '"引用一句很长的话"'),
        ('他说"引用一句很长的话"然后走了。', "「引用一句很长的话」"),
        ('he wrote "quoted text" and left', "“quoted text”"),
        ("an exam\u2011ple of hyphens", "an example of"),
        ("an exam\uff0dple of hyphens", "an example of"),
        ("a well - known result", "a well-known result"),
        ("a well-known result", "a well - known result"),
        ("the model-based approach", "-based approach"),
    ],
)
def test_a_selection_and_a_quote_find_the_same_span(block: str, asked: str) -> None:
    blocks = blocks_of(["Something before it.", block])
    anchor = locate_selection(blocks, asked)
    quote = locate_quote(asked, source_of(blocks))
    assert anchor is not None and quote is not None
    assert (anchor.block_id, anchor.start + 5, anchor.end + 5) == (
        quote.block_id,
        quote.start,
        quote.end,
    )
    assert quote.text == block[anchor.start : anchor.end]


# ---------------------------------------------------------------------- properties


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(ALPHABET), max_size=60), st.booleans())
@example("ab-\u00ad-c", True)
def test_fold_with_offsets_maps_each_folded_character_to_its_source(
    text: str, casefold: bool
) -> None:
    folded, offsets = fold_with_offsets(text, casefold=casefold)
    assert folded == fold(text, casefold=casefold)
    assert len(offsets) == len(folded)
    assert offsets == sorted(offsets) and all(0 <= o < len(text) for o in offsets)
    # the characters from one source character are that character folded on its own
    for offset in set(offsets):
        run = "".join(c for c, o in zip(folded, offsets, strict=True) if o == offset)
        assert run == fold(text[offset], casefold=casefold)
    # a source character with nothing folded from it folds to nothing, or is a hyphen
    # that follows a letter or digit
    for offset in set(range(len(text))) - set(offsets):
        alone = fold(text[offset], casefold=casefold)
        before = "".join(fold(char, casefold=casefold) for char in text[:offset])
        assert not alone or (alone in "-\u2010" and re.fullmatch(r"[^\W_]", before[-1:]))


@settings(max_examples=300, deadline=None)
@given(spans(), st.integers(0, 2))
@example((blocks_of(["model-based"]), 0, 5, 11), 0)
@example((blocks_of(["a -b"]), 0, 1, 4), 2)
def test_a_selection_locates_back_to_its_span(
    drawn: tuple[tuple[Block, ...], int, int, int], form: int
) -> None:
    blocks, index, start, end = drawn
    block = blocks[index]
    selected = browser_forms(block.text[start:end])[form]
    needle = fold_excerpt(selected)
    if not needle:
        return  # nothing to locate: an InputError (tested in test_context.py)
    anchor = SelectionIndex(blocks).locate(selected)
    assert anchor is not None and anchor.start is not None and anchor.end is not None
    unique = occurrences(needle, "".join(fold(b.text) for b in blocks)) == 1
    event(f"unique: {unique}, starts with a hyphen: {selected.lstrip()[:1] in '-‐‑－﹣'}")
    if unique:
        # exactly the selected span, less only the characters at its ends that fold away
        assert anchor.block_id == block.id
        assert start <= anchor.start < anchor.end <= end
        assert fold_excerpt(block.text[start : anchor.end]) == needle
        assert fold_excerpt(block.text[anchor.start : end]) == needle
    else:  # the first occurrence wins: it is no later than the selected span
        found = int(anchor.block_id[1:])
        assert (found, anchor.start) < (index, end)


@pytest.mark.slow  # 300 drawn documents: make test, not make check
@settings(max_examples=300, deadline=None)
@given(spans(least=12))
@example((blocks_of(["the model-based approach"]), 0, 9, 24))
def test_a_verbatim_quote_checks_as_verbatim(
    drawn: tuple[tuple[Block, ...], int, int, int],
) -> None:
    blocks, index, start, end = drawn
    block = blocks[index]
    quoted = block.text[start:end]
    if not quoted.strip() or too_weak(quoted):
        return  # refused before any search (tested in test_cite.py)
    check = check_quotes([(1, quoted)], [source_of(blocks)])
    assert check.ok and len(check.valid) == 1
    quote = check.valid[0]
    shown = next(b for b in blocks if b.id == quote.block_id).text
    assert quote.text == shown[quote.start - 5 : quote.end - 5]
    needle = fold_excerpt(quoted, casefold=False)
    unique = occurrences(needle, "".join(fold(b.text, casefold=False) for b in blocks)) == 1
    event(f"unique: {unique}, starts with a hyphen: {quoted.lstrip()[:1] in '-‐‑－﹣'}")
    if unique:
        assert quote.block_id == block.id
        assert start + 5 <= quote.start < quote.end <= end + 5
        assert fold_excerpt(block.text[start : quote.end - 5], casefold=False) == needle
        assert fold_excerpt(block.text[quote.start - 5 : end], casefold=False) == needle
