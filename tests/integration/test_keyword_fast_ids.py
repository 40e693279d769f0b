"""Keyword hits named from fast fields (``index/keyword_ids.py``), and the schema 5
migration: an index of schema 4 (no fast fields) is opened empty and rebuilt from the
store by ``sync`` (``index/reindex.py``), a batch of documents per commit."""

from __future__ import annotations

import hashlib
from pathlib import Path

import tantivy

from askalong.access_tokens import document_tokens
from askalong.chunk.prose import chunk_blocks
from askalong.config import Settings
from askalong.index.keyword import KeywordIndex
from askalong.index.keyword_ids import HitIds, stored_ids
from askalong.index.keyword_schema import CHUNK_ORDER, DOCUMENT_NUMBER, NO_ORDER, search_tokens
from askalong.index.reindex import reindex
from askalong.index.sync import SearchIndexes
from askalong.store.backends import open_store
from askalong.types import Access, Block, Chunk, Document, StoredDocument

LOCAL = Access.local()


def original(n: int) -> bytes:
    texts = [f"Document {n} paragraph {p}: the valve {n * 100 + p} is checked." for p in range(4)]
    return "\n\n".join(texts).encode()


def stored_document(n: int) -> StoredDocument:
    texts = original(n).decode().split("\n\n")
    digest = hashlib.sha256(original(n)).hexdigest()
    document = Document(
        id=digest[:16],
        content_hash=digest,
        title=f"doc {n}",
        source=f"doc{n}.txt",
        format="text",
        language="en",
        page_count=1,
        size_bytes=100,
        created="2026-12-01T00:00:00+00:00",
    )
    blocks = tuple(Block(f"b{i}", "paragraph", t, i, section_path=()) for i, t in enumerate(texts))
    return StoredDocument(document, blocks, chunk_blocks(document.id, blocks, target=2))


def schema_4() -> tantivy.Schema:
    """The keyword schema before the fast fields (``SCHEMA_VERSION`` 4), as it was."""
    builder = tantivy.SchemaBuilder()
    for name in ("chunk_id", "document_id", "section_key"):
        builder.add_text_field(name, stored=True, tokenizer_name="raw", index_option="basic")
    for name in ("text", "grams", "section"):
        builder.add_text_field(name, tokenizer_name="whitespace", index_option="freq")
    for name in ("titles", "role"):
        builder.add_text_field(name, tokenizer_name="raw", index_option="basic")
    builder.add_bytes_field("pointed", stored=True)
    builder.add_bytes_field("headings", stored=True)
    builder.add_text_field("schema_v4", tokenizer_name="raw")
    builder.add_text_field("access", tokenizer_name="raw", index_option="basic")
    builder.add_text_field("context", tokenizer_name="whitespace", index_option="freq")
    return builder.build()


def write_schema_4(folder: Path, documents: list[StoredDocument]) -> None:
    """A keyword index as schema 4 wrote it: ids stored, no fast fields."""
    folder.mkdir(parents=True)
    index = tantivy.Index(schema_4(), path=str(folder))
    writer = index.writer(heap_size=15_000_000, num_threads=1)
    for stored in documents:
        document = stored.document
        for chunk in stored.chunks:
            entry = tantivy.Document()
            entry.add_text("chunk_id", chunk.id)
            entry.add_text("document_id", document.id)
            entry.add_text("text", " ".join(search_tokens(chunk.text)))
            entry.add_text("section_key", f"{document.id}/0/{document.title}")
            for token in document_tokens(document.owner, document.visibility, document.org_tags):
                entry.add_text("access", token)
            writer.add_document(entry)
    writer.commit()
    writer.wait_merging_threads()


def test_a_schema_4_index_is_rebuilt_from_the_store_with_fast_fields(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path / "home")
    documents = [stored_document(n) for n in range(3)]
    with open_store(settings) as store:
        for n, stored in enumerate(documents):
            store.add_document(stored, original(n))
        write_schema_4(settings.index_dir / "keyword", documents)
        with SearchIndexes(settings, store, lambda: None) as indexes:
            assert indexes.sync() == 3  # every document indexed again
            hits = indexes.keyword.search("valve 101 checked", LOCAL)
            searcher = indexes.keyword._searcher()
            addresses = [a for _, a in searcher.search(tantivy.Query.all_query(), 100).hits]
            numbers = searcher.fast_field_values(DOCUMENT_NUMBER, addresses)
            orders = searcher.fast_field_values(CHUNK_ORDER, addresses)
    chunks = {c.id: c for stored in documents for c in stored.chunks}
    assert len(addresses) == len(chunks)
    assert all(isinstance(n, int) for n in numbers)
    assert sorted(orders) == sorted(c.order for c in chunks.values())
    assert hits and hits[0].chunk_id in chunks
    assert "101" in chunks[hits[0].chunk_id].text
    assert hits[0].document_id == chunks[hits[0].chunk_id].document_id


def test_fast_ids_are_the_stored_ids_and_other_id_forms_are_read(tmp_path: Path) -> None:
    index = KeywordIndex(tmp_path / "keyword")
    document = stored_document(1).document
    standard = chunk_blocks(document.id, stored_document(1).blocks, target=2)
    other = Chunk(id="kept-as-given", document_id=document.id, order=9, spans=(), text="valve 7")
    index.add(document, [*standard, other])
    searcher, generation = index._searcher_at()
    addresses = [a for _, a in searcher.search(tantivy.Query.all_query(), 100).hits]
    named = list(zip(*HitIds().named(searcher, generation, addresses), strict=True))
    assert named == [stored_ids(searcher, a) for a in addresses]
    orders = searcher.fast_field_values(CHUNK_ORDER, addresses)
    assert sorted(o for o in orders if o != NO_ORDER) == [c.order for c in standard]
    assert {chunk for chunk, _ in named} == {*(c.id for c in standard), "kept-as-given"}


def test_a_number_two_document_ids_share_is_read_from_the_stored_documents(
    tmp_path: Path,
) -> None:
    index = KeywordIndex(tmp_path / "keyword")
    stored = stored_document(2)
    index.add(stored.document, stored.chunks)
    searcher, generation = index._searcher_at()
    addresses = [a for _, a in searcher.search(tantivy.Query.all_query(), 100).hits]
    ids = HitIds()
    (number,) = set(searcher.fast_field_values(DOCUMENT_NUMBER, addresses))
    ids.named(searcher, generation, addresses)  # lists the document ids
    ids._ids[number] = None  # as when two ids share it: its hits are named from storage
    named = ids.named(searcher, generation, addresses)
    assert list(zip(*named, strict=True)) == [stored_ids(searcher, a) for a in addresses]


def test_a_rebuild_commits_batch_by_batch_and_says_how_far_it_got(settings: Settings) -> None:
    documents = [stored_document(n) for n in range(3)]
    heard: list[tuple[int, int]] = []
    with open_store(settings) as store:
        for n, stored in enumerate(documents):
            store.add_document(stored, original(n))
        index = KeywordIndex(settings.index_dir / "keyword")
        missing = [s.document for s in documents]
        done = reindex(store, index, missing, batch=2, progress=lambda *at: heard.append(at))
    assert done == 3
    assert heard == [(0, 3), (2, 3), (3, 3)]  # before the first batch too: a bar shows at once
    assert index.document_ids() == {s.document.id for s in documents}


def test_opening_a_library_over_an_old_index_reports_its_rebuild(tmp_path: Path) -> None:
    """The command line draws its bar from these reports (``cli/progress.ReindexBar``)."""
    from askalong.library import Library

    settings = Settings(home=tmp_path / "home", embedder="none")
    documents = [stored_document(n) for n in range(3)]
    with open_store(settings) as store:
        for n, stored in enumerate(documents):
            store.add_document(stored, original(n))
        write_schema_4(settings.index_dir / "keyword", documents)
    heard: list[tuple[int, int]] = []
    with Library(settings, reindexing=lambda *at: heard.append(at)) as library:
        assert library.indexes.keyword.document_ids() == {s.document.id for s in documents}
    assert heard == [(0, 3), (3, 3)]
    with Library(settings, reindexing=lambda *at: heard.append(at)):
        pass
    assert heard == [(0, 3), (3, 3)]  # nothing to rebuild: nothing heard
