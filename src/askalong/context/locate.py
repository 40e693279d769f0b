"""Find selected text in a document's blocks: whitespace-, hyphenation-, case- and
width-insensitive.

The blocks and the selection are folded by ``askalong.text.fold``, as quotes are when
they are checked: NFKC, straight quotes, no case, no whitespace, no word hyphens (its
module docstring has the rules). ``SelectionIndex`` folds every block once and keeps
where each block starts in the folded text; a selection is one ``str.find``. Only the
block a match starts in is folded again, with a map back to original offsets.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from askalong.errors import InputError
from askalong.text.fold import fold, fold_excerpt, fold_with_offsets
from askalong.types import FURNITURE_KINDS, Anchor, Block, BlockSpan


@dataclass(frozen=True)
class _Folded:
    blocks: tuple[Block, ...]
    text: str
    starts: tuple[int, ...]  # where each block starts in ``text``


class SelectionIndex:
    """The folded text of one document, built once and searched per selection.

    Body blocks are searched first; page headers and footers only when the selection is
    not found without them (a selection across a page break usually skips them).
    """

    def __init__(self, blocks: Sequence[Block], *, document_id: str = "") -> None:
        self._blocks = tuple(blocks)
        self._document_id = document_id
        body = [b for b in self._blocks if b.kind not in FURNITURE_KINDS]
        self._body = self._fold_blocks(body)
        self._all: _Folded | None = None

    def _fold_blocks(self, blocks: Sequence[Block]) -> _Folded:
        parts = [fold(block.text) for block in blocks]
        starts, position = [], 0
        for part in parts:
            starts.append(position)
            position += len(part)
        return _Folded(tuple(blocks), "".join(parts), tuple(starts))

    def locate(self, selected: str) -> Anchor | None:
        """The block and character span where ``selected`` starts, or None.

        A selection spanning consecutive blocks anchors at the first block, its span
        clipped to that block, and gives every block's span in ``spans`` (a PDF line
        broken into two blocks: what the reader selected is all of it, so nothing of it
        is taken for the text around it). The first occurrence in reading order wins.
        """
        needle = fold_excerpt(selected)
        if not needle:
            raise InputError("the selection has no text", source=self._document_id or None)
        found = self._find(self._body, needle, selected)
        if found is None:
            if self._all is None:
                self._all = self._fold_blocks(self._blocks)
            found = self._find(self._all, needle, selected)
        return found

    def _find(self, folded: _Folded, needle: str, selected: str) -> Anchor | None:
        at = folded.text.find(needle)
        if at < 0:
            return None
        index = bisect.bisect_right(folded.starts, at) - 1
        # Skip blocks that fold to nothing: they start where the match starts too.
        while index + 1 < len(folded.starts) and folded.starts[index + 1] == at:
            index += 1
        block = folded.blocks[index]
        _, offsets = fold_with_offsets(block.text)
        first = at - folded.starts[index]
        last = min(first + len(needle), len(offsets)) - 1
        span = BlockSpan(block.id, offsets[first], offsets[last] + 1)
        more = _further_spans(folded, index, at + len(needle))
        return Anchor(
            document_id=self._document_id,
            block_id=block.id,
            start=span.start,
            end=span.end,
            selected_text=selected,
            spans=(span, *more) if more else (),
        )


def _further_spans(folded: _Folded, index: int, stop: int) -> list[BlockSpan]:
    """The spans of the blocks after ``index`` that a match ending at ``stop`` (in the
    folded text) runs into: whole blocks, then the last one's start up to ``stop``."""
    spans = []
    for k in range(index + 1, len(folded.blocks)):
        begins = folded.starts[k]
        if begins >= stop:
            break
        block = folded.blocks[k]
        _, offsets = fold_with_offsets(block.text)
        if not offsets:
            continue  # a block that folds to nothing holds none of the selection
        last = min(stop - begins, len(offsets)) - 1
        spans.append(BlockSpan(block.id, 0, offsets[last] + 1))
    return spans


def locate_selection(
    blocks: Sequence[Block], selected: str, *, document_id: str = ""
) -> Anchor | None:
    """Where ``selected`` is in ``blocks``: an Anchor with the exact block id and character
    offsets in that block's text, or None when it is not there. Raises ``InputError`` for
    a selection with no text. Build a ``SelectionIndex`` to locate many selections."""
    return SelectionIndex(blocks, document_id=document_id).locate(selected)
