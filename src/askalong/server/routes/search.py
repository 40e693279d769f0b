"""Search: hybrid retrieval over the documents the caller may see."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from starlette.concurrency import run_in_threadpool

from askalong.asking.limits import MAX_ID_CHARS
from askalong.retrieve.search import MAX_QUERY_CHARS
from askalong.server.deps import AccessDep, ServerState, StateDep
from askalong.server.recheck import Visible
from askalong.server.routes.documents import ERRORS
from askalong.server.schemas import DOC_HELP, DocText
from askalong.types import Access
from askalong.wire import SearchJSON, search_json

router = APIRouter(prefix="/api", tags=["search"])


@router.get("/search", response_model=SearchJSON, responses=ERRORS)
async def search(
    state: StateDep,
    access: AccessDep,
    q: Annotated[
        str,
        Query(
            min_length=1,
            max_length=MAX_QUERY_CHARS,
            pattern=r"\S",
            description="the query, Chinese or English (not only spaces)",
        ),
    ],
    doc: Annotated[
        list[DocText] | None,
        Query(description=f"only these documents (each {DOC_HELP})"),
    ] = None,
    collection: Annotated[
        str | None, Query(max_length=MAX_ID_CHARS, description="only this collection (id or name)")
    ] = None,
    k: Annotated[int | None, Query(ge=1, le=50, description="most hits (default 5)")] = None,
) -> SearchJSON:
    """The best passages for ``q``, each with its page, section and block spans."""
    return await run_in_threadpool(_search, state, access, q, doc or [], collection, k)


def _search(
    state: ServerState,
    access: Access,
    query: str,
    documents: list[str],
    collection: str | None,
    k: int | None,
) -> SearchJSON:
    library = state.library
    ids = [library.store.get_document(ref, access).id for ref in documents]  # access check
    if collection is not None:  # its visible members, resolved once here
        ids += library.collection_ids(collection, access)
    result = library.searcher.search(query, access, documents=ids, k_max=k)
    visible = Visible(library.store, access)
    visible.require((hit.document_id for hit in result.hits), "search")
    return search_json(result, library.store.chunk, lambda doc: visible.titles.get(doc, ""))
