"""What ``Asker.stream`` yields while one question is answered, in this order:

``ThreadStarted`` (ids and the resolved anchor) -> ``EvidenceFound`` -> ``AnswerText`` (pieces
of the direct answer, as the answerer writes them) -> ``QuoteFound`` per quote (not yet
checked) -> ``QuoteChecked`` per quote -> ``ExplanationText`` (when there is one) ->
``Answered`` (the stored, checked answer: the authority on everything before it).

``drafted_in_worker`` runs ``Answerer.draft_streaming`` in a worker thread and hands its text
pieces over a queue, so a caller iterating the stream sees them as they are written.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass

from askalong.answer.base import Answerer, Draft, DraftRequest
from askalong.context.units import ContextUnit
from askalong.types import Anchor, Answer, Quote, SetAside, Verdict


@dataclass(frozen=True)
class ThreadStarted:
    thread_id: str
    turn_id: str
    anchor: Anchor | None  # resolved: block id and span filled in
    page: int | None = None  # of the anchor block
    section_path: tuple[str, ...] = ()


@dataclass(frozen=True)
class EvidenceFound:
    units: tuple[ContextUnit, ...]
    searched: tuple[str, ...]
    notes: tuple[str, ...]
    set_aside: SetAside | None = None  # the anchor was left out of the evidence: why


@dataclass(frozen=True)
class AnswerText:
    text: str  # appended to what came before


@dataclass(frozen=True)
class QuoteFound:
    quote: Quote  # verbatim source text; its verdict follows in ``QuoteChecked``


@dataclass(frozen=True)
class QuoteChecked:
    number: int
    verdict: Verdict


@dataclass(frozen=True)
class ExplanationText:
    text: str


@dataclass(frozen=True)
class Answered:
    answer: Answer


AskEvent = (
    ThreadStarted
    | EvidenceFound
    | AnswerText
    | QuoteFound
    | QuoteChecked
    | ExplanationText
    | Answered
)


@dataclass(frozen=True)
class _Finished:
    draft: Draft | None
    error: BaseException | None


def drafted_in_worker(answerer: Answerer, request: DraftRequest) -> Iterator[AnswerText | Draft]:
    """The answer's text pieces as they come, then the draft itself (the worker's error,
    if any, is raised here, in the caller's thread)."""
    pieces: queue.Queue[str | _Finished] = queue.Queue()

    def work() -> None:
        try:
            pieces.put(_Finished(answerer.draft_streaming(request, pieces.put), None))
        except BaseException as exc:  # handed to the caller, who re-raises it
            pieces.put(_Finished(None, exc))

    threading.Thread(target=work, name="askalong-draft", daemon=True).start()
    while True:
        item = pieces.get()
        if isinstance(item, str):
            if item:
                yield AnswerText(item)
            continue
        if item.error is not None:
            raise item.error
        assert item.draft is not None
        yield item.draft
        return
