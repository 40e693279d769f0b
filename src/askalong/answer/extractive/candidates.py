"""The candidate sentences of the offline answerer (see ``extractive``): every sentence of
every context unit, with its exact place in its block, its block's kind and entry."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from askalong.answer.extractive.entries import opens_entry
from askalong.context.units import ContextUnit, Drift, Origin, Piece, trimmed
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
            path = place.section_path
            for i, (start, end) in enumerate(split_sentences(piece.text)):
                sentence = trimmed(piece, start, end)
                if sentence is None:
                    continue
                opens = place.kind != "heading" and opens_entry(
                    sentence.text, path[-1] if path else "", i, heading == path
                )
                out.append(_candidate(unit, (u, p, i), sentence, path, opens))
            heading = path if place.kind == "heading" else None
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
