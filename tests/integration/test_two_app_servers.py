"""Two ``askalong serve`` processes over one store, as two app servers behind a load
balancer (over one home's SQLite file, or with homes of their own over one PostgreSQL
database): a session signed in on one is used on the other, and the per-minute request
limit is counted once for both (in the store, never per process). App servers with homes
of their own share ``ASKALONG_API_TOKEN``, so their session signatures agree."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from api_client import BASE_URL
from click.testing import CliRunner
from fastapi.testclient import TestClient

from askalong.cli import main
from askalong.config import load_settings
from askalong.errors import ConfigError
from askalong.server.app import create_app
from askalong.server.sessions import SESSION_PREFIX
from askalong.server.token import token_path
from e2e.live import LiveServer, live_server
from support.postgres import PostgresServer

PASSWORD = "a long secret phrase 7"
LIMIT = 12  # requests a minute (ASKALONG_REQUESTS_PER_MINUTE)
WINDOW = 60.0


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def servers(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[LiveServer]]:
    """Two app servers: over one home's SQLite file, or each with a home of its own over
    one PostgreSQL database (sharing ASKALONG_API_TOKEN), as behind a load balancer."""
    root = tmp_path_factory.mktemp("two-servers")
    env = {"ASKALONG_REQUESTS_PER_MINUTE": str(LIMIT), "ASKALONG_SERVE_WORKER": "false"}
    homes = [root / "home", root / "home"]
    if request.param == "postgres":
        server: PostgresServer = request.getfixturevalue("postgres_server")
        env |= {"ASKALONG_DATABASE_URL": server.database(), "ASKALONG_API_TOKEN": SHARED_TOKEN}
        homes = [root / "a" / "home", root / "b" / "home"]
    added = CliRunner().invoke(
        main,
        ["user", "add", "alice", "--password-stdin"],
        input=PASSWORD + "\n",
        env={**env, "ASKALONG_HOME": str(homes[0])},
    )
    assert added.exit_code == 0, added.output
    with live_server(homes[0], env) as first, live_server(homes[1], env) as second:
        yield [first, second]


def signed_in(server: LiveServer, *others: LiveServer) -> httpx.Cookies:
    """The session cookie of a sign-in on ``server``, also under the names ``others`` read:
    a cookie is named after the port its server listens on, which behind a load balancer
    is one port for all (here each server has its own)."""
    response = httpx.post(
        server.url + "/api/login", json={"user": "alice", "password": PASSWORD}, timeout=30
    )
    assert response.status_code == 200, response.text
    made = f"{SESSION_PREFIX}{port(server)}"
    cookies = httpx.Cookies({made: response.cookies[made]})
    for other in others:
        cookies.set(f"{SESSION_PREFIX}{port(other)}", response.cookies[made])
    return cookies


def port(server: LiveServer) -> int:
    return int(server.url.rsplit(":", 1)[1])


def test_a_session_made_on_one_server_works_on_the_other(servers: list[LiveServer]) -> None:
    first, second = servers
    cookies = signed_in(first, second)
    session = httpx.get(second.url + "/api/session", cookies=cookies, timeout=30)
    assert session.status_code == 200, session.text
    assert session.json()["user"] == "alice"
    listed = httpx.get(second.url + "/api/documents", cookies=cookies, timeout=30)
    assert listed.status_code == 200, listed.text
    assert httpx.get(second.url + "/api/documents", timeout=30).status_code == 401


def test_the_request_limit_is_counted_across_both_servers(servers: list[LiveServer]) -> None:
    if time.time() % WINDOW > WINDOW - 10:  # the burst must fall in one fixed window
        time.sleep(WINDOW - time.time() % WINDOW + 0.5)
    cookies = signed_in(*servers)
    statuses: dict[int, list[int]] = {0: [], 1: []}
    for i in range(LIMIT + 1):
        response = httpx.get(servers[i % 2].url + "/api/documents", cookies=cookies, timeout=30)
        statuses[i % 2].append(response.status_code)
    assert 200 in statuses[0] and 200 in statuses[1]
    # Each server saw about half the burst; only a shared count reaches the limit.
    assert 429 in statuses[0] + statuses[1], statuses


SHARED_TOKEN = "s" * 20 + "h" * 23  # 43 characters, as a made token has


def test_app_servers_with_homes_of_their_own_share_the_configured_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASKALONG_API_TOKEN", SHARED_TOKEN)
    monkeypatch.setenv("ASKALONG_EMBEDDER", "none")
    first, second = (load_settings(home=tmp_path / name) for name in ("a", "b"))
    one, other = create_app(first), create_app(second)
    cookie = one.state.identities.signer.issue("alice")
    session = other.state.identities.signer.read(cookie)
    assert session is not None and session.user == "alice"
    headers = {"Authorization": f"Bearer {SHARED_TOKEN}"}
    with TestClient(other, base_url=BASE_URL, headers=headers) as client:
        assert client.get("/api/documents").status_code == 200
    assert not token_path(first.home).exists() and not token_path(second.home).exists()


def test_a_short_shared_token_is_refused_naming_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASKALONG_API_TOKEN", "short secret")
    with pytest.raises(ConfigError, match="ASKALONG_API_TOKEN: must be at least 32"):
        load_settings(home=tmp_path)
