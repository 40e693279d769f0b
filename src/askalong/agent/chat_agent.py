"""The chat entry point: one question to the knowledge base as the asker sees it,
answered by the agent and stored as a turn of its conversation (a thread).

With no language model configured the offline path answers (``offline``); with one, the
ReAct loop over tool calling (``react``), its reply checked after generation
(``model_answer``). Either way the answer's events stream as
``askalong.agent.stream_events`` lists them. Who asks is the request's
``Access``; the documents (a collection's, or none: all the asker may see) were resolved
by the edge with that access.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from askalong.agent.agent_limits import AgentLimits
from askalong.agent.citation_scores import citation_scores
from askalong.agent.model_answer import model_chat_answer
from askalong.agent.numbering import FirstCited, shown_in_order
from askalong.agent.offline import (
    OFFLINE_NOTE,
    PartResult,
    answered_offline,
    cited_sources,
    offline_answer_text,
)
from askalong.agent.react import run_model
from askalong.agent.source_registry import SourceRegistry
from askalong.agent.stream_events import (
    ChatAnswered,
    ChatEvent,
    ChatStarted,
    PartAnswered,
    ToolDone,
)
from askalong.agent.tools import KnowledgeTools, Scope
from askalong.answer.base import NOT_COVERED, HistoryTurn
from askalong.answer.choose import make_chat_models
from askalong.asking.asker import Asker, new_id
from askalong.asking.conflicts import conflicts_among
from askalong.asking.limits import check_sizes
from askalong.errors import InputError
from askalong.feedback.guidance import guidance_entries
from askalong.providers.chat import ChatModel
from askalong.question.reading import QuestionReading, read_question
from askalong.settings import Settings
from askalong.store.base import Store
from askalong.types import Access, Answer, Document, Quote
from askalong.values.chat_answers import ChatAnswer, ChatTimings, ToolStep
from askalong.values.threads import Thread, Turn


@dataclass(frozen=True)
class ChatRequest:
    question: str
    access: Access
    documents: tuple[Document, ...] = ()  # resolved by the edge; none: all visible
    conversation_id: str | None = None


HISTORY_TURNS = 3  # earlier turns of the conversation the model reads


class ChatAgent:
    """``asker`` answers a part offline and checks a model's reply; ``store`` keeps the
    conversations and the feedback; ``settings`` choose the default ``model`` (the strong
    model when the answerer is ``openai``, else none: offline) and the ``limits``."""

    def __init__(
        self,
        asker: Asker,
        store: Store,
        settings: Settings,
        model: ChatModel | None = None,
        limits: AgentLimits | None = None,
    ) -> None:
        self.asker = asker
        self.store = store
        self.model = model if model is not None else configured_model(settings)
        self.limits = limits or AgentLimits.of(settings)

    def ask(self, request: ChatRequest) -> ChatAnswer:
        answered = None
        for event in self.stream(request):
            if isinstance(event, ChatAnswered):
                answered = event.answer
        assert answered is not None, "a chat stream always ends with the answer"
        return answered

    def stream(self, request: ChatRequest) -> Iterator[ChatEvent]:
        started = time.perf_counter()
        question = request.question.strip()
        if not question:
            raise InputError("the question is empty", source="question")
        check_sizes(question)
        thread, turns = self._conversation(request)
        turn_id = new_id()
        yield ChatStarted(thread.id, turn_id, "offline" if self.model is None else "model")
        reading = read_question(question)  # read once: every step after takes the reading
        language = reading.language
        writes = reading.asks_to_rate  # the person's own words, never a tool's result
        scope = Scope(
            request.access, request.documents, thread.id, turn_id, language, reading.wording, writes
        )
        registry = SourceRegistry()
        tools = KnowledgeTools(self.asker, self.store, scope, registry)
        if self.model is None:
            answer = yield from _offline(tools, reading, turns)
        else:
            history = tuple((t.question, t.answer.answer) for t in turns[-HISTORY_TURNS:])
            guidance = guidance_entries(self.store, request.access.user)
            run = yield from run_model(self.model, tools, question, history, self.limits, guidance)
            answer = model_chat_answer(self.asker, reading, run, registry, self.limits)
        answer = shown_in_order(answer)  # the numbers a reader sees: 1..N, no gap
        conflicts = conflicts_among(self.store, answer.sources, request.access)
        answer = replace(answer, conflicts=conflicts)
        total = (time.perf_counter() - started) * 1000
        answer = replace(
            answer,
            conversation_id=thread.id,
            turn_id=turn_id,
            timings=replace(answer.timings, total_ms=total),
            hits=registry.hits,
        )
        self._save(thread, len(turns), answer)
        yield ChatAnswered(answer)

    def _conversation(self, request: ChatRequest) -> tuple[Thread, tuple[Turn, ...]]:
        store = self.store
        if request.conversation_id is None:
            now = _now()
            title = request.question.strip()[:200]
            return Thread(new_id(), request.access.user, title, now, now), ()
        thread = store.get_thread(request.conversation_id, request.access)
        return thread, store.turns(thread.id)

    def _save(self, thread: Thread, index: int, answer: ChatAnswer) -> None:
        assert answer.turn_id is not None
        stored = stored_answer(answer)
        turn = Turn(answer.turn_id, thread.id, index, answer.question, "ask", None, stored, _now())
        self.store.save_turn(thread, turn)


def configured_model(settings: Settings) -> ChatModel | None:
    """The strong chat model when a model answers (``ASKALONG_ANSWERER=openai``)."""
    return make_chat_models(settings)[0] if settings.answerer == "openai" else None


def _offline(
    tools: KnowledgeTools, question: QuestionReading, turns: Sequence[Turn]
) -> Generator[ChatEvent, None, ChatAnswer]:
    previous = HistoryTurn(turns[-1].question, turns[-1].answer.answer) if turns else None
    results: list[PartResult] = []
    steps = []
    streamed = FirstCited()  # a part shows the numbers the finished answer will
    for item in answered_offline(tools, question, previous):
        if isinstance(item, PartResult):
            results.append(item)
            continue
        if isinstance(item, ToolDone):
            steps.append(item.step)
        if isinstance(item, PartAnswered):
            item = replace(item, part=streamed.part(item.part))
        yield item
    return _chat_answer(question.text, question.wording, results, tools.registry, tuple(steps))


def _chat_answer(
    question: str,
    words: str,
    results: list[PartResult],
    registry: SourceRegistry,
    steps: tuple[ToolStep, ...],
) -> ChatAnswer:
    parts = tuple(r.part for r in results)
    claims = tuple(c for r in results for c in r.claims)
    sources = cited_sources(results, registry)
    verdicts = {s.number: s.verdict for s in sources}
    answered = any(p.status == "answered" for p in parts)
    text = offline_answer_text(parts) if answered else NOT_COVERED[words]
    return ChatAnswer(
        status="answered" if answered else "not_covered",
        question=question,
        answer=text,
        parts=parts,
        sources=sources,
        claims=claims,
        steps=steps,
        scores=citation_scores(claims, verdicts),
        notes=(OFFLINE_NOTE[words],),
        timings=ChatTimings(
            search_ms=sum(r.search_ms for r in results),
            answer_ms=sum(r.answer_ms for r in results),
        ),
    )


def stored_answer(answer: ChatAnswer) -> Answer:
    """The chat answer as a thread keeps it: its sources as the quotes they cite, its
    sources' hits, which feedback freezes with their route scores and ranks, and the
    route of its one part (the text is that part's: a reopened code answer shows as code;
    several parts' text is theirs joined, and keeps none)."""
    quotes = tuple(
        Quote(
            s.number,
            s.document_id,
            s.block_id,
            s.start,
            s.end,
            s.text,
            s.page,
            s.section_path,
            s.verdict,
        )
        for s in answer.sources
    )
    return Answer(
        status=answer.status,
        question=answer.question,
        answer=answer.answer,
        quotes=quotes,
        claims=answer.claims,
        thread_id=answer.conversation_id,
        turn_id=answer.turn_id,
        answerer=f"agent-{answer.mode}",
        model=answer.model,
        notes=answer.notes,
        conflicts=answer.conflicts,
        hits=answer.hits,
        route=answer.parts[0].route if len(answer.parts) == 1 else None,
    )


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
