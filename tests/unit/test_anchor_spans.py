"""A selection over several blocks anchors every one of them: the anchor unit holds each
selected block's span (cited), skips the footnote the drag passed over, and explains the
whole selection; a bad span names its block."""

from __future__ import annotations

import pytest

from askalong.context.anchor import anchored_context, anchored_spans, locate_anchor
from askalong.context.explain_units import located_selection
from askalong.errors import InputError, NotFound
from askalong.types import Anchor, Block, BlockSpan

DOC = "d1"
PATH = ("2 Method",)


def para(block_id: str, text: str, order: int, page: int) -> Block:
    return Block(block_id, "paragraph", text, order, PATH, page=page)


BLOCKS = (
    Block("b0", "heading", "2 Method", 0, PATH, 2, page=1),
    para("b1", "We embed each paper with a transformer. It reads titles.", 1, 1),
    Block("b2", "footnote", "1 Code is online.", 2, PATH, page=1),
    para("b3", "Citations give the training signal. Negatives are random.", 3, 2),
    para("b4", "A later paragraph of the method.", 4, 2),
)
SPANS = (BlockSpan("b1", 40, 56), BlockSpan("b3", 0, 35))  # "It reads titles." + first sentence


def two_block_anchor() -> Anchor:
    first = SPANS[0]
    return Anchor(DOC, first.block_id, first.start, first.end, "It reads titles. Citations…", SPANS)


def test_every_selected_block_is_cited_in_the_anchor_unit() -> None:
    unit = anchored_context(BLOCKS, two_block_anchor(), width=0)
    assert unit.cited_spans == SPANS
    assert [s.block_id for s in unit.spans] == ["b1", "b3"]  # the footnote between is left out
    assert "It reads titles." in unit.text and "Citations give the training signal." in unit.text
    assert unit.page_start == 1 and unit.page_end == 2


def test_neighbours_come_from_both_ends_of_the_selection() -> None:
    unit = anchored_context(BLOCKS, two_block_anchor(), width=1)
    assert [s.block_id for s in unit.spans] == ["b0", "b1", "b3", "b4"]


def test_the_selection_explained_is_the_whole_selection() -> None:
    located = locate_anchor(BLOCKS, two_block_anchor())
    assert anchored_spans(BLOCKS, located) == SPANS
    selection = located_selection(BLOCKS, located)
    assert selection.spans == SPANS
    assert selection.text == "It reads titles.\nCitations give the training signal."


def test_a_span_in_an_unknown_block_or_outside_its_block_is_refused() -> None:
    unknown = Anchor(DOC, "b1", 40, 56, None, (SPANS[0], BlockSpan("b9", 0, 3)))
    with pytest.raises(NotFound, match="b9"):
        anchored_context(BLOCKS, unknown)
    outside = Anchor(DOC, "b1", 40, 56, None, (SPANS[0], BlockSpan("b3", 0, 999)))
    with pytest.raises(InputError, match="outside block b3"):
        anchored_context(BLOCKS, outside)


def test_one_block_anchors_as_before() -> None:
    unit = anchored_context(BLOCKS, Anchor(DOC, "b3", 0, 35), width=0)
    assert unit.cited_spans == (BlockSpan("b3", 0, 35),)
