"""A direct answer whose sentence announces what follows ("This looks like:") carries the
block it announces (issue 32): an Explain / Example whole when the two fit the answer's
shape, else by its first line, the block quoted whole either way; a plain question's answer
(which takes the block whole when it fits: ``direct_choice._announced``) by its first line
when it does not."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from askalong.answer.extractive.candidates import candidates
from askalong.answer.extractive.direct_choice import with_blocks
from askalong.answer.extractive.intent_learned import intent_candidates
from askalong.answer.extractive.intents import OUT_OF_VIEW, answer_intent
from askalong.answer.shape import shaped
from askalong.context.material import Material, Selection
from askalong.context.units import ContextUnit, Piece, places_of
from askalong.question.reading import read_question
from askalong.types import CHUNK_JOINER, Block, BlockKind, BlockSpan, Intent

SECTION = ("Indent", "Tabs")
SELECTED = "The -as option fixes this so that the code looks the same at any tab size."
BEFORE = "Each level of indentation is one tab character."
LEAD_IN = "This looks like:"
CODE = "unsigned long proc(unsigned long x,\n                   int a)\n{\n    return x;\n}"
OTHER = "Tabs are eight columns wide unless the reader says otherwise."
BLOCKS = [
    SELECTED,
    OTHER,
    f"{BEFORE} {LEAD_IN}",
    "This is fine if the reader honours eight-space tabs.",
]
LONG_CODE = "\n".join(f"int field_{k} = compute_value_{k}(alpha, beta, gamma);" for k in range(12))


def units_of(code: str, selected: BlockSpan | None = None) -> list[ContextUnit]:
    """One anchor unit: the selected paragraph, one after it, one ending in the lead-in,
    the code block it announces, a paragraph after."""
    kinds: list[BlockKind] = ["paragraph", "paragraph", "paragraph", "code", "paragraph"]
    texts = [*BLOCKS[:3], code, BLOCKS[3]]
    blocks = [
        Block(f"b{k}", kind, t, k, SECTION, page=1)
        for k, (kind, t) in enumerate(zip(kinds, texts, strict=True))
    ]
    return [
        ContextUnit(
            "doc",
            (),
            CHUNK_JOINER.join(b.text for b in blocks),
            tuple(BlockSpan(b.id, 0, len(b.text)) for b in blocks),
            (selected or BlockSpan("b0", 0, len(SELECTED)),),
            SECTION,
            1,
            1,
            "anchor",
            None,
            places=places_of(blocks),
        )
    ]


def lead_in_first(
    intent: Intent, selection: Selection, units: Sequence[ContextUnit]
) -> list[tuple[int, Material]]:
    """A ranker whose best sentence is the lead-in, as the learned scorer's was (DEV in-24)."""
    start = len(BEFORE) + 1
    piece = Piece(BlockSpan("b2", start, start + len(LEAD_IN)), LEAD_IN)
    return [(0, Material("related", "tab", piece, 1.0))]


def test_an_explain_on_a_lead_in_carries_the_code_it_announces() -> None:
    for intent in ("explain", "example"):
        result = answer_intent(
            read_question("Explain this."), units_of(CODE), intent, lead_in_first
        )
        assert result is not None
        assert result.answer.startswith(f"{LEAD_IN} [1] {CODE} [2]"), result.answer
        assert [q.text for q in result.quotes[:2]] == [LEAD_IN, CODE]
        assert CODE in shaped(result.answer).direct  # the shape keeps the two as one


def test_a_block_too_long_is_quoted_whole_and_shown_by_its_first_line() -> None:
    result = answer_intent(
        read_question("Explain this."), units_of(LONG_CODE), "explain", lead_in_first
    )
    assert result is not None
    first = LONG_CODE.splitlines()[0]
    assert result.answer.startswith(f"{LEAD_IN} [1] {first} … [2]"), result.answer
    assert LONG_CODE.splitlines()[1] not in result.answer
    assert result.quotes[1].text == LONG_CODE


def test_a_lead_in_whose_block_the_evidence_lacks_is_not_chosen_alone() -> None:
    units = units_of(CODE)
    anchor = units[0]
    lacking = replace(anchor, spans=anchor.spans[:3], text=CHUNK_JOINER.join(BLOCKS[:3]))
    other = Piece(BlockSpan("b2", 0, len(BEFORE)), BEFORE)

    def lead_in_then_other(
        intent: Intent, selection: Selection, units: Sequence[ContextUnit]
    ) -> list[tuple[int, Material]]:
        return [*lead_in_first(intent, selection, units), (0, Material("related", "tab", other))]

    result = answer_intent(read_question("Explain this."), [lacking], "explain", lead_in_then_other)
    assert result is not None
    assert result.answer.startswith(f"{BEFORE} [1]"), result.answer
    assert LEAD_IN in [q.text for q in result.quotes]  # still quoted, not the answer


def test_a_plain_answers_lead_in_brings_the_block_its_shape_left_out() -> None:
    units = units_of(LONG_CODE)
    every = candidates(units)
    lead = next(c for c in every if c.text == LEAD_IN)
    direct, opened = with_blocks(units, [lead])
    assert [c.text for c in direct] == [LEAD_IN, LONG_CODE] and opened == {1}
    fitting = units_of(CODE)
    short = next(c for c in candidates(fitting) if c.text == LEAD_IN)
    taken = next(c for c in candidates(fitting) if c.text == CODE)
    assert with_blocks(fitting, [short, taken]) == ([short, taken], set())  # carried already


def test_a_lead_in_never_carries_the_selection_back() -> None:
    """Selecting the code itself: the sentence announcing it is no way to bring it back."""
    anchor = units_of(CODE, BlockSpan("b3", 0, len(CODE)))[0]
    text = CHUNK_JOINER.join([*BLOCKS[:3], CODE])
    ending = replace(anchor, spans=anchor.spans[:4], text=text)  # nothing after the selection
    result = answer_intent(read_question("Explain this."), [ending], "explain", lead_in_first)
    assert result is not None
    assert CODE not in result.answer, result.answer


def test_a_lead_in_whose_block_the_evidence_lacks_is_no_learned_candidate() -> None:
    """Alone, "This looks like:" tells a reader nothing: where its block is not in the
    evidence the learned scorer's next best sentence answers (DEV cc-17, mu-11)."""
    selection = Selection(SELECTED, (BlockSpan("b0", 0, len(SELECTED)),))
    anchor = units_of(CODE)[0]
    lacking = replace(anchor, spans=anchor.spans[:3], text=CHUNK_JOINER.join(BLOCKS[:3]))
    for units, kept in (([anchor], True), ([lacking], False)):
        scored = intent_candidates("explain", "Explain this.", selection, units)
        assert scored is not None
        texts = [c.text for c in scored[0]]
        assert (LEAD_IN in texts) is kept and BEFORE in texts, texts


def test_a_lead_in_quoted_beside_the_selection_says_its_block_is_out_of_view() -> None:
    """The sentence after the selection announces a block the evidence lacks (DEV cc-17:
    "The following filters are currently supported:" ending its unit): the answer says
    so rather than leave the reader waiting; with the block in view it says nothing."""
    selected = BlockSpan("b2", 0, len(BEFORE))
    anchor = units_of(CODE, selected)[0]
    lacking = replace(anchor, spans=anchor.spans[:3], text=CHUNK_JOINER.join(BLOCKS[:3]))
    other = Piece(BlockSpan("b1", 0, len(OTHER)), OTHER)

    def other_first(
        intent: Intent, selection: Selection, units: Sequence[ContextUnit]
    ) -> list[tuple[int, Material]]:
        return [(0, Material("related", "tab", other, 1.0))]

    for unit, out_of_view in ((lacking, True), (anchor, False)):
        result = answer_intent(read_question("Explain this."), [unit], "explain", other_first)
        assert result is not None
        assert f"{LEAD_IN} [2]" in result.answer, result.answer
        assert (OUT_OF_VIEW["en"] in result.answer) is out_of_view, result.answer
