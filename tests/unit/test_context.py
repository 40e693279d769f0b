"""Context assembly on real documents: small-to-big, read-along anchors, locating a
selection, drift and the final assembly. Every unit must map back to its blocks exactly."""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from askalong.chunk.prose import chunk_blocks
from askalong.context.anchor import anchored_context
from askalong.context.assemble import assemble_context
from askalong.context.drift import drift, drift_terms
from askalong.context.locate import SelectionIndex, locate_selection
from askalong.context.outline import section_root
from askalong.context.small_to_big import small_to_big
from askalong.context.units import CONTEXT_BUDGET, Budget, ContextUnit, split_pieces
from askalong.errors import InputError, NotFound
from askalong.parse.flow import html
from askalong.parse.pdf import parser as pdf
from askalong.text.fold import fold, fold_excerpt
from askalong.text.size import size_units
from askalong.types import CHUNK_JOINER, FURNITURE_KINDS, Anchor, Block, BlockSpan, Chunk, Hit

N18 = "n18"


@pytest.fixture(scope="module")
def n18(evaldata: Path) -> tuple[Block, ...]:
    path = evaldata / "pdf" / "en_2col" / "N18-3011.pdf"
    return pdf.parse(path.read_bytes(), source=path.name).blocks


@pytest.fixture(scope="module")
def n18_small(n18: tuple[Block, ...]) -> tuple[Chunk, ...]:
    """Small chunks (~100 size units) so that units have room to grow."""
    return chunk_blocks(N18, n18, target=100, maximum=160)


@pytest.fixture(scope="module")
def lshort(evaldata: Path) -> tuple[Block, ...]:
    path = evaldata / "pdf" / "zh_long" / "lshort-zh-cn.pdf"
    return pdf.parse(path.read_bytes(), source=path.name).blocks


@pytest.fixture(scope="module")
def pg_index(evaldata: Path) -> tuple[Block, ...]:
    path = evaldata / "manuals" / "postgresql-15-html" / "sql-createindex.html"
    return html.parse(path.read_bytes(), source=path.name).blocks


def hit(chunk: Chunk, score: float = 1.0) -> Hit:
    return Hit(chunk.id, chunk.document_id, score, "keyword")


def texts_of(blocks: Sequence[Block]) -> dict[str, str]:
    return {block.id: block.text for block in blocks}


def assert_exact(unit: ContextUnit, blocks: Sequence[Block]) -> None:
    """The unit's text is its spans' block texts joined by CHUNK_JOINER, and every cited
    span's text is inside the unit."""
    text = texts_of(blocks)
    assert unit.text == CHUNK_JOINER.join(text[s.block_id][s.start : s.end] for s in unit.spans)
    for cited in unit.cited_spans:
        assert text[cited.block_id][cited.start : cited.end] in unit.text
        assert any(
            s.block_id == cited.block_id and s.start <= cited.start and cited.end <= s.end
            for s in unit.spans
        )


def covered_chars(unit: ContextUnit) -> list[tuple[str, int]]:
    return [(s.block_id, i) for s in unit.spans for i in range(s.start, s.end)]


def by_id(blocks: Sequence[Block]) -> dict[str, Block]:
    return {block.id: block for block in blocks}


def starting(blocks: Sequence[Block], prefix: str) -> Block:
    """The block whose text starts with ``prefix`` (found by text: parser changes may
    renumber blocks)."""
    return next(block for block in blocks if block.text.startswith(prefix))


EVALUATE = "We evaluate the performance of each approach"  # a paragraph of 4.1 Approaches
SHOWS = "Table 2 shows the results"  # the paragraph after it, the last of 4.1


def split_paragraph(chunks: Sequence[Chunk]) -> int:
    """The position of the middle one of three chunks cut from one paragraph, with its
    neighbours in the same section."""
    return next(
        i
        for i in range(1, len(chunks) - 1)
        if len({s.block_id for c in chunks[i - 1 : i + 2] for s in c.spans}) <= 2
        and len(chunks[i].spans) == 1
        and chunks[i - 1].spans[-1].block_id == chunks[i].spans[0].block_id
        and chunks[i + 1].spans[0].block_id == chunks[i].spans[0].block_id
        and chunks[i - 1].section_path == chunks[i].section_path == chunks[i + 1].section_path
    )


# --------------------------------------------------------------------- small to big


def test_growth_takes_neighbour_sentences_and_keeps_the_hit_whole(
    n18: tuple[Block, ...], n18_small: tuple[Chunk, ...]
) -> None:
    middle = split_paragraph(n18_small)
    target = n18_small[middle]
    [unit] = small_to_big([hit(target, 0.7)], {N18: n18_small})
    assert_exact(unit, n18)
    assert unit.cited_spans == target.spans
    assert target.text in unit.text
    assert len(unit.text) > len(target.text)  # it grew
    assert len(unit.text) <= 1500
    assert set(unit.chunk_ids) == {c.id for c in n18_small[middle - 1 : middle + 2]}
    assert unit.score == 0.7 and unit.origin == "retrieved" and unit.drift is None
    neighbours = {s.block_id for c in n18_small[middle - 1 : middle + 2] for s in c.spans}
    assert {s.block_id for s in unit.spans} <= neighbours


def test_growth_is_trimmed_to_unit_chars_by_whole_sentences(
    n18: tuple[Block, ...], n18_small: tuple[Chunk, ...]
) -> None:
    target = n18_small[split_paragraph(n18_small)]
    for limit in (len(target.text), len(target.text) + 120, len(target.text) + 400):
        [unit] = small_to_big([hit(target)], {N18: n18_small}, unit_chars=limit)
        assert_exact(unit, n18)
        assert target.text in unit.text
        assert len(unit.text) <= limit
    [bare] = small_to_big([hit(target)], {N18: n18_small}, unit_chars=len(target.text))
    assert bare.text == target.text


def test_a_hit_longer_than_the_unit_is_the_hit_alone(n18_small: tuple[Chunk, ...]) -> None:
    target = max(n18_small, key=lambda c: c.size)
    [unit] = small_to_big([hit(target)], {N18: n18_small}, unit_chars=len(target.text) // 2)
    assert unit.text == target.text
    assert unit.spans == target.spans == unit.cited_spans


def test_growth_never_crosses_a_section_boundary(
    n18: tuple[Block, ...], n18_small: tuple[Chunk, ...]
) -> None:
    first = next(c for c in n18_small if c.section_path[-1:] == ("2.1 Node Types",))
    previous = n18_small[first.order - 1]
    assert previous.section_path != first.section_path
    [unit] = small_to_big([hit(first)], {N18: n18_small})
    sections = {by_id(n18)[s.block_id].section_path for s in unit.spans}
    assert previous.id not in unit.chunk_ids
    assert all(path[-1] == "2.1 Node Types" for path in sections)


def test_adjacent_hits_merge_and_others_do_not_fill_gaps(
    n18: tuple[Block, ...], n18_small: tuple[Chunk, ...]
) -> None:
    section = [c for c in n18_small if c.section_path[-1:] == ("3 Extracting Metadata",)]
    assert len(section) >= 7
    c = section[1:6]  # five consecutive chunks of one section
    assert [x.order for x in c] == list(range(c[0].order, c[0].order + 5))
    hits = [hit(c[1], 0.9), hit(c[4], 0.8), hit(c[0], 0.5), hit(c[2], 0.4)]
    units = small_to_big(hits, {N18: n18_small})
    assert len(units) == 2  # 0-1-2 merged; 4 alone (3 is not filled in as a hit)
    merged, alone = units
    assert {c[0].id, c[1].id, c[2].id} <= set(merged.chunk_ids)
    assert merged.score == 0.9 and alone.score == 0.8  # units in the order of best hit
    assert merged.cited_spans == c[0].spans + c[1].spans + c[2].spans
    assert alone.cited_spans == c[4].spans
    for unit in units:
        assert_exact(unit, n18)
    # chunk 3 sits between the two units: whatever of it was grown into appears once
    both = covered_chars(merged) + covered_chars(alone)
    assert len(both) == len(set(both))


def test_overlapping_chunks_merge_without_repeating_text(n18: tuple[Block, ...]) -> None:
    chunks = chunk_blocks(N18, n18, target=100, maximum=160, overlap=80)
    pairs = [(a, b) for a, b in itertools.pairwise(chunks) if _overlap(a, b)]
    assert pairs, "the chunker made no overlapping chunks"
    first, second = pairs[0]
    [unit] = small_to_big([hit(second), hit(first)], {N18: chunks})
    assert_exact(unit, n18)
    chars = covered_chars(unit)
    assert len(chars) == len(set(chars))
    texts = texts_of(n18)
    for span in (*first.spans, *second.spans):  # both hits' text is in, once
        assert texts[span.block_id][span.start : span.end] in unit.text


def _overlap(a: Chunk, b: Chunk) -> bool:
    return any(
        x.block_id == y.block_id and x.start < y.end and y.start < x.end
        for x in a.spans
        for y in b.spans
    )


def test_total_budget_stops_adding_units(
    n18: tuple[Block, ...], n18_small: tuple[Chunk, ...]
) -> None:
    hits = [hit(chunk, 1.0 - i / 100) for i, chunk in enumerate(n18_small[::3])]
    units = small_to_big(hits, {N18: n18_small})
    assert sum(size_units(u.text) for u in units) <= CONTEXT_BUDGET.limit
    assert 4 <= len(units) < len(hits)
    assert [u.score for u in units] == sorted((u.score for u in units), reverse=True)
    small = small_to_big(hits, {N18: n18_small}, budget=Budget(900, len))
    assert sum(len(u.text) for u in small) <= 900
    for unit in units + small:
        assert_exact(unit, n18)
        assert len(unit.text) <= 1500


def test_default_sized_chunks_and_several_documents(
    n18: tuple[Block, ...], pg_index: tuple[Block, ...]
) -> None:
    chunks = {N18: chunk_blocks(N18, n18), "pg": chunk_blocks("pg", pg_index)}
    pg = chunks["pg"]
    a, b = next((a, b) for a, b in itertools.pairwise(pg) if a.section_path == b.section_path)
    hits = [hit(a, 0.9), hit(chunks[N18][10], 0.8), hit(b, 0.7)]
    units = small_to_big(hits, chunks)
    assert [u.document_id for u in units] == ["pg", N18]
    assert_exact(units[0], pg_index)
    assert_exact(units[1], n18)


def test_unknown_chunk_is_not_found(n18_small: tuple[Chunk, ...]) -> None:
    with pytest.raises(NotFound, match="n18:c9999"):
        small_to_big([Hit("n18:c9999", N18, 1.0, "keyword")], {N18: n18_small})


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_units_are_their_spans_joined(
    data: st.DataObject, n18: tuple[Block, ...], n18_small: tuple[Chunk, ...]
) -> None:
    """Property: unit.text == CHUNK_JOINER.join(block.text[s.start:s.end] for s in spans),
    no character is in two units, every hit chunk's spans are cited, budgets hold."""
    picks = data.draw(st.lists(st.integers(0, len(n18_small) - 1), min_size=1, max_size=12))
    unit_chars = data.draw(st.integers(200, 2000))
    total_chars = data.draw(st.integers(unit_chars, 8000))
    hits = [hit(n18_small[i], 1.0 / (1 + rank)) for rank, i in enumerate(picks)]
    budget = Budget(total_chars, len)
    units = small_to_big(hits, {N18: n18_small}, unit_chars=unit_chars, budget=budget)
    chars: list[tuple[str, int]] = []
    for unit in units:
        assert_exact(unit, n18)
        cited_chunks = [
            c for c in n18_small if c.id in unit.chunk_ids and c.spans[0] in unit.cited_spans
        ]
        core = sum(len(c.text) + 1 for c in cited_chunks)
        assert len(unit.text) <= max(unit_chars, core)
        chars.extend(covered_chars(unit))
    assert len(chars) == len(set(chars))
    assert sum(len(u.text) for u in units[1:]) + len(units[0].text) <= max(
        total_chars, len(units[0].text)
    )


def test_block_spans_map_unit_offsets_back(
    n18: tuple[Block, ...], n18_small: tuple[Chunk, ...]
) -> None:
    [unit] = small_to_big([hit(n18_small[split_paragraph(n18_small)])], {N18: n18_small})
    texts = texts_of(n18)
    for start in range(0, len(unit.text) - 40, 37):
        spans = unit.block_spans(start, start + 40)
        rebuilt = CHUNK_JOINER.join(texts[s.block_id][s.start : s.end] for s in spans)
        assert rebuilt == unit.text[start : start + 40].strip(CHUNK_JOINER)


def test_a_unit_refuses_text_that_is_not_its_spans(n18_small: tuple[Chunk, ...]) -> None:
    chunk = n18_small[4]
    with pytest.raises(ValueError, match="joiner|cover"):
        split_pieces(chunk.spans, chunk.text + "!")
    with pytest.raises(ValueError, match="joiner"):
        split_pieces(chunk.spans, chunk.text.replace(CHUNK_JOINER, " ", 1))


# ------------------------------------------------------------------ locate selection


def test_locate_a_sentence_copied_across_a_line_break_hyphen(n18: tuple[Block, ...]) -> None:
    block = next(b for b in n18 if "organizing published scientific literature" in b.text)
    sentence = "organizing published scientific literature into a heterogeneous graph"
    start = block.text.index(sentence)
    copied = sentence.replace("heterogeneous", "hetero-\ngeneous").replace(
        "published ", "pub- lished\n"
    )
    anchor = locate_selection(n18, copied, document_id=N18)
    assert anchor == Anchor(N18, block.id, start, start + len(sentence), copied)


def test_locate_with_collapsed_or_extra_whitespace(n18: tuple[Block, ...]) -> None:
    block = starting(n18, EVALUATE)
    sentence = block.text[40:160]
    for variant in (sentence.replace(" ", ""), "  " + sentence.replace(" ", " \n\t ") + "\n"):
        anchor = locate_selection(n18, variant)
        assert anchor is not None and anchor.block_id == block.id
        assert block.text[anchor.start : anchor.end] == sentence.strip()


def test_locate_across_a_line_end_hyphen(n18: tuple[Block, ...]) -> None:
    """ "MED-" / "LINE" at a line end: the parser joins it as the document writes it
    elsewhere (it once kept "MED- LINE"), and a selection written either way finds it."""
    block = next(b for b in n18 if "DBLP, MEDLINE" in b.text)
    for selected in (
        "(e.g., DBLP, MEDLINE), pre-publishing",
        "(e.g., DBLP, MED- LINE), pre-publishing",
    ):
        anchor = locate_selection(n18, selected)
        assert anchor is not None and anchor.block_id == block.id
        assert block.text[anchor.start : anchor.end] == "(e.g., DBLP, MEDLINE), pre-publishing"


def test_locate_ligatures_quotes_and_case(n18: tuple[Block, ...]) -> None:
    block = next(b for b in n18 if "scientific literature" in b.text)
    start = block.text.index("scientific literature")
    anchor = locate_selection(n18, "SCIENTIﬁC   Literature")
    assert anchor is not None and (anchor.block_id, anchor.start) == (block.id, start)
    quoted = next(b for b in n18 if "“authored”" in b.text)
    anchor = locate_selection(n18, '"authored".')
    assert anchor is not None and anchor.block_id == quoted.id


def test_locate_chinese_with_spaces_and_half_width_punctuation(lshort: tuple[Block, ...]) -> None:
    block = next(b for b in lshort if "这些短划线是" in b.text)
    sentence = block.text[: block.text.index("。") + 1]
    assert "，" in sentence or "：" in sentence or ":" in sentence
    copied = " ".join(sentence).replace("，", ",").replace("(", "（").replace(")", "）")
    anchor = locate_selection(lshort, copied)
    assert anchor is not None and anchor.block_id == block.id
    assert block.text[anchor.start : anchor.end] == sentence


def test_a_selection_across_two_blocks_anchors_at_the_first(n18: tuple[Block, ...]) -> None:
    first, second = starting(n18, EVALUATE), starting(n18, SHOWS)
    assert n18.index(second) == n18.index(first) + 1
    selected = first.text[-60:] + "\n" + second.text[:50]
    anchor = locate_selection(n18, selected)
    assert anchor is not None and anchor.block_id == first.id
    assert first.text[anchor.start : anchor.end] == first.text[-60:].strip()
    # every block's span: the second block's words are the selection's, not its context
    assert anchor.spans[0] == BlockSpan(first.id, anchor.start, anchor.end)
    assert anchor.spans[1:] == (BlockSpan(second.id, 0, len(second.text[:50].rstrip())),)


def test_a_selection_that_is_not_there(n18: tuple[Block, ...]) -> None:
    assert locate_selection(n18, "this sentence is nowhere in the paper") is None
    with pytest.raises(InputError):
        locate_selection(n18, " \n ")


def test_locate_finds_page_furniture_only_when_nothing_else_matches(n18: tuple[Block, ...]) -> None:
    footer = next(b for b in n18 if b.kind in FURNITURE_KINDS and len(b.text) >= 2)
    anchor = locate_selection(n18, footer.text)
    assert anchor is not None
    if anchor.block_id == footer.id:  # only furniture holds the text
        assert all(footer.text not in b.text for b in n18 if b.kind not in FURNITURE_KINDS)
    else:
        assert by_id(n18)[anchor.block_id].kind not in FURNITURE_KINDS


def test_locate_is_fast_on_a_long_document(lshort: tuple[Block, ...]) -> None:
    """Indexing and locating grow with the document, not its square: 22 copies of the
    manual (~50k blocks, ~6M characters) against 2, timed in the same run (a ratio, so a
    loaded machine does not fail it: linear is ~11x, quadratic ~121x), in CPU time (wall
    time failed it on a shared machine under two other test runs)."""

    def located_in(copies_of: int) -> float:
        copies = [
            replace(block, id=f"{block.id}-{n}", order=n * len(lshort) + block.order)
            for n in range(copies_of)
            for block in lshort
        ]
        last = copies[-3]
        selected = last.text[: min(len(last.text), 60)]
        began = time.process_time()
        index = SelectionIndex(copies)
        anchor = index.locate(selected + " xyz-unfindable") or index.locate(selected)
        elapsed = time.process_time() - began
        assert anchor is not None and anchor.block_id.startswith(lshort[-3].id.split("-")[0])
        return elapsed

    small = min(located_in(2) for _ in range(3))
    large = located_in(22)
    assert large / small < 40, f"22 copies took {large:.2f} s, 2 copies {small:.2f} s"


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_slice_of_a_block_is_located(data: st.DataObject, n18: tuple[Block, ...]) -> None:
    body = [i for i, b in enumerate(n18) if b.kind not in FURNITURE_KINDS and len(b.text) > 30]
    block = n18[data.draw(st.sampled_from(body))]
    start = data.draw(st.integers(0, len(block.text) - 20))
    end = data.draw(st.integers(start + 20, min(len(block.text), start + 200)))
    selected = block.text[start:end]
    anchor = locate_selection(n18, selected)
    assert anchor is not None and anchor.start is not None and anchor.end is not None
    located = by_id(n18)[anchor.block_id]
    found = located.text[anchor.start : anchor.end]
    needle = fold_excerpt(selected)
    # the first occurrence may run on into the next block: then the span is clipped there
    assert fold(found) == needle or (
        needle.startswith(fold(found)) and not fold(located.text[anchor.end :])
    )


# ----------------------------------------------------------------------- read along


def test_anchored_context_stays_in_its_section_in_reading_order(n18: tuple[Block, ...]) -> None:
    anchor_block = starting(n18, EVALUATE)
    unit = anchored_context(n18, Anchor(N18, anchor_block.id, 3, 60))
    assert_exact(unit, n18)
    blocks = by_id(n18)
    members = [blocks[s.block_id] for s in unit.spans]
    assert anchor_block in members
    assert all(b.section_path == anchor_block.section_path for b in members)
    assert [b.order for b in members] == sorted(b.order for b in members)
    assert all(b.kind not in FURNITURE_KINDS for b in members)
    assert unit.cited_spans == (BlockSpan(anchor_block.id, 3, 60),)
    assert unit.origin == "anchor" and unit.section_path == anchor_block.section_path
    # 4.1 ends right after the anchor's next block: the heading of 4.2 is not in
    assert not any(b.text.startswith("4.2") for b in members)
    position = n18.index(anchor_block)
    section = [
        b
        for b in n18[position - 2 : position + 3]
        if b.kind not in FURNITURE_KINDS and b.section_path == anchor_block.section_path
    ]
    assert members == section


def test_anchored_context_width_and_furniture(n18: tuple[Block, ...]) -> None:
    footer_at = next(
        i for i, b in enumerate(n18) if b.kind in FURNITURE_KINDS and 0 < i < len(n18) - 1
    )
    anchor_block = n18[footer_at - 1]
    unit = anchored_context(n18, Anchor(N18, anchor_block.id), width=1)
    members = [s.block_id for s in unit.spans]
    assert n18[footer_at].id not in members
    assert anchor_block.id in members and len(members) <= 3
    assert unit.cited_spans[0].start == 0 and unit.cited_spans[0].end == len(anchor_block.text)
    wide = anchored_context(n18, Anchor(N18, anchor_block.id), width=4)
    assert len(wide.spans) > len(unit.spans)


def test_anchored_context_respects_max_chars(n18: tuple[Block, ...]) -> None:
    anchor_block = starting(n18, SHOWS)
    unit = anchored_context(
        n18, Anchor(N18, anchor_block.id), max_chars=len(anchor_block.text) + 200
    )
    assert len(unit.text) <= len(anchor_block.text) + 200
    window = anchored_context(n18, Anchor(N18, anchor_block.id, 400, 450), max_chars=120)
    assert_exact(window, n18)
    assert len(window.text) <= 120 and len(window.spans) == 1
    cited = window.cited_spans[0]
    assert anchor_block.text[cited.start : cited.end] in window.text


def test_anchored_context_from_selected_text_only(lshort: tuple[Block, ...]) -> None:
    block = next(b for b in lshort if "这些短划线是" in b.text)
    unit = anchored_context(lshort, Anchor("zh", selected_text="这些短划线是 : ‘-’ 连字号"))
    assert unit.cited_spans[0].block_id == block.id
    assert unit.cited_text() == block.text[: unit.cited_spans[0].end]
    assert_exact(unit, lshort)


def test_anchored_context_errors(n18: tuple[Block, ...]) -> None:
    abstract = starting(n18, "We describe a deployed scalable system")
    with pytest.raises(NotFound, match="b99999"):
        anchored_context(n18, Anchor(N18, "b99999"))
    with pytest.raises(InputError, match="outside"):
        anchored_context(n18, Anchor(N18, abstract.id, 10, len(abstract.text) + 1))
    with pytest.raises(InputError, match="outside"):
        anchored_context(n18, Anchor(N18, abstract.id, 20, 20))
    with pytest.raises(NotFound, match="selected text"):
        anchored_context(n18, Anchor(N18, selected_text="nowhere in this paper at all"))


# --------------------------------------------------------------------- drift, assembly


def test_section_root_and_drift_distances(
    n18: tuple[Block, ...], n18_small: tuple[Chunk, ...], pg_index: tuple[Block, ...]
) -> None:
    root = section_root(n18)
    body = [b for b in n18 if b.kind not in FURNITURE_KINDS and b.section_path]
    assert all(b.section_path[: len(root)] == root for b in body)
    assert len({b.section_path[len(root) : len(root) + 1] for b in body}) > 3  # chapters differ
    anchor = anchored_context(n18, Anchor(N18, starting(n18, EVALUATE).id))  # 4.1 Approaches
    by_section = {c.section_path[-1]: c for c in n18_small if c.section_path}
    question = "How precise is the hybrid approach?"

    def distance(chunk: Chunk) -> str | None:
        [unit] = small_to_big([hit(chunk)], {N18: n18_small})
        return drift(question, unit, anchor, root=root).distance

    assert distance(by_section["4.1 Approaches"]) == "same_section"
    assert distance(by_section["4.2 Entity Extraction Models"]) == "same_chapter"
    assert distance(by_section["2.1 Node Types"]) == "elsewhere"
    other = anchored_context(pg_index, Anchor("pg", pg_index[5].id))
    assert drift(question, other, anchor, root=root).distance == "other_document"
    assert drift(question, other).distance is None


def test_drift_overlap_and_weak_flag(n18: tuple[Block, ...], n18_small: tuple[Chunk, ...]) -> None:
    anchor = anchored_context(n18, Anchor(N18, starting(n18, SHOWS).id))
    [on_topic] = small_to_big([hit(n18_small[len(n18_small) // 3])], {N18: n18_small})
    signal = drift("Which approach gives the highest precision?", anchor, anchor)
    assert signal.term_overlap == 1.0 and not signal.weak
    unrelated = drift("zebra giraffe savanna", on_topic)
    assert unrelated.weak and unrelated.term_overlap == 0.0
    nothing = drift("what is it?", on_topic)
    assert not nothing.weak and nothing.term_overlap == 0.0
    partial = drift("precision of zebras", anchor)
    assert 0.0 < partial.term_overlap < 1.0 and not partial.weak


def test_assemble_orders_dedupes_and_budgets(
    n18: tuple[Block, ...], n18_small: tuple[Chunk, ...]
) -> None:
    anchor_block = starting(n18, EVALUATE)
    anchor = anchored_context(n18, Anchor(N18, anchor_block.id))
    inside = next(c for c in n18_small if c.spans[0].block_id == anchor_block.id)
    heading = starting(n18, "4.2 Entity Extraction Models")
    partly = next(c for c in n18_small if c.spans[0].block_id == heading.id)
    far = next(c for c in n18_small if c.section_path[-1:] == ("2.1 Node Types",))
    retrieved = small_to_big([hit(inside, 0.9), hit(far, 0.8), hit(partly, 0.7)], {N18: n18_small})
    intro = starting(n18, "The goal of this work is to facilitate")
    crossref = [anchored_context(n18, Anchor(N18, intro.id), width=0)]
    crossref = [replace(crossref[0], origin="crossref", score=0.5)]
    question = "How are the approaches evaluated?"
    root = section_root(n18)
    terms = drift_terms(question, anchor)
    units = assemble_context(terms, anchor, crossref, retrieved, root=root)
    assert [u.origin for u in units][:2] == ["anchor", "crossref"]
    assert units[0] == replace(anchor, drift=units[0].drift)
    assert all(u.drift is not None for u in units)
    assert units[0].drift is not None and units[0].drift.distance == "same_section"
    chars = [c for u in units for c in covered_chars(u)]
    assert len(chars) == len(set(chars))  # nothing said twice
    for unit in units:
        assert_exact(unit, n18)
    # the retrieved unit inside the anchor's block is gone or trimmed to what is new
    for unit in units[2:]:
        assert all(c.block_id != anchor_block.id or c not in anchor.spans for c in unit.cited_spans)
    budget = len(anchor.text) + len(crossref[0].text) + 5
    tight = assemble_context(terms, anchor, crossref, retrieved, budget=Budget(budget, len))
    assert [u.origin for u in tight] == ["anchor", "crossref"]
    alone = assemble_context(terms, anchor, crossref, retrieved, budget=Budget(10, len))
    assert [u.origin for u in alone] == ["anchor"]  # the anchor is always kept
    without_anchor = assemble_context(drift_terms(question), None, [], retrieved)
    assert [u.origin for u in without_anchor] == ["retrieved"] * len(without_anchor)
    assert all(u.drift is not None and u.drift.distance is None for u in without_anchor)
