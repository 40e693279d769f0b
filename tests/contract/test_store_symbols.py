"""The code symbol index (contract, run against every backend): definitions found by name
in one query, only in code documents the caller may see (the permission table of
``permissions.py``), gone with their document; whether a caller sees only code; and the
lookup searching the index, not every block."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import psycopg
import pytest
from permissions import CALLERS, DOCUMENTS, VISIBLE, Entry, document

from askalong.config import Settings
from askalong.files.local import OriginalFiles
from askalong.store.backends import open_store
from askalong.store.base import Store
from askalong.store.postgres.database import POSTGRES
from askalong.store.sqlite.store import SQLiteStore
from askalong.types import Access, Block, StoredDocument
from askalong.values.symbols import Definition

SOURCE = "class Parser:\n    def parse(self, text):\n        return text\n"


def code_document(entry: Entry, source: str = SOURCE) -> tuple[StoredDocument, bytes]:
    """``entry``'s permission fields on a Python file defining ``Parser.parse``."""
    data = f"# {entry.id}\n{source}".encode()
    head = replace(
        document(entry),
        content_hash=hashlib.sha256(data).hexdigest(),
        source=f"repo/{entry.id}.py",
        format="code",
    )
    blocks = (
        Block("b0", "code", f"# {entry.id}", 0, lines=(1, 1)),
        Block("b1", "code", "class Parser:", 1, ("Parser",), lines=(2, 2)),
        Block("b2", "code", SOURCE.split("\n", 1)[1], 2, ("Parser", "parse"), lines=(3, 4)),
        Block("b3", "code", "    # the class's last line", 3, ("Parser",), lines=(5, 5)),
    )
    return StoredDocument(head, blocks, ()), data


def prose_document(entry: Entry) -> tuple[StoredDocument, bytes]:
    """A Markdown page whose heading is called ``parse``: a section, never a definition."""
    data = f"# parse\n\n{entry.id}".encode()
    head = replace(
        document(entry), content_hash=hashlib.sha256(data).hexdigest(), format="markdown"
    )
    blocks = (Block("b0", "heading", "parse", 0, ("parse",), 1), Block("b1", "paragraph", "x", 1))
    return StoredDocument(head, blocks, ()), data


def put(store: Store, made: tuple[StoredDocument, bytes]) -> None:
    store.add_document(*made)


def test_a_name_is_found_with_its_qualified_name_block_and_document(store: Store) -> None:
    alice = DOCUMENTS[0]
    put(store, code_document(alice))
    found = store.definitions(["parse", "Parser", "missing", "parse"], Access(user="alice"))
    assert found == (
        Definition(alice.id, "b1", ("Parser",)),
        Definition(alice.id, "b2", ("Parser", "parse")),
    )
    assert [d.name for d in found] == ["Parser", "parse"]  # a definition's first block only
    assert store.definitions([], Access(user="alice")) == ()
    assert store.definitions(["Parser.parse", "b0", ""], Access(user="alice")) == ()


@pytest.mark.parametrize("caller", sorted(CALLERS))
def test_definitions_are_only_in_the_code_the_caller_may_see(store: Store, caller: str) -> None:
    for entry in DOCUMENTS:
        put(store, code_document(entry))
    found = store.definitions(["parse"], CALLERS[caller])
    assert {d.document_id for d in found} == VISIBLE[caller]
    assert all(d.qualname == ("Parser", "parse") for d in found)


def test_a_heading_of_prose_is_no_definition_and_a_deleted_file_defines_nothing(
    store: Store,
) -> None:
    code, prose = DOCUMENTS[0], DOCUMENTS[2]
    put(store, code_document(code))
    put(store, prose_document(prose))
    assert {d.document_id for d in store.definitions(["parse"], Access.local())} == {code.id}
    store.delete_document(code.id, Access.local())
    assert store.definitions(["parse", "Parser"], Access.local()) == ()


def test_only_code_is_what_the_caller_may_see_being_all_source_files(store: Store) -> None:
    assert not store.only_code(Access.local())  # nothing at all is not code alone
    put(store, code_document(DOCUMENTS[0]))  # alice's private file
    assert store.only_code(Access(user="alice"))
    assert not store.only_code(Access(user="bob"))
    put(store, prose_document(DOCUMENTS[3]))  # bob's private page
    assert store.only_code(Access(user="alice"))
    assert not store.only_code(Access.local())
    assert not store.only_code(Access(user="bob"))


def test_sqlite_searches_the_symbol_index(settings: Settings) -> None:
    """The lookup's statement, as SQLite runs it, searches ``blocks_by_symbol``: one index
    search, not a read of every code document's blocks."""
    statements: list[str] = []
    files = OriginalFiles(settings.files_dir)
    with SQLiteStore(settings.database_path, files, trace=statements.append) as traced:
        put(traced, code_document(DOCUMENTS[0]))
        statements.clear()
        assert traced.definitions(["parse"], Access(user="alice"))
        (query,) = [s for s in statements if "FROM blocks b" in s]
        plan = traced._conn.execute(f"EXPLAIN QUERY PLAN {query}").fetchall()
    assert any("blocks_by_symbol" in row[-1] for row in plan), plan


def test_postgres_spells_the_name_as_its_index_does(postgres_url: str, settings: Settings) -> None:
    """PostgreSQL can answer the lookup's condition from ``blocks_by_symbol`` (sequential
    scans off: a tiny table would be scanned anyway)."""
    open_store(replace(settings, database_url=postgres_url)).close()
    where = POSTGRES.block_symbol
    with psycopg.connect(postgres_url) as conn:
        conn.execute("SET enable_seqscan = off")
        plan = conn.execute(f"EXPLAIN SELECT b.id FROM blocks b WHERE {where} = 'parse'")
        lines = [row[0] for row in plan.fetchall()]
    assert any("blocks_by_symbol" in line for line in lines), lines
