"""``FILE:LINE[-LINE]``: an anchor on lines of a source file (pure).

The lines' block is the one whose line range holds the first line (a source file's
blocks do not overlap); the anchor's span runs from the first line's start to the last
line's end, kept within that block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from askalong.errors import InputError, NotFound
from askalong.text.patterns import lazy
from askalong.types import Anchor, Block

_AT_LINES = lazy(r"^(?P<file>.+):(?P<first>\d+)(?:-(?P<last>\d+))?$")
_BLOCK_ID = lazy(r"^b\d+$")


@dataclass(frozen=True)
class LineRef:
    """A file (as given: a path or its last parts) and 1-based inclusive lines."""

    file: str
    first: int
    last: int


def line_ref(text: str) -> LineRef | None:
    """``FILE:LINE[-LINE]`` read, or None when ``text`` is a block anchor (``b12:0-40``)."""
    found = _AT_LINES.match(text)
    if found is None or _BLOCK_ID.match(found["file"]):
        return None
    first = int(found["first"])
    last = int(found["last"] or first)
    if first < 1 or last < first:
        raise InputError(
            f"{text!r}: lines run from 1, the last not before the first", source="--at"
        )
    return LineRef(found["file"], first, last)


def names_file(source: str, file: str) -> bool:
    """Whether a document's ``source`` is the file given (the same path, or ends with it
    after a ``/``)."""
    source, file = source.replace("\\", "/"), file.replace("\\", "/").lstrip("./")
    return source == file or source.endswith("/" + file)


def line_anchor(document_id: str, blocks: Sequence[Block], ref: LineRef) -> Anchor:
    """The anchor on ``ref``'s lines of the document whose ``blocks`` are given."""
    for block in blocks:
        if block.lines is not None and block.lines[0] <= ref.first <= block.lines[1]:
            start = _offset(block, ref.first)
            end = _line_end(block, min(ref.last, block.lines[1]))
            return Anchor(document_id, block.id, start, end)
    raise NotFound(f"no code on line {ref.first}", source=ref.file)


def _offset(block: Block, line: int) -> int:
    assert block.lines is not None
    rows = block.text.split("\n")
    return sum(len(r) + 1 for r in rows[: line - block.lines[0]])


def _line_end(block: Block, line: int) -> int:
    assert block.lines is not None
    rows = block.text.split("\n")
    index = line - block.lines[0]
    return _offset(block, line) + len(rows[index])
