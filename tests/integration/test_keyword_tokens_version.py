"""A keyword route written with the tokens of before (``SCHEMA_VERSION`` 5: Traditional
Chinese in single characters, as the Simplified dictionary left it) is emptied when it
opens and refilled from the store, so a query's new tokens meet the text again: a store
never silently loses recall to a tokeniser change. Both routes: tantivy and PostgreSQL."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from pg_cluster import pg_pool

from askalong.config import Settings
from askalong.index import keyword_schema
from askalong.index.keyword import KeywordIndex
from askalong.index.pg_keyword import PostgresKeywordRoute, renew_tokens
from askalong.index.sync import SearchIndexes
from askalong.store.backends import open_store
from askalong.types import Access, Block, Chunk, Document, StoredDocument

TEXT = "國立臺灣大學資訊工程學系成立於一九七七年。"
LOCAL = Access.local()


def stored_document() -> StoredDocument:
    digest = hashlib.sha256(TEXT.encode()).hexdigest()
    document = Document(
        id=digest[:16],
        content_hash=digest,
        title="系史",
        source="history.txt",
        format="text",
        language="zh",
        page_count=1,
        size_bytes=len(TEXT.encode()),
        created="2026-12-06T00:00:00+00:00",
    )
    block = Block("b0", "paragraph", TEXT, 0)
    chunk = Chunk(id=f"{document.id}:c0", document_id=document.id, order=0, spans=(), text=TEXT)
    return StoredDocument(document, (block,), (chunk,))


def characters(text: str) -> list[str]:
    """What version 5 indexed a Traditional run as: its characters, one by one."""
    return [char for char in text if char.isalnum()]


def test_a_tantivy_index_of_the_tokens_before_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(home=tmp_path / "home", embedder="none")
    stored = stored_document()
    with open_store(settings) as store:
        store.add_document(stored, TEXT.encode())
        with monkeypatch.context() as before:
            before.setattr(keyword_schema, "SCHEMA_VERSION", 5)
            before.setattr(keyword_schema, "search_tokens", characters)
            old = KeywordIndex(settings.index_dir / "keyword")
            old.add(stored.document, stored.chunks)
            old.close()
        with SearchIndexes(settings, store, lambda: None) as indexes:
            assert indexes.sync() == 1  # emptied on open, indexed again from the store
            hits = indexes.keyword.search("资讯工程学系", LOCAL)
            words = indexes.keyword.search("資訊工程學系", LOCAL)
    assert [h.document_id for h in hits] == [stored.document.id]
    assert hits[0].keyword_score == pytest.approx(words[0].keyword_score)


@pytest.mark.slow
def test_a_postgres_route_of_the_tokens_before_is_emptied(pg_url: str) -> None:
    stored = stored_document()
    with pg_pool(pg_url) as pool:
        route = PostgresKeywordRoute(pool)
        route.add(stored.document, stored.chunks)
        with pool.connection() as connection:
            assert not renew_tokens(connection)  # the current version: kept
            assert route.document_ids() == {stored.document.id}
            connection.execute("UPDATE keyword_version SET version = 5")
            connection.commit()
        reopened = PostgresKeywordRoute(pool)
        assert reopened.document_ids() == set()  # sync refills it from the store
        assert reopened.search("资讯", LOCAL) == []
        reopened.add(stored.document, stored.chunks)
        assert [h.document_id for h in reopened.search("資訊", LOCAL)] == [stored.document.id]
