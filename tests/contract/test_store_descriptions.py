"""Chunk descriptions in the store (issue 16): written and read back beside the chunk, and
a library made before they existed (migration 0011) opening with its chunks intact and
their descriptions empty."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace

from permissions import DOCUMENTS, Entry, original, stored

from askalong.config import Settings
from askalong.store.backends import open_store
from askalong.store.base import Store
from askalong.store.sqlite.migrate import apply_migrations, migrations
from askalong.types import StoredDocument

ENTRY, OTHER = DOCUMENTS[0], DOCUMENTS[1]
DESCRIBED = "d1-alice-private > Physics: what the lab measures"


def described(entry: Entry = ENTRY) -> StoredDocument:
    plain = stored(entry)
    return replace(plain, chunks=tuple(replace(c, description=DESCRIBED) for c in plain.chunks))


def test_a_description_is_stored_beside_its_chunk(store: Store) -> None:
    doc = described()
    store.add_document(doc, original(ENTRY))
    (chunk,) = store.chunks(ENTRY.id)
    assert chunk == doc.chunks[0] and chunk.description == DESCRIBED
    assert store.chunk(chunk.id).description == DESCRIBED


def test_a_library_from_before_descriptions_migrates(settings: Settings) -> None:
    """Migrations up to 0010 and a chunk written as they had it: opening the file adds the
    column, the chunk reads back whole with an empty description, a new one keeps its own."""
    settings.database_path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(settings.database_path, isolation_level=None)
    apply_migrations(conn, tuple(m for m in migrations() if m.version <= 10))
    old = stored(ENTRY)
    document, (chunk,) = old.document, old.chunks
    conn.execute(
        "INSERT INTO documents VALUES (?, ?, 'T', 's', 'text', 'en', 0, 1,"
        " '2024-01-01T00:00:00Z', 'alice', 'private', '[]', '[]', '[]', '[]')",
        (document.id, document.content_hash),
    )
    spans = json.dumps([[s.block_id, s.start, s.end] for s in chunk.spans])
    conn.execute(
        "INSERT INTO chunks (id, document_id, ord, text, spans, section_path)"
        " VALUES (?, ?, 0, ?, ?, '[]')",
        (chunk.id, document.id, chunk.text, spans),
    )
    conn.close()
    with open_store(settings) as store:
        assert store.chunks(document.id) == (chunk,)
        assert store.chunk(chunk.id).description == ""
        store.add_document(described(OTHER), original(OTHER))
        assert store.chunks(OTHER.id)[0].description == DESCRIBED
    with sqlite3.connect(settings.database_path) as check:
        versions = [row[0] for row in check.execute("SELECT version FROM schema_migrations")]
    assert versions == [m.version for m in migrations()]
