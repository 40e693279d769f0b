"""The store contract, run against every backend in ``BACKENDS``, plus SQLite specifics.

Documents are built by hand from the types, so each test states exactly what it stores.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import cast

import pytest

from askalong.config import Settings
from askalong.errors import InputError, NotFound, StoreError
from askalong.files.local import OriginalFiles
from askalong.store.backends import open_store
from askalong.store.base import DocumentStore
from askalong.store.sqlite.migrate import migrations, split_statements
from askalong.store.sqlite.store import SQLiteStore
from askalong.types import (
    Access,
    Block,
    BlockSpan,
    Chunk,
    Document,
    LineBox,
    StoredDocument,
    Visibility,
)

# The one place that knows the backends; a PostgreSQL entry joins here later.


# -- building documents ------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    stored: StoredDocument
    original: bytes

    @property
    def document(self) -> Document:
        return self.stored.document

    @property
    def id(self) -> str:
        return self.stored.document.id


def sample(
    seed: str,
    *,
    doc_id: str | None = None,
    owner: str = "alice",
    visibility: Visibility = "private",
    org_tags: tuple[str, ...] = (),
    created: str = "2024-05-01T10:00:00Z",
    original: bytes | None = None,
) -> Sample:
    """A two-page PDF-like document: a Chinese heading, paragraphs with line boxes, a
    text-format block with a line range, and two chunks over them."""
    data = original if original is not None else f"%PDF original of {seed}".encode()
    content_hash = hashlib.sha256(data).hexdigest()
    doc_id = doc_id or content_hash[:16]
    document = Document(
        id=doc_id,
        content_hash=content_hash,
        title=f"量子力学讲义 {seed}",
        source=f"/papers/{seed}.pdf",
        format="pdf",
        language="zh",
        page_count=2,
        size_bytes=len(data),
        created=created,
        owner=owner,
        visibility=visibility,
        org_tags=org_tags,
        page_sizes=((595.0, 842.0), (595.5, 842.25)),
        ocr_pages=(2,),
        notices=("1 page needs OCR",),
        page_turns=(0, 90),  # page 2 is shown turned: its text runs down the page
        unread_pages=(2,),
    )
    return Sample(StoredDocument(document, _blocks(), _chunks(doc_id)), data)


def _blocks() -> tuple[Block, ...]:
    path = ("第一章 波函数", "1.1 薛定谔方程")
    return (
        Block(
            "b1", "heading", "第一章 波函数", 0, path[:1], 1, 1, (LineBox(72, 60, 300, 80, 0, 7),)
        ),
        Block(
            "b2",
            "paragraph",
            "波函数描述粒子的状态。It evolves in time.",
            1,
            path,
            page=1,
            boxes=(
                LineBox(72.5, 100.25, 523.0, 112.0, 0, 10),
                LineBox(72.5, 114, 400, 126, 10, 30),
            ),
        ),
        Block("b3", "paragraph", "Second page text.", 2, path, page=2),
        Block("b4", "code", "psi = exp(-1j * E * t)", 3, path, page=2, lines=(12, 14)),
    )


def _chunks(doc_id: str) -> tuple[Chunk, ...]:
    return (
        Chunk(
            f"{doc_id}-c0",
            doc_id,
            0,
            (BlockSpan("b1", 0, 7), BlockSpan("b2", 0, 30)),
            "第一章 波函数\n波函数描述粒子的状态。It evolves in time.",
            ("第一章 波函数",),
            1,
            1,
        ),
        Chunk(f"{doc_id}-c1", doc_id, 1, (BlockSpan("b3", 0, 17),), "Second page text.", (), 2, 2),
    )


def add(store: DocumentStore, *samples: Sample) -> None:
    for item in samples:
        store.add_document(item.stored, item.original)


def assert_no_trace(store: DocumentStore, item: Sample) -> None:
    assert not store.has_document(item.id)
    with pytest.raises(NotFound):
        store.get_document(item.id, Access.local())
    with pytest.raises(NotFound):
        store.blocks(item.id)
    for chunk in item.stored.chunks:
        with pytest.raises(NotFound):
            store.chunk(chunk.id)
    assert item.id not in {d.id for d in store.list_documents(Access.local())}


def assert_intact(store: DocumentStore, item: Sample) -> None:
    assert store.get_document(item.id, Access.local()) == item.document
    assert store.blocks(item.id) == item.stored.blocks
    assert store.chunks(item.id) == item.stored.chunks
    assert store.original_path(item.document).read_bytes() == item.original


# -- round trip ----------------------------------------------------------------------------


def test_round_trip_keeps_every_field(store: DocumentStore) -> None:
    item = sample("one", visibility="org", org_tags=("物理系", "lab-7"))
    add(store, item)
    assert_intact(store, item)
    assert store.block(item.id, "b2").boxes[1] == LineBox(72.5, 114.0, 400.0, 126.0, 10, 30)
    assert store.block(item.id, "b4").lines == (12, 14)
    assert store.chunk(f"{item.id}-c0").spans[1] == BlockSpan("b2", 0, 30)


def test_blocks_come_back_in_reading_order_and_by_page(store: DocumentStore) -> None:
    item = sample("order")
    shuffled = StoredDocument(item.document, item.stored.blocks[::-1], item.stored.chunks[::-1])
    store.add_document(shuffled, item.original)
    assert [b.id for b in store.blocks(item.id)] == ["b1", "b2", "b3", "b4"]
    assert [b.id for b in store.blocks(item.id, page=2)] == ["b3", "b4"]
    assert store.blocks(item.id, page=9) == ()
    assert [c.order for c in store.chunks(item.id)] == [0, 1]


def test_missing_blocks_and_chunks_are_not_found(store: DocumentStore) -> None:
    item = sample("missing")
    add(store, item)
    with pytest.raises(NotFound):
        store.block(item.id, "b99")
    with pytest.raises(NotFound):
        store.chunk("no-such-chunk")
    with pytest.raises(NotFound):
        store.chunks("0000000000000000")


def _with_chunks(item: Sample, count: int) -> Sample:
    """``item`` with ``count`` chunks in order, each over a few characters of block b3."""
    doc_id = item.id
    chunks = tuple(
        Chunk(f"{doc_id}-k{n}", doc_id, n, (BlockSpan("b3", n, n + 1),), "Second page text."[n])
        for n in range(count)
    )
    return replace(item, stored=replace(item.stored, chunks=chunks))


def test_chunks_around_are_the_hits_and_their_neighbours(store: DocumentStore) -> None:
    long, short = _with_chunks(sample("around-long"), 6), _with_chunks(sample("around-short"), 2)
    add(store, long, short)
    around = store.chunks_around([f"{long.id}-k2", f"{long.id}-k3", f"{short.id}-k0", "nope"])
    assert [(c.document_id, c.order) for c in around] == sorted(
        [(long.id, n) for n in (1, 2, 3, 4)] + [(short.id, 0), (short.id, 1)]
    )
    by_place = {(c.document_id, c.order): c for c in around}
    assert by_place[(long.id, 2)] == store.chunks(long.id)[2]  # the same chunk, spans and all
    assert store.chunks_around([]) == ()
    store.delete_document(short.id, Access(user="alice"))
    assert {c.document_id for c in store.chunks_around([f"{short.id}-k0", f"{long.id}-k0"])} == {
        long.id
    }


def test_opening_chunks_are_the_first_of_their_documents(store: DocumentStore) -> None:
    long, short = _with_chunks(sample("open-long"), 3), _with_chunks(sample("open-short"), 2)
    add(store, long, short)
    asked = [f"{long.id}-k2", f"{long.id}-k0", f"{short.id}-k0", f"{short.id}-k0", "nope"]
    opening = dict(store.opening_chunks(asked, Access.local()))
    assert sorted(c.id for c in opening) == sorted([f"{long.id}-k0", f"{short.id}-k0"])
    assert opening[store.chunks(long.id)[0]] == long.document.title  # spans and all
    none: tuple[object, ...] = ()
    assert store.opening_chunks([f"{long.id}-k1"], Access.local()) == none
    assert store.opening_chunks([], Access.local()) == none
    assert store.opening_chunks(asked, Access(user="bob")) == none  # alice's, private


def test_original_is_saved_under_its_hash(store: DocumentStore, settings: Settings) -> None:
    item = sample("file")
    add(store, item)
    digest = item.document.content_hash
    path = store.original_path(item.document)
    assert path == settings.files_dir / digest[:2] / digest
    assert path.read_bytes() == item.original
    assert [p.name for p in path.parent.iterdir()] == [digest]  # no temporary leftovers


def test_adding_an_existing_id_changes_nothing(store: DocumentStore) -> None:
    item = sample("twice")
    add(store, item)
    renamed = replace(item.document, title="another title", owner="mallory")
    store.add_document(StoredDocument(renamed, ()), item.original)
    assert store.has_document(item.id)
    assert not store.has_document("ffffffffffffffff")
    assert_intact(store, item)


def test_bad_input_is_refused_before_anything_is_written(store: DocumentStore) -> None:
    item = sample("refused")
    with pytest.raises(InputError, match="does not match"):
        store.add_document(item.stored, b"other bytes")
    stray = replace(item.stored.chunks[0], document_id="somebody-else")
    with pytest.raises(InputError, match="another document"):
        store.add_document(replace(item.stored, chunks=(stray,)), item.original)
    assert_no_trace(store, item)
    assert not store.original_path(item.document).exists()


# -- finding by id or prefix ---------------------------------------------------------------


def test_get_by_full_id_and_unique_prefix(store: DocumentStore) -> None:
    first = sample("p1", doc_id="abcd1111")
    second = sample("p2", doc_id="abcd2222")
    add(store, first, second)
    assert store.get_document("abcd1111", Access.local()) == first.document
    assert store.get_document("abcd2", Access.local()) == second.document


def test_ambiguous_prefix_names_the_candidates(store: DocumentStore) -> None:
    add(store, sample("p1", doc_id="abcd1111"), sample("p2", doc_id="abcd2222"))
    with pytest.raises(InputError) as raised:
        store.get_document("abcd", Access.local())
    assert "abcd1111" in str(raised.value) and "abcd2222" in str(raised.value)


def test_short_and_unknown_references(store: DocumentStore) -> None:
    add(store, sample("p1", doc_id="abcd1111"))
    with pytest.raises(InputError, match="at least 4"):
        store.get_document("abc", Access.local())
    with pytest.raises(NotFound):
        store.get_document("abce", Access.local())


def test_exact_id_wins_over_longer_ids_it_prefixes(store: DocumentStore) -> None:
    short, longer = sample("s", doc_id="abcd"), sample("l", doc_id="abcd1")
    add(store, short, longer)
    assert store.get_document("abcd", Access.local()) == short.document


def test_prefix_only_counts_documents_the_caller_may_see(store: DocumentStore) -> None:
    mine = sample("mine", doc_id="abcd1111", owner="bob")
    theirs = sample("theirs", doc_id="abcd2222", owner="alice")
    add(store, mine, theirs)
    assert store.get_document("abcd", Access(user="bob")) == mine.document


# -- permissions (the matrix: test_permissions.py) ------------------------------------------


def test_list_is_newest_first_and_filtered(store: DocumentStore) -> None:
    old = sample("old", visibility="public", created="2024-01-01T00:00:00Z")
    new = sample("new", visibility="public", created="2024-06-01T00:00:00Z")
    hidden = sample("hidden", created="2024-09-01T00:00:00Z")
    add(store, new, hidden, old)
    assert [d.id for d in store.list_documents(Access(user="bob"))] == [new.id, old.id]
    assert [d.id for d in store.list_documents(Access.local())] == [hidden.id, new.id, old.id]


def test_permission_filter_runs_inside_the_query(settings: Settings) -> None:
    """SQLite: the statement that lists documents carries the filter itself, so a
    document the caller may not see is never read from the database."""
    statements: list[str] = []
    opened = SQLiteStore(settings.database_path, OriginalFiles(settings.files_dir))
    add(opened, sample("hidden"), sample("shared", visibility="org", org_tags=("physics",)))
    opened.close()
    with SQLiteStore(
        settings.database_path, OriginalFiles(settings.files_dir), trace=statements.append
    ) as traced:
        statements.clear()
        assert traced.list_documents(Access(user="carol", orgs=("physics",)))
    (query,) = [s for s in statements if "FROM documents d" in s]
    assert "document_access" in query
    assert "'u:carol'" in query and "'o:physics'" in query and "'public'" in query


# -- deleting --------------------------------------------------------------------------------


def test_delete_removes_rows_and_file(store: DocumentStore) -> None:
    gone, kept = sample("gone"), sample("kept")
    add(store, gone, kept)
    path = store.original_path(gone.document)
    store.delete_document(gone.id, Access(user="alice"))
    assert_no_trace(store, gone)
    assert not path.exists()
    assert list(path.parent.iterdir()) == []  # nothing set aside and forgotten
    assert_intact(store, kept)


def test_only_the_owner_may_delete(store: DocumentStore) -> None:
    item = sample("guarded", visibility="public")
    add(store, item)
    with pytest.raises(NotFound):
        store.delete_document(item.id, Access(user="bob"))
    with pytest.raises(NotFound):
        store.delete_document("ffffffffffffffff", Access.local())
    assert_intact(store, item)
    store.delete_document(item.id, Access.local())
    assert_no_trace(store, item)


def test_delete_keeps_an_original_another_document_uses(store: DocumentStore) -> None:
    data = b"the same bytes under two ids"
    first = sample("first", doc_id="aaaa0001", original=data)
    second = sample("second", doc_id="bbbb0002", original=data)
    add(store, first, second)
    store.delete_document(first.id, Access.local())
    assert_intact(store, second)


# -- changing visibility ---------------------------------------------------------------------

# Who sees a document of alice's tagged "physics" (carol is in physics), by its visibility.
SEES_ALICES = {
    "private": {"alice"},
    "org": {"alice", "carol"},
    "public": {"alice", "bob", "carol"},
}


@pytest.mark.parametrize("before", ["private", "org", "public"])
@pytest.mark.parametrize("after", ["private", "org", "public"])
def test_set_visibility_changes_who_sees_it(
    store: DocumentStore, before: Visibility, after: Visibility
) -> None:
    item = sample("moved", visibility=before, org_tags=("physics",))
    add(store, item)
    changed = store.set_visibility(item.id, after, Access(user="alice"))
    assert changed == replace(item.document, visibility=after)
    viewers = [Access(user="alice"), Access(user="bob"), Access(user="carol", orgs=("physics",))]
    seeing = {v.user for v in viewers if store.list_documents(v)}
    assert seeing == SEES_ALICES[after]
    assert store.get_document(item.id, Access.local()) == changed
    assert store.blocks(item.id) == item.stored.blocks  # only the visibility changed


def test_only_the_owner_may_set_visibility(store: DocumentStore) -> None:
    item = sample("guarded", visibility="public")
    add(store, item)
    with pytest.raises(NotFound):
        store.set_visibility(item.id, "private", Access(user="bob"))
    with pytest.raises(NotFound):
        store.set_visibility("ffffffffffffffff", "public", Access.local())
    with pytest.raises(InputError, match="visibility"):
        store.set_visibility(item.id, cast(Visibility, "secret"), Access.local())
    assert_intact(store, item)
    assert store.set_visibility(item.id, "org", Access.local()).visibility == "org"


# -- crash safety ----------------------------------------------------------------------------


def test_failed_insert_leaves_no_trace(store: DocumentStore) -> None:
    earlier, broken = sample("earlier"), sample("broken")
    add(store, earlier)
    chunks = broken.stored.chunks
    duplicate = replace(chunks[1], id=chunks[0].id)  # the UNIQUE constraint fails mid-insert
    with pytest.raises(StoreError, match="(?i)unique"):  # either driver's words
        store.add_document(replace(broken.stored, chunks=(chunks[0], duplicate)), broken.original)
    assert_no_trace(store, broken)
    assert not store.original_path(broken.document).exists()
    assert_intact(store, earlier)


class ExplodingSpan:
    """Stands in for a ``BlockSpan`` that cannot be read: an error deep inside the data."""

    start, end = 0, 1

    @property
    def block_id(self) -> str:
        raise RuntimeError("boom")


def with_bad_chunk(item: Sample, span: object) -> StoredDocument:
    """The sample with one more chunk, last, whose span fails when it is written."""
    bad = Chunk(f"{item.id}-x", item.id, 2, (cast(BlockSpan, span),), "x")
    return replace(item.stored, chunks=(*item.stored.chunks, bad))


def test_error_in_the_data_rolls_back(store: DocumentStore) -> None:
    earlier, broken = sample("earlier"), sample("broken")
    add(store, earlier)
    with pytest.raises(RuntimeError, match="boom"):
        store.add_document(with_bad_chunk(broken, ExplodingSpan()), broken.original)
    assert_no_trace(store, broken)
    assert_intact(store, earlier)


CRASHING_WRITER = """
import os, sys
from pathlib import Path
from askalong.config import Settings
from askalong.store.backends import open_store
from tests.contract.test_store import ExplodingSpan, sample, with_bad_chunk

class DyingSpan(ExplodingSpan):
    block_id = property(lambda self: os._exit(7))  # the process dies mid-transaction

item = sample("dies")
store = open_store(Settings(home=Path(sys.argv[1])))
store.add_document(with_bad_chunk(item, DyingSpan()), item.original)
"""


def test_process_crash_mid_transaction_leaves_no_trace(settings: Settings) -> None:
    earlier = sample("earlier")
    with open_store(settings) as store:
        add(store, earlier)
    repo = Path(__file__).resolve().parents[2]
    run = subprocess.run(
        [sys.executable, "-c", CRASHING_WRITER, str(settings.home)],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": f"{repo / 'src'}:{repo}:{repo / 'tests'}"},
    )
    assert run.returncode == 7, run.stderr
    with open_store(settings) as store:
        assert_no_trace(store, sample("dies"))
        assert_intact(store, earlier)


# -- persistence, migrations, concurrency ---------------------------------------------------


def test_data_survives_reopening(backend_settings: Settings) -> None:
    item = sample("kept", visibility="org", org_tags=("physics",))
    with open_store(backend_settings) as first:
        add(first, item)
    with open_store(backend_settings) as second:
        assert_intact(second, item)


def test_closed_store_raises_store_error(backend_settings: Settings) -> None:
    with open_store(backend_settings) as opened:
        pass
    with pytest.raises(StoreError):
        opened.list_documents(Access.local())


def test_migrations_are_applied_once(settings: Settings) -> None:
    for _ in range(2):
        open_store(settings).close()
    with sqlite3.connect(settings.database_path) as conn:
        rows = conn.execute("SELECT version, name FROM schema_migrations ORDER BY version")
        recorded = rows.fetchall()
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert recorded == [(m.version, m.name) for m in migrations()]
    assert recorded[0] == (1, "initial")
    assert {"documents", "blocks", "chunks", "document_org_tags"} <= tables


def test_opening_a_new_file_from_several_threads_at_once(settings: Settings) -> None:
    errors: list[BaseException] = []

    def open_and_close() -> None:
        try:
            open_store(settings).close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_and_close) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with sqlite3.connect(settings.database_path) as conn:
        count = conn.execute("SELECT count(*) FROM schema_migrations").fetchone()[0]
    assert count == len(migrations())


def test_a_newer_schema_is_refused(settings: Settings) -> None:
    open_store(settings).close()
    with sqlite3.connect(settings.database_path) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (9999, 'future', 'later')")
    with pytest.raises(StoreError, match="newer"):
        open_store(settings)


def test_split_statements_keeps_triggers_whole() -> None:
    script = (
        "-- a comment; with a semicolon\nCREATE TABLE t (a TEXT);\n"
        "CREATE TRIGGER r AFTER INSERT ON t BEGIN\n  DELETE FROM t;\nEND;\n-- trailing\n"
    )
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    with pytest.raises(StoreError, match="unterminated"):
        split_statements("CREATE TABLE t (a TEXT)")


def test_wal_readers_keep_their_snapshot_while_a_writer_commits(settings: Settings) -> None:
    first, second = sample("first"), sample("second")
    with open_store(settings) as store:
        add(store, first)
        reader = sqlite3.connect(settings.database_path, isolation_level=None, timeout=0)
        try:
            assert reader.execute("PRAGMA journal_mode").fetchone() == ("wal",)
            reader.execute("BEGIN")
            assert reader.execute("SELECT count(*) FROM documents").fetchone() == (1,)
            add(store, second)  # would wait on the reader (and time out) without WAL
            assert reader.execute("SELECT count(*) FROM documents").fetchone() == (1,)
            reader.execute("COMMIT")
            assert reader.execute("SELECT count(*) FROM documents").fetchone() == (2,)
        finally:
            reader.close()


def test_concurrent_readers_while_writing(backend_settings: Settings) -> None:
    writer = open_store(backend_settings)
    readers = [open_store(backend_settings), writer]  # another connection, and a shared one
    items = [sample(f"doc{i}", visibility="public") for i in range(12)]
    seen: list[list[int]] = [[] for _ in readers]
    errors: list[BaseException] = []
    done = threading.Event()

    def read(index: int) -> None:
        try:
            while not done.is_set():
                seen[index].append(len(readers[index].list_documents(Access(user="bob"))))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=read, args=(i,)) for i in range(len(readers))]
    for thread in threads:
        thread.start()
    try:
        add(writer, *items)
    finally:
        done.set()
        for thread in threads:
            thread.join()
        for opened in readers:
            opened.close()
    assert errors == []
    assert all(counts and counts == sorted(counts) for counts in seen)
    with open_store(backend_settings) as reopened:
        assert len(reopened.list_documents(Access(user="bob"))) == len(items)


@pytest.mark.slow  # a long document into both backends: make test, not make check
def test_a_long_document_round_trips(store: DocumentStore) -> None:
    """A manual-sized document (20k blocks here; 50k in the benchmark) in one transaction."""
    item = sample("manual")
    boxes = tuple(
        LineBox(72.0, 100.0 + 12 * j, 523.5, 111.0 + 12 * j, 40 * j, 40 * j + 40) for j in range(4)
    )
    blocks = tuple(
        Block(
            f"b{i}",
            "paragraph",
            "段落 paragraph " * 10,
            i,
            ("Chapter", f"§{i // 100}"),
            page=1 + i // 40,
            boxes=boxes,
        )
        for i in range(20_000)
    )
    store.add_document(StoredDocument(item.document, blocks, ()), item.original)
    assert store.blocks(item.id) == blocks
    assert store.blocks(item.id, page=3) == blocks[80:120]


def test_opening_the_store_removes_stale_temp_originals(backend_settings: Settings) -> None:
    """A crash between ``mkstemp`` and the rename leaves ``.tmp-*``: the next open sweeps
    those older than a minute and keeps a young one (another process may be writing it)."""
    folder = backend_settings.files_dir / "ab"
    folder.mkdir(parents=True)
    stale, young = folder / ".tmp-crashed", folder / ".tmp-writing"
    stale.write_bytes(b"half an original")
    young.write_bytes(b"being written")
    an_hour_ago = time.time() - 3600
    os.utime(stale, (an_hour_ago, an_hour_ago))
    open_store(backend_settings).close()
    assert not stale.exists()
    assert young.exists()
