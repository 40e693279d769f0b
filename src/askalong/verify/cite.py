"""Sources and quotes: an answer may only show text that is, verbatim, in a source.

A ``Source`` is one numbered context unit, kept as its parts (block spans with their
text, page and section), so any offset in it maps back to a block. ``locate_quote``
finds what an answerer quoted in a source after folding both with ``askalong.text.fold``,
as the reader's selections are: NFKC (full-width forms, ligatures), straight quotes
(「」 too), no whitespace, no word hyphens (so "exam- ple", "exam-\\nple" and "example"
match). Each folded character keeps the offset it came from, so a match maps back to
exact block offsets: the quote shown is always ``block.text[start:end]``, never what the
answerer wrote.

Matching tries the case as written first, then ignores case. A quote that runs over two
blocks is clipped to the block holding most of it: a quote is one highlight in one block,
and the reader scrolls to one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from askalong.context.units import ContextUnit, Drift, Origin
from askalong.text.fold import fold_excerpt, fold_with_offsets
from askalong.text.scripts import is_cjk
from askalong.types import CHUNK_JOINER, Quote

MIN_QUOTE_CHARS = 8  # folded characters: shorter quotes match too easily to prove anything
MIN_QUOTE_CJK = 4


@dataclass(frozen=True)
class SourcePart:
    """One block span of a source: ``text`` is ``block.text[start:end]``."""

    block_id: str
    start: int
    end: int
    text: str
    page: int | None = None
    section_path: tuple[str, ...] = ()


@dataclass(frozen=True)
class Source:
    """A numbered piece of evidence (1-based), as the answerer was shown it."""

    number: int
    document_id: str
    parts: tuple[SourcePart, ...]
    origin: Origin = "retrieved"
    drift: Drift | None = None

    @property
    def text(self) -> str:
        return CHUNK_JOINER.join(part.text for part in self.parts)


def source_from_unit(number: int, unit: ContextUnit) -> Source:
    """``unit`` as source ``number``; each part has its block's page and section
    (``ContextUnit.place``)."""
    parts = []
    for piece in unit.pieces:
        span = piece.span
        place = unit.place(span.block_id)
        parts.append(
            SourcePart(
                span.block_id, span.start, span.end, piece.text, place.page, place.section_path
            )
        )
    return Source(number, unit.document_id, tuple(parts), unit.origin, unit.drift)


def sources_from_units(units: Sequence[ContextUnit]) -> tuple[Source, ...]:
    """The units numbered 1, 2, ... in context order."""
    return tuple(source_from_unit(i, unit) for i, unit in enumerate(units, start=1))


# ------------------------------------------------------------------------------ folding


def _fold_parts(parts: Sequence[SourcePart], casefold: bool) -> tuple[str, list[tuple[int, int]]]:
    """The parts folded into one string and, per folded character, (part index, offset)."""
    chars: list[str] = []
    origin: list[tuple[int, int]] = []
    for index, part in enumerate(parts):
        folded, offsets = fold_with_offsets(part.text, casefold=casefold)
        chars.append(folded)
        origin.extend((index, offset) for offset in offsets)
    return "".join(chars), origin


def too_weak(quote_text: str) -> bool:
    """Whether a quote is too short to prove anything by being found."""
    folded = fold_excerpt(quote_text, casefold=False)
    cjk = sum(1 for char in folded if is_cjk(char))
    return len(folded) < MIN_QUOTE_CHARS and cjk < MIN_QUOTE_CJK


def locate_quote(quote_text: str, source: Source, *, number: int | None = None) -> Quote | None:
    """The exact text in ``source`` that ``quote_text`` quotes, as a ``Quote`` numbered
    ``number`` (default: the source's number), or None when it is not there or too short."""
    if too_weak(quote_text):
        return None
    for casefold in (False, True):
        needle = fold_excerpt(quote_text, casefold=casefold)
        haystack, origin = _fold_parts(source.parts, casefold)
        at = haystack.find(needle)
        if at >= 0:
            found = origin[at : at + len(needle)]
            return _quote(source, found, source.number if number is None else number)
    return None


def _quote(source: Source, found: list[tuple[int, int]], number: int) -> Quote:
    """The quote on the part holding most of the matched characters, clipped to it."""
    counts: dict[int, int] = {}
    for index, _ in found:
        counts[index] = counts.get(index, 0) + 1
    best = max(counts, key=lambda index: (counts[index], -index))
    offsets = [offset for index, offset in found if index == best]
    part = source.parts[best]
    lo, hi = offsets[0], offsets[-1] + 1
    return Quote(
        number=number,
        document_id=source.document_id,
        block_id=part.block_id,
        start=part.start + lo,
        end=part.start + hi,
        text=part.text[lo:hi],
        page=part.page,
        section_path=part.section_path,
    )


# -------------------------------------------------------------------------- quote check


@dataclass(frozen=True)
class InvalidQuote:
    """A quote an answerer wrote that is not in the source it cites, and why."""

    number: int
    text: str
    reason: str


@dataclass(frozen=True)
class QuoteCheck:
    """Quotes found in their sources (exact source text) and the ones that were not."""

    valid: tuple[Quote, ...]
    invalid: tuple[InvalidQuote, ...]

    @property
    def ok(self) -> bool:
        return not self.invalid


def check_quotes(claimed: Sequence[tuple[int, str]], sources: Sequence[Source]) -> QuoteCheck:
    """Check ``(source number, quoted text)`` pairs against ``sources``; each valid quote
    is numbered by the source it was found in."""
    by_number = {source.number: source for source in sources}
    valid: list[Quote] = []
    invalid: list[InvalidQuote] = []
    for number, text in claimed:
        source = by_number.get(number)
        if source is None:
            invalid.append(InvalidQuote(number, text, f"source {number} does not exist"))
        elif not text.strip():
            invalid.append(InvalidQuote(number, text, "the quote is empty"))
        elif too_weak(text):
            invalid.append(InvalidQuote(number, text, "too short to locate"))
        elif (quote := locate_quote(text, source)) is None:
            invalid.append(InvalidQuote(number, text, f"not found in source {number}"))
        else:
            valid.append(quote)
    return QuoteCheck(tuple(valid), tuple(invalid))


def retry_message(check: QuoteCheck) -> str:
    """What the answerer is told on its one retry: which quotes were not in the sources."""
    lines = [
        "Some quotes are not verbatim in the sources. Quote only exact text from the "
        "numbered sources, or leave the quote out. Invalid quotes:"
    ]
    for bad in check.invalid:
        lines.append(f'- (source#{bad.number}) "{_clip(bad.text)}": {bad.reason}')
    return "\n".join(lines)


def _clip(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
