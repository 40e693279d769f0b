"""Feedback a person gave on an answer in words (``submit_feedback``), stored in the
feedback aggregate (``askalong.feedback``) like a thumb in the reader or the API.

What the person criticises is the conversation's last stored answer: the agent's current
turn is not stored until it is answered. So the record is on that turn, frozen as it was
judged; a conversation with no answer yet has nothing to give feedback on."""

from __future__ import annotations

from askalong.errors import InputError
from askalong.feedback.give import give_feedback
from askalong.feedback.triage import Judge
from askalong.store.base import Store
from askalong.types import Access
from askalong.values.feedback import Feedback


def record_feedback(
    store: Store,
    access: Access,
    conversation_id: str | None,
    rating: str,
    reason: str,
    judge: Judge | None = None,
) -> Feedback:
    """The feedback on the conversation's last stored answer (``InputError``: none yet)."""
    turns = () if conversation_id is None else store.turns(conversation_id)
    if conversation_id is None or not turns:
        raise InputError("submit_feedback: no answer in this conversation yet", source="turn")
    last = turns[-1]
    return give_feedback(
        store, access, conversation_id, last.id, rating, reason, source="agent", judge=judge
    )
