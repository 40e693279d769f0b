"""Asking a running ``askalong serve`` of the same home (``server/presence.py``), so a
repeated ``askalong ask`` costs its answer, not opening the library, its index and its
models again. The request is ``POST /api/ask`` with the home's own token; the answer JSON
is the one the command prints. No server, a stale file, a refused connection or an error
status: None, and the command answers in its own process (which says what was wrong).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from askalong.errors import InputError
from askalong.server.presence import Presence, running
from askalong.server.token import token_path
from askalong.types import Anchor
from askalong.wire import AnswerJSON

CONNECT_SECONDS = 1.0
ANSWER_SECONDS = 600.0  # a model's answer may take minutes on a slow machine


@dataclass(frozen=True)
class Asked:
    """The answer JSON, and the server that gave it."""

    answer: AnswerJSON
    server: Presence


def ask_resident(home: Path, body: dict[str, Any]) -> Asked | None:
    """``body`` (``/api/ask``'s) asked of the server running for ``home``, or None."""
    server = running(home)
    if server is None:
        return None
    try:
        token = token_path(home).read_text(encoding="ascii").strip()
        response = httpx.post(
            f"{server.url}/api/ask",
            json={**body, "stream": False},
            headers={"Authorization": f"Bearer {token}"},
            timeout=httpx.Timeout(ANSWER_SECONDS, connect=CONNECT_SECONDS),
        )
    except (OSError, httpx.HTTPError):
        return None
    if response.status_code != 200:
        return None
    answer: AnswerJSON = response.json()
    return Asked(answer, server)


@dataclass(frozen=True)
class AskOptions:
    """``askalong ask``'s options, as given (ids may be prefixes, ``at`` not yet parsed)."""

    question: str
    documents: Sequence[str]
    collection: str | None
    at: str | None
    selected: str | None
    intent: str | None
    thread_id: str | None


def ask_body(options: AskOptions) -> dict[str, Any]:
    """The ``/api/ask`` body of the command's question: the anchor on the first document."""
    documents = options.documents
    body: dict[str, Any] = {
        "question": options.question,
        "intent": options.intent,
        "thread_id": options.thread_id,
    }
    if documents:
        body |= {"document_id": documents[0], "documents": list(documents[1:])}
    if options.collection is not None:
        body["collection"] = options.collection
    anchor = option_anchor(documents[0] if documents else None, options.at, options.selected)
    if anchor is not None:
        body["anchor"] = {
            "block_id": anchor.block_id,
            "start": anchor.start,
            "end": anchor.end,
            "selected_text": anchor.selected_text,
        }
    return body


def option_anchor(document_id: str | None, at: str | None, selected: str | None) -> Anchor | None:
    """The anchor ``--at BLOCK[:START-END]`` or ``--select TEXT`` names on the document."""
    if at is None and selected is None:
        return None
    if document_id is None:
        raise InputError("--at and --select need --doc", source="--at")
    if selected is not None:
        return Anchor(document_id, selected_text=selected)
    assert at is not None
    block_id, _, span = at.partition(":")
    if not span:
        return Anchor(document_id, block_id)
    start, _, end = span.partition("-")
    if not (start.isdigit() and end.isdigit()):
        raise InputError(f"{at!r}: expected BLOCK:START-END with numbers", source="--at")
    return Anchor(document_id, block_id, int(start), int(end))
