"""The JSON forms are a documented contract: exact keys, and answers survive a round trip."""

from __future__ import annotations

from askalong.types import Anchor, Answer, Claim, Document, Quote, Timings
from askalong.wire import answer_from_json, answer_json, document_json

DOCUMENT_KEYS = {
    "id", "title", "source", "format", "language", "pages", "size_bytes", "created", "owner",
    "visibility", "org_tags", "ocr_pages", "notices",
}  # fmt: skip
ANSWER_KEYS = {
    "status", "question", "answer", "quotes", "explanation", "claims", "intent", "anchor",
    "thread_id", "turn_id", "answerer", "model", "route", "searched", "notes", "timings",
}  # fmt: skip
QUOTE_KEYS = {
    "number", "document_id", "block_id", "start", "end", "text", "page", "section_path",
    "verdict",
}  # fmt: skip


def _answer() -> Answer:
    return Answer(
        status="answered",
        question="什么是随问？",
        answer="随问根据文档回答。[1]",
        quotes=(Quote(1, "d1", "b2", 3, 12, "根据文档回答问题", 4, ("引言",), "supported"),),
        explanation="更多。",
        claims=(Claim("随问根据文档回答。", (1,), "supported", ()),),
        intent="explain",
        anchor=Anchor("d1", "b2", 3, 12, "根据文档"),
        thread_id="t",
        turn_id="u",
        model="m",
        route="light",
        searched=("q",),
        notes=("n",),
        timings=Timings(1.5, 2.5, 3.5, 7.5),
    )


def test_answer_json_keys_and_round_trip() -> None:
    value = answer_json(_answer())
    assert set(value) == ANSWER_KEYS
    assert set(value["quotes"][0]) == QUOTE_KEYS
    assert list(value)[:4] == ["status", "question", "answer", "quotes"]  # answer first
    assert answer_from_json(value) == _answer()


def test_document_json_keys() -> None:
    doc = Document("d1", "h", "T", "s.pdf", "pdf", "en", 3, 10, "2026-11-30T00:00:00+00:00")
    value = document_json(doc)
    assert set(value) == DOCUMENT_KEYS
    assert value["pages"] == 3
