"""The candidate sentences of the offline answerer (see ``extractive``): every sentence of
every context unit, with its exact place in its block, its block's kind and entry."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from askalong.answer.extractive.entries import block_head, opens_entry
from askalong.context.units import ContextUnit, Drift, Origin, Piece, trimmed
from askalong.text.scripts import cjk_share
from askalong.text.sentences import split_sentences
from askalong.types import BlockKind


@dataclass(frozen=True)
class Candidate:
    """One sentence of one context unit, with its exact place in its block."""

    unit: int  # index in the units given
    piece: int  # index of the unit's piece (block span)
    index: int  # sentence number within the piece
    block_id: str
    start: int
    end: int
    text: str
    origin: Origin
    drift: Drift | None
    cited: bool  # inside the unit's cited spans (the hit, the selection)
    kind: BlockKind = "paragraph"  # its block's
    entry: tuple[str, ...] = ()  # its block's section path (the last: its entry's title)
    opens: bool = False  # it opens that entry (``entries.opens_entry``)


def candidates(units: Sequence[ContextUnit]) -> list[Candidate]:
    """Every sentence of every unit (trimmed, never across blocks)."""
    out = []
    for u, unit in enumerate(units):
        heading: tuple[str, ...] | None = None  # the section path of the heading just read
        for p, piece in enumerate(unit.pieces):
            place = unit.place(piece.span.block_id)
            prose = place.kind in ("paragraph", "list_item") and piece.span.start == 0
            head = block_head(piece.text) if prose else None
            # an entry written as "term" on its own line: its sentences are the term's
            path = (*place.section_path, head) if head else place.section_path
            for i, (start, end) in enumerate(_within_brackets(piece.text)):
                sentence = trimmed(piece, start, end)
                if sentence is None:
                    continue
                opens = place.kind != "heading" and opens_entry(
                    sentence.text, path[-1] if path else "", i, heading == path or bool(head)
                )
                out.append(_candidate(unit, (u, p, i), sentence, path, opens))
            heading = path if place.kind == "heading" else None
    return out


_LONGEST = 600  # a bracket left open by mistake joins no more than this many characters


def _within_brackets(text: str) -> list[tuple[int, int]]:
    """``split_sentences``, a sentence never ending inside brackets: "(with ALTER TABLE
    ... ENABLE ROW LEVEL SECURITY)" is one aside of one sentence, not two sentences."""
    out: list[tuple[int, int]] = []
    open_before = False
    for start, end in split_sentences(text):
        if open_before and out and end - out[-1][0] <= _LONGEST:
            start = out.pop()[0]
        out.append((start, end))
        part = text[start:end]
        open_before = part.count("(") > part.count(")")
    return out


def _candidate(
    unit: ContextUnit,
    place: tuple[int, int, int],
    sentence: Piece,
    entry: tuple[str, ...],
    opens: bool,
) -> Candidate:
    span = sentence.span
    cited = any(
        c.block_id == span.block_id and c.start < span.end and span.start < c.end
        for c in unit.cited_spans
    )
    u, p, i = place
    kind = unit.place(span.block_id).kind
    return Candidate(
        u,
        p,
        i,
        span.block_id,
        span.start,
        span.end,
        sentence.text,
        unit.origin,
        unit.drift,
        cited,
        kind,
        entry,
        opens,
    )


def cross_lingual(language: str, found: Sequence[Candidate]) -> bool:
    """Whether the evidence is in another language than the question (then they share
    next to no words, and the multilingual embedder is what relates them). Evidence
    mixing the two scripts (an English README quoting Chinese names, a Chinese guide
    full of code) goes by the larger: read as the question's own language, a Chinese
    question over such an English page was refused for the Chinese words it lacks. On
    the ten never-seen DEV sets' 148 questions over mixed evidence: 68 -> 75 answered,
    covered refused 17 -> 5, uncovered refused 7 -> 3 of 17."""
    share = cjk_share(" ".join(c.text for c in found[:40]))
    if share is None:  # no text, or another script
        return False
    return ("zh" if share >= 0.5 else "en") != language
