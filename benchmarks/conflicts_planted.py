"""Planted contradictions for ``conflicts.py``: a manual page stored again as another
document with one digit of one stated value changed (its block and every chunk over it
changed alike), given its original's vectors, and scanned: is the changed pair found, and
what else does the copy pair with?"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, replace

import numpy as np

from askalong.index.neighbours import IndexNeighbours
from askalong.index.vectors import VectorIndex
from askalong.maintain.conflict_scan import MIN_CHARS, ConflictScanner, block_span
from askalong.store.base import Store
from askalong.types import CHUNK_JOINER, Access, Block, Chunk, Document, StoredDocument
from askalong.verify.contradictions import tokenize


@dataclass(frozen=True)
class Planted:
    document_id: str  # the copy's
    title: str
    old: str
    new: str
    found: bool  # the changed chunk paired with its original
    others: int  # other pairs the copy made


@dataclass(frozen=True)
class _Change:
    chunk: Chunk
    block_id: str
    offset: int  # in the block's text
    old: str
    new: str


def plant(store: Store, index: VectorIndex, count: int) -> list[Planted]:
    rows = index.snapshot()
    embedded = sorted(rows.document_ids())
    random.Random(16).shuffle(embedded)
    scanner, planted = ConflictScanner(store, IndexNeighbours(index)), []
    for document_id in embedded:
        if len(planted) == count:
            break
        document = store.get_document(document_id, Access.local())
        change = _change(store.chunks(document_id))
        if document.format == "html" and change is not None:
            planted.append(_planted(store, index, scanner, document, change))
    return planted


def unplant(store: Store, index: VectorIndex, planted: list[Planted]) -> None:
    """The copies removed (their pairs go with them), so a rerun starts from the corpus."""
    for copy in planted:
        store.delete_document(copy.document_id, Access.local())
        index.delete(copy.document_id)


def _change(chunks: tuple[Chunk, ...]) -> _Change | None:
    """The first stated number (not a heading's, not a caption's) of a long enough chunk."""
    for chunk in chunks:
        headings = {t.norm for part in chunk.section_path for t in tokenize(part)}
        for token in tokenize(chunk.text):
            if len(chunk.text) < MIN_CHARS or token.kind != "number" or token.norm in headings:
                continue
            at = token.end - 1
            span = block_span(chunk.spans, at, at + 1)
            if span is None:
                continue
            old = chunk.text[token.start : token.end]
            digit = str((int(chunk.text[at]) + 1) % 10)
            return _Change(chunk, span.block_id, span.start, old, old[:-1] + digit)
    return None


def _planted(
    store: Store, index: VectorIndex, scanner: ConflictScanner, document: Document, change: _Change
) -> Planted:
    original = store.original_path(document).read_bytes() + b"<!-- planted -->"
    content_hash = hashlib.sha256(original).hexdigest()
    copy = replace(
        document, id=content_hash[:16], content_hash=content_hash, source=document.source + "#v2"
    )
    blocks = tuple(_block(b, change) for b in store.blocks(document.id))
    texts = {b.id: b.text for b in blocks}
    chunks = tuple(_chunk(c, copy.id, texts) for c in store.chunks(document.id))
    store.add_document(StoredDocument(copy, blocks, chunks), original)
    rows = index.snapshot()
    mine = np.flatnonzero(rows.rows_of(document.id) & rows.alive)
    ids = [f"{copy.id}:{rows.chunk_ids[r]}" for r in mine]
    index.add(copy.id, ids, np.asarray(rows.matrix[mine]))
    scanner.scan(copy.id)
    pairs = store.conflict_pairs(Access.local(), [copy.id])
    wanted = {change.chunk.id, f"{copy.id}:{change.chunk.id}"}
    found = any({p.first.chunk_id, p.second.chunk_id} == wanted for p in pairs)
    return Planted(copy.id, document.title, change.old, change.new, found, len(pairs) - found)


def _block(block: Block, change: _Change) -> Block:
    if block.id != change.block_id:
        return block
    at, text = change.offset, block.text
    digit = change.new[-1]
    return replace(block, text=text[:at] + digit + text[at + 1 :])


def _chunk(chunk: Chunk, document_id: str, texts: dict[str, str]) -> Chunk:
    text = CHUNK_JOINER.join(texts[s.block_id][s.start : s.end] for s in chunk.spans)
    return replace(chunk, id=f"{document_id}:{chunk.id}", document_id=document_id, text=text)
