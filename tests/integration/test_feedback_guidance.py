"""Feedback changes later answers (issue 16): the asker's latest reasons reach the next
request's system prompt, below the evidence rules, newest first, a conflict settled for the
newer one; a thumbs-down without a reason and another asker's feedback stay out. The model
is the scripted OpenAI-compatible server; the document is a real PostgreSQL manual page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chat_server import Reply, ScriptedChatServer

from askalong.asking.asker import Asker
from askalong.asking.choose import make_asker
from askalong.asking.question import Question
from askalong.config import Settings, load_settings
from askalong.feedback.give import give_feedback
from askalong.library import Library
from askalong.types import Access, Answer

PAGE = "manuals/postgresql-15-html/sql-truncate.html"
ALICE, BOB = Access(user="alice"), Access(user="bob")
NOT_COVERED = {"status": "not_covered", "answer": "The sources do not say.", "quotes": []}


@pytest.fixture
def asker(settings: Settings, evaldata: Path) -> Iterator[tuple[Asker, ScriptedChatServer]]:
    with ScriptedChatServer(default=Reply.json(NOT_COVERED)) as server:
        configured = load_settings(
            home=settings.home,
            answerer="openai",
            llm_base_url=server.url,
            llm_model="scripted",
            llm_judge=False,
        )
        with Library(configured) as library:
            page = str(evaldata / PAGE)
            outcome = library.ingestor.add(page, ALICE, visibility="public")
            assert outcome.document is not None, outcome.error
            yield make_asker(library), server


def _ask(asker: Asker, access: Access, text: str) -> Answer:
    (doc,) = asker.store.list_documents(access)
    return asker.ask(Question(text, documents=(doc,)), access)


def _rate(asker: Asker, access: Access, answer: Answer, rating: str, reason: str) -> None:
    assert answer.thread_id is not None and answer.turn_id is not None
    store = asker.store
    give_feedback(store, access, answer.thread_id, answer.turn_id, rating, reason)


def _system(body: dict[str, Any]) -> str:
    (system,) = [m["content"] for m in body["messages"] if m["role"] == "system"]
    assert isinstance(system, str)
    return system


def test_the_next_prompt_carries_the_askers_own_guidance(
    asker: tuple[Asker, ScriptedChatServer],
) -> None:
    model, server = asker
    first = _ask(model, ALICE, "What does TRUNCATE do?")
    assert "PREFERENCE" not in _system(server.chat_bodies[-1])  # no feedback yet
    _rate(model, ALICE, first, "down", "Make the answers much longer, please")
    second = _ask(model, ALICE, "Does TRUNCATE fire ON DELETE triggers?")
    _rate(model, ALICE, second, "down", "Too long: keep it short, two sentences at most")
    third = _ask(model, ALICE, "Can TRUNCATE be rolled back?")
    _rate(model, ALICE, third, "down", "")  # kept, never injected
    fourth = _ask(model, ALICE, "Is TRUNCATE MVCC-safe?")
    _rate(model, ALICE, fourth, "up", "Good, and write in English with the option names")
    for n in range(2):
        _rate(model, BOB, _ask(model, BOB, f"What is TRUNCATE? ({n})"), "down", "请用中文回答")

    _ask(model, ALICE, "What does RESTART IDENTITY do?")
    system = _system(server.chat_bodies[-1])
    rules_end = system.index("Reply with one JSON object only")
    newest = system.index("write in English with the option names")
    shorter = system.index("keep it short, two sentences at most")
    assert rules_end < newest < shorter  # below the evidence rules, newest first
    assert "much longer" not in system  # the newer length preference won
    assert "请用中文回答" not in system  # another asker's feedback
    assert "<<<PREFERENCE 2 " in system  # two, and not the thumbs-down without a reason:
    assert "<<<PREFERENCE 3 " not in system
    assert len(model.store.list_feedback(ALICE)) == 4  # but it is kept

    _ask(model, BOB, "What is CASCADE?")
    bobs = _system(server.chat_bodies[-1])
    assert "请用中文回答" in bobs and "two sentences" not in bobs
