"""The contradiction scan: a document's chunks against every other document's, by vector
first, then by text.

For each chunk with a vector, its nearest chunks of other documents (``NEIGHBOURS`` at
most, cosine ≥ ``MIN_COSINE``) come from one matrix product with the stored vectors,
never from all pairs of texts; each such neighbour whose characters are as close
(bigram Dice ≥ ``MIN_DICE``) and whose numbers, dates, versions, settings or negations
differ (``verify/contradictions``) is a pair. Only the document's own chunks are checked:
run after each document is embedded, every pair is found once, when its later side
arrives. Chunks with no vector yet are skipped and counted; the store keeps the document
marked for another scan (``askalong conflicts`` runs those first).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

import numpy as np
import numpy.typing as npt

from askalong.errors import NotFound
from askalong.index.vector_rows import VectorRows
from askalong.index.vectors import VectorIndex
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
_BLOCK_ROWS = 256  # query rows per matrix product: bounds the score matrix's memory


class ScanStore(DocumentStore, ConflictStore, Protocol):
    """What the scan reads and writes."""


@dataclass(frozen=True)
class _Neighbour:
    own: str  # chunk id of the scanned document
    other: str
    cosine: float


class ConflictScanner:
    """Scans documents of ``store`` against the vectors of ``index``."""

    def __init__(self, store: ScanStore, index: VectorIndex) -> None:
        self.store = store
        self.index = index

    def scan(self, document_id: str) -> ScanReport:
        """Check the document's chunks against the index; the pairs found are stored."""
        started = time.perf_counter()
        try:
            chunks = {c.id: c for c in self.store.chunks(document_id)}
        except NotFound:  # removed meanwhile: nothing to scan
            return ScanReport()
        rows = self.index.snapshot()
        own = _own_rows(rows, document_id, chunks)
        neighbours = list(_neighbours(rows, document_id, own))
        others = self.store.chunks_by_id(sorted({n.other for n in neighbours}))
        texts = _Bigrams()
        pairs = [
            pair
            for n in neighbours
            if n.other in others
            and (pair := conflict_pair(chunks[n.own], others[n.other], n.cosine, texts)) is not None
        ]
        skipped = len(chunks) - len(own)
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


def _own_rows(rows: VectorRows, document_id: str, chunks: dict[str, Chunk]) -> dict[str, int]:
    """The live row of each of the document's current chunks that has one."""
    mine = np.flatnonzero(rows.rows_of(document_id) & rows.alive)
    return {rows.chunk_ids[r]: int(r) for r in mine if rows.chunk_ids[r] in chunks}


def _neighbours(rows: VectorRows, document_id: str, own: dict[str, int]) -> Iterator[_Neighbour]:
    """Each own chunk's nearest live chunks of other documents at ``MIN_COSINE`` or more."""
    if not own or rows.count == 0:
        return
    allowed = rows.alive & ~rows.rows_of(document_id)
    if not allowed.any():
        return
    items = list(own.items())
    for at in range(0, len(items), _BLOCK_ROWS):
        block = items[at : at + _BLOCK_ROWS]
        query = np.asarray(rows.matrix[[row for _, row in block]])
        scores = query @ np.asarray(rows.matrix).T
        scores[:, ~allowed] = -1.0
        for (chunk_id, _), line in zip(block, scores, strict=True):
            yield from _nearest(rows, chunk_id, line)


def _nearest(
    rows: VectorRows, chunk_id: str, scores: npt.NDArray[np.float32]
) -> Iterator[_Neighbour]:
    close = np.flatnonzero(scores >= MIN_COSINE)
    if close.size > NEIGHBOURS:
        close = close[np.argsort(-scores[close], kind="stable")[:NEIGHBOURS]]
    for row in close:
        yield _Neighbour(chunk_id, rows.chunk_ids[row], float(scores[row]))


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
