"""Asking a running ``askalong serve`` of the same home (``server/presence.py``), so a
repeated ``askalong ask`` costs its answer, not opening the library, its index and its
models again. The request is ``POST /api/ask`` with the home's own token (a ``FILE:LINE``
anchor found first through the API, as the command finds it); the answer JSON is the one
the command prints. No server, a stale file, a refused connection or an error
status: None, and the command answers in its own process (which says what was wrong).

The loopback calls go through the standard library's ``http.client``: httpx (with
httpcore, h11 and anyio) cost ~50 CPU ms to import, a fifth of such an ask. Even that is
imported only once a server is found: with ssl and email it is ~15 CPU ms of an ask
answered in its own process.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from askalong.context.line_anchor import LineRef, line_anchor, line_ref, names_file
from askalong.errors import AskAlongError, InputError
from askalong.server.presence import Presence, running
from askalong.server.token import token_path
from askalong.types import Anchor, Block
from askalong.wire import AnswerJSON

if TYPE_CHECKING:
    import http.client

CONNECT_SECONDS = 1.0
ANSWER_SECONDS = 600.0  # a model's answer may take minutes on a slow machine


@dataclass(frozen=True)
class Asked:
    """The answer JSON, and the server that gave it."""

    answer: AnswerJSON
    server: Presence


class ServerError(Exception):
    """The server answered with an error status: the command answers in its own process."""


def ask_resident(home: Path, options: AskOptions) -> Asked | None:
    """The command's question asked of the server running for ``home``, or None."""
    server = running(home)
    if server is None:
        return None
    import http.client  # a server to ask: only now (see above)

    try:
        token = token_path(home).read_text(encoding="ascii").strip()
        with _Connection(server, token) as client:
            ref = None if options.at is None else line_ref(options.at)
            body = ask_body(options) if ref is None else _lines_body(client, options, ref)
            answer: AnswerJSON | None = None if body is None else client.call("/api/ask", body)
    except (OSError, ValueError, http.client.HTTPException, ServerError, AskAlongError):
        return None  # ValueError: a reply that was not JSON
    return None if answer is None else Asked(answer, server)


class _Connection:
    """One keep-alive connection to the server, every call with the home's token."""

    def __init__(self, server: Presence, token: str) -> None:
        import http.client

        self.connection: http.client.HTTPConnection = http.client.HTTPConnection(
            server.host, server.port, timeout=CONNECT_SECONDS
        )
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def __enter__(self) -> _Connection:
        self.connection.connect()
        assert self.connection.sock is not None
        self.connection.sock.settimeout(ANSWER_SECONDS)  # connected: now the answer's time
        return self

    def __exit__(self, *exc: object) -> None:
        self.connection.close()

    def call(self, path: str, body: dict[str, Any] | None = None) -> Any:
        """The JSON reply to a GET of ``path`` (a POST of ``body`` when there is one)."""
        data = None if body is None else json.dumps(body).encode()
        method = "GET" if body is None else "POST"
        self.connection.request(method, path, body=data, headers=self.headers)
        response = self.connection.getresponse()
        reply = response.read()
        if response.status != 200:
            raise ServerError(f"{method} {path}: {response.status}")
        return json.loads(reply)


def _lines_body(client: _Connection, options: AskOptions, ref: LineRef) -> dict[str, Any] | None:
    """The body of a question at ``FILE:LINE``: the one document the file names (among
    ``--doc``, else the collection's, else every document), anchored on those lines as the
    command anchors them; None when no single document is that file."""
    found = [d for d in _pool(client, options) if names_file(d["source"], ref.file)]
    if len(found) != 1:
        return None  # the command, in its own process, says which problem it is
    structure = client.call(_path("documents", found[0]["id"]))
    blocks = [_block(b) for b in structure["blocks"]]
    anchor = line_anchor(found[0]["id"], blocks, ref)
    asked = replace(options, documents=(found[0]["id"],), collection=None, at=None)
    return {**ask_body(asked), "anchor": _anchor_json(anchor)}


def _pool(client: _Connection, options: AskOptions) -> list[dict[str, Any]]:
    if options.documents:
        return [client.call(_path("documents", ref))["document"] for ref in options.documents]
    members: list[dict[str, Any]] = []
    if options.collection is not None:
        members = client.call(_path("collections", options.collection))["documents"]
    return members or client.call("/api/documents")["documents"]


def _path(kind: str, ref: str) -> str:
    """``/api/KIND/REF``, the reference (a name may hold spaces, slashes) quoted whole."""
    return f"/api/{kind}/{quote(ref, safe='')}"


def _block(found: dict[str, Any]) -> Block:
    """A block as the API gives it, for its lines (``line_anchor``)."""
    lines = found["lines"]
    return Block(
        found["id"], found["kind"], found["text"], found["order"], tuple(found["section_path"]),
        lines=None if lines is None else (lines[0], lines[1]),
    )  # fmt: skip


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
        "stream": False,
    }
    if documents:
        body |= {"document_id": documents[0], "documents": list(documents[1:])}
    if options.collection is not None:
        body["collection"] = options.collection
    anchor = option_anchor(documents[0] if documents else None, options.at, options.selected)
    if anchor is not None:
        body["anchor"] = _anchor_json(anchor)
    return body


def _anchor_json(anchor: Anchor) -> dict[str, Any]:
    return {
        "block_id": anchor.block_id,
        "start": anchor.start,
        "end": anchor.end,
        "selected_text": anchor.selected_text,
    }


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
