"""Triage of a thumbs-down (issue 16), on answers built here: nothing cited or a keyword
fallback is a retrieval miss; a correction the cited parents lack, a retrieval fault; one
they hold, a generation fault; the model's label when it gives one, the terms' otherwise.
Also the export's rules and the guidance's newest-wins."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import wire_forms

from askalong.feedback.export import eval_item
from askalong.feedback.guidance import newest_wins
from askalong.feedback.triage import triage_by_model, triage_by_terms
from askalong.providers.chat import ChatMessage
from askalong.values.feedback import Judged, Triage

PARENT = (
    "TRUNCATE will not fire any ON DELETE triggers that might exist for the tables. "
    "But it will fire ON TRUNCATE triggers."
)


def _judged(question: str, answer: str, **changes: object) -> Judged:
    base = wire_forms.feedback().judged
    return replace(base, question=question, answer=answer, retrieval_mode="hybrid",
                   fallbacks=(), **changes)  # type: ignore[arg-type]  # fmt: skip


def test_the_three_labels_by_terms() -> None:
    asked = _judged("Does TRUNCATE fire ON DELETE triggers?", "Yes, it fires them [1].")
    held = triage_by_terms(asked, "No: it fires ON TRUNCATE triggers instead", [PARENT])
    assert held.label == "generation_fault" and held.judge == "terms"
    lacking = triage_by_terms(asked, "It should name the ACCESS EXCLUSIVE lock", [PARENT])
    assert lacking.label == "retrieval_fault" and "missing: access" in lacking.evidence[2]
    other = triage_by_terms(asked, "wrong", ["VACUUM reclaims storage occupied by dead tuples"])
    assert other.label == "retrieval_fault"  # no correction: the question's terms decide
    nothing = triage_by_terms(replace(asked, citations=()), "wrong", [])
    assert nothing.label == "retrieval_miss"
    fell_back = replace(asked, retrieval_mode="keyword",
                        fallbacks=("1 document(s) ... are searched by keyword only",))  # fmt: skip
    assert triage_by_terms(fell_back, "wrong", [PARENT]).label == "retrieval_miss"


def test_the_model_decides_when_configured_and_the_terms_when_it_fails() -> None:
    asked = _judged("Does TRUNCATE fire ON DELETE triggers?", "Yes [1].")
    seen: list[Sequence[ChatMessage]] = []

    def model(messages: Sequence[ChatMessage]) -> str:
        seen.append(messages)
        return '{"label": "retrieval_fault", "reason": "the passage is about another command"}'

    said = triage_by_model(model, asked, "No: ON TRUNCATE triggers", [PARENT], "m")
    assert (said.label, said.judge) == ("retrieval_fault", "m")
    system, user = seen[0]
    assert system.role == "system" and PARENT in user.content and "<<<PASSAGE 1 " in user.content
    broken = triage_by_model(lambda m: "not json", asked, "No: ON TRUNCATE triggers", [PARENT])
    assert (broken.label, broken.judge) == ("generation_fault", "terms")


def test_export_rules() -> None:
    record = wire_forms.feedback()  # a thumbs-down triaged as a generation fault
    item = eval_item(record)
    assert item["expected"] == "answer" and item["gold_chunk_ids"] == ["c1"]
    assert item["gold_evidence"] == [{"document": "T", "text": "根据文档回答问题"}]
    assert item["asker"] is None and eval_item(record, include_users=True)["asker"] == "alice"
    missed = replace(record, triage=Triage("retrieval_fault", "", (), "terms"))
    assert eval_item(missed)["gold_chunk_ids"] == [] and eval_item(missed)["expected"] == "answer"
    refused = replace(record, rating="up", judged=replace(record.judged, status="not_covered"))
    assert eval_item(refused)["expected"] == "refuse"


def test_newest_wins_per_aspect_of_form() -> None:
    base = wire_forms.feedback()
    reasons = ["Shorter, please", "More detail and examples", "Much longer answers", "In English"]
    kept = newest_wins([replace(base, reason=r) for r in reasons])
    assert kept == ("Shorter, please", "More detail and examples", "In English")
