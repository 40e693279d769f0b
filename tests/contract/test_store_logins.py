"""Failed sign-ins (``LoginStore``, issue 25), for every backend: a try is counted before
its password is checked, the sixth within the back-off is refused with its wait and not
counted, the wait doubles, an address throttles every account tried from it, a success
clears its account and takes back only its own count from the address, a quiet key is
forgotten."""

from __future__ import annotations

from askalong.backoff import Backoff
from askalong.store.logins import LoginStore

BACKOFF = Backoff(free=5, first=1.0, longest=900.0, forget=3600.0)
ALICE = ("user:alice", "addr:10.0.0.1")
T0 = 1_000_000.0


def test_five_tries_then_a_doubling_wait(store: LoginStore) -> None:
    assert [store.take_login_try(ALICE, T0, BACKOFF).wait for _ in range(5)] == [0.0] * 5
    refused = store.take_login_try(ALICE, T0 + 0.5, BACKOFF)
    assert (refused.wait, refused.failures) == (0.5, 5)
    assert store.take_login_try(ALICE, T0 + 0.9, BACKOFF).wait > 0  # the refusal counted nothing
    taken = store.take_login_try(ALICE, T0 + 1, BACKOFF)
    assert (taken.wait, taken.failures) == (0.0, 6)
    assert store.take_login_try(ALICE, T0 + 1, BACKOFF).wait == 2.0
    assert store.take_login_try(ALICE, T0 + 3, BACKOFF).failures == 7
    assert store.take_login_try(ALICE, T0 + 3, BACKOFF).wait == 4.0


def test_an_address_throttles_every_account_tried_from_it(store: LoginStore) -> None:
    for n in range(5):
        store.take_login_try((f"user:u{n}", "addr:10.0.0.9"), T0, BACKOFF)
    assert store.take_login_try(("user:u9", "addr:10.0.0.9"), T0, BACKOFF).wait == 1.0
    assert store.take_login_try(("user:u9", "addr:10.0.0.8"), T0, BACKOFF).wait == 0.0


def test_a_success_clears_its_account_and_its_own_count(store: LoginStore) -> None:
    for _ in range(4):
        store.take_login_try(ALICE, T0, BACKOFF)
    store.take_login_try(ALICE, T0, BACKOFF)  # the fifth try: the right password
    store.login_succeeded(ALICE[0], ALICE[1:])
    bob = ("user:bob", ALICE[1])
    assert store.take_login_try(bob, T0, BACKOFF).failures == 5  # the address kept its 4
    assert store.take_login_try(("user:alice", "addr:10.0.0.2"), T0, BACKOFF).failures == 1


def test_a_quiet_key_is_forgotten(store: LoginStore) -> None:
    for n in range(9):
        store.take_login_try(ALICE, T0 + 100 * n, BACKOFF)
    later = T0 + 800 + BACKOFF.forget
    assert store.take_login_try(ALICE, later, BACKOFF) == store.take_login_try(
        ("user:x", "addr:x"), later, BACKOFF
    )
