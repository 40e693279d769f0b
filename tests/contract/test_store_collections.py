"""Collections in the store (contract, run against every backend): membership, names per
owner, what deleting either side does, the permission filter on members, and a store made
before collections existed migrating to them."""

from __future__ import annotations

import sqlite3

import pytest
from permissions import DOCUMENTS, Entry, original, stored

from askalong.config import Settings
from askalong.errors import InputError, NotFound
from askalong.store.backends import open_store
from askalong.store.base import Store
from askalong.store.sql.documents import _insert_rows
from askalong.store.sqlite.migrate import apply_migrations, migrations
from askalong.types import Access

ALICE = Access(user="alice")
BOB = Access(user="bob")
LOCAL = Access.local()
BY_ID = {entry.id: entry for entry in DOCUMENTS}


def put(store: Store, *ids: str) -> None:
    for doc_id in ids:
        entry: Entry = BY_ID[doc_id]
        store.add_document(stored(entry), original(entry))


def member_ids(store: Store, collection_id: str, access: Access) -> list[str]:
    return [d.id for d in store.collection_documents(collection_id, access)]


def test_a_collection_is_made_then_extended_without_repeats(store: Store) -> None:
    put(store, "d1-alice-private", "d2-alice-org", "d3-alice-public")
    made = store.add_to_collection("manual", ["d1-alice-private", "d2-alice-org"], ALICE)
    assert (made.name, made.owner, made.documents, made.chunks) == ("manual", "alice", 2, 2)
    again = store.add_to_collection("manual", ["d2-alice-org", "d3-alice-public"], ALICE)
    assert again.id == made.id and again.created == made.created
    assert (again.documents, again.chunks) == (3, 3)
    assert member_ids(store, made.id, ALICE) == [
        "d1-alice-private",
        "d2-alice-org",
        "d3-alice-public",
    ]
    assert store.list_collections(ALICE) == [again]


def test_names_are_unique_per_owner_and_private_to_it(store: Store) -> None:
    put(store, "d3-alice-public", "d7-carol-public")
    alices = store.add_to_collection("manual", ["d3-alice-public"], ALICE)
    bobs = store.add_to_collection("manual", ["d7-carol-public"], BOB)
    assert alices.id != bobs.id
    assert store.get_collection("manual", ALICE) == alices
    assert store.get_collection("manual", BOB) == bobs
    assert store.list_collections(BOB) == [bobs]
    with pytest.raises(NotFound):
        store.get_collection(alices.id, BOB)
    with pytest.raises(NotFound):
        store.delete_collection(alices.id, BOB)
    with pytest.raises(InputError, match="several collections"):
        store.get_collection("manual", Access(user="carol", everything=True))
    assert store.get_collection(alices.id, LOCAL) == alices


def test_members_are_only_the_documents_the_caller_may_see(store: Store) -> None:
    put(store, "d2-alice-org", "d4-bob-private", "d7-carol-public")
    everything = store.add_to_collection(
        "all", ["d2-alice-org", "d4-bob-private", "d7-carol-public"], LOCAL
    )
    assert member_ids(store, everything.id, Access(user="dave", orgs=("physics",))) == [
        "d2-alice-org",
        "d7-carol-public",
    ]
    assert member_ids(store, everything.id, Access(user="eve")) == ["d7-carol-public"]
    mine = store.add_to_collection("read", ["d2-alice-org", "d7-carol-public"], ALICE)
    store.set_visibility("d7-carol-public", "private", Access(user="carol"))
    assert store.get_collection(mine.id, ALICE).documents == 1  # counted only when visible
    assert member_ids(store, mine.id, ALICE) == ["d2-alice-org"]


def test_only_a_visible_document_can_be_added(store: Store) -> None:
    put(store, "d3-alice-public", "d4-bob-private")
    with pytest.raises(NotFound) as raised:
        store.add_to_collection("mixed", ["d3-alice-public", "d4-bob-private"], ALICE)
    assert raised.value.source == "d4-bob-private"
    assert store.list_collections(ALICE) == []  # all or nothing


def test_deleting_a_document_drops_its_membership(store: Store) -> None:
    put(store, "d1-alice-private", "d2-alice-org")
    made = store.add_to_collection("manual", ["d1-alice-private", "d2-alice-org"], ALICE)
    store.delete_document("d1-alice-private", ALICE)
    assert member_ids(store, made.id, ALICE) == ["d2-alice-org"]
    assert store.get_collection(made.id, ALICE).documents == 1


def test_a_documents_collections_are_the_callers_that_hold_it(store: Store) -> None:
    put(store, "d1-alice-private", "d3-alice-public")
    store.add_to_collection("repo", ["d1-alice-private", "d3-alice-public"], ALICE)
    store.add_to_collection("other", ["d3-alice-public"], ALICE)
    store.add_to_collection("bobs", ["d3-alice-public"], BOB)
    assert [c.name for c in store.document_collections("d3-alice-public", ALICE)] == [
        "other",
        "repo",
    ]
    assert [c.name for c in store.document_collections("d1-alice-private", ALICE)] == ["repo"]
    assert [c.name for c in store.document_collections("d3-alice-public", BOB)] == ["bobs"]
    assert len(store.document_collections("d3-alice-public", LOCAL)) == 3


def test_deleting_a_collection_keeps_its_documents(store: Store) -> None:
    put(store, "d1-alice-private", "d2-alice-org")
    made = store.add_to_collection("manual", ["d1-alice-private", "d2-alice-org"], ALICE)
    other = store.add_to_collection("other", ["d1-alice-private"], ALICE)
    store.delete_collection(made.id, ALICE)
    assert store.list_collections(ALICE) == [other]
    assert {d.id for d in store.list_documents(ALICE)} == {"d1-alice-private", "d2-alice-org"}
    with pytest.raises(NotFound):
        store.get_collection("manual", ALICE)


@pytest.mark.parametrize("name", ["", "   ", "a\nb", "x" * 201, "bell\x07"])
def test_a_bad_name_is_refused(store: Store, name: str) -> None:
    put(store, "d3-alice-public")
    with pytest.raises(InputError):
        store.add_to_collection(name, ["d3-alice-public"], ALICE)


def test_a_store_from_before_collections_migrates(settings: Settings) -> None:
    """A file with only the first migrations and a document in it: opening it adds the
    collection tables, keeps the document, and the document can join a collection."""
    older = tuple(m for m in migrations() if m.version < 3)
    entry = BY_ID["d2-alice-org"]
    settings.database_path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(settings.database_path, isolation_level=None)
    apply_migrations(conn, older)
    conn.execute("BEGIN")
    # As a store before accounts wrote it, into the documents table as it was then (no
    # unread_pages, 0005).
    conn.execute("ALTER TABLE documents ADD COLUMN unread_pages TEXT NOT NULL DEFAULT '[]'")
    conn.execute("ALTER TABLE chunks ADD COLUMN description TEXT NOT NULL DEFAULT ''")  # 0011
    _insert_rows(conn, stored(entry))
    conn.execute("ALTER TABLE documents DROP COLUMN unread_pages")
    conn.execute("ALTER TABLE chunks DROP COLUMN description")
    conn.execute("COMMIT")
    conn.close()
    with open_store(settings) as store:
        assert store.get_document(entry.id, ALICE) == stored(entry).document
        made = store.add_to_collection("kept", [entry.id], ALICE)
        assert (made.documents, made.chunks) == (1, 1)
    with sqlite3.connect(settings.database_path) as check:
        versions = [row[0] for row in check.execute("SELECT version FROM schema_migrations")]
    assert versions == [m.version for m in migrations()]
