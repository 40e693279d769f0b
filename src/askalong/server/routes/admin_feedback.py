"""The admin view of feedback: every asker's ratings, for site administrators only (404 to
anyone else, as every admin route: ``routes/admin``).

``GET /api/admin/feedback?label=&user=&rating=&since=&until=`` → ``{"feedback": [<record>]}``,
newest first (at most 500): ``label`` a triage label (``retrieval_miss``,
``retrieval_fault``, ``generation_fault``), ``user`` the asker, ``since``/``until`` ISO
dates (``until`` includes its day). Being an administrator grants no sight of documents:
a cited quote or a ranked hit from a document the administrator may not see is shown
without anything that names or fingerprints it (document, block and chunk ids, page,
span, title, text and hashes: a hash of a short quote can be confirmed by guessing), as
the documents' own routes would hide it; its number, rank and scores stay.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Annotated, Literal

from fastapi import APIRouter, Query
from starlette.concurrency import run_in_threadpool

from askalong.errors import NotFound
from askalong.server.deps import AccessDep
from askalong.server.feedback_schemas import FeedbackList
from askalong.server.routes.admin import ERRORS, AdminStore
from askalong.store.base import Store
from askalong.types import Access
from askalong.values.feedback import Citation, Feedback, FeedbackFilter, RankedChunk, TriageLabel
from askalong.wire import feedback_json

router = APIRouter(tags=["admin"])
LIMIT = 500
Day = Annotated[str | None, Query(pattern=r"^\d{4}-\d{2}-\d{2}$")]


@router.get("/api/admin/feedback", response_model=FeedbackList, responses=ERRORS)
async def admin_feedback(
    store: AdminStore,
    access: AccessDep,
    label: TriageLabel | None = None,
    user: Annotated[str | None, Query(max_length=64)] = None,
    rating: Literal["up", "down"] | None = None,
    since: Day = None,
    until: Day = None,
) -> FeedbackList:
    """Every asker's feedback with its triage, filtered; newest first."""
    where = FeedbackFilter(label, user or None, rating, since, until, limit=LIMIT)
    found = await run_in_threadpool(_shown, store, access, where)
    return FeedbackList(feedback=[feedback_json(f) for f in found])


def _shown(store: Store, access: Access, where: FeedbackFilter) -> list[Feedback]:
    records = store.list_feedback(Access.local(), where)
    visible: dict[str, bool] = {}

    def sees(doc_id: str) -> bool:
        if doc_id not in visible:
            try:
                store.get_document(doc_id, access)
                visible[doc_id] = True
            except NotFound:
                visible[doc_id] = False
        return visible[doc_id]

    return [_redacted(r, sees) for r in records]


def _redacted(record: Feedback, sees: Callable[[str], bool]) -> Feedback:
    """The record without what the administrator may not see: a hidden cited quote or
    ranked hit blanked (``_hidden_citation``, ``_hidden_hit``), and, when anything is
    hidden, the answer, its explanation and the triage's evidence (all three quote the
    cited passages)."""
    judged = record.judged
    citations = tuple(c if sees(c.document_id) else _hidden_citation(c) for c in judged.citations)
    retrieved = tuple(r if sees(r.hit.document_id) else _hidden_hit(r) for r in judged.retrieved)
    judged = replace(judged, citations=citations, retrieved=retrieved)
    if (citations, retrieved) == (record.judged.citations, record.judged.retrieved):
        return record
    triage = record.triage and replace(record.triage, evidence=())
    return replace(record, judged=replace(judged, answer="", explanation=""), triage=triage)


def _hidden_citation(c: Citation) -> Citation:
    return replace(
        c,
        document_id="",
        title="",
        page=None,
        block_id="",
        start=0,
        end=0,
        text="",
        text_sha256="",
        chunk_ids=(),
        chunk_sha256=(),
    )


def _hidden_hit(r: RankedChunk) -> RankedChunk:
    return replace(r, hit=replace(r.hit, chunk_id="", document_id=""), title="", text_sha256="")
