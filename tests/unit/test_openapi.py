"""The HTTP schema is ``wire``'s forms: ``/openapi.json`` types the answer of
``POST /api/ask`` and the thread routes field for field, and lists the stream's events."""

from __future__ import annotations

from typing import Any

import pytest
import wire_forms
from api_client import api_client

from askalong.config import load_settings
from askalong.values.collections import Collection
from askalong.wire import answer_json, block_json, collection_json, document_json

EVENTS = ("thread", "retrieval", "answer_delta", "quote", "verdict", "explanation", "done")


@pytest.fixture(scope="module")
def openapi(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The schema as served (the app's library is never opened: no request needs it)."""
    home = tmp_path_factory.mktemp("home")
    schema: dict[str, Any] = api_client(load_settings(home=home)).get("/openapi.json").json()
    return schema


def resolve(openapi: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """A schema with its ``$ref`` followed, nullable (``anyOf`` with null) unwrapped."""
    options = [s for s in schema.get("anyOf", [schema]) if s.get("type") != "null"]
    (one,) = options
    if "$ref" in one:
        found: dict[str, Any] = openapi["components"]["schemas"][one["$ref"].split("/")[-1]]
        return found
    return one


def ok_json(openapi: dict[str, Any], path: str, method: str = "get") -> dict[str, Any]:
    content = openapi["paths"][path][method]["responses"]["200"]["content"]
    return resolve(openapi, content["application/json"]["schema"])


def fields(openapi: dict[str, Any], schema: dict[str, Any], *path: str) -> set[str]:
    """The properties of ``schema`` (an object: never ``{}``), or of a field inside it."""
    for name in path:
        inner = schema["properties"][name]
        schema = resolve(openapi, inner.get("items", inner))
    assert schema.get("type") == "object", f"not an object schema: {schema}"
    assert set(schema["required"]) == set(schema["properties"])
    return set(schema["properties"])


def test_ask_answers_with_the_answer_json(openapi: dict[str, Any]) -> None:
    answer = answer_json(wire_forms.answer())
    schema = ok_json(openapi, "/api/ask", "post")
    assert fields(openapi, schema) == set(answer)
    assert fields(openapi, schema, "quotes") == set(answer["quotes"][0])
    assert fields(openapi, schema, "claims") == set(answer["claims"][0])
    assert fields(openapi, schema, "anchor") == set(answer["anchor"] or {})
    assert fields(openapi, schema, "timings") == set(answer["timings"])


def test_ask_documents_its_stream(openapi: dict[str, Any]) -> None:
    operation = openapi["paths"]["/api/ask"]["post"]
    assert "text/event-stream" in operation["responses"]["200"]["content"]
    for name in (*EVENTS, "error"):
        assert f"``{name}``" in operation["description"], name


def test_thread_routes_return_threads_with_turns(openapi: dict[str, Any]) -> None:
    thread, summary = wire_forms.full_thread(), wire_forms.summary()
    schema = ok_json(openapi, "/api/threads/{thread}")
    assert fields(openapi, schema) == set(thread)
    assert fields(openapi, schema, "turns") == set(thread["turns"][0])
    assert fields(openapi, schema, "turns", "answer") == set(thread["turns"][0]["answer"])
    assert fields(openapi, schema, "turns", "anchor") == set(thread["turns"][0]["anchor"] or {})
    listed = ok_json(openapi, "/api/documents/{doc}/threads")
    assert fields(openapi, listed) == {"threads"}
    assert fields(openapi, listed, "threads") == set(summary)


def test_search_and_structure_use_the_cli_forms(openapi: dict[str, Any]) -> None:
    found = wire_forms.search()
    schema = ok_json(openapi, "/api/search")
    assert fields(openapi, schema) == set(found)
    assert fields(openapi, schema, "hits") == set(found["hits"][0])
    assert fields(openapi, schema, "hits", "spans") == set(found["hits"][0]["spans"][0])
    structure = ok_json(openapi, "/api/documents/{doc}")
    assert fields(openapi, structure, "document") == set(document_json(wire_forms.document()))
    assert fields(openapi, structure, "blocks") == set(block_json(wire_forms.pdf_block()))


def test_collection_routes_use_the_cli_forms(openapi: dict[str, Any]) -> None:
    collection = collection_json(Collection("c1", "local", "manual", "2026-12-01T10:00:00+00:00"))
    listed = ok_json(openapi, "/api/collections")
    assert fields(openapi, listed, "collections") == set(collection)
    opened = ok_json(openapi, "/api/collections/{ref}")
    assert fields(openapi, opened) == {"collection", "documents"}
    assert fields(openapi, opened, "documents") == set(document_json(wire_forms.document()))
    ask_body = openapi["components"]["schemas"]["AskIn"]["properties"]
    assert {"document_id", "collection"} <= set(ask_body)
    search_params = {p["name"] for p in openapi["paths"]["/api/search"]["get"]["parameters"]}
    assert "collection" in search_params


def test_thread_management_routes_are_in_the_schema(openapi: dict[str, Any]) -> None:
    thread = wire_forms.full_thread()
    renamed = ok_json(openapi, "/api/threads/{thread}", "patch")
    assert fields(openapi, renamed) == set(thread)
    body = openapi["paths"]["/api/threads/{thread}"]["patch"]["requestBody"]["content"]
    assert resolve(openapi, body["application/json"]["schema"])["required"] == ["title"]
    assert "delete" in openapi["paths"]["/api/threads/{thread}"]
    export = openapi["paths"]["/api/threads/{thread}/export"]["get"]["responses"]
    assert "text/markdown; charset=utf-8" in export["200"]["content"]
    assert set(export) >= {"404"}
    original = openapi["paths"]["/api/documents/{doc}/original"]["get"]["parameters"]
    assert "inline" in {p["name"] for p in original}


def test_the_conversations_route_lists_thread_summaries(openapi: dict[str, Any]) -> None:
    listed = ok_json(openapi, "/api/conversations")
    assert fields(openapi, listed) == {"conversations"}
    assert fields(openapi, listed, "conversations") == set(wire_forms.summary())
