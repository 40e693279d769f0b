"""``Asker.stream``: typed events in order, answer text handed over while the answerer is
still writing, worker failures raised in the caller, and ``ask`` = the stream's last event."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest

from askalong.answer.base import Answerer, Draft, DraftRequest
from askalong.answer.extractive.answerer import ExtractiveAnswerer
from askalong.asking.asker import Asker, Question
from askalong.asking.events import (
    Answered,
    AnswerText,
    EvidenceFound,
    QuoteChecked,
    QuoteFound,
    ThreadStarted,
)
from askalong.config import Settings
from askalong.errors import ProviderError
from askalong.ingest.inputs import Upload
from askalong.library import Library
from askalong.types import Access, Anchor, Quote

NOTES = (
    "# Tides\n\n"
    "Tides are caused by the gravity of the Moon pulling on the oceans. "
    "The Sun adds a smaller pull, so spring tides come when both line up.\n"
)
LOCAL = Access.local()


@pytest.fixture
def library(settings: Settings) -> Iterator[Library]:
    with Library(settings) as library:
        yield library


def tides(library: Library) -> tuple[str, str]:
    outcome = library.ingestor.add_upload(
        Upload(NOTES.encode(), "tides.md", "tides.md"), Access.local()
    )
    assert outcome.document is not None
    block = next(b for b in library.store.blocks(outcome.document.id) if "Moon" in b.text)
    return outcome.document.id, block.id


class SlowWriter(Answerer):
    """Writes two pieces and waits between them until the test has seen the first."""

    name = "slow"

    def __init__(self, seen_first: threading.Event) -> None:
        self.seen_first = seen_first

    def draft(self, request: DraftRequest) -> Draft:
        raise AssertionError("the stream must use draft_streaming")

    def draft_streaming(self, request: DraftRequest, on_text: Callable[[str], None]) -> Draft:
        unit = request.units[0]
        piece = unit.pieces[0]
        on_text("The Moon pulls ")
        assert self.seen_first.wait(10), "the first piece was not passed on while writing"
        on_text("the oceans. [1]")
        span, page = piece.span, unit.place(piece.span.block_id).page
        quote = Quote(
            1, unit.document_id, span.block_id, span.start, span.start + 60, piece.text[:60], page
        )
        return Draft("answered", "The Moon pulls the oceans. [1]", (quote,))


def test_answer_text_is_yielded_while_the_answerer_writes(library: Library) -> None:
    doc_id, block_id = tides(library)
    seen_first = threading.Event()
    asker = Asker(library.store, library.searcher, SlowWriter(seen_first))
    events = asker.stream(Question("What causes tides?", anchor=Anchor(doc_id, block_id)), LOCAL)
    kinds = []
    for event in events:
        kinds.append(type(event))
        if isinstance(event, AnswerText) and event.text == "The Moon pulls ":
            seen_first.set()  # only now may the answerer go on
    assert kinds == [
        ThreadStarted,
        EvidenceFound,
        AnswerText,
        AnswerText,
        QuoteFound,
        QuoteChecked,
        Answered,
    ]


def test_events_carry_the_anchor_quotes_and_the_stored_answer(library: Library) -> None:
    doc_id, block_id = tides(library)
    asker = Asker(library.store, library.searcher, ExtractiveAnswerer())
    question = Question(intent="explain", anchor=Anchor(doc_id, block_id, 0, 40))
    events = list(asker.stream(question, LOCAL))
    started, done = events[0], events[-1]
    assert isinstance(started, ThreadStarted) and isinstance(done, Answered)
    assert started.anchor == Anchor(doc_id, block_id, 0, 40) and started.section_path == ("Tides",)
    answer = done.answer
    assert (answer.thread_id, answer.turn_id) == (started.thread_id, started.turn_id)
    found = [e.quote for e in events if isinstance(e, QuoteFound)]
    assert [q.number for q in found] == [q.number for q in answer.quotes] and found
    checked = {e.number: e.verdict for e in events if isinstance(e, QuoteChecked)}
    assert checked == {q.number: q.verdict for q in answer.quotes}
    assert [t.answer for t in library.store.turns(started.thread_id)] == [answer]

    follow = asker.ask(Question("And the Sun?", thread_id=answer.thread_id), LOCAL)
    assert follow.anchor == answer.anchor and follow.thread_id == answer.thread_id


class Broken(Answerer):
    name = "broken"

    def draft(self, request: DraftRequest) -> Draft:
        raise ProviderError("no model", source="chat")


def test_a_failing_answerer_fails_the_stream_and_stores_nothing(library: Library) -> None:
    doc_id, block_id = tides(library)
    events = Asker(library.store, library.searcher, Broken()).stream(
        Question("Why?", anchor=Anchor(doc_id, block_id)), LOCAL
    )
    started = next(events)
    assert isinstance(started, ThreadStarted)
    with pytest.raises(ProviderError, match="no model"):
        list(events)
    assert library.store.list_threads(LOCAL) == []


class AtOnce(Answerer):
    """Writes its whole answer at once (``draft`` only), as the extractive answerer does."""

    name = "at-once"
    ANSWER = "The Moon pulls the oceans. [1] The Sun adds a smaller pull. [1]"

    def draft(self, request: DraftRequest) -> Draft:
        unit = request.units[0]
        piece = unit.pieces[0]
        span, page = piece.span, unit.place(piece.span.block_id).page
        quote = Quote(
            1, unit.document_id, span.block_id, span.start, span.start + 60, piece.text[:60], page
        )
        return Draft("answered", self.ANSWER, (quote,))


def test_a_whole_answer_is_streamed_sentence_by_sentence(library: Library) -> None:
    """An answer written at once still streams a sentence at a time, each with the
    citation marks that close it, so the reader shows it growing."""
    doc_id, block_id = tides(library)
    asker = Asker(library.store, library.searcher, AtOnce())
    events = asker.stream(Question("What causes tides?", anchor=Anchor(doc_id, block_id)), LOCAL)
    pieces = [e.text for e in events if isinstance(e, AnswerText)]
    assert pieces == ["The Moon pulls the oceans. [1] ", "The Sun adds a smaller pull. [1]"]


def test_a_whole_document_follow_up_drops_the_thread_anchor(library: Library) -> None:
    doc_id, block_id = tides(library)
    asker = Asker(library.store, library.searcher, ExtractiveAnswerer())
    first = asker.ask(Question("What pulls on the oceans?", anchor=Anchor(doc_id, block_id)), LOCAL)
    assert first.anchor is not None
    document = library.store.get_document(doc_id, LOCAL)
    whole = Question("What does the Sun add?", documents=(document,), thread_id=first.thread_id)
    dropped = asker.ask(replace(whole, whole=True), LOCAL)
    assert dropped.anchor is None and dropped.thread_id == first.thread_id
    kept = asker.ask(Question("And the Moon?", thread_id=first.thread_id), LOCAL)
    assert kept.anchor is None  # the thread goes on from its last turn: whole document


class Wordy(AtOnce):
    """Writes three sentences at once: one more than a direct answer holds."""

    ANSWER = f"{AtOnce.ANSWER} Spring tides come when both line up. [1]"


def test_the_stream_stops_where_the_shaped_answer_does(library: Library) -> None:
    """The third sentence is never streamed: the stored answer leaves it for the
    explanation, so the reader does not see it appear and vanish."""
    doc_id, block_id = tides(library)
    asker = Asker(library.store, library.searcher, Wordy())
    question = Question("What causes tides?", anchor=Anchor(doc_id, block_id))
    events = list(asker.stream(question, LOCAL))
    pieces = [e.text for e in events if isinstance(e, AnswerText)]
    assert pieces == ["The Moon pulls the oceans. [1] ", "The Sun adds a smaller pull. [1] "]
    done = events[-1]
    assert isinstance(done, Answered)
    assert done.answer.answer == AtOnce.ANSWER
    assert done.answer.explanation == "Spring tides come when both line up. [1]"


class Refusing(Answerer):
    """Finds nothing that answers."""

    name = "refusing"

    def draft(self, request: DraftRequest) -> Draft:
        return Draft("not_covered", "-", ())


@pytest.mark.parametrize(
    ("question", "told"),
    [
        ("潮汐的漲落週期是多少？", "文件中沒有涉及這個問題。"),
        ("潮汐的涨落周期是多少？", "文档中没有涉及这个问题。"),
        ("How long is a tidal cycle?", "The document does not cover this."),
    ],
)
def test_a_refusal_is_told_in_the_questions_script(
    library: Library, question: str, told: str
) -> None:
    """A Chinese question written in Traditional characters is refused in Traditional
    ones, not in the Simplified sentence (the language alone says only "zh")."""
    tides(library)
    asker = Asker(library.store, library.searcher, Refusing())
    answer = asker.ask(Question(question), LOCAL)
    assert (answer.status, answer.answer) == ("not_covered", told)
