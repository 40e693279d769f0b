"""The agent without a language model: the question split into its parts
(``QuestionReading.parts``, read in ``question/split_parts``), one search per part, each
part answered extractively from its own passages and checked as a single-document answer
is (``Asker.answered``), under the one numbering of the answer
(``agent/source_registry``); a question about the knowledge base itself is answered from
``knowledge_stats``. The answer says that it ran without a model.

A part that names no subject is searched with the one before it ("what does it default
to?" as "what does shared_buffers default to?", ``QuestionPart.searched``), so no part
waits for another's answer: the searches start together (``SEARCHES_AT_ONCE``), each part
is answered as its search is done, and the passages are numbered in part order.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace

from askalong.agent.choosing import Drawn, chosen_answers
from askalong.agent.numbering import local_to_source, renumber_claims, renumber_markers
from askalong.agent.source_registry import Source, SourceRegistry
from askalong.agent.stream_events import ChatEvent, PartAnswered, ToolCalled, ToolDone
from askalong.agent.tools import TOP_K_MAX, KnowledgeTools, Retrieved, ToolOutput
from askalong.answer.base import HistoryTurn
from askalong.answer.extractive.direct import joined
from askalong.question.reading import QuestionReading, read_question
from askalong.question.split_parts import QuestionPart
from askalong.types import Claim, Quote
from askalong.values.chat_answers import ChatPart, ChatSource

OFFLINE_NOTE = {
    "en": "Answered offline, without a language model: each part is the documents' own "
    "sentences, each cited and checked.",
    "zh": "离线回答，未使用语言模型：每一部分都是文档原句，均附引用并经过核对。",
    "zh-Hant": "離線回答，未使用語言模型：每一部分都是文件原句，均附引用並經過核對。",
}

# The extractive answerer reads every passage the search gathered, as ``ask`` does
# (``asking/evidence_search.ANSWER_CHUNKS``): on the dev questions the answering sentence was in
# the 6th-10th passage often enough that reading only the first 5 lost a fifth of the parts.
OFFLINE_TOP_K = TOP_K_MAX
# Searches run at once: the index, the embedder and SQLite leave the interpreter while they
# work, so a second part's search overlaps the first's answer (two cores, two parts).
SEARCHES_AT_ONCE = 2


@dataclass(frozen=True)
class PartResult:
    part: ChatPart
    claims: tuple[Claim, ...]
    quotes: tuple[tuple[int, Quote], ...]  # (source number, quote), for the sources list
    search_ms: float
    answer_ms: float


def answered_offline(
    tools: KnowledgeTools, question: QuestionReading, previous: HistoryTurn | None
) -> Iterator[ChatEvent | PartResult]:
    """Each part's tool steps as events, then its result; ``previous`` is the conversation's
    last turn, which a first part leaning on it is searched beside."""
    parts = question.parts
    queries = [_read(part, question) for part in parts]
    with ThreadPoolExecutor(SEARCHES_AT_ONCE, thread_name_prefix="askalong-part") as pool:
        started = _searches_started(pool, tools, parts, queries, previous)
        before = previous
        for index, (part, query) in enumerate(zip(parts, queries, strict=True)):
            result = yield from _part(tools, part, query, started.get(index), before)
            yield PartAnswered(index, result.part)
            yield result
            before = HistoryTurn(query.text, result.part.answer)


def _read(part: QuestionPart, whole: QuestionReading) -> QuestionReading:
    """A part as searched, read once: the whole question's reading when it is one part."""
    return whole if part.searched == whole.text else read_question(part.searched)


def _searches_started(
    pool: ThreadPoolExecutor,
    tools: KnowledgeTools,
    parts: Sequence[QuestionPart],
    queries: Sequence[QuestionReading],
    previous: HistoryTurn | None,
) -> dict[int, Future[Retrieved]]:
    """The searches that need no other part's answer, started: the first part's (beside
    the conversation's last turn when it leans on it) and every later one naming its
    subject; not a stats part's."""
    started = {}
    for index, query in enumerate(queries):
        if parts[index].asks_stats or (index > 0 and _waits(query)):
            continue
        after = _after(query, previous) if index == 0 else None
        started[index] = pool.submit(tools.retrieve_read, query, OFFLINE_TOP_K, after=after)
    return started


def _waits(query: QuestionReading) -> bool:
    """Whether a later part still leans on the part before (no subject to put in): it is
    searched beside that part's answer, so after it."""
    return query.leans_on_thread and not query.names_subject


def _after(query: QuestionReading, before: HistoryTurn | None) -> HistoryTurn | None:
    return before if before is not None and query.leans_on_thread else None


def _part(
    tools: KnowledgeTools,
    part: QuestionPart,
    query: QuestionReading,
    search: Future[Retrieved] | None,
    before: HistoryTurn | None,
) -> Generator[ChatEvent, None, PartResult]:
    if part.asks_stats:
        yield ToolCalled("knowledge_stats", {})
        stats = tools.knowledge_stats()
        yield ToolDone(stats.step)
        counted = ChatPart(part.text, "answered", stats.content)
        return PartResult(counted, (), (), stats.step.ms, 0.0)
    yield ToolCalled("search_knowledge", {"query": query.text, "top_k": OFFLINE_TOP_K})
    if search is None:
        retrieved = tools.retrieve_read(query, OFFLINE_TOP_K, after=_after(query, before))
    else:
        retrieved = search.result()
    found = tools.numbered(retrieved, OFFLINE_TOP_K)
    yield ToolDone(found.step)
    started = time.perf_counter()
    result = _answered(tools, part.text, found)
    return PartResult(*result, found.step.ms, (time.perf_counter() - started) * 1000)


def _answered(
    tools: KnowledgeTools, text: str, found: ToolOutput
) -> tuple[ChatPart, tuple[Claim, ...], tuple[tuple[int, Quote], ...]]:
    assert found.retrieved is not None
    drawn = chosen_answers(
        tools.asker, found.retrieved.asked, found.retrieved.evidence, found.sources
    )
    texts: list[str] = []
    claims: list[Claim] = []
    quotes: list[tuple[int, Quote]] = []
    for one in drawn:
        answer = one.answer
        mapping = local_to_source(answer, one.evidence, one.sources)
        # the quotes the direct answer cites (an explanation's further quotes are not shown)
        cited = {n for claim in answer.claims for n in claim.quote_numbers if n in mapping}
        quotes += [(mapping[q.number], q) for q in answer.quotes if q.number in cited]
        texts.append(renumber_markers(answer.answer, mapping))
        claims += renumber_claims(answer.claims, mapping)
    numbers = tuple(dict.fromkeys(number for number, _ in quotes))
    language = found.retrieved.asked.question.language
    status = drawn[0].answer.status
    part = ChatPart(text, status, joined(texts, language), numbers, _route(drawn))
    return part, tuple(claims), tuple(quotes)


def _route(drawn: Sequence[Drawn]) -> str | None:
    """The route the part's answers share (a code answer's: the chat shows the part as
    code); None when a summary's answers took different routes, so no prose is shown as
    code."""
    routes = {one.answer.route for one in drawn}
    return routes.pop() if len(routes) == 1 else None


def cited_sources(
    results: Sequence[PartResult], registry: SourceRegistry
) -> tuple[ChatSource, ...]:
    """One entry per cited source number, in number order: its first quote's place and
    the weakest verdict among its quotes."""
    by_number: dict[int, list[Quote]] = {}
    for result in results:
        for number, quote in result.quotes:
            by_number.setdefault(number, []).append(quote)
    out = []
    for number in sorted(by_number):
        source = registry.get(number)
        quotes = by_number[number]
        out.append(_chat_source(number, source, quotes))
    return tuple(out)


_STRENGTH = {"suspicious": 0, "unverified": 1, "weak": 2, "supported": 3}


def _chat_source(number: int, source: Source | None, quotes: Sequence[Quote]) -> ChatSource:
    first = quotes[0]
    weakest = min((q.verdict for q in quotes), key=_STRENGTH.__getitem__)
    return ChatSource.quoting(
        replace(first, number=number), source.title if source else "", weakest
    )


def offline_answer_text(parts: Sequence[ChatPart]) -> str:
    """One part: its answer; several: each under its question."""
    if len(parts) == 1:
        return parts[0].answer
    return "\n\n".join(f"{i}. {p.question}\n{p.answer}" for i, p in enumerate(parts, 1))
