"""Small to big (pure): retrieved hits -> context units.

Adjacent hits merge (no gap filling); each unit grows by its neighbouring chunk on each
side within the section, whole sentences nearest the hit first, up to ``unit_chars``; the
hit chunks always stay whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from askalong.context.units import (
    CONTEXT_BUDGET,
    UNIT_CHARS,
    Budget,
    ContextUnit,
    Piece,
    joined_length,
    split_pieces,
    subtract_all,
    trimmed,
)
from askalong.errors import NotFound
from askalong.text.sentences import split_sentences
from askalong.types import CHUNK_JOINER, BlockSpan, Chunk, Hit


@dataclass(frozen=True)
class _Group:
    """Adjacent hit chunks of one document and section (a run of consecutive orders)."""

    hits: tuple[Hit, ...]
    chunks: tuple[Chunk, ...]  # in order


def small_to_big(
    hits: Sequence[Hit],
    chunks_by_document: Mapping[str, Sequence[Chunk]],
    *,
    unit_chars: int = UNIT_CHARS,
    budget: Budget = CONTEXT_BUDGET,
) -> list[ContextUnit]:
    """Retrieved hits -> context units, in the order of each unit's best hit.

    Hits on adjacent chunks (order ± 1, same section) of one document merge into one unit.
    A unit grows by the previous and the next chunk of its section (whole sentences, the
    nearest first, alternating sides) while it stays within ``unit_chars``; the hit chunks
    stay whole, so a hit longer than that is a unit alone. Text already in an earlier unit
    or in another hit is not repeated. Units are added while their total ``budget.measure``
    stays within ``budget.limit`` (growth shrinks to fit the remainder); the first unit is
    always kept. ``cited_spans`` are exactly the hit chunks' spans.
    """
    documents = {hit.document_id for hit in hits}
    ordered = {doc: _by_order(chunks_by_document.get(doc, ())) for doc in documents}
    groups = _groups(hits, ordered)
    reserved = [span for group in groups for chunk in group.chunks for span in chunk.spans]
    units: list[ContextUnit] = []
    used: list[BlockSpan] = []
    total = 0
    for group in groups:
        # growth is counted in characters, which a text's size units seldom pass
        limit = min(unit_chars, budget.limit - total)
        unit = _grown_unit(group, ordered[group.chunks[0].document_id], limit, [*reserved, *used])
        cost = budget.measure(unit.text)
        if units and total + cost > budget.limit:
            break
        units.append(unit)
        used.extend(unit.spans)
        total += cost
    return units


def _by_order(chunks: Sequence[Chunk]) -> dict[int, Chunk]:
    return {chunk.order: chunk for chunk in chunks}


def _groups(hits: Sequence[Hit], ordered: Mapping[str, Mapping[int, Chunk]]) -> list[_Group]:
    """Hit chunks grouped into runs of adjacent chunks, ordered by each run's first hit."""
    by_id = {c.id: c for chunks in ordered.values() for c in chunks.values()}
    found: dict[str, tuple[Hit, Chunk]] = {}
    for hit in hits:
        chunk = by_id.get(hit.chunk_id)
        if chunk is None:
            raise NotFound(
                f"chunk {hit.chunk_id} is not among the chunks given", source=hit.document_id
            )
        found.setdefault(hit.chunk_id, (hit, chunk))
    rank = {chunk_id: position for position, chunk_id in enumerate(found)}
    runs: list[list[tuple[Hit, Chunk]]] = []
    for hit, chunk in sorted(found.values(), key=lambda hc: (hc[1].document_id, hc[1].order)):
        last = runs[-1][-1][1] if runs else None
        if last is not None and _adjacent(last, chunk):
            runs[-1].append((hit, chunk))
        else:
            runs.append([(hit, chunk)])
    runs.sort(key=lambda run: min(rank[chunk.id] for _, chunk in run))
    return [_Group(tuple(h for h, _ in run), tuple(c for _, c in run)) for run in runs]


def _adjacent(first: Chunk, second: Chunk) -> bool:
    return (
        first.document_id == second.document_id
        and second.order == first.order + 1
        and first.section_path == second.section_path
    )


def _grown_unit(
    group: _Group, ordered: Mapping[int, Chunk], limit: int, covered: list[BlockSpan]
) -> ContextUnit:
    core: list[Piece] = []
    for chunk in group.chunks:
        core.extend(subtract_all(split_pieces(chunk.spans, chunk.text), [p.span for p in core]))
    lo, hi = group.chunks[0], group.chunks[-1]
    before = _neighbour(ordered, lo, -1)
    after = _neighbour(ordered, hi, +1)
    head, tail = _growth(core, before, after, limit, covered)
    contributing = [c for c, part in ((before, head), (after, tail)) if c is not None and part]
    chunks = sorted([*group.chunks, *contributing], key=lambda c: c.order)
    pieces = [*head, *core, *tail]
    pages = [p for c in chunks for p in (c.page_start, c.page_end) if p is not None]
    return ContextUnit(
        document_id=lo.document_id,
        chunk_ids=tuple(c.id for c in chunks),
        text=CHUNK_JOINER.join(p.text for p in pieces),
        spans=tuple(p.span for p in pieces),
        cited_spans=tuple(p.span for p in core),
        section_path=lo.section_path,
        page_start=min(pages) if pages else None,
        page_end=max(pages) if pages else None,
        origin="retrieved",
        score=max(hit.score for hit in group.hits),
    )


def _neighbour(ordered: Mapping[int, Chunk], chunk: Chunk, step: int) -> Chunk | None:
    other = ordered.get(chunk.order + step)
    if other is None or other.section_path != chunk.section_path:
        return None  # growth never crosses a section boundary
    return other


def _growth(
    core: list[Piece],
    before: Chunk | None,
    after: Chunk | None,
    limit: int,
    covered: list[BlockSpan],
) -> tuple[list[Piece], list[Piece]]:
    """Sentences of the neighbours, nearest the hit first and alternating sides, while the
    unit stays within ``limit``; a side stops at its first sentence that does not fit."""
    behind, ahead = _sentences(before, covered), _sentences(after, covered)
    n_behind = n_ahead = 0
    growing = {"ahead": bool(ahead), "behind": bool(behind)}

    def fits(k_behind: int, k_ahead: int) -> bool:
        head = _rejoined(behind[len(behind) - k_behind :])
        return joined_length([*head, *core, *_rejoined(ahead[:k_ahead])]) <= limit

    while any(growing.values()):
        if growing["ahead"]:
            growing["ahead"] = n_ahead < len(ahead) and fits(n_behind, n_ahead + 1)
            n_ahead += growing["ahead"]
        if growing["behind"]:
            growing["behind"] = n_behind < len(behind) and fits(n_behind + 1, n_ahead)
            n_behind += growing["behind"]
    return _rejoined(behind[len(behind) - n_behind :]), _rejoined(ahead[:n_ahead])


@dataclass(frozen=True)
class _Sentence:
    source: Piece
    start: int  # offsets in source.text, trimmed
    end: int


def _sentences(chunk: Chunk | None, covered: list[BlockSpan]) -> list[_Sentence]:
    """The chunk's sentences (each within one block), minus text already covered."""
    if chunk is None:
        return []
    out = []
    for piece in subtract_all(split_pieces(chunk.spans, chunk.text), covered):
        for start, end in split_sentences(piece.text):
            sentence = trimmed(piece, start, end)
            if sentence is not None:
                lo = sentence.span.start - piece.span.start
                out.append(_Sentence(piece, lo, lo + len(sentence.text)))
    return out


def _rejoined(sentences: Sequence[_Sentence]) -> list[Piece]:
    """Consecutive sentences of one piece become one piece again, with the block's own
    whitespace between them."""
    runs: list[list[_Sentence]] = []
    for sentence in sentences:
        if runs and runs[-1][-1].source is sentence.source:
            runs[-1].append(sentence)
        else:
            runs.append([sentence])
    pieces = [trimmed(run[0].source, run[0].start, run[-1].end) for run in runs]
    return [p for p in pieces if p is not None]
