"""Blocks -> chunks (pure): heading > paragraph > sentence > word.

A section is a heading and the body blocks after it that share one ``section_path``;
a chunk never leaves its section. Inside a section, whole blocks are packed until the
next one would pass ``target`` size units; a block over ``maximum`` is cut at sentence
boundaries, and a sentence over ``maximum`` at word (or CJK character) boundaries, so
no chunk is ever over ``maximum``. Every chunk records the exact block spans it covers,
and its text is those spans joined by ``CHUNK_JOINER``, nothing more.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from askalong.errors import ConfigError
from askalong.text.scripts import is_cjk
from askalong.text.sentences import split_sentences
from askalong.text.size import ATOM_RE, TextSize, measure
from askalong.types import CHUNK_JOINER, FURNITURE_KINDS, Block, BlockSpan, Chunk

MAX_OVERLAP = 100  # characters
_ONE_CJK = TextSize(cjk=1)
_ONE_WORD = TextSize(words=1)


@dataclass(frozen=True)
class _Piece:
    """``block.text[start:end]``, trimmed of whitespace, with its size."""

    block: Block
    start: int
    end: int
    size: TextSize


def chunk_blocks(
    document_id: str,
    blocks: Sequence[Block],
    *,
    target: int = 512,
    maximum: int = 768,
    overlap: int = 0,
) -> tuple[Chunk, ...]:
    """Cut a document's blocks (in reading order) into retrieval chunks."""
    _check_limits(target, maximum, overlap)
    chunks: list[Chunk] = []
    for section in _sections(blocks):
        pieces = [p for block in section for p in _pieces(block, target, maximum)]
        previous: list[_Piece] = []
        for group in _pack(pieces, target, maximum):
            if overlap and previous:
                group = _with_overlap(previous[-1], group, overlap, maximum)
            chunks.append(_make_chunk(document_id, len(chunks), group))
            previous = group
    return tuple(chunks)


def _check_limits(target: int, maximum: int, overlap: int) -> None:
    # Two units is the largest indivisible atom (one word), so smaller targets cannot hold.
    if not 2 <= target <= maximum:
        raise ConfigError(f"chunk_target={target}, chunk_max={maximum}: need 2 <= target <= max")
    if not 0 <= overlap <= MAX_OVERLAP:
        raise ConfigError(f"chunk_overlap={overlap}: must be between 0 and {MAX_OVERLAP}")


def _sections(blocks: Sequence[Block]) -> Iterator[list[Block]]:
    """Runs of blocks that may share a chunk: an optional heading, then body blocks with
    one section path. The heading joins the body after it even when its own path differs
    (parsers disagree on whether a heading's path includes itself)."""
    current: list[Block] = []
    for block in blocks:
        if block.kind in FURNITURE_KINDS or not block.text.strip():
            continue
        last = current[-1] if current else None
        if last is not None and (
            block.kind == "heading"
            or (last.kind != "heading" and last.section_path != block.section_path)
        ):
            yield current
            current = []
        current.append(block)
    if current:
        yield current


def _pieces(block: Block, target: int, maximum: int) -> list[_Piece]:
    """The block whole when it fits under ``maximum``, else its sentences (each cut
    further when over ``maximum``); the packer merges them back to about ``target``."""
    text = block.text
    start, end = _trim(text, 0, len(text))
    size = measure(text, start, end)
    if size.units <= maximum:
        return [_Piece(block, start, end, size)]
    pieces: list[_Piece] = []
    for s, e in split_sentences(text):
        s, e = _trim(text, s, e)
        if s == e:
            continue
        size = measure(text, s, e)
        if size.units <= maximum:
            pieces.append(_Piece(block, s, e, size))
        else:
            pieces.extend(_split_sentence(block, s, e, target))
    return pieces


def _split_sentence(block: Block, start: int, end: int, target: int) -> list[_Piece]:
    """Cut an over-long sentence before a word or CJK character, at most ``target`` units
    per piece; punctuation stays with the piece before the cut."""
    cuts = [start]
    size = TextSize()
    for atom in ATOM_RE.finditer(block.text, start, end):
        step = _ONE_CJK if is_cjk(atom.group()[0]) else _ONE_WORD
        if size.units and (size + step).units > target:
            cuts.append(atom.start())
            size = TextSize()
        size += step
    cuts.append(end)
    pieces = []
    for s, e in itertools.pairwise(cuts):
        s, e = _trim(block.text, s, e)
        if s < e:
            pieces.append(_Piece(block, s, e, measure(block.text, s, e)))
    return pieces


def _pack(pieces: list[_Piece], target: int, maximum: int) -> Iterator[list[_Piece]]:
    """Greedy packing up to ``target``; a lone heading piece takes the next piece with it
    whenever the two fit under ``maximum`` (a sentence cut by a page break is one block
    already: ``parse/pdf/page_breaks``)."""
    group: list[_Piece] = []
    size = TextSize()
    for piece in pieces:
        grown = (size + piece.size).units
        heading_only = len(group) == 1 and group[0].block.kind == "heading"
        if group and grown > target and not (heading_only and grown <= maximum):
            yield group
            group, size = [], TextSize()
        group.append(piece)
        size += piece.size
    if group:
        yield group


def _with_overlap(last: _Piece, group: list[_Piece], overlap: int, maximum: int) -> list[_Piece]:
    """Prefix ``group`` with the last whole sentences of ``last``: as many as fit in
    ``overlap`` characters while the chunk stays under ``maximum`` units."""
    if last.block.kind == "heading":
        return group
    text = last.block.text
    size = sum((p.size for p in group), TextSize())
    lead = None
    for start in _trailing_sentence_starts(text, last.start, last.end, overlap):
        candidate = _Piece(last.block, start, last.end, measure(text, start, last.end))
        if (candidate.size + size).units > maximum:
            break
        lead = candidate
    return group if lead is None else [lead, *group]


def _trailing_sentence_starts(text: str, start: int, end: int, limit: int) -> Iterator[int]:
    """Starts of the last sentences of ``text[start:end]``, latest first, while the tail
    from there is at most ``limit`` characters. Only a window at the end is split:
    sentence ends are decided locally, but the window's first span is a true sentence
    start only when the window is the whole span."""
    window = max(start, end - limit - 1)
    spans = split_sentences(text[window:end])
    for s, _ in reversed(spans[1:] if window > start else spans):
        s = _trim(text, window + s, end)[0]
        if end - s > limit:
            return
        yield s


def _make_chunk(document_id: str, order: int, group: list[_Piece]) -> Chunk:
    runs = _merge_runs(group)
    ends = [p.block.page_at(at) for p in group for at in (p.start, max(p.start, p.end - 1))]
    pages = [page for page in ends if page is not None]
    return Chunk(
        id=f"{document_id}:c{order}",
        document_id=document_id,
        order=order,
        spans=tuple(BlockSpan(r.block.id, r.start, r.end) for r in runs),
        text=CHUNK_JOINER.join(r.block.text[r.start : r.end] for r in runs),
        section_path=group[-1].block.section_path,
        page_start=min(pages) if pages else None,
        page_end=max(pages) if pages else None,
    )


def _merge_runs(group: list[_Piece]) -> list[_Piece]:
    """One span per run of pieces from the same block: such pieces are contiguous but for
    whitespace, so one span keeps the block's own text between them (not the joiner)."""
    runs: list[_Piece] = []
    for piece in group:
        last = runs[-1] if runs else None
        if last is not None and last.block is piece.block and piece.start >= last.end:
            runs[-1] = _Piece(piece.block, last.start, piece.end, last.size + piece.size)
        else:
            runs.append(piece)
    return runs


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
