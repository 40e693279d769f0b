"""The default answerer: offline, extractive (``extractive.py`` does the selecting)."""

from __future__ import annotations

from dataclasses import replace

from askalong.answer.base import Answerer, Draft, DraftRequest
from askalong.answer.extractive.learned import learned_answer
from askalong.answer.extractive.select import answer_extractively
from askalong.answer.extractive.sentence_cache import CachedEmbedder
from askalong.providers.base import Embedder
from askalong.question.leaning import thread_subject
from askalong.question.reading import QuestionReading, read_question
from askalong.question.rewrite import elliptic, names_new_subject, of_thread_subject
from askalong.settings import SentenceScorerName


class ExtractiveAnswerer(Answerer):
    """Answers with the document's own sentences: nothing to hallucinate, no model."""

    name = "extractive"
    offline = True

    def __init__(
        self,
        embedder: Embedder | None = None,
        scorer: SentenceScorerName = "auto",
        bundled: bool = True,
    ) -> None:
        # follow-ups and nearby questions see the same sentences again: embed them once
        self.embedder = CachedEmbedder(embedder) if embedder is not None else None
        # ``ASKALONG_SENTENCE_SCORER``; ``bundled``: ``embedder`` is the bundled e5 model
        self.scorer = _resolved(scorer, embedder is not None and bundled)

    def draft(self, request: DraftRequest) -> Draft:
        if request.intent != "ask":
            intended = _intended(request, self.scorer == "learned", self.embedder)
            if intended is not None:
                return intended
        if self.scorer == "learned" and request.intent == "ask":
            # plain questions (an intent with no selection takes the rule path below)
            result = learned_answer(
                learned_question(request),
                request.units,
                embedder=self.embedder,
                hits=request.hits,
                # the thread weights were chosen on the embedded rank head's scale
                said=leaned_on(request) if self.embedder is not None else "",
            )
            return Draft(result.status, result.answer, result.quotes, result.explanation)
        question, subject = _thread_of(request)
        previous_answer = request.history[-1].answer if request.history else None
        result = answer_extractively(
            question,
            request.units,
            intent=request.intent,
            embedder=self.embedder,
            previous_question="\n".join(subject) or None,
            previous_answer=previous_answer,
        )
        return Draft(result.status, result.answer, result.quotes, result.explanation)


def _resolved(scorer: SentenceScorerName, bundled_vectors: bool) -> SentenceScorerName:
    """``auto``: the learned scorer with the bundled embedder's vectors, the rules
    otherwise (the lexical variant has no held-out figure yet, and another embedder's
    cosines are not the scale the heads were fitted on)."""
    if scorer != "auto":
        return scorer
    return "learned" if bundled_vectors else "rules"


def learned_question(request: DraftRequest) -> QuestionReading:
    """What the learned answerer ranks sentences by: a follow-up asking its own question
    of the thread's subject ("What is the catch with that?") with that subject's words,
    as its search ran it (``rewrite.of_thread_subject``); any other question as typed.
    Fourteen DEV sets' follow-ups: 4 gained, 1 lost, no other kind moved
    (``benchmarks/results/follow-ups-DEV-2026-12-07.md``)."""
    question = request.question
    if not request.history or not question.leans_on_thread:
        return question
    if elliptic(question.text, question.terms):
        return question
    previous = [turn.question for turn in request.history]
    text = of_thread_subject(question.text, previous, request.history[-1].answer)
    if text == question.text:
        return question
    return replace(read_question(text), leans_on_thread=True)


def leaned_on(request: DraftRequest) -> str:
    """The thread's last answer when the question leans on its thread; else empty."""
    if not request.history or not request.question.leans_on_thread:
        return ""
    return request.history[-1].answer


def _thread_of(request: DraftRequest) -> tuple[QuestionReading, list[str]]:
    """The question and the thread's subject questions its sentences are ranked with. A
    follow-up naming a new subject (``rewrite.names_new_subject``, as its search does) is
    ranked on its own words: no subject, and it no longer leans on the previous answer,
    whose words would pull the answer back to that answer's passage."""
    question = request.question
    subject = thread_subject([t.question for t in request.history])
    if not subject or elliptic(question.text, question.terms):
        return question, subject
    said = request.history[-1].answer
    if names_new_subject(question.text, subject, said, question.terms):
        return replace(question, leans_on_thread=False), []
    return question, subject


def _intended(request: DraftRequest, learned: bool, embedder: Embedder | None) -> Draft | None:
    """A quick intent on a selection, explained from the document (``intents``): under
    the learned scorer, with its best sentences for the selection's key terms
    (``intent_learned``). Their modules (explanations, cross-references, outlines: ~30 CPU
    ms) load at the first intent, never for a plain question."""
    from askalong.answer.extractive.intent_learned import learned_ranker
    from askalong.answer.extractive.intents import answer_intent

    question = request.question
    ranked = learned_ranker(question.text, embedder) if learned else None
    intended = answer_intent(question, request.units, request.intent, ranked)
    if intended is None:
        return None
    return Draft(intended.status, intended.answer, intended.quotes, intended.explanation)
