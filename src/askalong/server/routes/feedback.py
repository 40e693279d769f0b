"""Feedback on an answer.

Contract
========

``POST /api/feedback`` with ``{"conversation_id": str, "turn_id": str, "rating": "up" |
"down", "reason": str (optional, at most 2,000 characters)}`` → 201 ``{"id": str}``. The
turn must be in a conversation of the asker's (404 otherwise, as for a thread: fail
closed); a bad rating or reason, or a missing field, is 422 (a body that is not JSON
at all is 400, as on every route); CSRF as for every POST. A
second rating of the same answer by the same asker replaces the first (same ``id``).
The record keeps a frozen copy of the answer as it was judged; a thumbs-down is triaged
(``retrieval_miss`` / ``retrieval_fault`` / ``generation_fault``).

``GET /api/feedback`` → ``{"feedback": [<record>]}``: the asker's own, newest first.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.exceptions import RequestValidationError
from starlette.concurrency import run_in_threadpool

from askalong.answer.choose import make_judge
from askalong.errors import InputError
from askalong.feedback.give import checked_rating, checked_reason, give_feedback
from askalong.server.deps import AccessDep, ServerState, StateDep
from askalong.server.feedback_schemas import FeedbackCreated, FeedbackIn, FeedbackList
from askalong.server.schemas import ErrorOut
from askalong.types import Access
from askalong.wire import feedback_json

router = APIRouter(prefix="/api", tags=["feedback"])
ERRORS: dict[int | str, dict[str, Any]] = {s: {"model": ErrorOut} for s in (400, 404, 422)}


@router.post("/feedback", response_model=FeedbackCreated, status_code=201, responses=ERRORS)
async def post_feedback(body: FeedbackIn, state: StateDep, access: AccessDep) -> FeedbackCreated:
    """Thumbs up or down on one answer, with an optional reason."""
    problems = _problems(body)
    if problems:
        raise RequestValidationError(problems)
    made = await run_in_threadpool(_give, state, body, access)
    return FeedbackCreated(id=made)


@router.get("/feedback", response_model=FeedbackList)
async def list_feedback(state: StateDep, access: AccessDep) -> FeedbackList:
    """The asker's own feedback, newest first."""
    found = await run_in_threadpool(state.library.store.list_feedback, Access(user=access.user))
    return FeedbackList(feedback=[feedback_json(f) for f in found])


def _problems(body: FeedbackIn) -> list[dict[str, object]]:
    """What is wrong with the body, as validation errors (a 422, as the contract says)."""
    problems: list[dict[str, object]] = []
    for field, check in (("rating", checked_rating), ("reason", checked_reason)):
        try:
            check(getattr(body, field))
        except InputError as error:
            problems.append({"type": "value_error", "loc": ("body", field), "msg": error.message})
    for field in ("conversation_id", "turn_id", "reason"):
        try:
            getattr(body, field).encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate, which JSON's "\ud800" can spell
            msg = "not valid Unicode (a lone surrogate)"
            problems.append({"type": "value_error", "loc": ("body", field), "msg": msg})
    return problems


def _give(state: ServerState, body: FeedbackIn, access: Access) -> str:
    library = state.library
    judge = make_judge(library.settings)
    item = give_feedback(
        library.store, access, body.conversation_id, body.turn_id, body.rating, body.reason,
        judge=judge,
    )  # fmt: skip
    return item.id
