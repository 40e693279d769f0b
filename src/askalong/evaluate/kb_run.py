"""The KB evaluation's runner: each item asked through the chat agent's entry point
(``ChatAgent``) as its asker, its cited sources traced back to the chunks that hold them,
and scored (``kb_metrics``).

Who may see what is decided here from the corpus's owners, orgs and visibilities, apart
from the store's permission filter, so that a leak through that filter shows as one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from askalong.agent.chat_agent import ChatRequest
from askalong.agent.source_registry import SourceRegistry
from askalong.agent.tools import KnowledgeTools, Scope
from askalong.agent.wiring import make_chat_agent
from askalong.errors import AskAlongError
from askalong.evaluate.kb_build import KbLibrary, user_access
from askalong.evaluate.kb_corpus import KbCorpus, KbDocument
from askalong.evaluate.kb_items import KbItem
from askalong.evaluate.kb_metrics import CitedChunk, ItemScore, K, Outcome, score_item
from askalong.types import Access, Chunk
from askalong.values.chat_answers import ChatAnswer, ChatSource


@dataclass(frozen=True)
class ItemRun:
    item: KbItem
    outcome: Outcome
    score: ItemScore


def visible_to(corpus: KbCorpus, asker: str | None) -> dict[str, bool]:
    """Per corpus key: may ``asker`` (None: the local user, who sees all) see it?"""
    return {d.key: may_see(corpus, d, asker) for d in corpus.documents}


def may_see(corpus: KbCorpus, document: KbDocument, asker: str | None) -> bool:
    if asker is None or document.visibility == "public" or document.owner == asker:
        return True
    if document.visibility == "private":
        return False
    owner, user = corpus.user(document.owner), corpus.user(asker)
    return bool(set(owner.orgs) & set(user.orgs))


class KbRunner:
    """Asks items of one built knowledge base."""

    def __init__(self, kb: KbLibrary, corpus: KbCorpus) -> None:
        self.kb = kb
        self.corpus = corpus
        self.agent = make_chat_agent(kb.library)
        self.store = kb.library.store
        self._keys = kb.keys()
        self._chunks: dict[str, tuple[Chunk, ...]] = {}

    def run(
        self, items: Iterable[KbItem], progress: Callable[[int], None] | None = None
    ) -> list[ItemRun]:
        runs = []
        for done, item in enumerate(items, 1):
            outcome = self.ask(item)
            visible = visible_to(self.corpus, item.asker)
            runs.append(ItemRun(item, outcome, score_item(item, outcome, visible)))
            if progress:
                progress(done)
        return runs

    def ask(self, item: KbItem) -> Outcome:
        try:
            access = user_access(self.kb.library, item.asker)
            answer = self.agent.ask(ChatRequest(item.question, access))
            searched = self.searched(item.question, access)
        except AskAlongError as exc:
            return Outcome(item.id, True, "", (), error=f"{type(exc).__name__}: {exc}")
        return replace(self.outcome(item.id, answer), searched=searched)

    def searched(self, question: str, access: Access) -> tuple[CitedChunk, ...]:
        """The first hits of the agent's search tool for the whole question, as the asker
        (a diagnostic beside the cited chunks: was the gold found at all?)."""
        tools = KnowledgeTools(self.agent.asker, self.store, Scope(access), SourceRegistry())
        evidence = tools.retrieve(question, K).evidence
        chunks = [self.store.chunk(h.chunk_id) for h in evidence.hits[:K]]
        return tuple(
            CitedChunk(
                c.id,
                self._keys.get(c.document_id, ""),
                c.text,
                evidence.titles.get(c.document_id, ""),
            )
            for c in chunks
        )

    def outcome(self, item_id: str, answer: ChatAnswer) -> Outcome:
        cited = tuple(c for c in map(self.cited_chunk, answer.sources) if c is not None)
        return Outcome(
            item_id,
            refused=answer.status != "answered",
            answer=answer.answer,
            direct=direct_answer(answer),
            cited=cited,
            citation_precision=answer.scores.precision,
            citation_recall=answer.scores.recall,
        )

    def cited_chunk(self, source: ChatSource) -> CitedChunk | None:
        """The chunk holding the source's first quote (its block and offset)."""
        chunk = holding_chunk(self._document_chunks(source.document_id), source)
        if chunk is None:
            return None
        key = self._keys.get(source.document_id, source.document_id)
        return CitedChunk(chunk.id, key, chunk.text, source.title)

    def _document_chunks(self, document_id: str) -> tuple[Chunk, ...]:
        if document_id not in self._chunks:
            self._chunks[document_id] = self.store.chunks(document_id)
        return self._chunks[document_id]


def direct_answer(answer: ChatAnswer) -> str | None:
    """The answer's text without the part questions a multi-part answer repeats over each
    part's answer (None: one part, or a model's answer, whose text is the answer itself)."""
    if len(answer.parts) < 2:
        return None
    return "\n\n".join(p.answer for p in answer.parts if p.status == "answered")


def holding_chunk(chunks: Sequence[Chunk], source: ChatSource) -> Chunk | None:
    for chunk in chunks:
        for span in chunk.spans:
            if span.block_id == source.block_id and span.start <= source.start < span.end:
                return chunk
    return None
