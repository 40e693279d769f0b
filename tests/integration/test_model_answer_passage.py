"""A model's answer shaped and placed as the offline one is (issue 32, item 2): the asker as
the product wires it (``make_asker``, the model answerer on the scripted server) over a real
library; the model's direct answer is cut to two sentences, the third opening the
explanation, and ``passage`` is the paragraph its quote sits in, the quote marked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from chat_server import Reply, ScriptedChatServer

from askalong.asking.asker import Question
from askalong.asking.choose import make_asker
from askalong.config import Settings, load_settings
from askalong.library import Library
from askalong.types import Access, Answer, Document

PARAGRAPH = (
    "The reactor was built in 1962. The reactor uses heavy water as its coolant and "
    "moderator. It was shut down in 1998."
)
DOCUMENT = f"Reactor notes\n\n{PARAGRAPH}\n\nStaff notes\n\nThe canteen opens at noon.\n"
QUOTED = "The reactor uses heavy water as its coolant"
REPLY = {
    "status": "answered",
    "answer": "It uses heavy water [1]. Heavy water also moderates it [1]. It ran until 1998.",
    "quotes": [{"n": 1, "source": 1, "text": QUOTED}],
}


@pytest.fixture
def server() -> Iterator[ScriptedChatServer]:
    with ScriptedChatServer() as scripted:
        yield scripted


def ask(settings: Settings, tmp_path: Path, server: ScriptedChatServer) -> Answer:
    path = tmp_path / "reactor.txt"
    path.write_text(DOCUMENT, encoding="utf-8")
    configured = load_settings(
        home=settings.home, answerer="openai", llm_base_url=server.url, llm_model="scripted"
    )
    with Library(configured) as library:
        added = library.ingestor.add(str(path), Access.local())
        assert isinstance(added.document, Document)
        question = Question(
            "What does the reactor use as its coolant?", documents=(added.document,)
        )
        return make_asker(library).ask(question, Access.local())


def test_a_model_answer_is_shaped_and_placed_in_its_paragraph(
    settings: Settings, tmp_path: Path, server: ScriptedChatServer
) -> None:
    server.script(Reply.json(REPLY))
    answer = ask(settings, tmp_path, server)
    assert answer.status == "answered" and answer.model is not None
    assert answer.answer.startswith("It uses heavy water") and "1998" not in answer.answer
    assert answer.explanation.startswith("It ran until 1998.")
    passage = answer.passage
    assert passage is not None and passage.text == PARAGRAPH
    (mark,) = passage.answer_spans
    (quote,) = answer.quotes
    assert passage.text[mark.start : mark.end] == quote.text == QUOTED
    assert [s.block_id for s in passage.spans] == [quote.block_id]
