"""The contradiction scan: a document's chunks against every other document's, by vector
first, then by text.

For each chunk with a vector, its nearest chunks of other documents (``NEIGHBOURS`` at
most, cosine ≥ ``MIN_COSINE``) come from the route holding the vectors
(``index/neighbours``: a matrix product with the local vectors, a nearest-neighbour query
in PostgreSQL), never from all pairs of texts; each such neighbour whose characters are as
close (bigram Dice ≥ ``MIN_DICE``) and whose numbers, dates, versions, settings or negations
differ (``verify/contradictions``) is a pair. Only the document's own chunks are checked:
run after each document is embedded, every pair is found once, when its later side
arrives. Chunks with no vector yet are skipped and counted; the store keeps the document
marked for another scan (``askalong conflicts`` runs those first).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Protocol

from askalong.errors import NotFound
from askalong.index.neighbours import Neighbours
from askalong.store.base import DocumentStore
from askalong.store.conflicts import ConflictStore
from askalong.types import CHUNK_JOINER, BlockSpan, Chunk
from askalong.values.conflicts import ConflictPair, ConflictSide, ScanReport
from askalong.verify.contradictions import Difference, bigrams, dice, difference, tokenize

MIN_COSINE = 0.9
MIN_DICE = 0.8
NEIGHBOURS = 8
# A chunk shorter than this is a heading or a caption: "Table 5.2" against "Table 5.3"
# is a different table, not a contradiction.
MIN_CHARS = 40


class ScanStore(DocumentStore, ConflictStore, Protocol):
    """What the scan reads and writes."""


class ConflictScanner:
    """Scans documents of ``store`` against the vectors ``neighbours`` reads."""

    def __init__(self, store: ScanStore, neighbours: Neighbours) -> None:
        self.store = store
        self.neighbours = neighbours

    def scan(self, document_id: str) -> ScanReport:
        """Check the document's chunks against the other documents' vectors; the pairs
        found are stored."""
        started = time.perf_counter()
        try:
            chunks = {c.id: c for c in self.store.chunks(document_id)}
        except NotFound:  # removed meanwhile: nothing to scan
            return ScanReport()
        nearby = self.neighbours.near(
            document_id, list(chunks), min_cosine=MIN_COSINE, limit=NEIGHBOURS
        )
        neighbours = nearby.neighbours
        others = self.store.chunks_by_id(sorted({n.other for n in neighbours}))
        texts = _Bigrams()
        pairs = [
            pair
            for n in neighbours
            if n.other in others
            and (pair := conflict_pair(chunks[n.own], others[n.other], n.cosine, texts)) is not None
        ]
        skipped = len(chunks) - len(nearby.with_vectors)
        self.store.record_scan(
            document_id, pairs, chunks=len(chunks), skipped=skipped, scanned_at=_now()
        )
        seconds = time.perf_counter() - started
        return ScanReport(1, len(chunks), skipped, len(neighbours), len(pairs), seconds)

    def scan_pending(self) -> ScanReport:
        """Scan every document never scanned, changed since, or scanned with skips."""
        report = ScanReport()
        for document_id in self.store.unscanned_documents():
            report = report.plus(self.scan(document_id))
        return report


class _Bigrams(dict[str, Counter[str]]):
    """Each chunk's bigrams, counted once per scan (a chunk meets many neighbours)."""

    def of(self, chunk: Chunk) -> Counter[str]:
        if chunk.id not in self:
            self[chunk.id] = bigrams(chunk.text)
        return self[chunk.id]


def conflict_pair(
    a: Chunk, b: Chunk, cosine: float, texts: _Bigrams | None = None
) -> ConflictPair | None:
    """The pair ``a`` and ``b`` make if they conflict (their texts alone decide)."""
    shorter, longer = sorted((len(a.text), len(b.text)))
    if a.document_id == b.document_id or shorter < MIN_CHARS or a.text == b.text:
        return None
    if 2 * shorter / (shorter + longer) < MIN_DICE:  # Dice's bound from the lengths alone
        return None
    texts = _Bigrams() if texts is None else texts
    similar = dice(texts.of(a), texts.of(b))
    if similar < MIN_DICE:
        return None
    found = difference(a.text, b.text, _heading_numbers(a, b))
    if found is None:
        return None
    first, second = _side(a, found, 0), _side(b, found, 1)
    if first.chunk_id > second.chunk_id:
        first, second = second, first
    return ConflictPair(first, second, found.kind, round(cosine, 4), round(similar, 4), _now())


def _heading_numbers(a: Chunk, b: Chunk) -> frozenset[str]:
    """The numbers of the chunks' section headings ("37.14", "F.5.2"): names, not values."""
    return frozenset(
        t.norm
        for part in (*a.section_path, *b.section_path)
        for t in tokenize(part)
        if t.kind in ("number", "version")
    )


def _side(chunk: Chunk, found: Difference, which: int) -> ConflictSide:
    start, end = found.span_a if which == 0 else found.span_b
    return ConflictSide(
        chunk_id=chunk.id,
        document_id=chunk.document_id,
        page=chunk.page_start,
        start=start,
        end=end,
        block_span=block_span(chunk.spans, start, end),
        tokens=found.tokens_a if which == 0 else found.tokens_b,
        spans=chunk.spans,
    )


def block_span(spans: Sequence[BlockSpan], start: int, end: int) -> BlockSpan | None:
    """``chunk.text[start:end]`` as a span of the block it begins in (clipped to it): the
    chunk's text is its block spans joined by ``CHUNK_JOINER``."""
    at = 0
    for span in spans:
        length = span.end - span.start
        if at <= start <= at + length:
            clipped = min(end - at, length)
            return BlockSpan(span.block_id, span.start + start - at, span.start + clipped)
        at += length + len(CHUNK_JOINER)
    return None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
