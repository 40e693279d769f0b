"""Context assembly (pure): what the answerer reads, and exactly where each part came from.

A ``ContextUnit`` is a run of block spans. Its one invariant, checked on construction::

    unit.text == CHUNK_JOINER.join(block_text(s)[s.start:s.end] for s in unit.spans)

so every offset in the text maps back to a block and a character offset
(``ContextUnit.block_spans``). ``cited_spans`` are the spans that produced the unit (the
retrieved hit chunks, the anchor span, the cross-referenced blocks): what a citation
points at; everything else in the unit is surrounding context. ``places`` give each
block's page and section, so a quote carries its own without the document's blocks.

This module holds the unit and its pieces. The rest of context assembly, one concept
per module:

- ``small_to_big``: retrieved hits -> units, grown by their neighbouring sentences;
- ``locate``: selected text -> Anchor (block id + exact character offsets);
- ``anchor``: ``anchored_context``, the anchor block and its section neighbours;
- ``crossref`` (with ``outline``): "Table 2", "第二章", "上一节" -> blocks -> units;
- ``assemble``: ``drift`` and ``assemble_context``, anchor first, then
  cross-references, then retrieved units, overlaps removed, within a ``Budget``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from askalong.text.size import size_units
from askalong.types import CHUNK_JOINER, Block, BlockKind, BlockSpan

Origin = Literal["anchor", "retrieved", "crossref"]
Distance = Literal["same_section", "same_chapter", "elsewhere", "other_document"]

UNIT_CHARS = 1500  # how far small to big grows a unit (characters)


@dataclass(frozen=True)
class Budget:
    """How much context the answerer reads: units are kept while the sum of ``measure``
    over their texts stays within ``limit``."""

    limit: int
    measure: Callable[[str], int]


# The context's budget counts the chunker's size units (``text/size.py``: a CJK character
# one, another word 1.7), what chunks are cut by, not characters: a hit chunk read on DEV
# is ~1,400 characters of English text and ~620 of Chinese for about the same ~420 units,
# so 6,000 characters held ~4 English chunks and ~9 Chinese ones, and lost the gold of 97
# questions over English text and none over Chinese
# (``benchmarks/results/evidence-budget-DEV-2026-12-07.md``). 3,900 units is about the
# 6,000 characters it replaced on Chinese text (1.4-1.55 characters a unit) and ~13,000
# characters of English.
CONTEXT_BUDGET = Budget(3900, size_units)


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
class BlockPlace:
    """Where one block a unit quotes from is: the page and section its quotes carry, and
    its kind (a heading, a caption or a table cell is not a sentence that answers) and
    its position in reading order (what follows a selection, ``context.continuation``)."""

    block_id: str
    page: int | None
    section_path: tuple[str, ...]
    kind: BlockKind = "paragraph"
    order: int | None = None


def places_of(blocks: Iterable[Block]) -> tuple[BlockPlace, ...]:
    return tuple(BlockPlace(b.id, b.page, b.section_path, b.kind, b.order) for b in blocks)


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
    places: tuple[BlockPlace, ...] = ()  # of the blocks its spans come from

    def __post_init__(self) -> None:
        split_pieces(self.spans, self.text)  # raises when the invariant does not hold

    def place(self, block_id: str) -> BlockPlace:
        """Where block ``block_id`` of this unit is: a quote from it carries this page and
        section (the unit's first page and its section when the block's are not known)."""
        for place in self.places:
            if place.block_id == block_id:
                return place
        return BlockPlace(block_id, self.page_start, self.section_path)

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


def subtract_all(pieces: Iterable[Piece], covered: Sequence[BlockSpan]) -> list[Piece]:
    return [part for piece in pieces for part in subtract(piece, covered)]
