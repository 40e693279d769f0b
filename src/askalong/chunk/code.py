"""Code blocks -> chunks (pure): one chunk per block, cut only when it is over the maximum.

A block is a function, a class header, a struct or a run of top-level statements
(``parse/code/parser.py``), and its section path is its qualified name. A block within
``maximum`` size units is one chunk, so a function is never cut in the middle; a longer
one is cut at statement boundaries (lines indented no deeper than its body's first
statement), packed up to ``target``; a single statement over ``maximum`` is cut between
lines, and a line over it between words.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterator, Sequence

from askalong.text.size import ATOM_RE, size_units
from askalong.types import Block, BlockSpan, Chunk


def chunk_code(
    document_id: str, blocks: Sequence[Block], *, target: int = 512, maximum: int = 768
) -> tuple[Chunk, ...]:
    """A source file's blocks (in reading order) as retrieval chunks."""
    chunks: list[Chunk] = []
    for block in blocks:
        for start, end in _cuts(block.text, target, maximum):
            chunks.append(_chunk(document_id, len(chunks), block, start, end))
    return tuple(chunks)


def _chunk(document_id: str, order: int, block: Block, start: int, end: int) -> Chunk:
    return Chunk(
        id=f"{document_id}:c{order}",
        document_id=document_id,
        order=order,
        spans=(BlockSpan(block.id, start, end),),
        text=block.text[start:end],
        section_path=block.section_path,
    )


def fits(text: str, maximum: int) -> bool:
    """``size_units(text) <= maximum``, without measuring a text shorter than ``maximum``
    characters: two characters (a one-letter word and a space) are at most 1.7 units."""
    return len(text) < maximum or size_units(text) <= maximum


def _cuts(text: str, target: int, maximum: int) -> Iterator[tuple[int, int]]:
    if fits(text, maximum):
        yield 0, len(text)
        return
    group_start = group_end = 0
    group_size = 0
    for start, end in _statements(text, maximum):
        size = size_units(text[start:end])  # sizes add up across statements (whitespace between)
        if group_end > group_start and group_size + size > target:
            yield group_start, group_end
            group_start, group_size = start, 0
        group_end = end
        group_size += size
    if group_end > group_start:
        yield group_start, group_end


def _statements(text: str, maximum: int) -> Iterator[tuple[int, int]]:
    """Character ranges of the block's statements at its body's depth, each within
    ``maximum`` (a longer one cut between lines, a longer line between words)."""
    lines = _line_ranges(text)
    indents = [_indent(text[lo:hi]) for lo, hi in lines]  # None: a blank line
    depth = _body_depth(indents)
    start = 0
    for (lo, _), indent in zip(lines[1:], indents[1:], strict=True):
        if indent is not None and indent <= depth and lo > start:
            yield from _within(text, lines, start, lo - 1, maximum)
            start = lo
    yield from _within(text, lines, start, len(text), maximum)


def _within(
    text: str, lines: list[tuple[int, int]], start: int, end: int, maximum: int
) -> Iterator[tuple[int, int]]:
    end = start + len(text[start:end].rstrip()) if end > start else end
    if end <= start:
        return
    if fits(text[start:end], maximum):
        yield start, end
        return
    first = bisect.bisect_left(lines, (start,))
    inner = list(itertools.takewhile(lambda line: line[1] <= end, lines[first:]))
    if len(inner) > 1:
        for lo, hi in inner:
            yield from _within(text, lines, lo, hi, maximum)
        return
    yield from _words(text, start, end, maximum)


def _words(text: str, start: int, end: int, maximum: int) -> Iterator[tuple[int, int]]:
    piece = start
    count = 0
    for match in ATOM_RE.finditer(text, start, end):
        count += 1
        if count > maximum // 2:  # words count 1.7 units: half the maximum stays within it
            yield piece, match.start()
            piece, count = match.start(), 1
    yield piece, end


def _line_ranges(text: str) -> list[tuple[int, int]]:
    """Each line's (start, end) in ``text``, computed once per block cut."""
    ranges = []
    lo = 0
    for line in text.split("\n"):
        ranges.append((lo, lo + len(line)))
        lo += len(line) + 1
    return ranges


def _body_depth(indents: list[int | None]) -> int:
    """The indentation of the body's statements: the least one deeper than the first
    line's (a closing brace or a doc comment sits at the first line's own)."""
    base = indents[0] or 0
    return min((d for d in indents[1:] if d is not None and d > base), default=base)


def _indent(line: str) -> int | None:
    """The width of a line's indentation (a tab to the next multiple of 4), None if blank."""
    body = line.lstrip()
    if not body:
        return None
    lead = line[: len(line) - len(body)]
    return len(lead.expandtabs(4)) if "\t" in lead else len(lead)
