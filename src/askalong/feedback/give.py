"""Giving feedback on a stored turn, the one way every edge does it (the API, the CLI and
the agent's ``submit_feedback``): the turn found with the asker's access (``NotFound``
otherwise, as for a thread), its answer frozen (``judged``), a thumbs-down triaged
(``triage``: by the model when one is configured, else by term coverage), then stored."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

from askalong.errors import InputError, NotFound
from askalong.feedback.judged import judged_answer
from askalong.feedback.triage import Judge, triage_by_model, triage_by_terms
from askalong.store.base import Store
from askalong.types import Access
from askalong.values.feedback import (
    MAX_REASON_CHARS,
    RATINGS,
    Feedback,
    FeedbackSource,
    Judged,
    Rating,
    Triage,
)
from askalong.values.threads import Turn


def checked_rating(rating: object) -> Rating:
    if rating == "up" or rating == "down":
        return rating
    raise InputError(f"rating {rating!r}; valid: {', '.join(RATINGS)}", source="rating")


def checked_reason(reason: object) -> str:
    if not isinstance(reason, str) or len(reason) > MAX_REASON_CHARS:
        raise InputError(
            f"the reason must be text of at most {MAX_REASON_CHARS:,} characters",
            source="reason",
        )
    return reason.strip()


def find_turn(store: Store, conversation_id: str, turn_id: str, access: Access) -> Turn:
    """The turn, if it is in a conversation ``access`` owns; ``NotFound`` otherwise."""
    thread = store.get_thread(conversation_id, access)
    for turn in store.turns(thread.id):
        if turn.id == turn_id:
            return turn
    raise NotFound("no such answer in this conversation", source=turn_id)


def give_feedback(
    store: Store,
    access: Access,
    conversation_id: str,
    turn_id: str,
    rating: object,
    reason: object = "",
    *,
    source: FeedbackSource = "api",
    judge: Judge | None = None,
) -> Feedback:
    checked, why = checked_rating(rating), checked_reason(reason)
    turn = find_turn(store, conversation_id, turn_id, access)
    judged = judged_answer(store, turn.answer, access)
    triage = None
    if checked == "down":
        triage = triaged(judged, why, cited_parents(store, judged), judge)
    item = Feedback(
        id=uuid.uuid4().hex,
        owner=access.user,
        conversation_id=conversation_id,
        turn_id=turn_id,
        rating=checked,
        reason=why,
        judged=judged,
        created=datetime.now(UTC).isoformat(timespec="microseconds"),
        source=source,
        triage=triage,
    )
    return store.save_feedback(item)


def cited_parents(store: Store, judged: Judged) -> list[str]:
    """The texts of the chunks that hold the cited quotes (each once), as stored now."""
    ids = dict.fromkeys(cid for c in judged.citations for cid in c.chunk_ids)
    texts = []
    for chunk_id in ids:
        try:
            texts.append(store.chunk(chunk_id).text)
        except NotFound:
            continue
    return texts or [c.text for c in judged.citations]


def triaged(judged: Judged, reason: str, parents: Sequence[str], judge: Judge | None) -> Triage:
    if judge is None:
        return triage_by_terms(judged, reason, parents)
    return triage_by_model(judge, judged, reason, parents)
