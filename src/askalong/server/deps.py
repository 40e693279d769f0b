"""What route handlers depend on, each chosen in one function.

``current_access`` is the single place that decides who is asking: today the local single
user; an auth layer replaces it (``app.dependency_overrides[current_access] = ...``).
"""

from __future__ import annotations

from dataclasses import dataclass
from threading import Lock
from typing import Annotated

from fastapi import Depends, Request

from askalong.library import Library
from askalong.server.pages import PageRenderer
from askalong.types import Access


@dataclass(frozen=True)
class ServerState:
    """What the app holds while it runs: one library, one page renderer, one write lock.

    ``writes`` serialises ingestion: the ingestor owns one parser process and the keyword
    index one writer, so two uploads parse one after the other.
    """

    library: Library
    pages: PageRenderer
    writes: Lock


def current_access() -> Access:
    return Access.local()


def server_state(request: Request) -> ServerState:
    state: ServerState = request.app.state.askalong
    return state


AccessDep = Annotated[Access, Depends(current_access)]
StateDep = Annotated[ServerState, Depends(server_state)]
