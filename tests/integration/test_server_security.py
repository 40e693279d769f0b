"""The gate in front of the API (issue 11, item 2): only its own host names, only its own
origin for state changes, only with the install token or the browser session cookie."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from api_client import BASE_URL, api_client
from click.testing import CliRunner
from fastapi.testclient import TestClient

from askalong.asking.limits import MAX_ID_CHARS, MAX_QUESTION_CHARS, MAX_SELECTION_CHARS
from askalong.cli import main
from askalong.config import Settings
from askalong.server.app import create_app
from askalong.server.token import install_token, token_path

NOTES = b"# Tides\n\nTides follow the Moon, twice a day.\n"


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


@pytest.fixture
def anonymous(client: TestClient) -> TestClient:
    """A client of the same app with no token: another local user, or a web page."""
    return TestClient(client.app, base_url=BASE_URL)


def uploaded(client: TestClient) -> str:
    response = client.post("/api/documents", files={"file": ("tides.md", NOTES)})
    assert response.status_code == 201, response.text
    document_id: str = response.json()["document"]["id"]
    return document_id


def listed(client: TestClient) -> list[str]:
    return [d["id"] for d in client.get("/api/documents").json()["documents"]]


def refused(response: httpx.Response, status: int, kind: str) -> None:
    """Refused with the API's JSON error and the security headers."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    assert "content-security-policy" in response.headers
    assert response.json()["error"]["type"] == kind


def test_the_token_is_made_once_and_kept_private(settings: Settings) -> None:
    token = install_token(settings.home)
    assert len(token) >= 40 and install_token(settings.home) == token
    assert stat.S_IMODE(token_path(settings.home).stat().st_mode) == 0o600
    token_path(settings.home).chmod(0o644)
    assert install_token(settings.home) == token
    assert stat.S_IMODE(token_path(settings.home).stat().st_mode) == 0o600


def test_askalong_token_prints_it(settings: Settings) -> None:
    result = CliRunner().invoke(main, ["token", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"token": install_token(settings.home)}
    plain = CliRunner().invoke(main, ["token"])
    assert plain.stdout.strip() == install_token(settings.home)


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1:9999", ""])
def test_a_foreign_host_is_refused(client: TestClient, host: str) -> None:
    """A DNS-rebinding page reaches 127.0.0.1 under its own name: no answer for it."""
    uploaded(client)
    for path in ("/api/documents", "/", "/openapi.json"):
        refused(client.get(path, headers={"Host": host}), 421, "UnknownHost")


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000"])
def test_the_loopback_names_are_answered(client: TestClient, host: str) -> None:
    assert client.get("/api/documents", headers={"Host": host}).status_code == 200


def test_configured_and_given_host_names_are_answered(settings: Settings) -> None:
    configured = replace(settings, allowed_hosts="reader.example, Other.Example")
    app = create_app(configured, host="askalong.lan")
    with api_client(configured, app) as client:
        for host in ("reader.example", "other.example:443", "askalong.lan:8000"):
            assert client.get("/api/documents", headers={"Host": host}).status_code == 200
        refused(
            client.get("/api/documents", headers={"Host": "askalong.lan:81"}), 421, "UnknownHost"
        )


def test_every_interface_answers_ip_addresses_only(settings: Settings) -> None:
    with api_client(settings, create_app(settings, host="0.0.0.0")) as client:
        assert client.get("/", headers={"Host": "192.168.1.5:8000"}).status_code == 200
        refused(client.get("/", headers={"Host": "evil.example:8000"}), 421, "UnknownHost")


def test_a_cross_site_upload_is_refused_and_nothing_stored(
    client: TestClient, settings: Settings
) -> None:
    """The issue's attack: a form on another site POSTs a document (it answered 201)."""
    for headers in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
        response = client.post(
            "/api/documents", files={"file": ("tides.md", NOTES)}, headers=headers
        )
        refused(response, 403, "CrossOrigin")
    assert listed(client) == []
    assert not settings.files_dir.exists() or not any(settings.files_dir.rglob("*.*"))


def test_a_cross_site_delete_is_refused(client: TestClient) -> None:
    document_id = uploaded(client)
    for headers in ({"Origin": "null"}, {"Origin": "http://localhost:8000"}):
        refused(client.delete(f"/api/documents/{document_id}", headers=headers), 403, "CrossOrigin")
    assert listed(client) == [document_id]


def test_same_origin_and_scripts_pass_the_origin_check(client: TestClient) -> None:
    same = {"Origin": BASE_URL, "Sec-Fetch-Site": "same-origin"}
    response = client.post("/api/documents", files={"file": ("tides.md", NOTES)}, headers=same)
    assert response.status_code == 201, response.text
    assert client.delete(f"/api/documents/{response.json()['document']['id']}").status_code == 204


def test_no_token_no_api(client: TestClient, anonymous: TestClient) -> None:
    """Another local user (who cannot read ASKALONG_HOME) cannot list, download or delete."""
    document_id = uploaded(client)
    for response in (
        anonymous.get("/api/documents"),
        anonymous.get(f"/api/documents/{document_id}/original"),
        anonymous.delete(f"/api/documents/{document_id}"),
        anonymous.get("/api/documents", headers={"Authorization": "Bearer wrong"}),
        anonymous.get("/api/documents", headers={"X-AskAlong-Token": "wrong"}),
    ):
        refused(response, 401, "Unauthorized")
        assert response.headers["www-authenticate"] == "Bearer"
    assert listed(client) == [document_id]


def test_the_token_opens_the_api(
    client: TestClient, anonymous: TestClient, settings: Settings
) -> None:
    document_id = uploaded(client)
    assert client.get(f"/api/documents/{document_id}/original").content == NOTES
    header = {"X-AskAlong-Token": install_token(settings.home)}
    assert anonymous.get("/api/documents", headers=header).status_code == 200
    assert anonymous.delete(f"/api/documents/{document_id}", headers=header).status_code == 204


def test_the_pages_and_docs_need_the_token_too(anonymous: TestClient) -> None:
    for path in ("/", "/reader.html", "/docs", "/openapi.json", "/library/library.js"):
        refused(anonymous.get(path), 401, "Unauthorized")


def test_the_tokened_address_sets_the_cookie_and_cleans_the_url(
    anonymous: TestClient, settings: Settings
) -> None:
    token = install_token(settings.home)
    entry = anonymous.get(f"/reader.html?doc=abc&token={token}", follow_redirects=False)
    assert entry.status_code == 303 and entry.headers["location"] == "/reader.html?doc=abc"
    cookie = entry.headers["set-cookie"]
    assert token not in cookie  # the cookie holds a value derived from the token
    for flag in ("HttpOnly", "SameSite=strict", "Path=/"):
        assert flag.lower() in cookie.lower()
    # The client keeps the cookie: the pages, the docs and the API now answer.
    for path in ("/reader.html", "/", "/docs", "/openapi.json", "/api/documents"):
        assert anonymous.get(path).status_code == 200, path


def test_a_wrong_token_in_the_address_sets_no_cookie(anonymous: TestClient) -> None:
    entry = anonymous.get("/?token=guessed", follow_redirects=False)
    refused(entry, 401, "Unauthorized")
    assert "set-cookie" not in entry.headers
    assert anonymous.get("/api/documents?token=guessed").status_code == 401


# -- what a request may carry (issue 11, items 5 and 7) -----------------------------------


def ask_raw(client: TestClient, body: str) -> httpx.Response:
    """POST /api/ask with ``body`` as sent (JSON can spell a lone surrogate: ``\\ud800``)."""
    return client.post("/api/ask", content=body, headers={"Content-Type": "application/json"})


@pytest.mark.parametrize(
    "field", ["question", "document_id", "thread_id", "intent", "selected_text", "block_id"]
)
def test_a_lone_surrogate_is_a_400_naming_the_field(client: TestClient, field: str) -> None:
    """It was a 500 text/plain (the store could not encode it)."""
    document_id = uploaded(client)
    anchor = {"block_id": "b1", "selected_text": "Tides"}
    body = {"document_id": document_id, "question": "tides", "anchor": anchor, "stream": False}
    body |= {"intent": "explain", "thread_id": "t1"}  # every field present, one spoilt
    raw = json.dumps(body).replace(f'"{field}": "', f'"{field}": "\\ud800', 1)
    assert "\\ud800" in raw
    response = ask_raw(client, raw)
    refused(response, 400, "InputError")
    assert field in response.json()["error"]["message"]
    assert "surrogate" in response.json()["error"]["message"]
    assert client.get(f"/api/documents/{document_id}/threads").json()["threads"] == []


@pytest.mark.parametrize(
    ("field", "limit"),
    [
        ("question", MAX_QUESTION_CHARS),
        ("selected_text", MAX_SELECTION_CHARS),
        ("block_id", MAX_ID_CHARS),
        ("document_id", MAX_ID_CHARS),
    ],
)
def test_oversized_question_parts_are_413(client: TestClient, field: str, limit: int) -> None:
    """A 20 MB question once held the shared embedder for minutes: refused at the edge."""
    document_id = uploaded(client)
    body: dict[str, object] = {"document_id": document_id, "question": "tides", "stream": False}
    if field in ("selected_text", "block_id"):
        body["anchor"] = {field: "t" * (limit + 1)}
    else:
        body[field] = "t" * (limit + 1)
    response = client.post("/api/ask", json=body)
    refused(response, 413, "TooLarge")
    assert field in response.json()["error"]["message"]
    assert f"{limit}" in response.json()["error"]["message"]


def test_the_issue_s_20_mb_question_is_refused(client: TestClient) -> None:
    body = {"document_id": uploaded(client), "question": "tides " * 3_500_000, "stream": False}
    refused(client.post("/api/ask", json=body), 413, "TooLarge")


def test_a_question_at_the_limit_is_answered(client: TestClient) -> None:
    document_id = uploaded(client)
    question = ("When do the tides come? " * 100)[: MAX_QUESTION_CHARS - 1] + "?"
    body = {"document_id": document_id, "question": question, "stream": False}
    response = client.post("/api/ask", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["question"] == question


def test_the_schema_states_the_limits(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    ask, anchor = schemas["AskIn"]["properties"], schemas["AnchorIn"]["properties"]
    assert ask["question"]["maxLength"] == MAX_QUESTION_CHARS
    for field in ("document_id", "collection"):  # optional: one of the schema's anyOf
        named = next(s for s in ask[field]["anyOf"] if s.get("type") == "string")
        assert named["maxLength"] == MAX_ID_CHARS
    selected = next(s for s in anchor["selected_text"]["anyOf"] if s.get("type") == "string")
    assert selected["maxLength"] == MAX_SELECTION_CHARS


def test_the_cli_refuses_an_oversized_question(settings: Settings, tmp_path: Path) -> None:
    notes = tmp_path / "tides.md"
    notes.write_bytes(NOTES)
    added = CliRunner().invoke(main, ["add", str(notes), "--json"])
    document_id = json.loads(added.stdout)["results"][0]["document"]["id"]
    for args in (
        ["t" * (MAX_QUESTION_CHARS + 1)],
        ["--intent", "explain", "--select", "t" * (MAX_SELECTION_CHARS + 1)],
    ):
        result = CliRunner().invoke(main, ["ask", *args, "--doc", document_id])
        assert result.exit_code == 1
        assert "at most" in result.stderr and "Traceback" not in result.output
