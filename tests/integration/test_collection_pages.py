"""A question asked of a collection of many pages finds the page that answers it, even
when another page has many chunks that each share a word with the question (the real
store, the real tantivy keyword route, the real searcher)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from askalong.chunk.prose import chunk_blocks
from askalong.config import Settings
from askalong.index.sync import SearchIndexes
from askalong.retrieve.search import Searcher
from askalong.store.backends import open_store
from askalong.types import Access, Block, Document, StoredDocument

# A long reference page: every section names getting disk space back from deleted rows
# in passing, more often than the page that answers does.
LONG = tuple(
    f"Option {n} of the bulk loader. Getting disk space back from deleted rows: option {n} "
    f"reports deleted rows and disk space, and getting them back is not what option {n} does."
    for n in range(12)
)
ANSWER = (
    "VACUUM reclaims storage occupied by dead tuples: the space of deleted rows is made "
    "available for re-use.",
)
FILLER = tuple(
    (f"Page {n}", (f"Page {n} describes configuration parameter number {n} of the server.",))
    for n in range(22)
)


def original(title: str, paragraphs: tuple[str, ...]) -> bytes:
    return "\n\n".join((title, *paragraphs)).encode()


def stored(title: str, paragraphs: tuple[str, ...]) -> StoredDocument:
    content = original(title, paragraphs)
    digest = hashlib.sha256(content).hexdigest()
    document = Document(
        id=digest[:16], content_hash=digest, title=title, source=f"{title}.html",
        format="html", language="en", page_count=1, size_bytes=len(content),
        created="2026-01-01T00:00:00+00:00", owner="local", visibility="private",
    )  # fmt: skip
    blocks = tuple(
        Block(f"b{i}", "paragraph", text, i, section_path=(title, f"Part {i}"))
        for i, text in enumerate(paragraphs)
    )
    chunks = chunk_blocks(document.id, blocks, target=2, maximum=100_000)
    return StoredDocument(document, blocks, chunks)


@pytest.fixture()
def collection(tmp_path: Path) -> Iterator[tuple[Searcher, dict[str, str]]]:
    settings = Settings(home=tmp_path)
    store = open_store(settings)
    indexes = SearchIndexes(settings, store, lambda: None)
    titles = {}
    for title, paragraphs in (("Bulk loader", LONG), ("Routine vacuuming", ANSWER), *FILLER):
        doc = stored(title, paragraphs)
        store.add_document(doc, original(title, paragraphs))
        indexes.add(doc.document, doc.chunks)
        titles[doc.document.id] = title
    yield Searcher(store, indexes), titles
    indexes.close()
    store.close()


QUESTION = "how do I get back the disk space of deleted rows?"


def test_a_collection_question_shows_the_answering_page_among_the_first(
    collection: tuple[Searcher, dict[str, str]],
) -> None:
    searcher, titles = collection
    everything = tuple(titles)
    found = searcher.search(QUESTION, Access.local(), documents=everything, k_max=3)
    assert "Routine vacuuming" in [titles[hit.document_id] for hit in found.hits]
    ranked = searcher.ranking(QUESTION, Access.local(), documents=everything)
    first = [titles[hit.document_id] for hit in ranked[:2]]
    assert sorted(first) == ["Bulk loader", "Routine vacuuming"]  # one place per page
    two = tuple(i for i, t in titles.items() if t in ("Bulk loader", "Routine vacuuming"))
    chunkwise = searcher.ranking(QUESTION, Access.local(), documents=two)
    assert [titles[hit.document_id] for hit in chunkwise[:3]] == ["Bulk loader"] * 3


def test_a_few_named_documents_are_still_ranked_chunk_by_chunk(
    collection: tuple[Searcher, dict[str, str]],
) -> None:
    searcher, titles = collection
    two = tuple(i for i, t in titles.items() if t in ("Bulk loader", "Routine vacuuming"))
    ranked = searcher.ranking(QUESTION, Access.local(), documents=two)
    scores = [hit.keyword_score or 0.0 for hit in ranked]
    assert len(ranked) > 2 and scores == sorted(scores, reverse=True)
