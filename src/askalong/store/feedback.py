"""The feedback's protocol (``askalong.feedback``): one of the aggregates ``Store``
joins (``askalong.store.base``)."""

from __future__ import annotations

from typing import Protocol

from askalong.types import Access
from askalong.values.feedback import Feedback, FeedbackFilter, Triage


class FeedbackStore(Protocol):
    """Ratings of answers with their frozen copies (``askalong.feedback``), private to
    their owner like threads (``everything``: all, the admin view); one per owner and turn."""

    def save_feedback(self, item: Feedback) -> Feedback:
        """Store ``item``; the owner's earlier record on the same turn is replaced (its id
        kept, and returned in the record)."""
        ...

    def get_feedback(self, feedback_id: str, access: Access) -> Feedback:
        """``NotFound`` when unknown or not the caller's."""
        ...

    def list_feedback(self, access: Access, where: FeedbackFilter | None = None) -> list[Feedback]:
        """The caller's records (``everything``: anyone's) that ``where`` keeps, newest first."""
        ...

    def set_triage(self, feedback_id: str, triage: Triage) -> None: ...
