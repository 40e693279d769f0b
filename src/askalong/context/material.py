"""The pieces of explaining material (pure): a passage to look through, a found piece of
material, the selection, a selection's key term, and a passage's sentences.

``context.explain`` finds the material, ``context.pointed`` the parts and works a
selection points at; both read passages as these values.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

from askalong.context.units import Piece, trimmed
from askalong.text.sentences import split_sentences
from askalong.types import BlockSpan

MaterialKind = Literal[
    "continuation", "setup", "definition", "reference", "citation", "example", "contrast", "related"
]

# "(Lipscomb, 2000).7 We construct": a footnote number after the full stop hides the end
_FOOTNOTED_END = re.compile(r"(?<=[.!?])[0-9⁰¹²³⁴⁵⁶⁷⁸⁹]{1,2}\s+(?=[A-Z])")
RARE = 3


@dataclass(frozen=True)
class Passage:
    """A block (or a unit's piece of one) to look through: its exact span and text, its
    section, its block's kind and position in reading order when known."""

    piece: Piece
    section_path: tuple[str, ...] = ()
    kind: str = ""
    order: int | None = None


@dataclass(frozen=True)
class Material:
    """One sentence (or bibliography line) of the document that helps explain the
    selection: what it is, what it is for (a term, "Table 2", "[12]"), how strongly."""

    kind: MaterialKind
    label: str
    piece: Piece
    strength: float = 1.0


@dataclass(frozen=True)
class Term:
    """A key term of the selection: its weight, and in how many passages it occurs."""

    weight: float
    df: int

    @property
    def rare(self) -> bool:
        """Few enough uses that a plain "X is a …" likely says what X is."""
        return self.df <= RARE


@dataclass(frozen=True)
class Selection:
    """The selected text and the block spans it covers."""

    text: str
    spans: tuple[BlockSpan, ...]

    def overlaps(self, span: BlockSpan) -> bool:
        return any(
            s.block_id == span.block_id and s.start < span.end and span.start < s.end
            for s in self.spans
        )


def sentences(passage: Passage) -> tuple[Piece, ...]:
    """The passage's sentences as pieces with exact block offsets (edges trimmed)."""
    return _sentences(passage.piece)


@functools.lru_cache(maxsize=4096)
def _sentences(piece: Piece) -> tuple[Piece, ...]:
    # cached: every term of a selection reads the same passages again
    out = []
    for start, end in split_sentences(piece.text):
        cuts = [m.end() for m in _FOOTNOTED_END.finditer(piece.text, start, end)]
        for lo, hi in zip([start, *cuts], [*cuts, end], strict=True):
            kept = trimmed(piece, lo, hi)
            if kept is not None:
                out.append(kept)
    return tuple(out)
