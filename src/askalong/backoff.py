"""The sign-in back-off (pure): how long a password try under a key (an account, a client
address) must wait after that key's failures (OWASP ASVS V2.2.1).

The first ``free`` failures cost nothing; from then on each try waits ``first`` seconds
after the last failure, doubled with every further failure, at most ``longest``. A key
that stayed quiet for ``forget`` seconds starts again from zero. The store counts
(``store/logins``); this decides.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_DOUBLINGS = 30  # 2**30 seconds is past any sensible ``longest``: no float overflow


@dataclass(frozen=True)
class Backoff:
    free: int = 5
    first: float = 1.0
    longest: float = 900.0
    forget: float = 24 * 3600.0

    def wait(self, failures: int, last_failure: float, now: float) -> float:
        """Seconds from ``now`` until a key with ``failures`` may try again (0: now)."""
        if failures < self.free or self.forgotten(last_failure, now):
            return 0.0
        doublings = min(failures - self.free, MAX_DOUBLINGS)
        return max(0.0, last_failure + min(self.longest, self.first * 2**doublings) - now)

    def forgotten(self, last_failure: float, now: float) -> bool:
        return now - last_failure >= self.forget


@dataclass(frozen=True)
class LoginTry:
    """A try as the store took it: ``wait`` > 0 refuses it (nothing was counted);
    otherwise it counts as a failure of every key until it succeeds, and ``failures`` is
    the most any key now holds."""

    wait: float
    failures: int
