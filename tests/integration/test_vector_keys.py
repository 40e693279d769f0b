"""Vectors keyed to the text they were computed from (issue 11, item 10): parallel adds
embed each document once, a crash inside ``rm`` followed by a re-add with another chunk
size never leaves a vector on the wrong chunk, and dead rows are compacted."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hash_embedder import HashEmbedder

from askalong.chunk.prose import chunk_blocks
from askalong.config import Settings
from askalong.index.sync import SearchIndexes
from askalong.ingest.pipeline import Ingestor
from askalong.store.backends import open_store
from askalong.types import Access, Block, Document, StoredDocument

LOCAL = Access.local()
MANUAL_PAGE = Path("manuals/postgresql-15-html/runtime-config-autovacuum.html")


def paragraphs_document(n: int) -> tuple[StoredDocument, bytes]:
    texts = [
        f"Document {n} paragraph {p}: the valve number {n * 100 + p} is checked." for p in range(6)
    ]
    original = "\n\n".join(texts).encode()
    digest = hashlib.sha256(original).hexdigest()
    document = Document(
        id=digest[:16],
        content_hash=digest,
        title=f"doc {n}",
        source=f"doc{n}.txt",
        format="text",
        language="en",
        page_count=1,
        size_bytes=len(original),
        created="2026-12-01T00:00:00+00:00",
    )
    blocks = tuple(Block(f"b{i}", "paragraph", t, i, section_path=()) for i, t in enumerate(texts))
    chunks = chunk_blocks(document.id, blocks, target=2, maximum=100_000)
    return StoredDocument(document, blocks, chunks), original


def row_counts(home: Path) -> tuple[int, int]:
    """(rows, live rows) of every vector folder, read from the row tables themselves."""
    rows = live = 0
    for path in (home / "index" / "vectors").glob("*/rows.sqlite3"):
        with sqlite3.connect(path) as db:
            total, alive = db.execute(
                "SELECT count(*), coalesce(sum(alive), 0) FROM rows"
            ).fetchone()
        rows, live = rows + total, live + alive
    return rows, live


def test_twenty_parallel_adds_embed_each_document_once(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path / "home")
    embedder = HashEmbedder()
    documents = [paragraphs_document(n) for n in range(20)]
    everyone_stored = threading.Barrier(len(documents))
    errors: list[BaseException] = []

    def add(doc: StoredDocument, original: bytes) -> None:
        # Each thread opens its own store and indexes, as each `askalong add` process does.
        try:
            with (
                open_store(settings) as store,
                SearchIndexes(settings, store, lambda: embedder) as indexes,
            ):
                store.add_document(doc, original)
                indexes.add(doc.document, doc.chunks)
                everyone_stored.wait(timeout=30)  # then every add sees 20 pending documents
                assert indexes.embed(indexes.pending_vectors()).error is None
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=add, args=pair) for pair in documents]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    chunks = sum(len(doc.chunks) for doc, _ in documents)
    assert row_counts(settings.home) == (chunks, chunks)  # no dead row at all
    assert embedder.embedded == chunks  # and no text embedded twice


def live_vectors_match_their_chunks(
    settings: Settings, embedder: HashEmbedder, doc_id: str
) -> None:
    """Every live vector of the document is the embedding of its chunk's current text,
    and every chunk has one."""
    with open_store(settings) as store, SearchIndexes(settings, store, lambda: embedder) as indexes:
        assert indexes.vectors is not None
        chunks = store.chunks(doc_id)
        hits = indexes.vectors.index.search(
            np.ones(embedder.dimension), allowed_document_ids={doc_id}, limit=10_000
        )
        assert sorted(h.chunk_id for h in hits) == sorted(c.id for c in chunks)
        for chunk in chunks:
            best = indexes.vectors.index.search(
                embedder.vector(chunk.text), allowed_document_ids={doc_id}, limit=1
            )[0]
            assert (best.chunk_id, round(best.score, 4)) == (chunk.id, 1.0)


def add_and_embed(settings: Settings, embedder: HashEmbedder, path: Path) -> str:
    with open_store(settings) as store, SearchIndexes(settings, store, lambda: embedder) as indexes:
        indexes.sync()  # as opening a Library does
        with Ingestor(settings, store, indexes) as ingestor:
            outcome = ingestor.add(str(path), LOCAL)
        assert outcome.document is not None and outcome.status == "added"
        assert indexes.embed(indexes.pending_vectors()).error is None
        return outcome.document.id


def crash_inside_rm(settings: Settings, embedder: HashEmbedder, doc_id: str) -> None:
    """`rm` killed after the store and keyword index dropped the document, before its
    vectors went."""
    with open_store(settings) as store, SearchIndexes(settings, store, lambda: embedder) as indexes:
        store.delete_document(doc_id, LOCAL)
        indexes.keyword.delete(doc_id)


@pytest.mark.parametrize("reopened", [True, False], ids=["after-restart", "same-process"])
def test_a_re_add_after_a_crash_in_rm_never_uses_stale_vectors(
    tmp_path: Path, evaldata: Path, reopened: bool
) -> None:
    small = Settings(home=tmp_path / "home", chunk_target=200, chunk_max=300)
    large = replace(small, chunk_target=700, chunk_max=1000)
    embedder = HashEmbedder()
    doc_id = add_and_embed(small, embedder, evaldata / MANUAL_PAGE)
    live_vectors_match_their_chunks(small, embedder, doc_id)
    if reopened:
        crash_inside_rm(small, embedder, doc_id)
        assert add_and_embed(large, embedder, evaldata / MANUAL_PAGE) == doc_id
    else:
        with open_store(large) as store, SearchIndexes(large, store, lambda: embedder) as indexes:
            store.delete_document(doc_id, LOCAL)
            indexes.keyword.delete(doc_id)  # the crash: the vector delete never ran
            with Ingestor(large, store, indexes) as ingestor:
                assert ingestor.add(str(evaldata / MANUAL_PAGE), LOCAL).status == "added"
            assert indexes.embed(indexes.pending_vectors()).error is None
    live_vectors_match_their_chunks(large, embedder, doc_id)
