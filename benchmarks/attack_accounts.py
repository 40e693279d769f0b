"""The attack suite's ``login`` and ``session`` sections (issue 25 §2, OWASP ASVS V2.2 and
V3.3), each against its own real ``askalong serve`` with accounts made through the admin
API. Tries come from several loopback addresses (127.0.0.x: every one reaches the server
on Linux), so each scenario has its own client address, as separate attackers would.

``login``: 40 wrong passwords for one account sent at once must hash at most 5 (the rest
429 with ``Retry-After``); the account is then refused from another address too, even with
its right password; the lockout is in the server's log; a success clears the account's
count; any case of an id signs in; then, for the rest of the budget, one address guesses
random names as fast as it can, and every password it gets checked past the fifth must
come at least the doubling wait after the one before. The note gives how many were hashed
and the answer times of refused and checked tries (a refused one spends no argon2 hash).

``session``: a signed-out session's cookie, replayed; a session of a user disabled then
enabled again; the other session of a user who changed their password; a case-variant of
an existing id made through the admin API. Each must be refused (401, or 400 for the id);
the cycle repeats with fresh sessions for the budget.
"""

from __future__ import annotations

import math
import random
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from attack_common import Row, spawned
from e2e.live import LiveServer

BURST = 40
FREE_FAILURES = 5  # askalong.backoff.Backoff's defaults
FIRST_WAIT = 1.0
SLACK = 0.05  # clock steps between the server's stamp and ours
WRONG = "not the password at all"


def login(seconds: float, rng: random.Random) -> Row:
    row = Row("login")
    with tempfile.TemporaryDirectory() as scratch, spawned(Path(scratch) / "home") as (server, _):
        passwords = _accounts(server, "alice", "bob", "carol")
        _burst(server, row, passwords["alice"])
        _reset(server, row, passwords["bob"])
        _any_case(server, row, passwords["carol"])
        checked, refused = _storm(server, row, rng, seconds)
        logged = _server_log(server).count("sign-in locked")
        row.record(time.perf_counter(), None if logged else "no lockout notice in the log")
    row.note = (
        f"storm from one address: {len(checked) + len(refused)} tries, {len(checked)} hashed;"
        f" refused p50 {_p50(refused):.1f} ms, checked p50 {_p50(checked):.1f} ms;"
        f" {logged} lockout notices logged"
    )
    return row


def session(seconds: float, rng: random.Random) -> Row:
    row = Row("session")
    with tempfile.TemporaryDirectory() as scratch, spawned(Path(scratch) / "home") as (server, _):
        passwords = _accounts(server, "alice", "bob", "carol")
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            _signed_out(server, row, "alice", passwords["alice"])
            _disabled(server, row, "bob", passwords["bob"])
            passwords["carol"] = _password_changed(server, row, "carol", passwords["carol"])
            _case_variant(server, row, rng.choice(["ALICE", "Bob", "cAROL"]))
    return row


# ------------------------------------------------------------------------------- login


def _burst(server: LiveServer, row: Row, password: str) -> None:
    """40 wrong tries at once: at most 5 hashed, plus one per doubling wait that passed
    while the burst was served (a hash takes up to a second on a loaded machine)."""
    started = time.perf_counter()
    codes = _at_once(server, "alice", [WRONG] * BURST, 2)
    elapsed = time.perf_counter() - started
    hashed = codes.count(401)
    allowed = FREE_FAILURES + int(math.log2(1 + elapsed / FIRST_WAIT))
    problem = None if hashed <= allowed else f"burst: {hashed} of {BURST} hashed in {elapsed:.1f} s"
    if hashed + codes.count(429) != BURST:
        problem = f"burst: answers {sorted(set(codes))}"
    row.record(started, problem)
    _locked_everywhere(server, row, password)


def _locked_everywhere(server: LiveServer, row: Row, password: str) -> None:
    """Once the account's wait is long (Retry-After of at least 4 s, from one address), its
    right password from another address is refused too."""
    started = time.perf_counter()
    wait = 0
    while wait < 4 and time.perf_counter() - started < 120:
        with _client(server, 2) as client:
            answer = client.post("/api/login", json={"user": "alice", "password": WRONG})
        wait = int(answer.headers.get("Retry-After", "0"))
    code, _ = _try(server, "alice", password, 3)
    row.record(started, None if code == 429 else f"locked account from elsewhere: {code}")


def _reset(server: LiveServer, row: Row, password: str) -> None:
    """4 failures and a success: 5 wrong tries at once are then all hashed (the count
    started again), a sixth with them is refused."""
    started = time.perf_counter()
    codes = [_try(server, "bob", WRONG, 4)[0] for _ in range(FREE_FAILURES - 1)]
    codes.append(_try(server, "bob", password, 4)[0])
    codes += sorted(_at_once(server, "bob", [WRONG] * (FREE_FAILURES + 1), 5))
    expected = [401] * 4 + [200] + [401] * FREE_FAILURES + [429]
    row.record(started, None if codes == expected else f"a success did not reset: {codes}")


def _at_once(server: LiveServer, user: str, passwords: list[str], host: int) -> list[int]:
    with ThreadPoolExecutor(len(passwords)) as pool:
        return list(pool.map(lambda p: _try(server, user, p, host)[0], passwords))


def _any_case(server: LiveServer, row: Row, password: str) -> None:
    started = time.perf_counter()
    code, user = _try(server, "CaRoL", password, 6)
    row.record(started, None if (code, user) == (200, "carol") else f"CaRoL: {code} {user}")


def _storm(
    server: LiveServer, row: Row, rng: random.Random, seconds: float
) -> tuple[list[float], list[float]]:
    """Random names from one address, no pause; (checked, refused) answer times in ms."""
    checked: list[float] = []
    refused: list[float] = []
    stamps: list[float] = []
    ends = time.monotonic() + seconds
    with _client(server, 7) as client:
        while time.monotonic() < ends:
            name = f"user{rng.randrange(10**6)}"
            started, sent = time.perf_counter(), time.monotonic()
            answer = client.post("/api/login", json={"user": name, "password": WRONG})
            took = (time.perf_counter() - started) * 1000
            (checked if answer.status_code == 401 else refused).append(took)
            row.record(started, _storm_problem(answer, stamps, sent))
    return checked, refused


def _storm_problem(answer: httpx.Response, stamps: list[float], sent: float) -> str | None:
    """``stamps``: when each hashed try was sent (the server counts a try as it arrives,
    before hashing, so send times are what its waits are measured between)."""
    if answer.status_code == 429:
        wait = answer.headers.get("Retry-After", "")
        return None if wait.isdigit() and int(wait) >= 1 else f"429 with Retry-After {wait!r}"
    if answer.status_code != 401:
        return f"storm: {answer.status_code}"
    stamps.append(sent)
    if len(stamps) <= FREE_FAILURES:
        return None
    owed = min(900.0, FIRST_WAIT * 2 ** (len(stamps) - 1 - FREE_FAILURES))
    gap = stamps[-1] - stamps[-2]
    return None if gap >= owed - SLACK else f"hashed try {len(stamps)} after {gap:.2f} s < {owed}"


# ----------------------------------------------------------------------------- session


def _signed_out(server: LiveServer, row: Row, user: str, password: str) -> None:
    started = time.perf_counter()
    with _client(server, 20) as browser:
        csrf = _sign_in(browser, user, password)
        cookies = dict(browser.cookies)
        browser.post("/api/logout", headers={"X-CSRF-Token": csrf})
    code = _replay(server, cookies)
    row.record(started, None if code == 401 else f"signed-out session replayed: {code}")


def _disabled(server: LiveServer, row: Row, user: str, password: str) -> None:
    started = time.perf_counter()
    with _client(server, 21) as browser:
        _sign_in(browser, user, password)
        cookies = dict(browser.cookies)
    with _client(server, 1, server.headers) as owner:
        for disabled in (True, False):
            owner.patch(f"/api/admin/users/{user}", json={"disabled": disabled})
    code = _replay(server, cookies)
    row.record(started, None if code == 401 else f"session back after re-enabling: {code}")


def _password_changed(server: LiveServer, row: Row, user: str, password: str) -> str:
    started = time.perf_counter()
    new = f"new password {random.randrange(10**9)}"
    with _client(server, 22) as here, _client(server, 23) as phone:
        csrf = _sign_in(here, user, password)
        _sign_in(phone, user, password)
        change = {"password": password, "new_password": new}
        changed = here.post("/api/password", json=change, headers={"X-CSRF-Token": csrf})
        codes = (here.get("/api/session").status_code, phone.get("/api/session").status_code)
    if changed.status_code != 204:
        row.record(started, f"password change: {changed.status_code}")
        return password
    row.record(started, None if codes == (200, 401) else f"after a password change: {codes}")
    return new


def _case_variant(server: LiveServer, row: Row, variant: str) -> None:
    started = time.perf_counter()
    with _client(server, 1, server.headers) as owner:
        code = owner.post("/api/admin/users", json={"user": variant}).status_code
    row.record(started, None if code == 400 else f"case-variant {variant} made: {code}")


# ----------------------------------------------------------------------------- helpers


def _accounts(server: LiveServer, *names: str) -> dict[str, str]:
    """Made through the admin API as the install's owner; each one's generated password."""
    with _client(server, 1, server.headers) as owner:
        made = [owner.post("/api/admin/users", json={"user": n}).json() for n in names]
    return {m["user"]["id"]: m["password"] for m in made}


def _client(server: LiveServer, host: int, headers: dict[str, str] | None = None) -> httpx.Client:
    """A client whose connections leave from 127.0.0.``host``: its own address."""
    transport = httpx.HTTPTransport(local_address=f"127.0.0.{host}")
    return httpx.Client(base_url=server.url, transport=transport, headers=headers, timeout=30)


def _try(server: LiveServer, user: str, password: str, host: int) -> tuple[int, str | None]:
    with _client(server, host) as client:
        answer = client.post("/api/login", json={"user": user, "password": password})
    return answer.status_code, answer.json().get("user") if answer.is_success else None


def _sign_in(browser: httpx.Client, user: str, password: str) -> str:
    answer = browser.post("/api/login", json={"user": user, "password": password})
    answer.raise_for_status()
    csrf: str = answer.json()["csrf_token"]
    return csrf


def _replay(server: LiveServer, cookies: dict[str, str]) -> int:
    with _client(server, 24) as thief:
        thief.cookies.update(cookies)
        return thief.get("/api/session").status_code


def _server_log(server: LiveServer) -> str:
    port = server.url.rsplit(":", 1)[1]
    return (server.home.parent / f"server-{port}.log").read_text(errors="replace")


def _p50(times: list[float]) -> float:
    return statistics.median(times) if times else math.nan
