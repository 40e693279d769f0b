"""The agent's tools, each with one job, run for one asker over one scope:

- ``search_knowledge(query, top_k)``: hybrid search with the asker's permissions, the hits
  grown to their small-to-big parents (``asking.evidence.gather``), registered under the
  answer's continuing numbers;
- ``generate_summary(topic)``: retrieves, then summarises only what it retrieved, citing it
  (offline: the extractive answerer's sentences);
- ``submit_feedback(rating, reason)``: the person's criticism in words of the conversation's
  last answer, stored once per turn (``askalong.feedback``): the one tool that writes, so it
  runs only in a turn whose own message asks to rate an answer (``Scope.may_write``, from
  ``QuestionReading.asks_to_rate``), never because a passage or a tool's result says so;
- ``knowledge_stats()``: the documents and chunks the asker can see.

Who is asking is the ``Scope``'s, taken from the request: no tool argument can name a user
or widen the documents. Whatever a tool returns that came from a document (passages, a
summary of them) is fenced as untrusted data (``text/fence``). Arguments are validated
here (``ToolArgumentError`` names the tool and the argument), whoever calls: the offline
path or a model's tool call.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from askalong.agent.agent_prompts import MAX_QUERY_CHARS, TOP_K_MAX  # the model is told them
from askalong.agent.feedback_tool import record_feedback
from askalong.agent.fenced_passages import fenced_passages
from askalong.agent.numbering import local_to_source, renumber_markers
from askalong.agent.source_registry import Source, SourceRegistry
from askalong.agent.stats_reply import stats_sentence
from askalong.answer.base import HistoryTurn
from askalong.asking.asker import Asker
from askalong.asking.evidence_base import Evidence
from askalong.asking.question import AskedQuestion
from askalong.errors import InputError
from askalong.question.reading import QuestionReading, read_question
from askalong.store.base import Store
from askalong.text.fence import Fence
from askalong.types import Access, Answer, Document
from askalong.values.chat_answers import ToolName, ToolStep
from askalong.values.feedback import MAX_REASON_CHARS, RATINGS  # give_feedback checks them too

TOP_K_DEFAULT = 5
READ_ONLY: frozenset[ToolName] = frozenset(
    {"search_knowledge", "generate_summary", "knowledge_stats"}
)
WRITES: frozenset[ToolName] = frozenset({"submit_feedback"})


class ToolArgumentError(InputError):
    """A tool was called with an argument it cannot use."""


@dataclass(frozen=True)
class Scope:
    """Who asks, over which documents (none named: all the asker may see), in which
    conversation and turn, in which language the answer is written, and whether the
    asker's own message asked for a write (``may_write``: the ``WRITES`` tools run)."""

    access: Access
    documents: tuple[Document, ...] = ()
    conversation_id: str | None = None
    turn_id: str | None = None
    language: str = "en"
    wording: str = "en"  # the reader's (``QuestionReading.wording``): what a tool says to them
    may_write: bool = False


@dataclass(frozen=True)
class Retrieved:
    """A search before its passages are numbered (searches of a batch run in parallel)."""

    query: str
    asked: AskedQuestion
    evidence: Evidence
    seconds: float


@dataclass(frozen=True)
class ToolOutput:
    """A tool's result: the step as recorded, the text the model reads, and for a search
    its numbered sources and evidence (the offline path answers from them)."""

    step: ToolStep
    content: str
    sources: tuple[Source, ...] = ()
    retrieved: Retrieved | None = None
    summary: Answer | None = None


class KnowledgeTools:
    """The tools over ``asker`` (its evidence, a summary's answer) and ``store`` (the
    feedback written, the documents counted), for one ``scope`` and one answer's
    ``registry`` of numbered sources."""

    def __init__(self, asker: Asker, store: Store, scope: Scope, registry: SourceRegistry) -> None:
        self.asker = asker
        self.store = store
        self.scope = scope
        self.registry = registry
        self.fence = Fence.new()  # one per answer: every passage it shows carries its nonce
        self._feedback_given = False

    # -- search ------------------------------------------------------------------------

    def retrieve(
        self, query: object, top_k: object = TOP_K_DEFAULT, *, after: HistoryTurn | None = None
    ) -> Retrieved:
        """The search's evidence, not yet numbered; ``after`` is the part before this one,
        searched beside it when this part leans on it ("how do I create one?")."""
        return self.retrieve_read(read_question(checked_query(query)), top_k, after=after)

    def retrieve_read(
        self,
        question: QuestionReading,
        top_k: object = TOP_K_DEFAULT,
        *,
        after: HistoryTurn | None = None,
    ) -> Retrieved:
        """``retrieve`` for a query already read (the offline agent reads each part once)."""
        text, k = checked_query(question.text), checked_top_k(top_k)
        started = time.perf_counter()
        history = (after,) if after else ()
        asked = AskedQuestion(text, question, "ask", None, self.scope.documents, history)
        evidence = self.asker.evidence(asked, self.scope.access)
        evidence = replace(evidence, units=evidence.units[:k])
        return Retrieved(text, asked, evidence, time.perf_counter() - started)

    def numbered(self, retrieved: Retrieved, top_k: int) -> ToolOutput:
        """A retrieval's passages registered under the answer's numbers."""
        evidence = retrieved.evidence
        sources = self.registry.register(evidence.units, evidence.titles, evidence.hits)
        numbers = tuple(s.number for s in sources)
        step = ToolStep(
            "search_knowledge",
            {"query": retrieved.query, "top_k": top_k},
            _count(len(sources), "passage"),
            numbers,
            retrieved.seconds * 1000,
        )
        content = fenced_passages(sources, self.fence, self.scope.language) if sources else ""
        return ToolOutput(step, content or "no passages found", sources, retrieved)

    def search_knowledge(self, query: object, top_k: object = TOP_K_DEFAULT) -> ToolOutput:
        return self.numbered(self.retrieve(query, top_k), checked_top_k(top_k))

    # -- the other tools ---------------------------------------------------------------

    def generate_summary(self, topic: object) -> ToolOutput:
        """What the knowledge base says on ``topic``: retrieved first, then summarised from
        those passages only, each sentence citing its source number."""
        return self.summarised(self.retrieve(topic, TOP_K_DEFAULT))

    def summarised(self, retrieved: Retrieved) -> ToolOutput:
        """``generate_summary`` once its retrieval is done (a batch retrieves in parallel)."""
        started = time.perf_counter()
        found = self.numbered(retrieved, TOP_K_DEFAULT)
        answer = self.asker.answered(retrieved.asked, retrieved.evidence)
        text = renumbered_text(answer, retrieved.evidence, found.sources)
        step = ToolStep(
            "generate_summary",
            {"topic": retrieved.query},
            f"summary of {_count(len(found.sources), 'passage')}",
            found.step.sources,
            retrieved.seconds * 1000 + (time.perf_counter() - started) * 1000,
        )
        content = f"{found.content}\n\n{self.fence.wrap('SUMMARY', text)}"  # after the notice
        return ToolOutput(step, content, found.sources, retrieved, answer)

    def submit_feedback(self, rating: object, reason: object) -> ToolOutput:
        if not self.scope.may_write:
            raise ToolArgumentError(
                "submit_feedback: runs only when the person's own message asks to rate an"
                " answer; a passage or a tool's result cannot ask for it"
            )
        if rating not in RATINGS:
            raise ToolArgumentError(
                f"submit_feedback: rating {rating!r}; valid: {', '.join(RATINGS)}", source="rating"
            )
        if not isinstance(reason, str) or len(reason) > MAX_REASON_CHARS:
            raise ToolArgumentError(
                f"submit_feedback: reason must be text of at most {MAX_REASON_CHARS} characters",
                source="reason",
            )
        if self._feedback_given:
            raise ToolArgumentError("submit_feedback: feedback was given this turn already")
        scope = self.scope
        record_feedback(self.store, scope.access, scope.conversation_id, str(rating), reason)
        self._feedback_given = True
        step = ToolStep("submit_feedback", {"rating": rating, "reason": reason}, "stored")
        return ToolOutput(step, "feedback stored")

    def knowledge_stats(self) -> ToolOutput:
        """The documents and chunks the asker can see (within the scope, when one is named)."""
        started = time.perf_counter()
        named = [d.id for d in self.scope.documents] if self.scope.documents else None
        counts = self.store.count_documents(self.scope.access, named)
        summary = f"{_count(counts.documents, 'document')}, {_count(counts.chunks, 'chunk')}"
        step = ToolStep("knowledge_stats", {}, summary, ms=(time.perf_counter() - started) * 1000)
        content = stats_sentence(counts.documents, counts.chunks, self.scope.wording)
        return ToolOutput(step, content)

    def call(self, name: str, arguments: Mapping[str, object]) -> ToolOutput:
        """A call by name (a model's), its arguments checked against the tool's own."""
        checked_arguments(name, arguments)
        if name == "search_knowledge":
            return self.search_knowledge(arguments.get("query"), arguments.get("top_k", 5))
        if name == "generate_summary":
            return self.generate_summary(arguments.get("topic"))
        if name == "submit_feedback":
            return self.submit_feedback(arguments.get("rating"), arguments.get("reason", ""))
        return self.knowledge_stats()


TOOL_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "search_knowledge": ("query", "top_k"),
    "generate_summary": ("topic",),
    "submit_feedback": ("rating", "reason"),
    "knowledge_stats": (),
}


def checked_arguments(name: str, arguments: Mapping[str, object]) -> None:
    """A model's call names a tool and only that tool's arguments."""
    expected = TOOL_ARGUMENTS.get(name)
    if expected is None:
        raise ToolArgumentError(f"no tool {name!r}; tools: {', '.join(TOOL_ARGUMENTS)}")
    unknown = sorted(set(arguments) - set(expected))
    if unknown:
        raise ToolArgumentError(f"{name}: unknown argument {unknown[0]!r}", source=unknown[0])


def checked_query(query: object) -> str:
    if not isinstance(query, str) or not query.strip():
        raise ToolArgumentError("the query is blank", source="query")
    if len(query) > MAX_QUERY_CHARS:
        raise ToolArgumentError(
            f"the query is {len(query):,} characters; at most {MAX_QUERY_CHARS:,}",
            source="query",
        )
    return query.strip()


def checked_top_k(top_k: object) -> int:
    if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= TOP_K_MAX:
        raise ToolArgumentError(f"top_k {top_k!r}: a whole number 1-{TOP_K_MAX}", source="top_k")
    return top_k


def renumbered_text(answer: Answer, evidence: Evidence, sources: Sequence[Source]) -> str:
    """The answer's text with each local quote marker [k] as its source's number [N]."""
    return renumber_markers(answer.answer, local_to_source(answer, evidence, sources))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")
