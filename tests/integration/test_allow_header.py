"""``OPTIONS`` and an unsupported method on every route of the OpenAPI schema list exactly
the schema's methods in ``Allow`` (schemathesis ST205: a route with two methods named one)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from api_client import api_client
from fastapi.testclient import TestClient

from askalong.config import Settings

HTTP_METHODS = {"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"}
IMPLICIT = {"HEAD", "OPTIONS"}  # served by the framework, not declared in a schema


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    home = tmp_path_factory.mktemp("allow") / "home"
    with api_client(Settings(home=home, embedder="none")) as client:
        yield client


def schema_paths(client: TestClient) -> dict[str, set[str]]:
    paths = client.get("/openapi.json").json()["paths"]
    assert len(paths) >= 10
    return {path: {m.upper() for m in item} & HTTP_METHODS for path, item in paths.items()}


def concrete(template: str) -> str:
    return re.sub(r"\{[^}]+\}", "1234", template)  # any id: routing decides before lookup


def allowed(header: str) -> set[str]:
    return {method.strip() for method in header.split(",")}


def test_options_lists_exactly_the_schema_methods_on_every_route(client: TestClient) -> None:
    for template, methods in schema_paths(client).items():
        response = client.options(concrete(template))
        assert response.status_code == 204, (template, response.text)
        listed = allowed(response.headers["allow"])
        assert listed - IMPLICIT == methods - IMPLICIT and "OPTIONS" in listed, template
        assert methods <= listed, template  # a route's own HEAD or OPTIONS (tus) is listed


def test_an_unsupported_method_is_405_with_the_same_allow_on_every_route(
    client: TestClient,
) -> None:
    for template, methods in schema_paths(client).items():
        unsupported = sorted({"PUT", "PATCH", "DELETE", "POST"} - methods)[0]
        response = client.request(unsupported, concrete(template))
        assert response.status_code == 405, (template, unsupported)
        listed = allowed(response.headers["allow"])
        assert listed - IMPLICIT == methods - IMPLICIT and methods <= listed, template
        error = response.json()["error"]
        assert unsupported in error["message"] and concrete(template) in error["message"]
