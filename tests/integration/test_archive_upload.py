"""A repository's archive uploaded over HTTP (issue 17): the multipart ``POST
/api/documents`` and a finished tus upload unpack a real ZIP or tar of standard-library
source through ``ingest/archive.py`` into one collection; an archive with a ``../``
member or a symlink member is refused, naming the member, with nothing added."""

from __future__ import annotations

import base64
import io
import tarfile
import zipfile
from collections.abc import Iterator

import pytest
from api_client import api_client
from code_samples import STDLIB
from fastapi.testclient import TestClient

from askalong.config import Settings

FILES = ("asyncio/locks.py", "asyncio/mixins.py")
TUS = {"Tus-Resumable": "1.0.0"}


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


def repo_tar(*extra: tarfile.TarInfo) -> bytes:
    """``repo/asyncio/locks.py`` and ``mixins.py`` (the machine's own), then ``extra``."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name in FILES:
            tar.add(STDLIB / name, arcname=f"repo/{name}")
        for info in extra:
            tar.addfile(info)
    return out.getvalue()


def repo_zip(**extra: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in FILES:
            archive.write(STDLIB / name, f"repo/{name}")
        for name, data in extra.items():
            archive.writestr(name, data)
    return out.getvalue()


def sent(client: TestClient, name: str, data: bytes) -> dict:
    response = client.post("/api/documents", files={"file": (name, data)})
    assert response.status_code in (201, 400), response.text
    body: dict = response.json()
    return body


def test_a_tar_of_a_repository_becomes_one_collection_of_code_documents(
    client: TestClient,
) -> None:
    body = sent(client, "repo.tar.gz", repo_tar())
    assert body["status"] == "added"
    sources = sorted(f["source"] for f in body["files"])
    assert sources == [f"repo.tar.gz/repo/{name}" for name in FILES]
    assert all(f["status"] == "added" for f in body["files"])
    collection = body["collection"]
    assert collection["name"] == "repo"
    members = client.get(f"/api/collections/{collection['id']}").json()["documents"]
    assert {d["source"] for d in members} == set(sources)
    assert {d["format"] for d in members} == {"code"}
    locks = next(d for d in members if d["source"].endswith("locks.py"))
    view = client.get(f"/api/documents/{locks['id']}/code").json()
    assert "Lock.acquire" in [s["name"] for s in view["symbols"]]


def test_a_zip_with_a_member_leaving_the_archive_is_refused_naming_it(
    client: TestClient,
) -> None:
    body = sent(client, "repo.zip", repo_zip(**{"repo/../../evil.py": b"x = 1\n"}))
    assert "repo/../../evil.py" in body["error"]["message"]
    assert "outside the archive" in body["error"]["message"]
    assert client.get("/api/documents").json()["documents"] == []


def test_a_tar_with_a_symlink_member_is_refused_naming_it(client: TestClient) -> None:
    link = tarfile.TarInfo("repo/escape")
    link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
    body = sent(client, "repo.tgz", repo_tar(link))
    assert "repo/escape" in body["error"]["message"]
    assert "link" in body["error"]["message"]
    assert client.get("/api/documents").json()["documents"] == []


def test_a_finished_tus_upload_of_an_archive_is_unpacked_the_same_way(
    client: TestClient,
) -> None:
    data = repo_zip()
    name = base64.b64encode(b"repo.zip").decode()
    created = client.post(
        "/api/uploads",
        headers={**TUS, "Upload-Length": str(len(data)), "Upload-Metadata": f"filename {name}"},
    )
    assert created.status_code == 201, created.text
    url = created.headers["Location"]
    piece = {**TUS, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0"}
    assert client.patch(url, content=data, headers=piece).status_code == 204
    state = client.get(url).json()
    assert state["state"] == "added", state
    listed = client.get("/api/collections").json()["collections"]
    assert [c["name"] for c in listed] == ["repo"]
    documents = client.get("/api/documents").json()["documents"]
    assert sorted(d["source"] for d in documents) == [f"repo.zip/repo/{n}" for n in FILES]
