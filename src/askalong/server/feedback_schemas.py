"""The feedback API's request and reply bodies (``routes/feedback``, and the admin view's
in ``routes/admin``). The rating and the reason are checked in the route, not by the
schema, so that a bad one is a 422 as the contract says (the schema's own refusals of a
wrong literal or a long string are 400 and 413 elsewhere in the API)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from askalong.asking.limits import MAX_ID_CHARS
from askalong.values.feedback import MAX_REASON_CHARS, RATINGS
from askalong.wire import FeedbackJSON


class FeedbackIn(BaseModel):
    """A thumb on one answer: the conversation (thread) and the turn it is, and why."""

    conversation_id: str = Field(json_schema_extra={"maxLength": MAX_ID_CHARS})
    turn_id: str = Field(json_schema_extra={"maxLength": MAX_ID_CHARS})
    rating: str = Field(json_schema_extra={"enum": list(RATINGS)})
    reason: str = Field("", json_schema_extra={"maxLength": MAX_REASON_CHARS})


class FeedbackCreated(BaseModel):
    id: str


class FeedbackList(BaseModel):
    """Feedback records, newest first, each with its frozen copy and triage."""

    feedback: list[FeedbackJSON]
