"""What route handlers depend on, each chosen in one function.

``current_access`` is the single place route handlers learn who is asking: the ``Access``
the gate resolved once for this request (``identity.py``: the local owner, or an account
with its orgs); tests may override it (``app.dependency_overrides[current_access] = ...``).
A request that reached a route without one (only the open login routes can) is refused,
never served as someone.
``current_asker`` hands out the asker made at startup (``asking/choose.make_asker``, the
one place that decides who writes answers); tests override it the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request
from starlette.types import Scope

from askalong.asking.asker import Asker
from askalong.errors import Unauthorized
from askalong.index.sync import BackgroundEmbedding
from askalong.jobs.worker import WorkerThread
from askalong.library import Library
from askalong.parse.pdf.render import PageRenderer
from askalong.resumable.receiver import ResumableUploads
from askalong.server.busy import LongWork, WriteLock
from askalong.server.identity import ACCESS_KEY
from askalong.server.page_reads import PageReads
from askalong.store.base import Store
from askalong.types import Access


@dataclass(frozen=True)
class ServerState:
    """What the app holds while it runs: one library, one page renderer, one write lock,
    one asker (its answerer made once, at startup), the resumable uploads in progress, the
    background embedder, the slots for long steps, the pages being read in the background,
    the worker thread that runs queued ingestion jobs (none when ``askalong worker`` does).

    ``writes`` serialises the store's write transactions and the keyword index's one
    writer, and nothing longer: never a parse, an OCR read or an embedding (``busy.py``:
    a request that cannot take it within half a second is refused with 503). Vectors are
    ``embedding``'s work, woken by the routes that add, never a request's.
    """

    library: Library
    pages: PageRenderer
    writes: WriteLock
    asker: Asker
    uploads: ResumableUploads
    embedding: BackgroundEmbedding
    long_work: LongWork = field(default_factory=LongWork)
    page_reads: PageReads = field(default_factory=PageReads)  # Read it now, in the background
    worker: WorkerThread | None = None  # the ingestion worker thread (ASKALONG_SERVE_WORKER)


def current_access(request: Request) -> Access:
    access = request.scope.get(ACCESS_KEY)
    if not isinstance(access, Access):
        raise Unauthorized("sign in first", source=request.url.path)
    return access


def served_store(scope: Scope) -> Store | None:
    """The store of the app ``scope`` belongs to, for the middleware in front of the
    routes; None before the app has started (its library is opened at startup)."""
    state = getattr(scope.get("app"), "state", None)
    server = getattr(state, "askalong", None)
    return None if server is None else server.library.store


def server_state(request: Request) -> ServerState:
    state: ServerState = request.app.state.askalong
    return state


def current_asker(request: Request) -> Asker:
    return server_state(request).asker


AccessDep = Annotated[Access, Depends(current_access)]
StateDep = Annotated[ServerState, Depends(server_state)]
AskerDep = Annotated[Asker, Depends(current_asker)]
