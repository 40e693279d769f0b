"""Context assembly (pure): what the answerer reads, and exactly where each part came from.

A ``ContextUnit`` is a run of block spans. Its one invariant, checked on construction::

    unit.text == CHUNK_JOINER.join(block_text(s)[s.start:s.end] for s in unit.spans)

so every offset in the text maps back to a block and a character offset
(``ContextUnit.block_spans``). ``cited_spans`` are the spans that produced the unit (the
retrieved hit chunks, the anchor span, the cross-referenced blocks): what a citation
points at; everything else in the unit is surrounding context.

This module holds the unit and ``small_to_big``: retrieved hits -> units. Adjacent hits
merge (no gap filling); each unit grows by its neighbouring chunk on each side within the
section, whole sentences nearest the hit first, up to ``unit_chars``; the hit chunks
always stay whole. The rest of context assembly, one concept per module:

- ``context_locate``: selected text -> Anchor (block id + exact character offsets);
- ``context_anchor``: ``anchored_context``, the anchor block and its section neighbours;
- ``crossref`` (with ``context_outline``): "Table 2", "第二章", "上一节" -> blocks -> units;
- ``context_assemble``: ``drift`` and ``assemble_context``, anchor first, then
  cross-references, then retrieved units, overlaps removed, within a character budget.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from askalong.errors import NotFound
from askalong.text import split_sentences
from askalong.types import CHUNK_JOINER, BlockSpan, Chunk, Hit

Origin = Literal["anchor", "retrieved", "crossref"]
Distance = Literal["same_section", "same_chapter", "elsewhere", "other_document"]

UNIT_CHARS = 1500
TOTAL_CHARS = 6000


@dataclass(frozen=True)
class Drift:
    """How far a unit strays from the question and the anchor.

    ``term_overlap``: the share of the key terms of the question and of the anchor's cited
    text that occur in the unit; ``weak`` when there were terms and none occurs.
    ``distance``: where the unit sits relative to the anchor (None without an anchor).
    """

    term_overlap: float
    weak: bool
    distance: Distance | None


@dataclass(frozen=True)
class Piece:
    """One span of a unit with its text: ``block.text[span.start:span.end]``."""

    span: BlockSpan
    text: str


@dataclass(frozen=True)
class ContextUnit:
    """A piece of evidence for the answerer: its text is its spans joined by CHUNK_JOINER."""

    document_id: str
    chunk_ids: tuple[str, ...]
    text: str
    spans: tuple[BlockSpan, ...]
    cited_spans: tuple[BlockSpan, ...]
    section_path: tuple[str, ...]
    page_start: int | None
    page_end: int | None
    origin: Origin
    score: float | None  # best hit score (retrieved), best term overlap (crossref), None (anchor)
    drift: Drift | None = None  # filled in by assemble_context

    def __post_init__(self) -> None:
        split_pieces(self.spans, self.text)  # raises when the invariant does not hold

    @property
    def pieces(self) -> list[Piece]:
        return split_pieces(self.spans, self.text)

    def block_spans(self, start: int, end: int) -> tuple[BlockSpan, ...]:
        """The block spans that ``text[start:end]`` is made of (joiners map to nothing)."""
        out = []
        for offset, piece in _with_offsets(self.pieces):
            lo, hi = max(start - offset, 0), min(end - offset, len(piece.text))
            if lo < hi:
                out.append(
                    BlockSpan(piece.span.block_id, piece.span.start + lo, piece.span.start + hi)
                )
        return tuple(out)

    def cited_text(self) -> str:
        """The text of the cited spans (those still inside the unit), joined."""
        parts = []
        for cited in self.cited_spans:
            for piece in self.pieces:
                span = piece.span
                if span.block_id == cited.block_id and span.start <= cited.start < span.end:
                    stop = min(cited.end, span.end)
                    parts.append(piece.text[cited.start - span.start : stop - span.start])
                    break
        return CHUNK_JOINER.join(parts)


def split_pieces(spans: Sequence[BlockSpan], text: str) -> list[Piece]:
    """Cut ``text`` (spans joined by CHUNK_JOINER) back into one piece per span."""
    pieces, position = [], 0
    for index, span in enumerate(spans):
        if span.end < span.start:
            raise ValueError(f"span {span} ends before it starts")
        if index:
            if not text.startswith(CHUNK_JOINER, position):
                raise ValueError(f"no joiner at offset {position}: text is not its spans joined")
            position += len(CHUNK_JOINER)
        size = span.end - span.start
        pieces.append(Piece(span, text[position : position + size]))
        position += size
    if position != len(text):
        raise ValueError(f"spans cover {position} characters of a text of {len(text)}")
    return pieces


def _with_offsets(pieces: Iterable[Piece]) -> Iterator[tuple[int, Piece]]:
    offset = 0
    for piece in pieces:
        yield offset, piece
        offset += len(piece.text) + len(CHUNK_JOINER)


def joined_length(pieces: Sequence[Piece]) -> int:
    if not pieces:
        return 0
    return sum(len(p.text) for p in pieces) + len(CHUNK_JOINER) * (len(pieces) - 1)


def trimmed(piece: Piece, start: int, end: int) -> Piece | None:
    """``piece`` cut to ``text[start:end]`` (piece offsets), without edge whitespace."""
    text = piece.text
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start >= end:
        return None
    span = BlockSpan(piece.span.block_id, piece.span.start + start, piece.span.start + end)
    return Piece(span, text[start:end])


def subtract(piece: Piece, covered: Iterable[BlockSpan]) -> list[Piece]:
    """The parts of ``piece`` that no span of ``covered`` (same block) already holds."""
    cuts = sorted(
        (max(c.start, piece.span.start), min(c.end, piece.span.end))
        for c in covered
        if c.block_id == piece.span.block_id
        and c.start < piece.span.end
        and c.end > piece.span.start
    )
    out, cursor = [], piece.span.start
    for lo, hi in [*cuts, (piece.span.end, piece.span.end)]:
        if lo > cursor:
            kept = trimmed(piece, cursor - piece.span.start, lo - piece.span.start)
            out.extend([kept] if kept else [])
        cursor = max(cursor, hi)
    return out


def _subtract_all(pieces: Iterable[Piece], covered: Sequence[BlockSpan]) -> list[Piece]:
    return [part for piece in pieces for part in subtract(piece, covered)]


# ------------------------------------------------------------------------- small to big


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
    total_chars: int = TOTAL_CHARS,
) -> list[ContextUnit]:
    """Retrieved hits -> context units, in the order of each unit's best hit.

    Hits on adjacent chunks (order ± 1, same section) of one document merge into one unit.
    A unit grows by the previous and the next chunk of its section (whole sentences, the
    nearest first, alternating sides) while it stays within ``unit_chars``; the hit chunks
    stay whole, so a hit longer than that is a unit alone. Text already in an earlier unit
    or in another hit is not repeated. Units are added while the total stays within
    ``total_chars`` (growth shrinks to fit the remainder); the first unit is always kept.
    ``cited_spans`` are exactly the hit chunks' spans.
    """
    documents = {hit.document_id for hit in hits}
    ordered = {doc: _by_order(chunks_by_document.get(doc, ())) for doc in documents}
    groups = _groups(hits, ordered)
    reserved = [span for group in groups for chunk in group.chunks for span in chunk.spans]
    units: list[ContextUnit] = []
    used: list[BlockSpan] = []
    total = 0
    for group in groups:
        limit = min(unit_chars, total_chars - total)
        unit = _grown_unit(group, ordered[group.chunks[0].document_id], limit, [*reserved, *used])
        if units and total + len(unit.text) > total_chars:
            break
        units.append(unit)
        used.extend(unit.spans)
        total += len(unit.text)
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
        core.extend(_subtract_all(split_pieces(chunk.spans, chunk.text), [p.span for p in core]))
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
    for piece in _subtract_all(split_pieces(chunk.spans, chunk.text), covered):
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
