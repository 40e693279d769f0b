"""The JSON forms are a documented contract: exact keys, and answers survive a round trip.

Each form is declared once (a TypedDict in ``askalong.wire``) and built by one function;
the tests below check every built value against its declaration, field for field, so a
field added to one and not the other fails here (and in mypy).
"""

from __future__ import annotations

import ast
import json
import types
import typing
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints

import pytest
import wire_forms
from pydantic import TypeAdapter
from typing_extensions import is_typeddict

from askalong import wire
from askalong.types import Answer, Document, Hit
from askalong.wire import answer_from_json, answer_json, document_json

DOCUMENT_KEYS = {
    "id", "title", "source", "format", "language", "pages", "size_bytes", "created", "owner",
    "visibility", "org_tags", "ocr_pages", "notices", "unread_pages", "job",
}  # fmt: skip
ANSWER_KEYS = {
    "status", "question", "answer", "quotes", "explanation", "claims", "intent", "anchor",
    "thread_id", "turn_id", "answerer", "model", "route", "searched", "notes", "timings",
    "anchor_set_aside", "conflicts", "hits", "passage",
}  # fmt: skip
PASSAGE_KEYS = {"document_id", "text", "spans", "answer_spans", "page", "section_path"}
QUOTE_KEYS = {
    "number", "document_id", "block_id", "start", "end", "text", "page", "section_path",
    "verdict",
}  # fmt: skip


def _answer() -> Answer:
    return wire_forms.answer()


def test_answer_json_keys_and_round_trip() -> None:
    value = answer_json(_answer())
    assert set(value) == ANSWER_KEYS
    assert set(value["quotes"][0]) == QUOTE_KEYS
    assert list(value)[:4] == ["status", "question", "answer", "quotes"]  # answer first
    assert answer_from_json(value) == _answer()


def test_answer_json_passage_marks_the_answer_and_reads_back() -> None:
    value = answer_json(_answer())
    passage = value["passage"]
    assert passage is not None and set(passage) == PASSAGE_KEYS
    (mark,) = passage["answer_spans"]
    assert passage["text"][mark["start"] : mark["end"]] == value["quotes"][0]["text"]
    assert mark["quote"] == 1 and passage["spans"] == [{"block_id": "b2", "start": 0, "end": 11}]
    older = {k: v for k, v in value.items() if k != "passage"}  # a turn stored before it
    assert answer_from_json(older).passage is None  # type: ignore[arg-type]


def test_document_json_keys() -> None:
    doc = Document("d1", "h", "T", "s.pdf", "pdf", "en", 3, 10, "2026-11-30T00:00:00+00:00")
    value = document_json(doc)
    assert set(value) == DOCUMENT_KEYS
    assert value["pages"] == 3


HIT_KEYS = {
    "rank", "chunk_id", "document_id", "document_title", "score", "mode", "keyword_score",
    "keyword_rank", "vector_score", "vector_rank", "page_start", "page_end", "section_path",
    "text", "spans",
}  # fmt: skip
BLOCK_KEYS = {
    "id", "kind", "order", "page", "section_path", "heading_level", "text", "boxes", "lines",
}  # fmt: skip
THREAD_KEYS = {"id", "document_id", "title", "created", "updated", "turns"}
TURN_KEYS = {"id", "index", "question", "intent", "anchor", "answer", "created"}
PLACED_ANCHOR_KEYS = {
    "document_id", "block_id", "start", "end", "selected_text", "spans", "page", "section_path",
}  # fmt: skip


def declared_forms() -> set[Any]:
    return {value for name, value in vars(wire).items() if is_typeddict(value) and name[0] != "_"}


def nested(hint: Any, value: Any) -> list[tuple[Any, Any]]:
    """The (form, value) pairs inside one field's value: a form, a list of them, or None."""
    if value is None:
        return []
    if is_typeddict(hint):
        return [(hint, value)]
    if get_origin(hint) is list:
        return [pair for item in value for pair in nested(get_args(hint)[0], item)]
    if get_origin(hint) in (typing.Union, types.UnionType):
        return [
            pair for arg in get_args(hint) if arg is not type(None) for pair in nested(arg, value)
        ]
    return []


def check_fields(form: Any, value: Any, seen: set[Any]) -> None:
    """``value`` has exactly ``form``'s fields, and so has every form nested in it."""
    hints = get_type_hints(form)
    assert isinstance(value, dict) and set(value) == set(hints), form.__name__
    seen.add(form)
    for key, hint in hints.items():
        for inner, item in nested(hint, value[key]):
            check_fields(inner, item, seen)


def test_every_form_has_exactly_its_declared_fields() -> None:
    seen: set[Any] = set()
    for form, value in wire_forms.forms():
        check_fields(form, value, seen)
    assert seen == declared_forms()  # every form is built, directly or inside another


@pytest.mark.parametrize(
    ("form", "value"),
    wire_forms.forms(),
    ids=[f"{form.__name__}{i}" for i, (form, _) in enumerate(wire_forms.forms())],
)
def test_every_form_validates_strictly_against_its_declaration(form: Any, value: Any) -> None:
    """The types too: what the HTTP schema says is what the function writes."""
    assert TypeAdapter(form).validate_python(value, strict=True) == value


def test_the_documented_keys_of_hits_blocks_and_threads() -> None:
    (hit,) = wire_forms.search()["hits"]
    assert set(hit) == HIT_KEYS
    assert hit["spans"] == [{"block_id": "b2", "start": 0, "end": 5}]
    assert set(wire.block_json(wire_forms.pdf_block())) == BLOCK_KEYS
    thread = wire_forms.full_thread()
    assert set(thread) == THREAD_KEYS and set(thread["turns"][0]) == TURN_KEYS
    assert set(wire_forms.summary()) == THREAD_KEYS | {"anchor"}  # turns: a count
    assert set(wire_forms.summary()["anchor"] or {}) == PLACED_ANCHOR_KEYS


def test_boxes_are_rounded_to_a_hundredth_of_a_point() -> None:
    """CLI and HTTP print the same boxes, rounded to 0.01 pt as the README says."""
    block = wire.block_json(wire_forms.pdf_block())
    assert block["boxes"] == [(72.12, 100.5, 300.0, 112.25, 0, 11)]
    assert wire.block_json(wire_forms.text_block())["lines"] == (3, 4)


def test_wire_imports_only_values() -> None:
    """The JSON forms know the values they print, not evaluation, stores or edges."""
    modules = {
        node.module
        for path in Path(wire.__file__).parent.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
    }
    ours = {m for m in modules if m and m.startswith("askalong") and m.split(".")[1] != "wire"}
    assert ours == {
        "askalong.types",
        # the stored aggregates' values
        "askalong.values.accounts",
        "askalong.values.collections",
        "askalong.values.conflicts",
        "askalong.values.feedback",
        "askalong.values.findings",
        "askalong.values.jobs",
        "askalong.values.threads",
        "askalong.context.units",
        "askalong.values.chat_answers",
        # reading code: a place in a repository, a call tree's node, highlighting spans,
        # an identifier's definitions and references
        "askalong.context.call_tree",
        "askalong.context.code_places",
        "askalong.context.code_identifiers",
        "askalong.parse.code.tokens",
    }


# A frozen copy as the feedback table stored it before ``RankedChunk`` held a ``Hit``
# (written by the earlier ``judged_json`` for ``wire_forms.feedback()``, key order included).
STORED_JUDGED = (
    '{"question": "什么是随问？", "answer": "随问。[1]", "status": "answered", "explanation": "",'
    ' "citations": [{"number": 1, "document_id": "d1", "title": "T", "page": 4, "block_id": "b2",'
    ' "start": 3, "end": 12, "text": "根据文档回答问题", "text_sha256": "h1", "chunk_ids": ["c1"],'
    ' "chunk_sha256": ["h2"]}], "retrieved": [{"rank": 1, "chunk_id": "c1", "document_id": "d1",'
    ' "title": "T", "score": 0.5, "mode": "hybrid", "keyword_score": 2.0, "keyword_rank": 1,'
    ' "vector_score": 0.8, "vector_rank": 3, "rerank_score": null, "text_sha256": "h2"}],'
    ' "retrieval_mode": "hybrid", "fallbacks": ["n"], "answerer": "extractive", "model": "m",'
    ' "route": "light", "timings": {"retrieval_ms": 1.5, "answer_ms": 2.5, "verify_ms": 3.5,'
    ' "total_ms": 7.5}}'
)


def test_a_frozen_copy_stored_before_ranked_chunks_held_hits_reads_back_equal() -> None:
    stored = json.loads(STORED_JUDGED)
    judged = wire.judged_from_json(stored)
    assert judged == wire_forms.feedback().judged
    (ranked,) = judged.retrieved
    assert ranked.hit == Hit("c1", "d1", 0.5, "hybrid", 2.0, 1, 0.8, 3, None)
    assert wire.judged_json(judged) == stored  # the same keys and values written again
