"""The schema and the server agree on a document reference: the schema states the shortest
prefix the store resolves (in a path, a query and a body), so a schema-valid reference is
never refused as bad input (schemathesis ST202 on GET/DELETE /api/documents/{doc}): it is
found or 404; an over-long id in the URL is a 400, a bad request (ST201), not a 413."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from api_client import api_client
from fastapi.testclient import TestClient
from samples import sized_pdf

from askalong.asking.limits import MAX_ID_CHARS
from askalong.config import Settings
from askalong.store.base import MIN_PREFIX


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


def test_every_document_path_states_the_shortest_prefix(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    stated = {
        (path, method): parameter["schema"]["minLength"]
        for path, item in paths.items()
        for method, operation in item.items()
        for parameter in operation.get("parameters", [])
        if parameter["name"] == "doc" and parameter["in"] == "path"
    }
    assert len(stated) >= 5 and set(stated.values()) == {MIN_PREFIX}


def test_a_schema_valid_reference_is_found_or_not_found_never_refused(
    client: TestClient,
) -> None:
    upload = client.post("/api/documents", files={"file": ("a.pdf", sized_pdf((612.0, 792.0)))})
    doc = upload.json()["document"]["id"]
    assert client.get(f"/api/documents/{doc[:MIN_PREFIX]}").status_code == 200
    unknown = "zzzz"  # ids are hex: no document starts with it
    for method, url in (
        ("GET", f"/api/documents/{unknown}"),
        ("DELETE", f"/api/documents/{unknown}"),
        ("GET", f"/api/documents/{unknown}/pages/1.png"),
    ):
        assert client.request(method, url).status_code == 404, url
    short = client.get(f"/api/documents/{doc[: MIN_PREFIX - 1]}")  # schema-invalid: 400
    assert short.status_code == 400 and str(MIN_PREFIX) in short.json()["error"]["message"]


def test_search_and_ask_state_the_shortest_prefix_too(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    search = schema["paths"]["/api/search"]["get"]["parameters"]
    doc = next(parameter for parameter in search if parameter["name"] == "doc")
    items = next(s for s in doc["schema"]["anyOf"] if s.get("type") == "array")["items"]
    document_id = schema["components"]["schemas"]["AskIn"]["properties"]["document_id"]
    named = next(s for s in document_id["anyOf"] if s.get("type") == "string")
    assert items["minLength"] == named["minLength"] == MIN_PREFIX


def test_an_over_long_id_in_the_url_is_a_bad_request_not_too_large(client: TestClient) -> None:
    long = "0" * (MAX_ID_CHARS + 1)  # schemathesis ST201: 413 is no answer to a bad URL
    for url in (f"/api/documents/{long}", f"/api/threads/{long}", f"/api/search?q=x&doc={long}"):
        response = client.get(url)
        assert response.status_code == 400, url
        assert response.json()["error"]["type"] == "InputError"
        assert str(MAX_ID_CHARS) in response.json()["error"]["message"]
