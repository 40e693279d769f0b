"""Where a candidate sentence stands relative to the reader's selection (the intent heads'
``PLACE`` columns)."""

from __future__ import annotations

from askalong.answer.extractive.candidates import candidates
from askalong.answer.extractive.selection_places import place_rows
from askalong.answer.scorer.features import PLACE
from askalong.context.material import Selection
from askalong.context.units import ContextUnit, places_of
from askalong.types import CHUNK_JOINER, Block, BlockSpan

SECTION = ("Guide", "Retries")
TEXTS = [
    "Retries back off exponentially.",  # b0
    "The client retries a failed request.",  # b1: the selection
    "For example, a timeout is retried three times.",  # b2
    "Logs rotate weekly.",  # b3
]


def _unit(blocks: list[Block], document: str, origin: str, cited: int = 0) -> ContextUnit:
    spans = tuple(BlockSpan(b.id, 0, len(b.text)) for b in blocks)
    text = CHUNK_JOINER.join(b.text for b in blocks)
    unit = ContextUnit(
        document, (), text, spans, spans[cited : cited + 1], SECTION, 1, 1, origin, None
    )
    return ContextUnit(**{**unit.__dict__, "places": places_of(blocks)})


def test_place_rows_say_where_each_sentence_stands() -> None:
    blocks = [Block(f"b{k}", "paragraph", t, k, SECTION, page=1) for k, t in enumerate(TEXTS)]
    code = Block("b9", "code", "retry(request, times=3)", 9, SECTION, page=1)
    other = Block("b2", "paragraph", "A request is retried elsewhere.", 2, SECTION, page=1)
    units = [
        _unit(blocks[:3], "doc", "anchor", cited=1),
        _unit([blocks[3], code], "doc", "retrieved"),
        _unit([other], "other", "retrieved"),
    ]
    selection = Selection(TEXTS[1], (BlockSpan("b1", 0, len(TEXTS[1])),))
    found = [c for c in candidates(units) if c.block_id != "b1"]
    rows = {
        (c.unit, c.block_id): r
        for c, r in zip(found, place_rows(found, selection, units, ["retried"]), strict=True)
    }
    at = {name: k for k, name in enumerate(PLACE)}
    before, after, far, snippet, elsewhere = (
        rows[0, "b0"],
        rows[0, "b2"],
        rows[1, "b3"],
        rows[1, "b9"],
        rows[2, "b2"],
    )
    assert before[at["after_selection"]] == 0 and after[at["after_selection"]] == 1
    assert before[at["near_selection"]] == after[at["near_selection"]] == 0.5
    assert far[at["near_selection"]] == 1 / 3 and snippet[at["near_selection"]] == 1 / 9
    assert snippet[at["code_block"]] == 1 and far[at["code_block"]] == 0
    assert after[at["selection_unit"]] == 1 and far[at["selection_unit"]] == 0
    assert after[at["names_term"]] == 1 and before[at["names_term"]] == 0
    assert after[at["near_naming"]] == 0.5 and far[at["near_naming"]] == 0
    assert elsewhere[at["near_selection"]] == 0 and elsewhere[at["after_selection"]] == 0
