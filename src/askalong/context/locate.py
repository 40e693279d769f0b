"""Find selected text in a document's blocks: whitespace-, hyphenation- and width-insensitive.

Both the blocks and the selection are *folded* the same way, character by character:
NFKC (full-width punctuation and ligatures become their plain forms), case-folded, curly
quotes made straight, whitespace and soft hyphens dropped, and a hyphen that follows a
letter or digit dropped ("exam- ple", "exam-\\nple", "exam-ple" and "example" all fold
to "example"; whitespace goes first, so "en - dash" folds like "en-dash"). Folding is per
character, so each folded character knows the original offset it came from.

``SelectionIndex`` folds every block once (``str.translate`` with a memoising table, so
a 300-page document takes milliseconds) and keeps where each block starts in the folded
text; a selection is one ``str.find``. Only the blocks a match falls in are folded again
with a character-by-character map back to original offsets.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from askalong.errors import InputError
from askalong.types import FURNITURE_KINDS, Anchor, Block

_HYPHENS = "-\u2010"  # what NFKC leaves of the hyphens ("‑" and "－" fold to these)
# Applied after whitespace is gone: a hyphen right after a letter or digit may be a
# line-break hyphen ("exam- ple"), so it never counts.
_WORD_HYPHEN = re.compile(f"(?<=[^\\W_])[{_HYPHENS}]")
_QUOTES = {"‘": "'", "’": "'", "‚": "'", "‛": "'", "“": '"', "”": '"', "„": '"', "‟": '"'}
_DROPPED = frozenset("\u00ad\u200b\u200c\u200d\ufeff")


class _FoldTable(dict[int, str]):
    """``str.translate`` table computing each character's folded form on first use."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        if char in _DROPPED:
            folded = ""
        else:
            folded = unicodedata.normalize("NFKC", _QUOTES.get(char, char)).casefold()
            folded = "".join(c for c in folded if not c.isspace())
        self[code] = folded
        return folded


def fold(text: str, table: _FoldTable | None = None) -> str:
    """``text`` folded for matching (see the module docstring)."""
    folded = text.translate(table if table is not None else _FoldTable())
    return _WORD_HYPHEN.sub("", folded)


def fold_with_offsets(text: str, table: _FoldTable | None = None) -> tuple[str, list[int]]:
    """The folded text and, for each folded character, its offset in ``text``."""
    table = table if table is not None else _FoldTable()
    chars: list[str] = []
    offsets: list[int] = []
    for offset, char in enumerate(text):
        folded = table[ord(char)]
        chars.append(folded)
        offsets.extend([offset] * len(folded))
    joined = "".join(chars)
    dropped = {m.start() for m in _WORD_HYPHEN.finditer(joined)}
    if not dropped:
        return joined, offsets
    kept = [i for i in range(len(joined)) if i not in dropped]
    return "".join(joined[i] for i in kept), [offsets[i] for i in kept]


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
        self._table = _FoldTable()
        self._blocks = tuple(blocks)
        self._document_id = document_id
        body = [b for b in self._blocks if b.kind not in FURNITURE_KINDS]
        self._body = self._fold_blocks(body)
        self._all: _Folded | None = None

    def _fold_blocks(self, blocks: Sequence[Block]) -> _Folded:
        parts = [fold(block.text, self._table) for block in blocks]
        starts, position = [], 0
        for part in parts:
            starts.append(position)
            position += len(part)
        return _Folded(tuple(blocks), "".join(parts), tuple(starts))

    def locate(self, selected: str) -> Anchor | None:
        """The block and character span where ``selected`` starts, or None.

        A selection spanning consecutive blocks anchors at the first block, its span
        clipped to that block. The first occurrence in reading order wins.
        """
        # A hyphen opening the selection may be the second half of "NAACL-HLT", which
        # folds to "naaclhlt": it cannot be required.
        needle = fold(selected, self._table).lstrip(_HYPHENS)
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
        _, offsets = fold_with_offsets(block.text, self._table)
        first = at - folded.starts[index]
        last = min(first + len(needle), len(offsets)) - 1
        return Anchor(
            document_id=self._document_id,
            block_id=block.id,
            start=offsets[first],
            end=offsets[last] + 1,
            selected_text=selected,
        )


def locate_selection(
    blocks: Sequence[Block], selected: str, *, document_id: str = ""
) -> Anchor | None:
    """Where ``selected`` is in ``blocks``: an Anchor with the exact block id and character
    offsets in that block's text, or None when it is not there. Raises ``InputError`` for
    a selection with no text. Build a ``SelectionIndex`` to locate many selections."""
    return SelectionIndex(blocks, document_id=document_id).locate(selected)
