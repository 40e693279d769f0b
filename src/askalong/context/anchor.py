"""Read along: the anchor block and its neighbours in its section, as one context unit.

An anchor is resolved once (``locate_anchor``: block id, exact span, the block's position,
page and section); the rest of context assembly takes the ``LocatedAnchor``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from askalong.context.locate import locate_selection
from askalong.context.units import ContextUnit, Piece, joined_length, places_of, trimmed
from askalong.errors import InputError, NotFound
from askalong.types import CHUNK_JOINER, FURNITURE_KINDS, Anchor, Block, BlockSpan


@dataclass(frozen=True)
class AnchorPlace:
    """An anchor and where its block is: what the reader's anchor chip shows."""

    anchor: Anchor
    page: int | None = None
    section_path: tuple[str, ...] = ()


def anchor_place(anchor: Anchor, block: Block | None) -> AnchorPlace:
    """``anchor`` with its block's page and section (none for a vanished block)."""
    if block is None:
        return AnchorPlace(anchor)
    return AnchorPlace(anchor, block.page, block.section_path)


@dataclass(frozen=True)
class LocatedAnchor:
    """A resolved anchor (block id and span filled in), its place, and the position of its
    block in the document's blocks."""

    place: AnchorPlace
    index: int

    @property
    def anchor(self) -> Anchor:
        return self.place.anchor


def locate_anchor(blocks: Sequence[Block], anchor: Anchor) -> LocatedAnchor:
    """``anchor`` resolved in ``blocks`` (one document's, in reading order), once."""
    resolved = resolve_anchor(blocks, anchor)
    index = anchor_index(blocks, resolved)
    return LocatedAnchor(anchor_place(resolved, blocks[index]), index)


def anchored_context(
    blocks: Sequence[Block], anchor: Anchor, *, width: int = 2, max_chars: int = 3000
) -> ContextUnit:
    """The anchor block and up to ``width`` neighbours on each side, in reading order and
    within its section (page headers/footers and empty blocks skipped), as one unit.

    ``blocks`` are one document's blocks in reading order. An anchor without a block id
    is located by its selected text. Neighbours are added whole, nearest first and
    alternating sides, while the unit stays within ``max_chars``; an anchor block longer
    than that is cut to a window around the anchor span. The cited span is the anchor span,
    or the whole block. Raises ``NotFound`` for an unknown block (or unfound selection)
    and ``InputError`` for a span outside the block.
    """
    located = locate_anchor(blocks, anchor)
    return located_context(blocks, located, width=width, max_chars=max_chars)


def located_context(
    blocks: Sequence[Block], located: LocatedAnchor, *, width: int = 2, max_chars: int = 3000
) -> ContextUnit:
    """``anchored_context`` for an anchor already located in ``blocks``."""
    anchor, index = located.anchor, located.index
    block = blocks[index]
    start, end = _anchor_span(block, anchor)
    centre = _window(block, start, end, max_chars)
    if centre is None:
        raise InputError(f"block {block.id} has no text to anchor on", source=anchor.document_id)
    chosen, cited = [centre], [_clip(BlockSpan(block.id, start, end), centre[1].span)]
    last = index
    for position, span in _other_spans(blocks, anchor, index):
        other = blocks[position]
        room = max_chars - joined_length([p for _, p in chosen]) - len(CHUNK_JOINER)
        piece = _window(other, span.start, span.end, max(room, span.end - span.start))
        if piece is not None:  # every selected block is anchored, not only the first
            chosen.append(piece)
            cited.append(_clip(span, piece[1].span))
            last = max(last, position)
    before = _section_neighbours(blocks, index, -1, width)
    after = _section_neighbours(blocks, last, +1, width)
    chosen = _fill(chosen, before, after, max_chars)
    chosen.sort(key=lambda pair: pair[0].order)
    pieces = [piece for _, piece in chosen]
    pages = [b.page for b, _ in chosen if b.page is not None]
    return ContextUnit(
        document_id=anchor.document_id,
        chunk_ids=(),
        text=CHUNK_JOINER.join(p.text for p in pieces),
        spans=tuple(p.span for p in pieces),
        cited_spans=tuple(cited),
        section_path=block.section_path,
        page_start=min(pages) if pages else None,
        page_end=max(pages) if pages else None,
        origin="anchor",
        score=None,
        places=places_of(b for b, _ in chosen),
    )


def resolve_anchor(blocks: Sequence[Block], anchor: Anchor) -> Anchor:
    """The anchor with its block id (and span) filled in: an anchor given only as selected
    text is located in ``blocks``. Raises ``NotFound`` when it is not there."""
    if anchor.block_id is not None:
        return anchor
    if not anchor.selected_text:
        raise InputError("an anchor needs a block id or selected text", source=anchor.document_id)
    located = locate_selection(blocks, anchor.selected_text, document_id=anchor.document_id)
    if located is None:
        raise NotFound("the selected text is not in the document", source=anchor.document_id)
    return located


def anchor_index(blocks: Sequence[Block], anchor: Anchor) -> int:
    """The position in ``blocks`` of the (resolved) anchor's block."""
    for index, block in enumerate(blocks):
        if block.id == anchor.block_id:
            return index
    raise NotFound(f"no block {anchor.block_id!r} in the document", source=anchor.document_id)


def anchored_spans(blocks: Sequence[Block], located: LocatedAnchor) -> tuple[BlockSpan, ...]:
    """Every block span the located anchor selects, in order: its block's, then those of
    the other blocks a selection over several blocks covers (each checked)."""
    anchor = located.anchor
    block = blocks[located.index]
    start, end = _anchor_span(block, anchor)
    others = _other_spans(blocks, anchor, located.index)
    return (BlockSpan(block.id, start, end), *(span for _, span in others))


def _other_spans(
    blocks: Sequence[Block], anchor: Anchor, index: int
) -> list[tuple[int, BlockSpan]]:
    """The spans of ``anchor.spans`` in blocks other than the anchor's, with each block's
    position; an unknown block is ``NotFound``, a span outside its block an ``InputError``."""
    wanted = {s.block_id: s for s in anchor.spans if s.block_id != blocks[index].id}
    if not wanted:
        return []
    positions = {b.id: i for i, b in enumerate(blocks) if b.id in wanted}
    out: list[tuple[int, BlockSpan]] = []
    for block_id, span in wanted.items():
        if block_id not in positions:
            raise NotFound(f"no block {block_id!r} in the document", source=anchor.document_id)
        position = positions[block_id]
        given = Anchor(anchor.document_id, block_id, span.start, span.end)
        start, end = _anchor_span(blocks[position], given)
        out.append((position, BlockSpan(block_id, start, end)))
    return sorted(out, key=lambda pair: pair[0])


def _anchor_span(block: Block, anchor: Anchor) -> tuple[int, int]:
    start = 0 if anchor.start is None else anchor.start
    end = len(block.text) if anchor.end is None else anchor.end
    if not 0 <= start < end <= len(block.text):
        raise InputError(
            f"span {start}:{end} is outside block {block.id} ({len(block.text)} characters)",
            source=anchor.document_id,
        )
    return start, end


def _whole(block: Block) -> Piece | None:
    return trimmed(Piece(BlockSpan(block.id, 0, len(block.text)), block.text), 0, len(block.text))


def _clip(cited: BlockSpan, window: BlockSpan) -> BlockSpan:
    """The cited span within the block's piece (which is trimmed of edge whitespace)."""
    start = min(max(cited.start, window.start), window.end)
    return BlockSpan(cited.block_id, start, max(start, min(cited.end, window.end)))


def _window(block: Block, start: int, end: int, max_chars: int) -> tuple[Block, Piece] | None:
    """The anchor block's piece: the whole block, or a window of about ``max_chars`` around
    the anchor span when the block is longer (the span itself is never cut)."""
    text = block.text
    lo, hi = 0, len(text)
    if hi > max_chars:
        spare = max(max_chars - (end - start), 0)
        lo = max(0, start - spare // 2)
        hi = min(len(text), end + spare - (start - lo))
        lo = max(0, min(lo, hi - max(max_chars, end - start)))
    piece = trimmed(Piece(BlockSpan(block.id, 0, len(text)), text), lo, hi)
    return None if piece is None else (block, piece)


def _section_neighbours(
    blocks: Sequence[Block], index: int, step: int, width: int
) -> list[tuple[Block, Piece]]:
    """Up to ``width`` non-furniture blocks next to ``blocks[index]`` in its section,
    nearest first."""
    path = blocks[index].section_path
    out: list[tuple[Block, Piece]] = []
    position = index + step
    while 0 <= position < len(blocks) and len(out) < width:
        block = blocks[position]
        position += step
        if block.kind in FURNITURE_KINDS:
            continue
        if block.section_path != path:
            break
        whole = _whole(block)
        if whole is not None:
            out.append((block, whole))
    return out


def _fill(
    chosen: list[tuple[Block, Piece]],
    before: list[tuple[Block, Piece]],
    after: list[tuple[Block, Piece]],
    max_chars: int,
) -> list[tuple[Block, Piece]]:
    """Add neighbours nearest first, alternating sides, while they fit."""
    size = joined_length([p for _, p in chosen])
    sides = [list(after), list(before)]
    while any(sides):
        for side in sides:
            if not side:
                continue
            step = len(side[0][1].text) + len(CHUNK_JOINER)
            if size + step > max_chars:
                side.clear()
                continue
            chosen.append(side.pop(0))
            size += step
    return chosen
