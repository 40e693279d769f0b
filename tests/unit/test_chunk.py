"""Chunking: exact spans, size limits, coverage, section boundaries, golden boundaries.

Regenerate the golden files after an intended change of chunk boundaries with
``ASKALONG_REGEN_GOLDEN=1 .venv/bin/pytest tests/test_chunk.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from askalong.chunk.prose import chunk_blocks
from askalong.errors import ConfigError
from askalong.text.size import size_units
from askalong.types import CHUNK_JOINER, FURNITURE_KINDS, Block, BlockKind, Chunk

GOLDEN = Path(__file__).parent / "golden" / "chunks"

# ------------------------------------------------------------------ random documents

EN_WORDS = ["retrieval", "model", "data", "the", "index", "query", "BM25", "3.14", "U.S."]
EN_ABBREVIATIONS = ["e.g.", "et al.", "Dr.", "Fig.", "i.e.", "vs."]
ZH_CHARS = list("我们提出一种新的检索方法实验结果表明该有效文档问题答案")


@st.composite
def english_sentence(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.sampled_from(EN_WORDS + EN_ABBREVIATIONS), min_size=1, max_size=12))
    end = draw(st.sampled_from([".", "!", "?", "...", ""]))
    return " ".join(words).capitalize() + end


@st.composite
def chinese_sentence(draw: st.DrawFn) -> str:
    body = "".join(draw(st.lists(st.sampled_from(ZH_CHARS), min_size=1, max_size=25)))
    end = draw(st.sampled_from(["。", "！", "？", "；", "……", "。”", ""]))
    return body + end


@st.composite
def huge_sentence(draw: st.DrawFn) -> str:
    """One sentence far over any maximum: no sentence punctuation at all."""
    if draw(st.booleans()):
        return "".join(draw(st.lists(st.sampled_from(ZH_CHARS), min_size=100, max_size=300)))
    words = draw(st.lists(st.sampled_from(EN_WORDS), min_size=60, max_size=200))
    return ", ".join(words)


def paragraph(sentence: st.SearchStrategy[str], max_size: int) -> st.SearchStrategy[str]:
    separators = st.sampled_from([" ", "", "  ", "\n", "\n\n"])
    return st.lists(st.tuples(sentence, separators), min_size=1, max_size=max_size).map(
        lambda parts: "".join(s + sep for s, sep in parts)
    )


block_texts = st.one_of(
    paragraph(english_sentence(), 4),
    paragraph(chinese_sentence(), 4),
    paragraph(st.one_of(english_sentence(), chinese_sentence()), 25),  # long paragraphs
    huge_sentence(),
    st.sampled_from(["", "   ", "\n \t"]),  # empty blocks
    english_sentence().map(lambda s: f"  {s}\n"),  # padded with whitespace
)
KINDS: list[BlockKind] = ["heading", "paragraph", "paragraph", "list_item", "table", "code"]
KINDS += ["paragraph", "header", "footer", "caption"]


@st.composite
def documents(draw: st.DrawFn) -> list[Block]:
    blocks: list[Block] = []
    path: tuple[str, ...] = ()
    page = draw(st.sampled_from([None, 1]))
    for order in range(draw(st.integers(0, 25))):
        kind = draw(st.sampled_from(KINDS))
        text = draw(block_texts)
        if kind == "heading":
            text = text[:60]
            path = (*path[: draw(st.integers(0, 2))], f"h{order}")
        elif draw(st.integers(0, 9)) == 0:
            path = (f"moved{order}",)  # a section change without a heading block
        if page is not None and draw(st.integers(0, 4)) == 0:
            page += 1
        blocks.append(Block(f"b{order}", kind, text, order, path, page=page))
    return blocks


limits = st.integers(2, 120).flatmap(
    lambda target: st.tuples(st.just(target), st.integers(target, 2 * target))
)

# ------------------------------------------------------------------------- invariants


def check_invariants(
    document_id: str, blocks: Sequence[Block], chunks: Sequence[Chunk], maximum: int, overlap: int
) -> None:
    by_id = {b.id: b for b in blocks}
    position = {b.id: i for i, b in enumerate(blocks)}
    for order, chunk in enumerate(chunks):
        assert chunk.order == order and chunk.id == f"{document_id}:c{order}"
        assert chunk.document_id == document_id and chunk.spans
        parts = [by_id[s.block_id].text[s.start : s.end] for s in chunk.spans]
        assert chunk.text == CHUNK_JOINER.join(parts)
        assert chunk.text == chunk.text.strip() and chunk.text
        assert size_units(chunk.text) <= maximum
        check_one_section(chunk, [by_id[s.block_id] for s in chunk.spans])
        indexes = [position[s.block_id] for s in chunk.spans]
        assert indexes == sorted(indexes)
        pages = [by_id[s.block_id].page for s in chunk.spans]
        known = [p for p in pages if p is not None]
        assert (chunk.page_start, chunk.page_end) == (
            (min(known), max(known)) if known else (None, None)
        )
    check_coverage(blocks, chunks, exactly_once=overlap == 0)


def check_one_section(chunk: Chunk, blocks: list[Block]) -> None:
    """A heading may only open a chunk; all body blocks share the chunk's section path."""
    assert all(b.kind not in FURNITURE_KINDS for b in blocks)
    assert all(b.kind != "heading" for b in blocks[1:])
    body = [b for b in blocks if b.kind != "heading"] or blocks
    assert {b.section_path for b in body} == {chunk.section_path}


def check_coverage(blocks: Sequence[Block], chunks: Sequence[Chunk], exactly_once: bool) -> None:
    covered: dict[str, list[int]] = {b.id: [0] * len(b.text) for b in blocks}
    for chunk in chunks:
        for span in chunk.spans:
            for i in range(span.start, span.end):
                covered[span.block_id][i] += 1
    for block in blocks:
        if block.kind in FURNITURE_KINDS:
            continue
        for i, char in enumerate(block.text):
            if not char.isspace():
                count = covered[block.id][i]
                assert count == 1 if exactly_once else count >= 1, (block.id, i, char)


def check_chunks_follow_blocks(blocks: Sequence[Block], chunks: Sequence[Chunk]) -> None:
    """Consecutive chunks never skip a block nor go back in the document."""
    kept = [b.id for b in blocks if b.kind not in FURNITURE_KINDS and b.text.strip()]
    seen: list[str] = []
    for chunk in chunks:
        for span in chunk.spans:
            if not seen or seen[-1] != span.block_id:
                seen.append(span.block_id)
    deduplicated = [b for i, b in enumerate(seen) if b not in seen[:i]]
    assert deduplicated == kept


# `make test` draws FAST_EXAMPLES documents a property (~0.1 s of CPU each: 200 were ~25 s
# a test); `make sweep` draws the full SWEEP_EXAMPLES through the same checks.
FAST_EXAMPLES = 50
SWEEP_EXAMPLES = 200


@pytest.mark.slow
@settings(max_examples=FAST_EXAMPLES, deadline=None)
@given(documents(), limits)
def test_chunk_properties(blocks: list[Block], sizes: tuple[int, int]) -> None:
    check_chunk_properties(blocks, sizes)


@pytest.mark.slow
@pytest.mark.sweep
@settings(max_examples=SWEEP_EXAMPLES, deadline=None)
@given(documents(), limits)
def test_chunk_properties_full(blocks: list[Block], sizes: tuple[int, int]) -> None:
    check_chunk_properties(blocks, sizes)


def check_chunk_properties(blocks: list[Block], sizes: tuple[int, int]) -> None:
    target, maximum = sizes
    chunks = chunk_blocks("doc", blocks, target=target, maximum=maximum)
    check_invariants("doc", blocks, chunks, maximum, overlap=0)
    check_chunks_follow_blocks(blocks, chunks)
    assert chunk_blocks("doc", blocks, target=target, maximum=maximum) == chunks


@pytest.mark.slow
@settings(max_examples=FAST_EXAMPLES, deadline=None)
@given(documents(), limits, st.integers(1, 100))
def test_chunk_properties_with_overlap(
    blocks: list[Block], sizes: tuple[int, int], overlap: int
) -> None:
    check_overlap_properties(blocks, sizes, overlap)


@pytest.mark.slow
@pytest.mark.sweep
@settings(max_examples=SWEEP_EXAMPLES, deadline=None)
@given(documents(), limits, st.integers(1, 100))
def test_chunk_properties_with_overlap_full(
    blocks: list[Block], sizes: tuple[int, int], overlap: int
) -> None:
    check_overlap_properties(blocks, sizes, overlap)


def check_overlap_properties(blocks: list[Block], sizes: tuple[int, int], overlap: int) -> None:
    target, maximum = sizes
    chunks = chunk_blocks("doc", blocks, target=target, maximum=maximum, overlap=overlap)
    check_invariants("doc", blocks, chunks, maximum, overlap=overlap)
    plain = chunk_blocks("doc", blocks, target=target, maximum=maximum)
    assert len(chunks) == len(plain)
    for with_lead, without in zip(chunks, plain, strict=True):
        # the overlap is a prefix of at most ``overlap`` characters from the same section
        assert with_lead.text.endswith(without.text)
        assert with_lead.section_path == without.section_path
        lead = with_lead.text[: len(with_lead.text) - len(without.text)].strip()
        assert len(lead) <= overlap


@pytest.mark.slow
@settings(max_examples=50, deadline=None)
@given(st.lists(huge_sentence(), min_size=1, max_size=4))
def test_huge_sentences_fit_default_limits(texts: list[str]) -> None:
    text = " ".join(t * 8 for t in texts)  # several thousand units in one sentence
    blocks = [Block("h", "heading", "Title", 0), Block("p", "paragraph", text, 1)]
    chunks = chunk_blocks("d", blocks)
    check_invariants("d", blocks, chunks, maximum=768, overlap=0)
    assert len(chunks) >= size_units(text) // 768


# -------------------------------------------------------------------------- examples


def block(
    i: int, kind: BlockKind, text: str, path: tuple[str, ...] = ("S",), page: int = 1
) -> Block:
    return Block(f"b{i}", kind, text, i, path, page=page)


def test_heading_starts_the_chunk_after_it() -> None:
    blocks = [
        block(0, "header", "Journal of Things 2024"),
        block(1, "heading", "1 Introduction", ("1 Introduction",)),
        block(2, "paragraph", "Short first paragraph.", ("1 Introduction",)),
        block(3, "paragraph", "Short second paragraph.", ("1 Introduction",)),
        block(4, "heading", "2 Method", ("2 Method",)),
        block(5, "heading", "2.1 Data", ("2 Method", "2.1 Data")),
        block(6, "paragraph", "We used data.", ("2 Method", "2.1 Data"), page=2),
        block(7, "footer", "Page 1"),
    ]
    chunks = chunk_blocks("d", blocks)
    assert [c.text for c in chunks] == [
        "1 Introduction\nShort first paragraph.\nShort second paragraph.",
        "2 Method",
        "2.1 Data\nWe used data.",
    ]
    assert [c.section_path for c in chunks] == [
        ("1 Introduction",),
        ("2 Method",),
        ("2 Method", "2.1 Data"),
    ]
    assert (chunks[2].page_start, chunks[2].page_end) == (1, 2)


def test_heading_path_convention_does_not_split_heading_from_body() -> None:
    # some parsers give a heading its parent's path: it still opens its section's chunk
    blocks = [block(0, "heading", "Intro", ()), block(1, "paragraph", "Body.", ("Intro",))]
    (chunk,) = chunk_blocks("d", blocks)
    assert chunk.text == "Intro\nBody." and chunk.section_path == ("Intro",)


def test_section_path_change_starts_a_new_chunk() -> None:
    blocks = [block(0, "paragraph", "One.", ("A",)), block(1, "paragraph", "Two.", ("B",))]
    assert [c.text for c in chunk_blocks("d", blocks)] == ["One.", "Two."]


def test_small_blocks_merge_up_to_target() -> None:
    words = "alpha beta gamma delta epsilon"  # 5 words = 9 units
    blocks = [block(i, "list_item", f"{words}.") for i in range(10)]
    chunks = chunk_blocks("d", blocks, target=20, maximum=40)
    assert [len(c.spans) for c in chunks] == [2, 2, 2, 2, 2]
    assert all(size_units(c.text) <= 20 for c in chunks)


def test_table_stays_whole_under_maximum() -> None:
    table = "\n".join(f"row {i} | value {i} | other {i}" for i in range(8))  # 48 words
    blocks = [block(0, "paragraph", "Intro."), block(1, "table", table), block(2, "code", "x = 1")]
    chunks = chunk_blocks("d", blocks, target=40, maximum=90)
    assert table in [c.text for c in chunks]


def test_long_paragraph_splits_at_sentences_near_target() -> None:
    sentence = "这是一个用于测试分块的句子。"  # 13 units
    blocks = [block(0, "paragraph", sentence * 40)]  # 520 units
    chunks = chunk_blocks("d", blocks, target=100, maximum=150)
    assert all(c.text.endswith("。") for c in chunks)
    assert [size_units(c.text) for c in chunks] == [91] * 5 + [65]
    assert "".join(c.text for c in chunks) == sentence * 40


def test_overlap_repeats_whole_sentences_within_section() -> None:
    text = " ".join(f"Sentence number {i} is here." for i in range(30))
    blocks = [block(0, "heading", "Title"), block(1, "paragraph", text)]
    chunks = chunk_blocks("d", blocks, target=60, maximum=90, overlap=60)
    plain = chunk_blocks("d", blocks, target=60, maximum=90)
    assert len(chunks) == len(plain) > 2
    for previous, chunk, bare in zip(plain, chunks[1:], plain[1:], strict=False):
        lead = chunk.text[: len(chunk.text) - len(bare.text)].strip()
        assert lead and previous.text.endswith(lead) and len(lead) <= 60
        assert lead.startswith("Sentence number") and lead.endswith(".")
        # the lead continues the same block, so it is one span with the block's own text
        assert len(chunk.spans) == 1


def test_overlap_never_crosses_a_heading() -> None:
    blocks = [
        block(0, "heading", "A"),
        block(1, "paragraph", "First section ends here."),
        block(2, "heading", "B"),
        block(3, "paragraph", "Second section starts."),
    ]
    chunks = chunk_blocks("d", blocks, overlap=100)
    assert [c.text for c in chunks] == [
        "A\nFirst section ends here.",
        "B\nSecond section starts.",
    ]


def test_pages_are_none_without_pages() -> None:
    (chunk,) = chunk_blocks("d", [Block("b", "paragraph", "Text.", 0)])
    assert (chunk.page_start, chunk.page_end) == (None, None)


def test_nothing_to_chunk() -> None:
    furniture = [block(0, "header", "Header"), block(1, "paragraph", "  \n")]
    assert chunk_blocks("d", furniture) == ()
    assert chunk_blocks("d", []) == ()


@pytest.mark.parametrize(
    ("target", "maximum", "overlap"), [(1, 10, 0), (100, 50, 0), (512, 768, 101), (512, 768, -1)]
)
def test_bad_limits_are_config_errors(target: int, maximum: int, overlap: int) -> None:
    with pytest.raises(ConfigError):
        chunk_blocks("d", [], target=target, maximum=maximum, overlap=overlap)


@pytest.mark.slow
@pytest.mark.timeout(120)  # stops a quadratic step (seconds of CPU when linear)
def test_large_document_is_chunked() -> None:
    en = "The model retrieves relevant passages (Smith et al. 2020) with 3.5 points more. "
    zh = "我们提出了一种新的检索方法，实验结果表明该方法有效。"
    blocks: list[Block] = []
    for i in range(100_000):
        if i % 25 == 0:
            blocks.append(Block(f"b{i}", "heading", f"Section {i}", i, (f"S{i}",), 1, page=i))
        else:
            text = (en if i % 2 else zh) * (1 + i % 7) + ("" if i % 101 else en * 60)
            blocks.append(Block(f"b{i}", "paragraph", text, i, (f"S{i - i % 25}",), page=i))
    chunks = chunk_blocks("d", blocks, overlap=50)
    assert len(chunks) > 10_000


# ---------------------------------------------------------------------------- golden


def golden_document() -> list[Block]:
    long_en = " ".join(
        f"Retrieval step {i} ranks passages by BM25 (Robertson et al. 1994), e.g. with k1 = 1.2."
        for i in range(6)
    )
    long_zh = "".join(f"第{i}步：系统先用关键词检索候选段落，再用向量重新排序。" for i in range(8))
    return [
        block(0, "header", "AskAlong Test Paper — draft", (), page=1),
        block(1, "heading", "Abstract", ("Abstract",), page=1),
        block(2, "paragraph", "We study grounded answers. Quotes must be verbatim.", ("Abstract",)),
        block(3, "heading", "1 Method", ("1 Method",), page=1),
        block(4, "paragraph", long_en, ("1 Method",), page=1),
        block(5, "table", "k1 | b\n1.2 | 0.75", ("1 Method",), page=2),
        block(6, "heading", "2 方法", ("2 方法",), page=2),
        block(7, "paragraph", long_zh, ("2 方法",), page=2),
        block(8, "footer", "2", (), page=2),
        block(9, "heading", "3 Empty section", ("3 Empty section",), page=3),
        block(10, "heading", "4 Code", ("4 Code",), page=3),
        block(11, "code", "def f(x):\n    return x + 1\n", ("4 Code",), page=3),
    ]


def chunks_as_json(chunks: Sequence[Chunk]) -> list[dict[str, object]]:
    return [
        {
            "id": c.id,
            "spans": [[s.block_id, s.start, s.end] for s in c.spans],
            "section_path": list(c.section_path),
            "pages": [c.page_start, c.page_end],
            "text": c.text,
        }
        for c in chunks
    ]


@pytest.mark.parametrize(
    ("name", "target", "maximum", "overlap"),
    [("small", 40, 60, 0), ("small_overlap", 40, 60, 90), ("default", 512, 768, 0)],
)
def test_golden_chunk_boundaries(name: str, target: int, maximum: int, overlap: int) -> None:
    blocks = golden_document()
    chunks = chunk_blocks("golden", blocks, target=target, maximum=maximum, overlap=overlap)
    check_invariants("golden", blocks, chunks, maximum, overlap)
    actual = chunks_as_json(chunks)
    path = GOLDEN / f"{name}.json"
    if os.environ.get("ASKALONG_REGEN_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(actual, ensure_ascii=False, indent=1) + "\n", "utf-8")
    assert path.is_file(), f"{path} missing: run with ASKALONG_REGEN_GOLDEN=1"
    assert actual == json.loads(path.read_text("utf-8"))
