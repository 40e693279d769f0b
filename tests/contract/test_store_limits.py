"""The per-user request counts (``LimitStore``) and site administrators, for every backend:
a window counts up, a new window starts again from one, each user counts alone; the first
account is an administrator, later ones only when made so."""

from __future__ import annotations

from askalong.store.accounts import UserStore
from askalong.store.limits import LimitStore

PASSWORD = "correct horse battery"


def test_a_window_counts_each_user_alone(store: LimitStore) -> None:
    assert [store.count_request("alice", 600) for _ in range(3)] == [1, 2, 3]
    assert store.count_request("bob", 600) == 1
    assert store.count_request("local", 600) == 1
    assert store.count_request("alice", 660) == 1  # the next minute starts from one
    assert store.count_request("alice", 660) == 2
    assert store.count_request("bob", 600) == 2


def test_the_first_account_is_an_administrator(store: UserStore) -> None:
    assert store.add_user("alice", PASSWORD).admin
    assert not store.add_user("bob", PASSWORD).admin
    assert store.add_user("carol", PASSWORD, admin=True).admin
    assert [u.admin for u in store.list_users()] == [True, False, True]
    got = store.get_user("carol")
    assert got is not None and got.admin
    checked = store.check_password("alice", PASSWORD)
    assert checked is not None and checked.admin
