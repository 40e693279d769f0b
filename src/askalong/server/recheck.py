"""The second check at the edge: every document a response names is one the caller may
see, read from the store again after the routes answered (fail closed: 404).

The permission filter already sits inside every route's query (``index/base.py``); this
is the belt to those braces, so a bug in one route's filter, or an index that lags the
store (a visibility change half-done when a process died), shows as a refusal, never as
someone else's passage. The visible set is read once per request.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from askalong.asking.events import Answered, AskEvent, EvidenceFound, QuoteFound
from askalong.errors import NotFound
from askalong.store.base import DocumentStore
from askalong.types import Access, Answer


class Visible:
    """The documents one request's caller may see, read once from the store."""

    def __init__(self, store: DocumentStore, access: Access) -> None:
        self.everything = access.everything
        self.titles = {d.id: d.title for d in store.list_documents(access)}

    def require(self, document_ids: Iterable[str], source: str) -> None:
        if self.everything:
            return
        if any(doc_id not in self.titles for doc_id in document_ids):
            raise NotFound("no such document", source=source)

    def require_answer(self, answer: Answer) -> None:
        self.require((quote.document_id for quote in answer.quotes), "answer")

    def events(self, events: Iterator[AskEvent]) -> Iterator[AskEvent]:
        """The stream, each event's documents checked before it is sent."""
        for event in events:
            if isinstance(event, EvidenceFound):
                self.require((unit.document_id for unit in event.units), "retrieval")
            elif isinstance(event, QuoteFound):
                self.require((event.quote.document_id,), "quote")
            elif isinstance(event, Answered):
                self.require_answer(event.answer)
            yield event
