"""Asking a question, end to end: thread -> anchor -> evidence -> draft -> verify -> turn.

The answerer only writes; everything it claims is checked here. With no evidence at all
the answerer is not called: the answer is an honest "not covered" that says what was
searched. Follow-ups reuse the anchor of the thread's last turn unless a new one is given.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from askalong.answer.base import NOT_COVERED, Answerer, Draft, DraftRequest, HistoryTurn
from askalong.asking.events import (
    Answered,
    AnswerText,
    AskEvent,
    EvidenceFound,
    ExplanationText,
    QuoteChecked,
    QuoteFound,
    ThreadStarted,
    drafted_in_worker,
)
from askalong.asking.evidence import Evidence, gather
from askalong.context.drift import drift_terms
from askalong.context.units import ContextUnit
from askalong.errors import InputError
from askalong.library import Library
from askalong.providers.base import Embedder
from askalong.text.scripts import detect_language
from askalong.text.tokens import key_terms
from askalong.types import (
    Access,
    Anchor,
    Answer,
    Claim,
    Intent,
    Quote,
    Thread,
    Timings,
    Turn,
)
from askalong.verify.claims import quote_verdicts, split_claims, verify_claims
from askalong.verify.judge import JudgePair, apply_strikes, judge_claims

INTENT_QUESTIONS: dict[str, tuple[str, str]] = {  # (English, Chinese)
    "explain": ("Explain this.", "解释这段内容。"),
    "example": ("Give an example of this.", "举例说明这段内容。"),
    "compare": ("How does this differ from related ideas?", "这与相关概念有什么不同？"),
}
LONG_SELECTION_CHARS = 600
Judge = Callable[[str], str]


@dataclass(frozen=True)
class Question:
    text: str = ""
    intent: Intent = "ask"
    anchor: Anchor | None = None
    documents: tuple[str, ...] = ()
    thread_id: str | None = None


class Asker:
    def __init__(
        self,
        library: Library,
        answerer: Answerer,
        *,
        embedder: Embedder | None = None,
        judge: Judge | None = None,
    ) -> None:
        self.library = library
        self.answerer = answerer
        self.embedder = embedder
        self.judge = judge

    def ask(self, question: Question, access: Access) -> Answer:
        answered = None
        for event in self.stream(question, access):
            if isinstance(event, Answered):
                answered = event.answer
        assert answered is not None, "a stream always ends with the answer"
        return answered

    def stream(self, question: Question, access: Access) -> Iterator[AskEvent]:
        """The steps of ``ask`` as events, each yielded as soon as it is known (see
        ``askalong.asking.events``); the last one is the stored answer."""
        started = time.perf_counter()
        thread, turns = self._thread(question, access)
        anchor = question.anchor or (turns[-1].anchor if turns else None)
        text = question_text(question, self._selected_text(anchor))
        evidence = gather(self.library, text, access, anchor=anchor, documents=question.documents)
        thread = thread or _new_thread(text, evidence.anchor, question.documents, access)
        turn_id = _new_id()
        yield _started(thread.id, turn_id, evidence)
        yield EvidenceFound(evidence.units, evidence.searched, evidence.notes)
        answering = time.perf_counter()
        draft = yield from self._draft(text, question.intent, evidence, turns)
        drafted = time.perf_counter()
        if draft.status == "answered":
            yield from (QuoteFound(q) for q in draft.quotes)
        answer = self._verified(text, question.intent, draft, evidence)
        yield from (QuoteChecked(q.number, q.verdict) for q in answer.quotes)
        if answer.explanation:
            yield ExplanationText(answer.explanation)
        finished = time.perf_counter()
        timings = Timings(
            retrieval_ms=evidence.seconds * 1000,
            answer_ms=(drafted - answering) * 1000,
            verify_ms=(finished - drafted) * 1000,
            total_ms=(finished - started) * 1000,
        )
        answer = replace(answer, timings=timings, thread_id=thread.id, turn_id=turn_id)
        self._save(thread, len(turns), answer)
        yield Answered(answer)

    # -- steps -------------------------------------------------------------------------

    def _selected_text(self, anchor: Anchor | None) -> str | None:
        if anchor is None:
            return None
        if anchor.selected_text:
            return anchor.selected_text
        if anchor.block_id is None:
            return None
        block = self.library.store.block(anchor.document_id, anchor.block_id)
        return block.text[anchor.start or 0 : anchor.end or len(block.text)]

    def _thread(self, question: Question, access: Access) -> tuple[Thread | None, list[Turn]]:
        if question.thread_id is None:
            return None, []
        thread = self.library.store.get_thread(question.thread_id, access)
        return thread, list(self.library.store.turns(thread.id))

    def _draft(
        self, text: str, intent: Intent, evidence: Evidence, turns: Sequence[Turn]
    ) -> Generator[AnswerText, None, Draft]:
        language = _language(text)
        if not evidence.units:
            return Draft("not_covered", NOT_COVERED[language], ())
        selection = evidence.units[0].cited_text() if evidence.anchor else ""
        request = DraftRequest(
            question=text,
            intent=intent,
            units=evidence.units,
            blocks=evidence.blocks,
            history=tuple(HistoryTurn(t.question, t.answer.answer) for t in turns),
            titles=evidence.titles,
            long_selection=len(selection) > LONG_SELECTION_CHARS,
            cross_section=any(u.origin == "crossref" for u in evidence.units),
        )
        draft = None
        for item in drafted_in_worker(self.answerer, request):
            if isinstance(item, AnswerText):
                yield item
            else:
                draft = item
        assert draft is not None
        return draft

    def _verified(self, text: str, intent: Intent, draft: Draft, evidence: Evidence) -> Answer:
        base = Answer(
            status="not_covered",
            question=text,
            answer=NOT_COVERED[_language(text)],
            intent=intent,
            anchor=evidence.anchor,
            answerer=self.answerer.name,
            model=draft.model,
            route=draft.route,
            searched=evidence.searched,
            notes=(*evidence.notes, *draft.notes),
        )
        if draft.status == "not_covered" or not draft.quotes:
            return base
        claims, quotes = self._checked(text, draft, evidence)
        return replace(
            base,
            status="answered",
            answer=draft.answer,
            quotes=quotes,
            explanation=draft.explanation,
            claims=claims,
        )

    def _checked(
        self, text: str, draft: Draft, evidence: Evidence
    ) -> tuple[tuple[Claim, ...], tuple[Quote, ...]]:
        drafts = split_claims(draft.answer)
        cited = {q.number: q.text for q in draft.quotes}
        drifts = {q.number: _unit_of(q, evidence.units).drift for q in draft.quotes}
        anchor_unit = evidence.units[0] if evidence.anchor else None
        anchor_terms = drift_terms("", anchor_unit) if anchor_unit else frozenset()
        claims = verify_claims(
            drafts,
            cited,
            question=text,
            anchor_terms=anchor_terms,
            drifts=drifts,
            embedder=self.embedder,
        )
        claims, struck = self._struck(claims, cited)
        quotes = quote_verdicts(
            claims, draft.quotes, answer_terms=frozenset(key_terms(draft.answer)), struck=struck
        )
        return claims, tuple(quotes)

    def _struck(
        self, claims: tuple[Claim, ...], cited: dict[int, str]
    ) -> tuple[tuple[Claim, ...], frozenset[int]]:
        """The judge pass (with a model): a claim it calls unsupported becomes suspicious
        and strikes its quotes."""
        if self.judge is None:
            return claims, frozenset()
        pairs = [
            JudgePair(
                claim=i,
                text=claim.text,
                sources=claim.quote_numbers,
                source_text="\n".join(cited[n] for n in claim.quote_numbers if n in cited),
            )
            for i, claim in enumerate(claims)
            if claim.quote_numbers
        ]
        return apply_strikes(claims, judge_claims(pairs, self.judge))

    def _save(self, thread: Thread, index: int, answer: Answer) -> None:
        assert answer.turn_id is not None
        now = datetime.now(UTC).isoformat(timespec="seconds")
        turn = Turn(
            answer.turn_id,
            thread.id,
            index,
            answer.question,
            answer.intent,
            answer.anchor,
            answer,
            now,
        )
        self.library.store.save_turn(thread, turn)


def _new_thread(
    text: str, anchor: Anchor | None, documents: Sequence[str], access: Access
) -> Thread:
    """A thread opened on the anchor's document (or the one document asked about)."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    document_id = anchor.document_id if anchor else (documents[0] if len(documents) == 1 else None)
    return Thread(_new_id(), access.user, text[:200], now, now, document_id)


def _started(thread_id: str, turn_id: str, evidence: Evidence) -> ThreadStarted:
    anchor = evidence.anchor
    if anchor is None or anchor.block_id is None:
        return ThreadStarted(thread_id, turn_id, anchor)
    block = evidence.blocks.get((anchor.document_id, anchor.block_id))
    if block is None:
        return ThreadStarted(thread_id, turn_id, anchor)
    return ThreadStarted(thread_id, turn_id, anchor, block.page, block.section_path)


def question_text(question: Question, selection: str | None) -> str:
    """The question as asked; a quick intent alone is a complete question, in the language
    of the selection it is about."""
    text = question.text.strip()
    if text:
        return text
    if question.intent == "ask":
        raise InputError("the question is empty", source="question")
    if selection is None:
        raise InputError(f"{question.intent!r} needs a selection to work on", source="question")
    english, chinese = INTENT_QUESTIONS[question.intent]
    return chinese if _language(selection) == "zh" else english


def _language(text: str) -> str:
    return "zh" if detect_language(text) == "zh" else "en"


def _unit_of(quote: Quote, units: Sequence[ContextUnit]) -> ContextUnit:
    """The context unit a quote was taken from (the first holding its span)."""
    for unit in units:
        if unit.document_id != quote.document_id:
            continue
        for span in unit.spans:
            if span.block_id == quote.block_id and span.start <= quote.start < span.end:
                return unit
    return units[0]


def _new_id() -> str:
    return uuid.uuid4().hex[:16]
