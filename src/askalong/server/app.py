"""The FastAPI app: one ``Library`` opened at startup and closed at shutdown, the JSON API
under ``/api``, the reader's static files at ``/``, all behind the gate (``gate.py``: the
host, the origin, the install token), then the body guard (``edge.py``: every route's
body limit, a minimum data rate), then ``OPTIONS`` and ``405`` answered from the table of
every route's methods (``methods.py``).

The core is synchronous; handlers run its calls in the thread pool.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from askalong.asking.choose import make_asker
from askalong.config import Settings
from askalong.index.sync import BackgroundEmbedding
from askalong.library import Library
from askalong.parse.pdf.render import PageRenderer
from askalong.server.deps import ServerState
from askalong.server.edge import (
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
from askalong.server.methods import AllowedMethods, MethodTable
from askalong.server.routes import accounts, ask, collections, documents, pages, search, threads
from askalong.server.security import SecurityHeaders
from askalong.server.token import install_token
from askalong.server.uploads import MULTIPART_OVERHEAD

STATIC_DIR = Path(__file__).parent / "static"


def create_app(
    settings: Settings, *, host: str = "127.0.0.1", timeouts: EdgeTimeouts = SERVE_TIMEOUTS
) -> FastAPI:
    """The app serving ``settings.home`` to the names ``host`` stands for; the library
    opens when the app starts, the install token is read (or made) now."""

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
        app.state.askalong = ServerState(library, renderer, threading.Lock(), asker)
        resumed = BackgroundEmbedding(library.indexes)  # what a killed server left unembedded
        resumed.start()
        try:
            yield
        finally:
            await run_in_threadpool(resumed.stop)
            await run_in_threadpool(renderer.close)
            await run_in_threadpool(library.close)

    app = FastAPI(
        title="AskAlong",
        summary="Grounded answers about what you are reading (随问).",
        version=_version(),
        lifespan=lifespan,
        redoc_url=None,
    )
    install_error_handlers(app)
    routers = [
        module.router for module in (documents, collections, pages, search, ask, threads, accounts)
    ]
    for router in routers:
        app.include_router(router)
    app.mount("/", StaticFiles(directory=STATIC_DIR, html=True), name="reader")
    routes = [*app.routes, *(route for router in routers for route in router.routes)]
    app.add_middleware(AllowedMethods, table=MethodTable.of(routes))
    app.add_middleware(BodyGuard, limits=body_limits(settings), timeouts=timeouts)
    hosts = HostRule.of(host, settings.allowed_hosts)
    app.state.identities = Identities(install_token(settings.home))
    app.add_middleware(Gate, hosts=hosts, identities=app.state.identities, auth=settings.auth)
    app.add_middleware(SecurityHeaders)  # added last: outermost, so refusals carry it too
    return app


def body_limits(settings: Settings) -> BodyLimits:
    """1 MB for every JSON route; the upload route the file limit and multipart room."""
    upload = BodyRule(settings.max_file_bytes, "ASKALONG_MAX_FILE_MB", MULTIPART_OVERHEAD)
    return BodyLimits(routes={UPLOAD_ROUTE: upload})


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("askalong")
    except PackageNotFoundError:
        return "0"
