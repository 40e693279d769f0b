"""Browser sessions (``SessionStore``, issue 25) and user ids without case, for every
backend: a session counts until it is ended; disabling a user ends all theirs for good;
a password change ends all but the changer's; ``ROOT`` cannot be added beside ``root``,
any case finds the user, and a file that already holds two case-variants still opens."""

from __future__ import annotations

import sqlite3

import pytest

from askalong.config import Settings
from askalong.errors import InputError
from askalong.store.backends import open_store
from askalong.store.base import Store
from askalong.store.credentials import hash_password
from askalong.store.sqlite.migrate import apply_migrations, migrations

PASSWORD = "correct horse battery"
NEW_PASSWORD = "another long phrase"
ISSUED = 1_700_000_000
WEEK = 7 * 24 * 3600


def opened(store: Store, user: str, *nonces: str) -> None:
    for nonce in nonces:
        store.open_session(user, nonce, ISSUED, ISSUED - WEEK)


def test_a_session_counts_until_it_ends(store: Store) -> None:
    store.add_user("alice", PASSWORD)
    store.add_user("bob", PASSWORD)
    opened(store, "alice", "n1", "n2")
    assert store.session_live("alice", "n1") and store.session_live("alice", "n2")
    assert not store.session_live("bob", "n1")  # a nonce is its own user's only
    assert not store.session_live("alice", "never-opened")
    store.end_session("n1")
    assert not store.session_live("alice", "n1") and store.session_live("alice", "n2")


def test_disabling_ends_every_session_for_good(store: Store) -> None:
    store.add_user("alice", PASSWORD)
    store.add_user("bob", PASSWORD)
    opened(store, "alice", "a1", "a2")
    opened(store, "bob", "b1")
    store.set_disabled("alice", True)
    store.set_disabled("alice", False)
    assert not store.session_live("alice", "a1") and not store.session_live("alice", "a2")
    assert store.session_live("bob", "b1")


def test_a_password_change_ends_the_other_sessions(store: Store) -> None:
    store.add_user("alice", PASSWORD)
    opened(store, "alice", "here", "phone", "laptop")
    store.set_password("alice", NEW_PASSWORD, keep_session="here")
    assert [store.session_live("alice", n) for n in ("here", "phone", "laptop")] == [
        True,
        False,
        False,
    ]
    assert store.check_password("alice", PASSWORD) is None
    assert store.check_password("alice", NEW_PASSWORD) is not None
    store.set_password("alice", PASSWORD)  # from the command line: every session ends
    assert not store.session_live("alice", "here")
    with pytest.raises(InputError):
        store.set_password("alice", "short")


def test_old_sessions_are_dropped_as_new_ones_open(store: Store) -> None:
    store.add_user("alice", PASSWORD)
    store.open_session("alice", "old", ISSUED - WEEK - 1, ISSUED - 2 * WEEK)
    store.open_session("alice", "new", ISSUED, ISSUED - WEEK)
    assert not store.session_live("alice", "old") and store.session_live("alice", "new")


def test_user_ids_ignore_case(store: Store) -> None:
    store.add_user("root", PASSWORD)
    for variant in ("ROOT", "Root", "rOOt"):
        with pytest.raises(InputError, match="'root' exists already"):
            store.add_user(variant, PASSWORD)
    assert [u.id for u in store.list_users()] == ["root"]
    found = store.check_password("ROOT", PASSWORD)
    assert found is not None and found.id == "root"
    assert (got := store.get_user("Root")) is not None and got.id == "root"
    store.add_org("ops")
    assert store.set_member("ops", "ROOT", "member") is not None
    assert store.access_of("root").orgs == ("ops",)
    token, _ = store.create_token("Root")
    assert token.user == "root"


def test_a_file_with_case_variant_ids_still_opens(settings: Settings) -> None:
    """Made before ids ignored case: each keeps signing in by its exact id, an ambiguous
    variant finds neither, and no third variant can be added."""
    settings.database_path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(settings.database_path, isolation_level=None)
    apply_migrations(conn, tuple(m for m in migrations() if m.version <= 11))
    for user_id in ("root", "ROOT"):
        conn.execute(
            "INSERT INTO users (id, password_hash, created) VALUES (?, ?, '2026-01-01')",
            (user_id, hash_password(PASSWORD)),
        )
    conn.close()
    with open_store(settings) as store:
        assert [u.id for u in store.list_users()] == ["ROOT", "root"]
        for exact in ("ROOT", "root"):
            found = store.check_password(exact, PASSWORD)
            assert found is not None and found.id == exact
        assert store.check_password("Root", PASSWORD) is None
        with pytest.raises(InputError):
            store.add_user("rooT", PASSWORD)
