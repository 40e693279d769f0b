"""The material for explaining a selection, gathered from its whole document as context
units (pure): what ``asking.evidence`` adds to a quick intent's evidence, so that the
answerer (and a model) can explain from the document and not from the selection alone.

Each definition, example, contrast, set-up sentence or bibliography line becomes a unit
of that one sentence or line (origin "crossref", cited whole); each part the selection
points at ("Table 2", "图 1", "Equation 2") comes as ``crossref_units`` makes it: the
caption or heading, then the part's blocks that share the selection's terms.
"""

from __future__ import annotations

from collections.abc import Sequence

from askalong.context.anchor import LocatedAnchor, anchored_spans
from askalong.context.crossref import crossref_units, outline_references
from askalong.context.explain import find_material, other_side
from askalong.context.material import Material, Passage, Selection
from askalong.context.outline import Outline
from askalong.context.units import ContextUnit, Piece, places_of
from askalong.question.reading import read_question
from askalong.types import CHUNK_JOINER, FURNITURE_KINDS, Block, BlockSpan, Intent


def explain_units(
    blocks: Sequence[Block],
    located: LocatedAnchor,
    intent: Intent,
    question: str,
    *,
    outline: Outline,
    document_id: str,
) -> list[ContextUnit]:
    """The material for ``intent`` on the located selection, from ``blocks`` (its
    document's, in reading order), as units: sentences first, then the parts it names."""
    selection = located_selection(blocks, located)
    passages = [_passage(b) for b in blocks if b.kind not in FURNITURE_KINDS and b.text.strip()]
    others = other_side(question, selection.text) if intent == "compare" else []
    found = find_material(intent, selection, passages, other_terms=others)
    by_id = {block.id: block for block in blocks}
    units = [_unit(m, by_id[m.piece.span.block_id], document_id) for m in found]
    if intent != "explain":
        return units
    refs = outline_references(selection.text, outline, position=located.index)
    parts = crossref_units(read_question(selection.text), refs, blocks, document_id=document_id)
    return [*units, *parts]


def located_selection(blocks: Sequence[Block], located: LocatedAnchor) -> Selection:
    """The selected spans: of the anchor's block (the whole block when no span is given)
    and of every other block a selection over several blocks covers."""
    spans = anchored_spans(blocks, located)
    by_id = {block.id: block for block in blocks if block.id in {s.block_id for s in spans}}
    text = CHUNK_JOINER.join(by_id[s.block_id].text[s.start : s.end] for s in spans)
    return Selection(text, spans)


def _passage(block: Block) -> Passage:
    piece = Piece(BlockSpan(block.id, 0, len(block.text)), block.text)
    return Passage(piece, block.section_path, block.kind, block.order)


def _unit(material: Material, block: Block, document_id: str) -> ContextUnit:
    piece = material.piece
    return ContextUnit(
        document_id=document_id,
        chunk_ids=(),
        text=piece.text,
        spans=(piece.span,),
        cited_spans=(piece.span,),
        section_path=block.section_path,
        page_start=block.page,
        page_end=block.last_page,
        origin="crossref",
        score=material.strength,
        places=places_of([block]),
    )


def unit_material(
    intent: Intent, question: str, units: Sequence[ContextUnit]
) -> tuple[Selection, list[tuple[int, Material]]] | None:
    """While answering: the selection (the first unit's cited text, when it is the
    anchor) and the material found in ``units``, each with the index of its unit; None
    without an anchor unit. The answerer composes from it; a model is told where it is."""
    if not units or units[0].origin != "anchor":
        return None
    anchor = units[0]
    selection = Selection(anchor.cited_text(), anchor.cited_spans)
    passages, owner = [], []
    for index, unit in enumerate(units):
        for passage in unit_passages(unit):
            passages.append(passage)
            owner.append((passage.piece.span, index))
    others = other_side(question, selection.text) if intent == "compare" else []
    found = find_material(intent, selection, passages, other_terms=others)
    return selection, [(_owner(m.piece.span, owner), m) for m in found]


def unit_passages(unit: ContextUnit) -> list[Passage]:
    """A unit's pieces as passages, with their blocks' kind and order where the unit
    knows them (what follows the selection is found by order, a footnote by its kind)."""
    known = {place.block_id: place for place in unit.places}
    out = []
    for piece in unit.pieces:
        place = known.get(piece.span.block_id)
        if place is None:
            out.append(Passage(piece, unit.section_path))
        else:
            out.append(Passage(piece, place.section_path, place.kind, place.order))
    return out


def _owner(span: BlockSpan, owner: Sequence[tuple[BlockSpan, int]]) -> int:
    for piece, index in owner:
        if piece.block_id == span.block_id and piece.start <= span.start < piece.end:
            return index
    return 0
