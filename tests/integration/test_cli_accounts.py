"""`askalong user/org/token/visibility`: accounts made on the command line are the ones
the HTTP server signs in, and a visibility change there is what every user then sees."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from api_client import BASE_URL, api_client
from click.testing import CliRunner, Result
from fastapi.testclient import TestClient

from askalong.cli import main
from askalong.config import Settings

PASSWORD = "from the command line"


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)


def run_json(*args: str, stdin: str | None = None) -> Any:
    result = run(*args, "--json", stdin=stdin)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_accounts_made_on_the_command_line(settings: Settings, tmp_path: Path) -> None:
    made = run_json("user", "add", "alice", "--password-stdin", stdin=PASSWORD + "\n")
    assert made["user"]["id"] == "alice" and not made["user"]["disabled"]
    assert made["user"]["admin"]  # the first account administers the rest
    bob = run_json("user", "add", "bob", "--password-stdin", stdin=PASSWORD + "\n")
    assert not bob["user"]["admin"]
    carol = run_json("user", "add", "carol", "--admin", "--password-stdin", stdin=PASSWORD + "\n")
    assert carol["user"]["admin"]
    run_json("org", "add", "acme")
    assert run_json("org", "add", "eng", "--parent", "acme")["org"]["parent"] == "acme"
    assert run_json("org", "member", "eng", "bob", "--role", "admin")["membership"] == {
        "org": "eng",
        "user": "bob",
        "role": "admin",
    }
    listed = run_json("org", "list")
    assert [o["id"] for o in listed["orgs"]] == ["acme", "eng"]
    assert [u["id"] for u in run_json("user", "list")["users"]] == ["alice", "bob", "carol"]
    token = run_json("token", "create", "alice", "--label", "ci")
    assert token["secret"].startswith("aa_") and token["token"]["label"] == "ci"
    assert "secret" not in json.dumps(run_json("token", "list"))
    assert run_json("token")["token"] != token["secret"]  # the install token, as before

    notes = tmp_path / "tides.md"
    notes.write_text("# Tides\n\nTides follow the Moon.\n")
    document = run_json("add", "--no-embed", str(notes))["results"][0]["document"]
    with api_client(settings) as owner:
        alice = TestClient(
            owner.app, base_url=BASE_URL, headers={"Authorization": f"Bearer {token['secret']}"}
        )
        assert alice.get("/api/search", params={"q": "tides"}).json()["hits"] == []
        shared = run_json("visibility", document["id"], "public")
        assert shared["document"]["visibility"] == "public"
        hits = alice.get("/api/search", params={"q": "tides"}).json()["hits"]
        assert [h["document_id"] for h in hits] == [document["id"]]
        assert run_json("user", "disable", "alice")["user"]["disabled"]
        assert alice.get("/api/documents").status_code == 401
        run_json("user", "disable", "alice", "--enable")
        assert alice.get("/api/documents").status_code == 200
        assert run_json("token", "revoke", token["token"]["id"])["token"]["revoked"]
        assert alice.get("/api/documents").status_code == 401


def test_a_short_password_is_refused(settings: Settings) -> None:
    result = run("user", "add", "carol", "--password-stdin", stdin="short\n")
    assert result.exit_code == 1 and "at least 8 characters" in result.output
    assert "short" not in result.output.replace("at least", "")


def test_a_password_set_on_the_command_line_ends_every_session(settings: Settings) -> None:
    run_json("user", "add", "dora", "--password-stdin", stdin=PASSWORD + "\n")
    with api_client(settings) as owner:
        browser = TestClient(owner.app, base_url=BASE_URL)
        assert browser.post("/api/login", json={"user": "dora", "password": PASSWORD}).is_success
        changed = run_json("user", "password", "DORA", "--password-stdin", stdin="new one 12345\n")
        assert changed["user"]["id"] == "dora"
        assert browser.get("/api/session").status_code == 401
        again = {"user": "dora", "password": "new one 12345"}
        assert browser.post("/api/login", json=again).is_success
