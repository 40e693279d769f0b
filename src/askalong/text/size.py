"""The chunk-size measure: one unit per CJK character and 1.7 per other word, so 512 units
is about 512 Chinese characters or 300 English words (pure)."""

from __future__ import annotations

from dataclasses import dataclass

from askalong.text.patterns import lazy
from askalong.text.scripts import CJK, CJK_RE, WORD_RE, WORD_UNITS_X10

# Atoms are the places where an over-long sentence may be cut: a CJK character or a word.
ATOM_RE = lazy(f"[{CJK}]|[^\\W_{CJK}]+")
# ASCII text has no CJK and its words are runs of letters and digits: with every other
# byte made a space, ``bytes.split`` counts them six times faster than ``WORD_RE``.
_ASCII_WORDS = bytes(c if chr(c).isalnum() and c < 128 else 32 for c in range(256))


@dataclass(frozen=True)
class TextSize:
    """CJK characters and other words in a text; ``units`` is the chunk-size measure.

    Sizes add up exactly when texts are joined at whitespace or punctuation (a word
    is never glued to another), which lets the chunker budget without re-measuring.
    """

    cjk: int = 0
    words: int = 0

    @property
    def units(self) -> int:
        return self.cjk + (self.words * WORD_UNITS_X10 + 9) // 10

    def __add__(self, other: TextSize) -> TextSize:
        return TextSize(self.cjk + other.cjk, self.words + other.words)


def measure(text: str, start: int = 0, end: int | None = None) -> TextSize:
    """The size of ``text[start:end]`` (CJK punctuation and other symbols count zero)."""
    stop = len(text) if end is None else end
    part = text[start:stop]
    if part.isascii():
        return TextSize(0, len(part.encode("ascii").translate(_ASCII_WORDS).split()))
    return TextSize(len(CJK_RE.findall(part)), len(WORD_RE.findall(part)))


def size_units(text: str) -> int:
    """1 per CJK character plus ceil(1.7 per other word)."""
    return measure(text).units
