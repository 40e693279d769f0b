"""Evidence for a question without an anchor (the knowledge base, a collection, the
documents named): what hybrid search finds over every document the asker may see (or the
ones named). A follow-up is searched with its thread's previous question and answer
beside it (``thread_context``); a question in the other language than the documents it
names is searched as asked across (``AskedQuestion.across``: the fusion leans on meaning).

A collection's answer chunks come first from its best pages, searched again chunk by
chunk; a search that kept only a few chunks is topped up from the keyword route. The
evidence's hits are the chunks the answerer reads, each with every route's rank and
score (a top-up chunk's taken from the fused ranking without the cut), so the learned
answerer's passage model (``answer/extractive/passage_choice.py``) can weigh every one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from askalong.asking.evidence_base import (
    Evidence,
    Searching,
)
from askalong.asking.question import AskedQuestion
from askalong.context.assemble import assemble_context
from askalong.retrieve.pages import best_pages, joined
from askalong.types import Access, Hit, SearchResult

# The answerer reads the top this many chunks (not only the policy's
# ``k_max_knowledge_base``, which stays what ``search`` lists): on the real-question set
# the answer to a why / how question was in the search's top 10 far more often than in
# its top 5 (and across languages, where the chunk vectors relate question and answer only
# loosely, the answer's chunk often ranks 6th-10th). The context's character budget
# (``assemble_context``) still bounds them.
ANSWER_CHUNKS = 10
# A collection (a manual's pages): the answer's chunks come first from this many of the
# best-ranked pages, searched again chunk by chunk (``retrieve/pages.py``).
BEST_PAGES = 2


@dataclass(frozen=True)
class SearchEvidence(Searching):
    """The strategy for a question without an anchor."""

    def gather(self, asked: AskedQuestion, access: Access) -> Evidence:
        question = asked.question
        context = thread_context(asked)
        result = self.searcher.search(
            question.text,
            access,
            documents=asked.document_ids,
            k_max=max(ANSWER_CHUNKS, self.searcher.policy.k_max_knowledge_base),
            language=question.script,
            context=context,
            across=asked.across,
        )
        hits = result.hits
        if self.searcher.policy.by_pages(len(asked.document_ids)):
            hits = self._within_best_pages(asked, access, result, context)
        elif 0 < len(hits) < ANSWER_CHUNKS:
            hits = self._with_keyword_tail(asked, access, hits, context)
        units = self.units(hits, {})
        assembled = assemble_context(question.terms, None, (), units)
        read = replace(result, hits=tuple(hits))  # what the answerer reads, not the first cut
        return self.found(asked, access, assembled, frozenset(), read)

    def _within_best_pages(
        self, asked: AskedQuestion, access: Access, result: SearchResult, context: str
    ) -> tuple[Hit, ...]:
        """A collection's answer chunks: the best pages searched again chunk by chunk,
        then the other pages' best chunks (``retrieve/pages.py``, ``joined``)."""
        pages = best_pages(result.hits, BEST_PAGES)
        if not pages:
            return result.hits
        within = self.searcher.search(
            asked.question.text,
            access,
            documents=pages,
            k_max=ANSWER_CHUNKS,
            language=asked.question.script,
            context=context,
            across=asked.across,
        )
        return tuple(joined(within.hits, result.hits, ANSWER_CHUNKS))

    def _with_keyword_tail(
        self, asked: AskedQuestion, access: Access, hits: Sequence[Hit], context: str
    ) -> tuple[Hit, ...]:
        """The search's few hits, then the keyword route's next best chunks up to
        ``ANSWER_CHUNKS``: the fused list's dynamic cut often keeps one or two chunks of a
        paper, while the sentence that answers sits in a section that shares fewer of the
        question's words (a cross-section question); a search that found nothing stays so.
        The tail is read from the fused ranking without the cut, in the keyword route's
        order, so each of its chunks keeps its fused score and both routes' ranks."""
        ranked = self.searcher.ranking(
            asked.question.text,
            access,
            documents=asked.document_ids,
            context=context,
            language=asked.question.script,
            across=asked.across,
        )
        return tuple(joined(hits, keyword_order(ranked), ANSWER_CHUNKS))


def keyword_order(ranked: Sequence[Hit]) -> list[Hit]:
    """The hits the keyword route found, in its order (best first)."""
    found = [hit for hit in ranked if hit.keyword_rank is not None]
    return sorted(found, key=lambda hit: hit.keyword_rank or 0)


def thread_context(asked: AskedQuestion) -> str:
    """A follow-up's context: the thread's previous question and answer (searched at a
    lower weight than the question itself, ``retrieve/search.py``), when the question
    leans on its thread (``QuestionReading.leans_on_thread``); empty otherwise: a question
    naming its own subject is searched as asked, not forced through the thread."""
    if not asked.history or not asked.question.leans_on_thread:
        return ""
    last = asked.history[-1]
    return f"{last.question}\n{last.answer}"
