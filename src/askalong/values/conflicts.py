"""The contradiction scan's values (pure): a pair of chunks in different documents that
say nearly the same thing with a changed number, date, version, setting or negation, each
side with where its change is; and what one document's scan did."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from askalong.types import BlockSpan

# What changed between the two sides (``verify/contradictions`` tells it from the texts).
DifferenceKind = Literal["number", "date", "version", "setting", "negation"]


@dataclass(frozen=True)
class ConflictSide:
    """One chunk of a pair: ``start:end`` of its text holds the changed ``tokens``, which
    is ``block_span`` of its document (on ``page``); ``spans`` are the chunk's own block
    spans, what a citation of the chunk overlaps."""

    chunk_id: str
    document_id: str
    page: int | None
    start: int
    end: int
    block_span: BlockSpan | None
    tokens: tuple[str, ...]
    spans: tuple[BlockSpan, ...]

    def cited_by(self, document_id: str, block_id: str, start: int, end: int) -> bool:
        """Whether a citation of ``block_id[start:end]`` of ``document_id`` quotes this chunk."""
        return document_id == self.document_id and any(
            s.block_id == block_id and start < s.end and s.start < end for s in self.spans
        )


@dataclass(frozen=True)
class ConflictPair:
    """Two chunks of different documents (``first.chunk_id < second.chunk_id``) close by
    vector (``cosine``) and by characters (``dice``) that differ in a ``kind`` of value."""

    first: ConflictSide
    second: ConflictSide
    kind: DifferenceKind
    cosine: float
    dice: float
    found_at: str


@dataclass(frozen=True)
class ScanReport:
    """One scan: the chunks checked, those skipped for want of a vector, the neighbour
    pairs compared by text, the conflicting pairs found, the time it took."""

    documents: int = 0
    chunks: int = 0
    skipped: int = 0
    compared: int = 0
    found: int = 0
    seconds: float = 0.0

    def plus(self, other: ScanReport) -> ScanReport:
        return ScanReport(
            self.documents + other.documents,
            self.chunks + other.chunks,
            self.skipped + other.skipped,
            self.compared + other.compared,
            self.found + other.found,
            self.seconds + other.seconds,
        )
