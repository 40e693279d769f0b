"""The accounts contract (users, API tokens, orgs as a tree, memberships, each user's
``Access``) for every backend, and the migration that gives existing documents tokens."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest
from test_store import add, sample

from askalong.config import Settings
from askalong.errors import InputError, NotFound
from askalong.store.backends import open_store
from askalong.store.base import Store
from askalong.store.sqlite.migrate import apply_migrations, migrations
from askalong.types import Access
from conftest import read_raw

PASSWORD = "correct horse battery"


def test_a_user_logs_in_with_their_password_only(store: Store) -> None:
    assert not store.has_users()
    store.add_user("alice", PASSWORD)
    assert store.has_users()
    assert store.check_password("alice", PASSWORD) is not None
    assert store.check_password("alice", PASSWORD + "!") is None
    assert store.check_password("bob", PASSWORD) is None


def test_user_ids_are_checked(store: Store) -> None:
    for bad in ("", "local", "a b", "-x", "ä" * 3, "x" * 65):
        with pytest.raises(InputError):
            store.add_user(bad, PASSWORD)
    with pytest.raises(InputError):
        store.add_user("short", "1234567")  # under the minimum length
    store.add_user("alice", PASSWORD)
    with pytest.raises(InputError):
        store.add_user("alice", PASSWORD)


def test_the_stored_hash_is_argon2id_never_the_password(
    store: Store, backend_settings: Settings
) -> None:
    store.add_user("alice", PASSWORD)
    [(hashed,)] = read_raw(backend_settings, "SELECT password_hash FROM users")
    assert hashed.startswith("$argon2id$") and PASSWORD not in hashed


def test_tokens_are_stored_as_digests_and_shown_once(
    store: Store, backend_settings: Settings
) -> None:
    store.add_user("alice", PASSWORD)
    listed, secret = store.create_token("alice", "script")
    assert store.user_of_token(secret) is not None
    assert store.user_of_token(secret + "x") is None
    [(digest,)] = read_raw(backend_settings, "SELECT digest FROM api_tokens")
    assert digest == hashlib.sha256(secret.encode()).hexdigest() and secret not in digest
    assert store.list_tokens("alice") == [listed]
    assert store.revoke_token(listed.id).revoked
    assert store.user_of_token(secret) is None


def test_disabling_stops_password_and_tokens_at_once(store: Store) -> None:
    store.add_user("alice", PASSWORD)
    _, secret = store.create_token("alice")
    assert store.set_disabled("alice", True).disabled
    assert store.check_password("alice", PASSWORD) is None
    assert store.user_of_token(secret) is None
    store.set_disabled("alice", False)
    assert store.user_of_token(secret) is not None


def test_an_org_member_reads_up_the_tree(store: Store) -> None:
    """A department sees the company's ``org`` documents; the company does not see the
    department's."""
    for user in ("ceo", "dev", "ops"):
        store.add_user(user, PASSWORD)
    store.add_org("acme")
    store.add_org("eng", parent="acme")
    store.add_org("backend", parent="eng")
    store.add_org("sales", parent="acme")
    store.set_member("acme", "ceo", "admin")
    store.set_member("backend", "dev", "member")
    store.set_member("sales", "ops", "admin")
    assert store.access_of("dev") == Access(
        user="dev", orgs=("acme", "backend", "eng"), member_of=("backend",)
    )
    assert store.access_of("ceo").orgs == ("acme",)
    assert store.access_of("ceo").admin_of == ("acme",)
    assert store.access_of("ops").admin_of == ("sales",)
    assert store.set_member("backend", "dev", None) is None
    assert store.access_of("dev").orgs == ()


def test_orgs_and_memberships_refuse_unknown_names(store: Store) -> None:
    with pytest.raises(NotFound):
        store.add_org("eng", parent="nowhere")
    store.add_org("eng")
    with pytest.raises(InputError):
        store.add_org("eng")
    with pytest.raises(NotFound):
        store.set_member("eng", "nobody", "member")
    store.add_user("alice", PASSWORD)
    with pytest.raises(InputError):
        store.set_member("eng", "alice", "owner")  # type: ignore[arg-type]


def test_migration_gives_existing_documents_their_owners_token(settings: Settings) -> None:
    """A library made before accounts: every document keeps its owner's token, so a
    caller who is that owner (not the all-seeing local access) still sees it."""
    settings.database_path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(settings.database_path, isolation_level=None)
    apply_migrations(conn, tuple(m for m in migrations() if m.version <= 3))
    for doc_id, visibility in (("d-private", "private"), ("d-public", "public")):
        conn.execute(
            "INSERT INTO documents VALUES (?, 'h', 'T', 's', 'text', 'en', 0, 1,"
            " '2024-01-01T00:00:00Z', 'local', ?, '[]', '[]', '[]')",
            (doc_id, visibility),
        )
    conn.close()
    with open_store(settings) as store:
        assert {d.id for d in store.list_documents(Access(user="local"))} == {
            "d-private",
            "d-public",
        }
        assert [d.id for d in store.list_documents(Access(user="eve"))] == ["d-public"]


def test_an_org_admin_may_change_visibility_but_not_delete(store: Store) -> None:
    """Re-sharing a shared document is its owner's or an admin's of one of its orgs; a
    private one is its owner's alone; deleting stays the owner's."""
    for user in ("alice", "boss", "peer", "top"):
        store.add_user(user, PASSWORD)
    store.add_org("acme")
    store.add_org("eng", parent="acme")
    store.set_member("eng", "boss", "admin")
    store.set_member("eng", "peer", "member")
    store.set_member("acme", "top", "admin")
    item = sample("shared", visibility="org", org_tags=("eng",))
    diary = sample("diary", visibility="private", org_tags=("eng",))
    add(store, item, diary)
    peer, boss, top = (store.access_of(u) for u in ("peer", "boss", "top"))
    assert [d.id for d in store.list_documents(peer)] == [item.id]
    assert store.list_documents(top) == []  # eng's documents are not acme's
    for outsider in (peer, top):
        with pytest.raises(NotFound):
            store.set_visibility(item.id, "public", outsider)
    with pytest.raises(NotFound):
        store.set_visibility(diary.id, "public", boss)
    assert store.set_visibility(item.id, "private", boss).visibility == "private"
    assert store.list_documents(peer) == []
    with pytest.raises(NotFound):
        store.set_visibility(item.id, "org", boss)  # private now: the owner's alone
    with pytest.raises(NotFound):
        store.delete_document(item.id, boss)
