"""The FastAPI app: one ``Library`` opened at startup and closed at shutdown, the JSON API
under ``/api``, the reader's static files at ``/``, all behind the gate (``gate.py``: the
host, the origin, the install token), then the per-user limits (``limits.py``: requests
in a minute, questions at once), then the body guard (``edge.py``: every route's
body limit, a minimum data rate), then ``OPTIONS`` and ``405`` answered from the table of
every route's methods (``methods.py``).

The core is synchronous; handlers run its calls in the thread pool.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

import anyio
import anyio.to_thread
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from askalong.asking.choose import make_asker
from askalong.config import Settings
from askalong.index.sync import BackgroundEmbedding
from askalong.jobs.worker import WorkerThread
from askalong.library import Library
from askalong.parse.pdf.render import PageRenderer
from askalong.resumable.receiver import ResumableUploads, UploadLimits
from askalong.resumable.storage import open_upload_storage
from askalong.server.busy import WriteLock
from askalong.server.deps import ServerState
from askalong.server.edge import (
    PIECE_ROUTES,
    SERVE_TIMEOUTS,
    UPLOAD_ROUTE,
    BodyGuard,
    BodyLimits,
    BodyRule,
    EdgeTimeouts,
)
from askalong.server.errors import install_error_handlers
from askalong.server.gate import Gate, HostRule
from askalong.server.identity import Identities
from askalong.server.limits import RequestLimits, UserLimits
from askalong.server.login_guard import LoginGuard
from askalong.server.methods import AllowedMethods, MethodTable
from askalong.server.routes import (
    accounts,
    admin,
    admin_feedback,
    ask,
    chat,
    code,
    collections,
    conversations,
    documents,
    export,
    feedback,
    pages,
    resumable,
    search,
    threads,
)
from askalong.server.security import SecurityHeaders
from askalong.server.token import configured_token
from askalong.server.uploads import MULTIPART_OVERHEAD

STATIC_DIR = Path(__file__).parent / "static"
STOP_WAIT = 2.0  # seconds the worker and the embedder get to end their step on a stop
log = logging.getLogger("askalong.worker")


def create_app(
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    timeouts: EdgeTimeouts = SERVE_TIMEOUTS,
    clock: Callable[[], float] = time.time,
) -> FastAPI:
    """The app serving ``settings.home`` to the names ``host`` stands for; the library
    opens when the app starts, the install token is read (or made) now. ``clock`` is
    what the per-minute request limits and the sign-in back-off read the time from."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        renderer = PageRenderer(
            settings.home / "cache" / "pages",
            timeout=settings.render_timeout,
            memory_mb=settings.render_memory_mb,
        )
        renderer.start()  # the render child imports pdfium while the library opens
        library = await run_in_threadpool(Library, settings)
        asker = await run_in_threadpool(make_asker, library)
        uploads = resumable_uploads(settings, library)
        worker = WorkerThread(library, log.info) if settings.serve_worker else None
        embedding = BackgroundEmbedding(library.indexes)
        state = ServerState(
            library, renderer, WriteLock(), asker, uploads, embedding, worker=worker
        )
        app.state.askalong = state
        if worker is not None:
            worker.start()
        # What a stopped server left: uploads complete but not added, then vectors.
        await resumable.resume_uploads(state)
        embedding.start()
        try:
            yield
        finally:
            # A thread of its own: the shared pool may be full of requests cut off by the
            # stop (uvicorn's graceful timeout), which still hold their threads.
            await anyio.to_thread.run_sync(stop_server, state, limiter=anyio.CapacityLimiter(1))

    app = FastAPI(
        title="AskAlong",
        summary="Grounded answers about what you are reading (随问).",
        version=_version(),
        lifespan=lifespan,
        redoc_url=None,
    )
    install_error_handlers(app)
    modules = (
        documents,
        resumable,
        collections,
        pages,
        code,
        search,
        ask,
        chat,
        conversations,
        threads,
        export,
        feedback,
        accounts,
        admin,
        admin_feedback,
    )
    routers = [module.router for module in modules]
    for router in routers:
        app.include_router(router)
    app.mount("/", StaticFiles(directory=STATIC_DIR, html=True), name="reader")
    routes = [*app.routes, *(route for router in routers for route in router.routes)]
    app.add_middleware(AllowedMethods, table=MethodTable.of(routes))
    app.add_middleware(BodyGuard, limits=body_limits(settings), timeouts=timeouts)
    app.add_middleware(RequestLimits, limits=UserLimits.of(settings), clock=clock)
    hosts = HostRule.of(host, settings.allowed_hosts)
    app.state.identities = Identities(configured_token(settings))
    app.state.login_guard = LoginGuard(clock=clock)
    app.add_middleware(Gate, hosts=hosts, identities=app.state.identities, auth=settings.auth)
    app.add_middleware(SecurityHeaders)  # added last: outermost, so refusals carry it too
    return app


def stop_server(state: ServerState) -> None:
    """Stop within seconds whatever runs: the worker gives back its job (pending again
    at once) if its step does not end in time, the embedder stops between batches. The
    library is closed only when no thread of ours still uses it (else the exit ends
    it); the page renderer's closing is waited for a bounded time (a render in a
    request cut off by the stop holds its child up to the render time limit)."""
    ended = state.worker.stop(STOP_WAIT) if state.worker is not None else True
    ended = state.embedding.stop(STOP_WAIT) and ended
    closing = threading.Thread(target=state.pages.close, daemon=True)
    closing.start()
    if ended and state.long_work.running == 0:
        state.library.close()
    closing.join(STOP_WAIT)


def body_limits(settings: Settings) -> BodyLimits:
    """1 MB for every JSON route; the upload route the file limit and multipart room; a
    resumable upload's piece the piece limit."""
    upload = BodyRule(settings.max_file_bytes, "ASKALONG_MAX_FILE_MB", MULTIPART_OVERHEAD)
    piece = BodyRule(settings.max_piece_bytes, "ASKALONG_UPLOAD_PIECE_MB")
    return BodyLimits(routes={UPLOAD_ROUTE: upload}, prefixes={PIECE_ROUTES: piece})


def resumable_uploads(settings: Settings, library: Library) -> ResumableUploads:
    limits = UploadLimits(
        max_bytes=settings.max_file_bytes,
        max_piece_bytes=settings.max_piece_bytes,
        max_pending=settings.upload_pending,
        lifetime=timedelta(hours=settings.upload_expiry_hours),
    )
    return ResumableUploads(library.store, open_upload_storage(settings), limits)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("askalong")
    except PackageNotFoundError:
        return "0"
