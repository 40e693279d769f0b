"""Asking a question, end to end: thread -> anchor -> evidence -> draft -> verify -> turn.

The answerer only writes; everything it claims is checked here. With no evidence at all
the answerer is not called: the answer is an honest "not covered" that says what was
searched. Follow-ups reuse the anchor of the thread's last turn unless a new one is given (or the
question asks the whole document: ``Question.whole``).
A draft's direct answer is shaped for a reader (``answer.shape``: two sentences, 80 words or
150 Chinese characters at most, the rest opening the explanation) before its claims are
checked, so the claims are the sentences shown; the answer carries the paragraph its first
cited quote sits in (``answer.passage``), for reading it in place.
The question is analysed once, first (``askalong.asking.question``); every step after
takes the ``AskedQuestion``. A model's draft none of whose claims holds against its sources
(each unverified, suspicious or struck by the judge: what a reply obeying an instruction
planted in a document looks like) is shown as not covered, with a note, never as answered.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Generator, Iterator, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from askalong.answer.base import NOT_COVERED, Answerer, Draft, DraftRequest
from askalong.answer.extractive.sentence_cache import CachedEmbedder
from askalong.answer.passage import answer_passage
from askalong.answer.shape import StreamLimit, shaped_draft
from askalong.asking.code_routes import CALL_TREE_ROUTE, CODE_ANSWER_ROUTES, FROM_CODE_ROUTES
from askalong.asking.conflicts import conflicts_among
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
from askalong.asking.evidence import gather
from askalong.asking.evidence_base import Evidence
from askalong.asking.question import (
    AskedQuestion,
    Question,
    Reading,
    asked_question,
    check_question,
    standing_alone,
)
from askalong.context.anchor import LocatedAnchor
from askalong.context.units import ContextUnit
from askalong.feedback.guidance import guidance_entries
from askalong.providers.base import Embedder
from askalong.retrieve.search import Searcher
from askalong.store.base import Store
from askalong.text.tokens import key_terms
from askalong.types import Access, Anchor, Answer, Block, Claim, Document, Quote, Timings, Verdict
from askalong.values.threads import Thread, Turn
from askalong.verify.claims import quote_verdicts, split_claims, verify_claims
from askalong.verify.judge import Judge, apply_strikes, judge_claims, judge_pairs
from askalong.verify.planted import flag_planted, planted_sentences

LONG_SELECTION_CHARS = 600
BACKING: frozenset[Verdict] = frozenset({"supported", "weak"})  # a claim its sources hold
UNSUPPORTED_DRAFT = (
    "the model's draft was not supported by the document (no claim held against its "
    "sources: each was unverified, suspicious or struck by the judge), so it is not shown"
)


class Asker:
    """Asks over ``store`` (threads, documents, blocks, guidance, conflicts) with
    ``searcher`` (the evidence's searches); ``answerer`` writes, ``judge`` checks claims."""

    def __init__(
        self,
        store: Store,
        searcher: Searcher,
        answerer: Answerer,
        *,
        embedder: Embedder | None = None,
        judge: Judge | None = None,
    ) -> None:
        self.store = store
        self.searcher = searcher
        self.answerer = answerer
        self.embedder = embedder
        self.judge = judge
        # a code answer's lines read by the reader encoder, remembered: a follow-up over
        # the same definition reads the same lines (``code_meaning``)
        self.line_embedder = CachedEmbedder(embedder) if embedder is not None else None

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
        anchor = (
            None if question.whole else question.anchor or (turns[-1].anchor if turns else None)
        )
        check_question(question, anchor)  # before any document is read
        reading = self._reading(anchor, question.documents, access)
        asked = asked_question(question, turns, reading)
        evidence = self.evidence(asked, access, reading.blocks if reading else ())
        thread = thread or _new_thread(asked, access)
        turn_id = new_id()
        yield _started(thread.id, turn_id, asked.anchor)
        yield EvidenceFound(evidence.units, evidence.searched, evidence.notes, evidence.set_aside)
        answering = time.perf_counter()
        guidance = guidance_entries(self.store, access.user)
        draft = yield from self._draft(asked, evidence, guidance)
        drafted = time.perf_counter()
        if draft.status == "answered":
            yield from (QuoteFound(q) for q in draft.quotes)
        answer = self._verified(asked, draft, evidence)
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
        conflicts = conflicts_among(self.store, answer.quotes, access)
        answer = replace(
            answer, timings=timings, thread_id=thread.id, turn_id=turn_id, conflicts=conflicts
        )
        self._save(thread, len(turns), answer)
        yield Answered(answer)

    def evidence(
        self, asked: AskedQuestion, access: Access, blocks: Sequence[Block] = ()
    ) -> Evidence:
        """The evidence for ``asked`` over this asker's store and searcher (``gather``), a
        follow-up searched self-contained (``standing_alone``); the agent's search tool
        reads it so too."""
        return gather(self.store, self.searcher, standing_alone(asked), access, blocks)

    def answered(self, asked: AskedQuestion, evidence: Evidence) -> Answer:
        """``asked`` drafted from ``evidence`` and checked, neither streamed nor stored:
        the agent answers each part of a question so, under its own numbering."""
        steps = self._draft(asked, evidence)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return self._verified(asked, done.value, evidence)

    # -- steps -------------------------------------------------------------------------

    def _thread(self, question: Question, access: Access) -> tuple[Thread | None, list[Turn]]:
        if question.thread_id is None:
            return None, []
        thread = self.store.get_thread(question.thread_id, access)
        return thread, list(self.store.turns(thread.id))

    def _reading(
        self, anchor: Anchor | None, resolved: Sequence[Document], access: Access
    ) -> Reading | None:
        """The anchor's document with its blocks, read once. A document the edge resolved
        is trusted; any other (a thread's anchor elsewhere) is checked here, once."""
        if anchor is None:
            return None
        store = self.store
        document = next((d for d in resolved if d.id == anchor.document_id), None)
        if document is None:
            document = store.get_document(anchor.document_id, access)  # permission check
        return Reading(anchor, document, store.blocks(document.id))

    def _draft(
        self, asked: AskedQuestion, evidence: Evidence, guidance: tuple[str, ...] = ()
    ) -> Generator[AnswerText, None, Draft]:
        if not evidence.units:
            return Draft("not_covered", NOT_COVERED[asked.question.wording], ())
        if evidence.call_tree is not None and self.answerer.offline:
            # offline, a call-path question's answer is its tree; a model explains it
            from askalong.asking import call_paths  # code questions only (code_routes.py)
            from askalong.context.call_tree import DEPTH

            units = list(evidence.units)
            tree = evidence.call_tree
            return call_paths.call_tree_draft(tree, units, asked.question.wording, DEPTH)
        if self.answerer.offline and (
            evidence.code_finding or evidence.code_subject or _asked_of_code(asked, evidence)
        ):
            return _code_draft(asked, evidence, self.line_embedder)
        anchored = asked.anchor is not None and evidence.set_aside is None
        selection = evidence.units[0].cited_text() if anchored else ""
        request = DraftRequest(
            question=asked.question,
            intent=asked.intent,
            units=evidence.units,
            history=asked.history,
            titles=evidence.titles,
            long_selection=len(selection) > LONG_SELECTION_CHARS,
            cross_section=any(u.origin == "crossref" for u in evidence.units),
            guidance=guidance,
            hits=evidence.hits,
        )
        draft = None
        limit = StreamLimit()  # a call tree is never streamed: it is not drafted here
        for item in drafted_in_worker(self.answerer, request):
            if isinstance(item, AnswerText):
                if limit.admits(item.text):
                    yield item
            else:
                draft = item
        assert draft is not None
        return draft

    def _verified(self, asked: AskedQuestion, draft: Draft, evidence: Evidence) -> Answer:
        base = Answer(
            status="not_covered",
            question=asked.question.text,
            answer=NOT_COVERED[asked.question.wording],
            intent=asked.intent,
            anchor=asked.anchor.anchor if asked.anchor else None,
            answerer=self.answerer.name,
            model=draft.model,
            route=draft.route,
            searched=evidence.searched,
            notes=(*evidence.notes, *draft.notes),
            anchor_set_aside=evidence.set_aside,
            hits=evidence.hits,
        )
        if draft.status == "not_covered" or not draft.quotes:
            # the answerer's note on what it searched for and did not find
            return replace(base, explanation=draft.explanation)
        if draft.route not in FROM_CODE_ROUTES:
            draft = shaped_draft(draft, asked.question.language)  # a tree, code lines: whole
        claims, quotes = self._checked(asked, draft, evidence)
        # Only a model can obey a document; an extractive draft is the document's sentences.
        if draft.model is not None and not any(c.verdict in BACKING for c in claims):
            return replace(base, notes=(*base.notes, UNSUPPORTED_DRAFT))
        return replace(
            base,
            status="answered",
            answer=draft.answer,
            quotes=quotes,
            explanation=draft.explanation,
            claims=claims,
            passage=answer_passage(
                (n for claim in claims for n in claim.quote_numbers), quotes, evidence.units
            ),
        )

    def _checked(
        self, asked: AskedQuestion, draft: Draft, evidence: Evidence
    ) -> tuple[tuple[Claim, ...], tuple[Quote, ...]]:
        if draft.route == CALL_TREE_ROUTE:
            from askalong.asking import call_paths

            return call_paths.tree_checked(draft)
        if draft.route in CODE_ANSWER_ROUTES:
            from askalong.asking import call_paths, code_answers

            return call_paths.tree_checked(draft, code_answers.FROM_THE_CODE)
        drafts = split_claims(draft.answer)
        cited = {q.number: q.text for q in draft.quotes}
        drifts = {q.number: unit_of(q, evidence.units).drift for q in draft.quotes}
        claims = verify_claims(
            drafts,
            cited,
            question_terms=asked.question.match_terms,
            anchor_terms=evidence.anchor_terms,
            drifts=drifts,
            embedder=self.embedder,
            focus_terms=asked.focus_terms,
        )
        if draft.model is not None:  # only a model can obey a document's instruction
            planted = planted_sentences(unit.text for unit in evidence.units)
            claims = flag_planted(claims, cited, planted, known=asked.question.match_terms)
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
        return apply_strikes(claims, judge_claims(judge_pairs(claims, cited), self.judge))

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
        self.store.save_turn(thread, turn)


def _new_thread(asked: AskedQuestion, access: Access) -> Thread:
    """A thread opened on the anchor's document (or the one document asked about)."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    ids = asked.document_ids
    document_id = ids[0] if asked.anchor or len(ids) == 1 else None
    return Thread(new_id(), access.user, asked.title, now, now, document_id)


def _started(thread_id: str, turn_id: str, anchor: LocatedAnchor | None) -> ThreadStarted:
    if anchor is None:
        return ThreadStarted(thread_id, turn_id, None)
    place = anchor.place
    return ThreadStarted(thread_id, turn_id, place.anchor, place.page, place.section_path)


def unit_of(quote: Quote, units: Sequence[ContextUnit]) -> ContextUnit:
    """The context unit a quote was taken from (the first holding its span)."""
    for unit in units:
        if unit.document_id != quote.document_id:
            continue
        for span in unit.spans:
            if span.block_id == quote.block_id and span.start <= quote.start < span.end:
                return unit
    return units[0]


def new_id() -> str:
    return uuid.uuid4().hex[:16]


def _asked_of_code(asked: AskedQuestion, evidence: Evidence) -> bool:
    """Asked of source files alone, or of the library with nothing but code found (every
    block of the evidence a code block): answered from their lines, whatever words it uses
    ("where is the Luhn checksum computed" is not refused for "checksum")."""
    if asked.documents:
        return all(d.format == "code" for d in asked.documents)
    places = [unit.place(p.span.block_id) for unit in evidence.units for p in unit.pieces]
    return bool(places) and all(place.kind == "code" for place in places)


def _code_draft(asked: AskedQuestion, evidence: Evidence, embedder: Embedder | None) -> Draft:
    """Offline, over code evidence: the graph's answer, or the code's own lines (ordered
    by meaning too where ``embedder`` has a reader encoder), never a refusal for prose
    words the code does not hold (``code_answers``)."""
    from askalong.asking import code_answers  # code questions only (code_routes.py)

    if evidence.code_finding is not None:
        return code_answers.graph_draft(evidence.code_finding, evidence.units, asked.question)
    return code_answers.lines_draft(
        asked.question,
        evidence.units,
        name=evidence.code_subject,
        anchored=asked.anchor is not None,
        embedder=embedder,
    )
