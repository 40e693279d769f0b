"""Collections: the caller's collections, and one with the members the caller may see.

``GET /api/collections`` → ``{"collections": [{id, name, owner, created, documents,
chunks}]}`` by name (the counts are of the members the caller may see);
``GET /api/collections/{ref}`` (id or name) → ``{"collection": {...}, "documents":
[<document>]}``, members by title. Ask one as one with ``POST /api/ask`` and
``"collection"``, search it with ``GET /api/search?collection=``. Collections are made by
adding a folder (``askalong add FOLDER`` or ``--collection NAME``).
"""

from __future__ import annotations

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from askalong.server.deps import AccessDep, ServerState, StateDep
from askalong.server.routes.documents import ERRORS
from askalong.server.schemas import CollectionList, CollectionOut
from askalong.types import Access
from askalong.wire import collection_json, document_json

router = APIRouter(prefix="/api", tags=["collections"])


@router.get("/collections", response_model=CollectionList)
async def list_collections(state: StateDep, access: AccessDep) -> CollectionList:
    """The caller's collections by name, each with how many documents and chunks it has."""
    found = await run_in_threadpool(state.library.store.list_collections, access)
    return CollectionList(collections=[collection_json(c) for c in found])


@router.get("/collections/{ref}", response_model=CollectionOut, responses=ERRORS)
async def get_collection(ref: str, state: StateDep, access: AccessDep) -> CollectionOut:
    """A collection (id or name) with the documents in it the caller may see."""
    return await run_in_threadpool(_collection, state, ref, access)


def _collection(state: ServerState, ref: str, access: Access) -> CollectionOut:
    store = state.library.store
    collection = store.get_collection(ref, access)
    members = store.collection_documents(collection.id, access)
    return CollectionOut(
        collection=collection_json(collection), documents=[document_json(d) for d in members]
    )
