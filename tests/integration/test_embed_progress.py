"""A long document's embedding reports progress often (issue 30): the bar moved only every
64 passages, which on a loaded machine left it still for over a minute."""

from __future__ import annotations

import hashlib
from pathlib import Path

from hash_embedder import HashEmbedder

from askalong.chunk.prose import chunk_blocks
from askalong.config import Settings
from askalong.index.embedding import PROGRESS_BATCH
from askalong.index.sync import SearchIndexes
from askalong.store.backends import open_store
from askalong.types import Block, Document, StoredDocument

PARAGRAPHS = 100


def long_document() -> tuple[StoredDocument, bytes]:
    texts = [f"Paragraph {p}: the pump number {p} is inspected weekly." for p in range(PARAGRAPHS)]
    original = "\n\n".join(texts).encode()
    digest = hashlib.sha256(original).hexdigest()
    document = Document(
        id=digest[:16],
        content_hash=digest,
        title="pumps",
        source="pumps.txt",
        format="text",
        language="en",
        page_count=1,
        size_bytes=len(original),
        created="2026-12-01T00:00:00+00:00",
    )
    blocks = tuple(Block(f"b{i}", "paragraph", t, i, section_path=()) for i, t in enumerate(texts))
    chunks = chunk_blocks(document.id, blocks, target=2, maximum=100_000)
    return StoredDocument(document, blocks, chunks), original


def test_embedding_reports_progress_every_few_passages(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path / "home")
    stored, original = long_document()
    seen: list[int] = []
    with (
        open_store(settings) as store,
        SearchIndexes(settings, store, HashEmbedder) as indexes,
    ):
        store.add_document(stored, original)
        total = len(store.chunks(stored.document.id))
        indexes.embed([stored.document], progress=seen.append)
    assert total > 64  # the old batch would have reported once or twice
    assert seen[-1] == total
    steps = [b - a for a, b in zip([0, *seen], seen, strict=False)]
    assert max(steps) <= PROGRESS_BATCH <= 16
    assert seen == sorted(seen)
