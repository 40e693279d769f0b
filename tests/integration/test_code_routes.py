"""The reader's code routes over the standard library's asyncio locks, added as a
repository folder: the code view (symbols, Pygments spans over the exact characters),
go to definition and find callers, and that another user is told nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from api_client import acting_as, api_client
from click.testing import CliRunner
from code_samples import copy_stdlib
from fastapi.testclient import TestClient

from askalong.cli import main
from askalong.config import Settings
from askalong.types import Access


@pytest.fixture
def client(settings: Settings, tmp_path: Path) -> Iterator[TestClient]:
    folder = copy_stdlib(tmp_path / "repo", "asyncio/locks.py", "asyncio/mixins.py")
    result = CliRunner().invoke(main, ["add", "--no-embed", str(folder)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    with api_client(settings) as client:
        yield client


def document_id(client: TestClient, name: str) -> str:
    listed = client.get("/api/documents").json()["documents"]
    return next(d["id"] for d in listed if d["title"] == name)


def symbol(view: dict, name: str) -> dict:
    return next(s for s in view["symbols"] if s["name"] == name)


def test_the_code_view_has_nested_symbols_and_spans_over_the_exact_characters(
    client: TestClient,
) -> None:
    doc = document_id(client, "locks.py")
    view = client.get(f"/api/documents/{doc}/code").json()
    acquire = symbol(view, "Lock.acquire")
    assert acquire["qualname"] == ["Lock", "acquire"]
    structure = client.get(f"/api/documents/{doc}").json()
    texts = {b["id"]: b["text"] for b in structure["blocks"]}
    assert [b["block_id"] for b in view["blocks"]] == list(texts)
    tokens = next(b["tokens"] for b in view["blocks"] if b["block_id"] == acquire["block_id"])
    shown = [(texts[acquire["block_id"]][s:e], kind) for s, e, kind in tokens]
    assert shown[:3] == [("async", "keyword"), ("def", "keyword"), ("acquire", "function")]
    assert ('"""Acquire a lock.', "string") in [(t[:18], k) for t, k in shown]
    assert all(kind != "comment" or text.startswith("#") for text, kind in shown)


def test_go_to_definition_and_find_callers_of_a_method(client: TestClient) -> None:
    doc = document_id(client, "locks.py")
    view = client.get(f"/api/documents/{doc}/code").json()
    acquire = symbol(view, "Lock.acquire")
    calls = client.get(f"/api/documents/{doc}/symbols/{acquire['block_id']}/calls").json()
    wake = next(c for c in calls if c["place"]["name"] == "Lock._wake_up_first")
    assert wake["place"]["block_id"] == symbol(view, "Lock._wake_up_first")["block_id"]
    assert acquire["lines"][0] <= wake["line"] <= acquire["lines"][1]
    # self._get_loop() is the base class's, in mixins.py (class Lock(..., mixins._LoopBoundMixin))
    loop = next(c for c in calls if c["place"]["name"] == "_LoopBoundMixin._get_loop")
    assert loop["place"]["document_id"] == document_id(client, "mixins.py")
    wake_block = wake["place"]["block_id"]
    callers = client.get(f"/api/documents/{doc}/symbols/{wake_block}/callers").json()
    assert {"Lock.acquire", "Lock.release"} <= {c["place"]["name"] for c in callers}


def test_another_user_gets_404_and_a_prose_document_400(client: TestClient) -> None:
    doc = document_id(client, "locks.py")
    view = client.get(f"/api/documents/{doc}/code").json()
    block = symbol(view, "Lock.acquire")["block_id"]
    sent = client.post("/api/documents", files={"file": ("notes.md", b"# Notes\n\nA lock.\n")})
    prose = sent.json()["document"]["id"]
    refused = client.get(f"/api/documents/{prose}/code")
    assert refused.status_code == 400 and "not source code" in refused.json()["error"]["message"]
    missing = client.get(f"/api/documents/{doc}/symbols/b9999/calls")
    assert missing.status_code == 404
    acting_as(client, Access(user="bob"))
    for path in ("code", f"symbols/{block}/calls", f"symbols/{block}/callers"):
        assert client.get(f"/api/documents/{doc}/{path}").status_code == 404


def line_number(path: Path, text: str) -> int:
    return path.read_text(encoding="utf-8").splitlines().index(text) + 1


def clicked(client: TestClient, file: str, name: str, line: int) -> dict:
    """The identifier route for ``name`` clicked on ``line`` of ``file``."""
    doc = document_id(client, file)
    blocks = client.get(f"/api/documents/{doc}").json()["blocks"]
    block = next(b for b in blocks if b["lines"][0] <= line <= b["lines"][1])
    response = client.get(
        f"/api/documents/{doc}/identifiers/{name}", params={"block": block["id"], "line": line}
    )
    assert response.status_code == 200, response.text
    return response.json()


def naming_lines(path: Path, name: str) -> int:
    """Lines of ``path`` naming ``name`` as a word, outside comment lines (by hand)."""
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    rows = path.read_text(encoding="utf-8").splitlines()
    return sum(1 for r in rows if word.search(r) and not r.lstrip().startswith("#"))


def test_a_clicked_call_goes_to_its_definition_in_another_file(
    client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    locks = tmp_path / "repo/asyncio/locks.py"
    line = line_number(locks, "        fut = self._get_loop().create_future()")
    found = clicked(client, "locks.py", "_get_loop", line)
    (definition,) = found["definitions"]
    assert definition["kind"] == "method"
    assert definition["place"]["name"] == "_LoopBoundMixin._get_loop"
    mixins = tmp_path / "repo/asyncio/mixins.py"
    assert definition["line"] == line_number(mixins, "    def _get_loop(self):")
    counts = {f["path"]: f["count"] for f in found["files"]}
    assert counts == {
        "locks.py": naming_lines(locks, "_get_loop"),
        "mixins.py": naming_lines(mixins, "_get_loop"),
    }
    assert found["references"] == sum(counts.values())


def test_fields_and_module_variables_have_definitions_and_counted_references(
    client: TestClient, tmp_path: Path
) -> None:
    locks = tmp_path / "repo/asyncio/locks.py"
    line = line_number(locks, "            self._waiters = collections.deque()")
    found = clicked(client, "locks.py", "_waiters", line)
    assert {d["kind"] for d in found["definitions"]} == {"field"}
    assert {d["place"]["name"].split(".")[0] for d in found["definitions"]} == {"Lock"}
    assert found["definitions"][0]["line"] == line_number(locks, "        self._waiters = None")
    (file,) = found["files"]
    assert file["count"] == naming_lines(locks, "_waiters") == len(file["lines"])
    mixins = tmp_path / "repo/asyncio/mixins.py"
    line = line_number(mixins, "            with _global_lock:")
    (definition,) = clicked(client, "mixins.py", "_global_lock", line)["definitions"]
    assert definition["kind"] == "variable"
    assert definition["line"] == line_number(mixins, "_global_lock = threading.Lock()")


def test_a_name_that_is_no_identifier_is_refused(client: TestClient) -> None:
    doc = document_id(client, "locks.py")
    block = client.get(f"/api/documents/{doc}").json()["blocks"][0]["id"]
    response = client.get(
        f"/api/documents/{doc}/identifiers/a-b", params={"block": block, "line": 1}
    )
    assert response.status_code == 400
