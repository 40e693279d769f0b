"""The sign-in back-off's policy (``askalong.backoff``): free failures, a doubling wait
from the last failure, a ceiling, and a quiet key forgotten."""

from __future__ import annotations

from askalong.backoff import Backoff

POLICY = Backoff(free=5, first=1.0, longest=900.0, forget=86400.0)


def test_the_wait_doubles_from_the_last_failure_up_to_its_ceiling() -> None:
    assert [POLICY.wait(n, 100.0, 100.0) for n in range(4, 9)] == [0.0, 1.0, 2.0, 4.0, 8.0]
    assert POLICY.wait(7, 100.0, 103.0) == 1.0  # 4 s owed, 3 gone
    assert POLICY.wait(7, 100.0, 105.0) == 0.0
    assert POLICY.wait(10_000, 100.0, 100.0) == 900.0  # no overflow, the ceiling holds


def test_a_key_quiet_for_a_day_is_forgotten() -> None:
    """Its count then starts from zero (the store drops it), so long-past failures do not
    make the next failure's wait longer."""
    assert not POLICY.forgotten(0.0, 86399.0)
    assert POLICY.forgotten(0.0, 86400.0)
