"""The paragraph a direct answer sits in, with the answer marked in it (pure).

The passage is read from the context unit that holds the answer's first cited quote: the
blocks (their spans in the unit) from the first to the last holding one of the answer's
quotes, so two sentences of one paragraph, or of two paragraphs in a row, are shown together.
A passage longer than ``PASSAGE_CHARS`` keeps the sentences around its marks (the first
quote's alone when the marks lie further apart). A quote no unit holds (an answer written
from elsewhere) gives no passage; nor does an answer citing nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from askalong.context.units import ContextUnit
from askalong.text.sentences import split_sentences
from askalong.types import CHUNK_JOINER, AnswerPassage, AnswerSpan, Quote

PASSAGE_CHARS = 1200


def answer_passage(
    cited: Iterable[int], quotes: Sequence[Quote], units: Sequence[ContextUnit]
) -> AnswerPassage | None:
    """The passage of the answer citing quote numbers ``cited`` (in the answer's order)."""
    by_number = {q.number: q for q in quotes}
    answer_quotes = [by_number[n] for n in dict.fromkeys(cited) if n in by_number]
    for first in answer_quotes:
        for unit in units:
            if quote_offset(unit, first) is not None:
                return _passage(unit, first, answer_quotes)
    return None


def quote_offset(unit: ContextUnit, quote: Quote) -> int | None:
    """Where ``quote`` starts in ``unit.text``, when one of its pieces holds it whole."""
    if unit.document_id != quote.document_id:
        return None
    offset = 0
    for piece in unit.pieces:
        span = piece.span
        if span.block_id == quote.block_id and span.start <= quote.start <= quote.end <= span.end:
            return offset + quote.start - span.start
        offset += len(piece.text) + len(CHUNK_JOINER)
    return None


def _passage(unit: ContextUnit, first: Quote, quotes: Sequence[Quote]) -> AnswerPassage:
    marks = [
        AnswerSpan(at, at + q.end - q.start, q.number)
        for q in quotes
        if (at := quote_offset(unit, q)) is not None
    ]
    start, end = _blocks_around(unit, marks)
    if end - start > PASSAGE_CHARS:
        lead = next(m for m in marks if m.quote == first.number)
        if max(m.end for m in marks) - min(m.start for m in marks) > PASSAGE_CHARS:
            marks = [lead]
        start, end = _sentences_around(unit.text, start, end, marks)
    return AnswerPassage(
        document_id=unit.document_id,
        text=unit.text[start:end],
        spans=unit.block_spans(start, end),
        answer_spans=tuple(
            AnswerSpan(m.start - start, m.end - start, m.quote)
            for m in marks
            if start <= m.start and m.end <= end
        ),
        page=first.page,
        section_path=first.section_path,
    )


def _blocks_around(unit: ContextUnit, marks: Sequence[AnswerSpan]) -> tuple[int, int]:
    """From the start of the first piece holding a mark to the end of the last."""
    holding = []
    offset = 0
    for piece in unit.pieces:
        stop = offset + len(piece.text)
        if any(offset <= m.start < stop for m in marks):
            holding.append((offset, stop))
        offset = stop + len(CHUNK_JOINER)
    return holding[0][0], holding[-1][1]


def _sentences_around(
    text: str, start: int, end: int, marks: Sequence[AnswerSpan]
) -> tuple[int, int]:
    """The sentences of ``text[start:end]`` holding the marks, grown by one sentence before,
    then one after, and so on, while the whole stays within ``PASSAGE_CHARS``."""
    low, high = min(m.start for m in marks), max(m.end for m in marks)
    bounds = [(start + s, start + e) for s, e in split_sentences(text[start:end])]
    first = max((s for s, _ in bounds if s <= low), default=low)
    last = min((e for _, e in bounds if e >= high), default=high)
    before = sorted((s for s, _ in bounds if s < first), reverse=True)
    after = sorted(e for _, e in bounds if e > last)
    for wider in _alternating(before, after):
        lo, hi = (wider, last) if wider < first else (first, wider)
        if hi - lo > PASSAGE_CHARS:
            break
        first, last = lo, hi
    return first, last


def _alternating(before: Sequence[int], after: Sequence[int]) -> Iterable[int]:
    """One from ``before``, one from ``after``, in turn, until both run out."""
    for index in range(max(len(before), len(after))):
        yield from before[index : index + 1]
        yield from after[index : index + 1]
