"""One isolation run: the seeded world (``isolation_world``) uploaded over HTTP with each
owner's own token, and the request log every probe (``isolation_probes``) writes to.

Every request names its route as the app declares it (``"/api/documents/{doc}/code"``), so
the run knows which routes it reached; ``test_isolation`` holds that set against every route
the app serves. Every JSON or text answer a user gets is scanned for the id and the secret
sentence of each document the world's oracle hides from that user; every refusal of a
hidden document is a 404 worded as for an id that names nothing at all.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from api_client import BASE_URL
from fastapi import FastAPI
from fastapi.testclient import TestClient
from isolation_world import Doc, World
from samples import sized_pdf

from askalong.store.base import Store

PASSWORD = "isolation password 1"
TUS = {"Tus-Resumable": "1.0.0"}
BINARY = ("image/", "application/pdf", "application/octet-stream")


@dataclass
class Run:
    world: World
    clients: dict[str, TestClient]
    ids: dict[str, str]  # doc key -> document id
    store: Store
    collections: dict[str, str] = field(default_factory=dict)  # owner -> their repository's
    requests: int = 0
    leaks: list[str] = field(default_factory=list)
    routes: Counter[tuple[str, str]] = field(default_factory=Counter)  # (method, route) sent
    ghosts: dict[tuple[str, str], tuple[int, str, str]] = field(default_factory=dict)

    def call(
        self, user: str, method: str, route: str, /, *, scan: bool = True, **kw: Any
    ) -> httpx.Response:
        """``route`` as the app declares it, its parameters from ``kw`` (the rest go to
        the client: ``params``, ``json``, ``headers``, ``files``); the answer is scanned."""
        names = re.findall(r"\{(\w+)(?::\w+)?\}", route)
        path = re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: str(kw[m.group(1)]), route)
        sent = {k: v for k, v in kw.items() if k not in names}
        self.requests += 1
        self.routes[(method, route)] += 1
        response = self.clients[user].request(method, path, **sent)
        if scan:
            self.scan(user, response, f"{method} {path}")
        return response

    def scan(self, user: str, response: httpx.Response, what: str, *, ids: bool = True) -> None:
        """No secret sentence of a hidden document, and in an answer (a refusal may echo
        the id asked for) no id of one either, unless ``ids`` is off."""
        ids = ids and response.is_success
        kind = response.headers.get("content-type", "")
        if kind.startswith(BINARY) or not response.content:
            return
        text = response.text
        for doc in self.hidden(user):
            doc_id = self.ids.get(doc.key)
            if doc.secret in text or (ids and doc_id is not None and doc_id in text):
                self.leaks.append(f"{user} {what}: names {doc.key} ({response.status_code})")

    def hidden(self, user: str) -> list[Doc]:
        visible = self.world.visible(user)
        return [d for d in self.world.docs if d.key not in visible]

    def expect(self, user: str, method: str, route: str, visible: bool, /, **kw: Any) -> int:
        """The owner's (or a viewer's) 2xx, an intruder's 404 worded as for no document."""
        response = self.call(user, method, route, **kw)
        ok = 200 <= response.status_code < 300
        if (visible and not ok) or (not visible and response.status_code != 404):
            self.leaks.append(f"{user} {method} {route} {kw}: {response.status_code}")
        elif not visible:
            self.same_as_ghost(user, method, route, response, kw)
        return response.status_code

    def refused(
        self, user: str, what: str, response: httpx.Response, send: Callable[[], Any]
    ) -> None:
        """``response`` must be the 404 ``send`` (the same request naming nothing) gets."""
        if response.status_code != 404:
            self.leaks.append(f"{user} {what}: {response.status_code}, not 404")
            return
        key = (user, what)
        if key not in self.ghosts:
            self.requests += 1
            ghost = send()
            self.ghosts[key] = (ghost.status_code, *_wording(ghost))
        if self.ghosts[key] != (404, *_wording(response)):
            self.leaks.append(f"{user} {what}: {_wording(response)} != {self.ghosts[key]}")

    def same_as_ghost(
        self, user: str, method: str, route: str, response: httpx.Response, kw: dict[str, Any]
    ) -> None:
        """The refusal against the same request with every path id turned to a ghost."""
        names = re.findall(r"\{(\w+)(?::\w+)?\}", route)
        path = {
            k: ghost_of(v) if isinstance(v, str) else str(v) for k, v in kw.items() if k in names
        }
        sent = {k: v for k, v in kw.items() if k not in names and k != "scan"}
        ghost = re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: path[m.group(1)], route)
        send = lambda: self.clients[user].request(method, ghost, **sent)  # noqa: E731
        self.refused(user, f"{method} {route}", response, send)

    def key_of(self, document_id: str) -> str:
        return next(key for key, value in self.ids.items() if value == document_id)

    def keys(self, document_ids: Any) -> set[str]:
        return {self.key_of(i) for i in document_ids}


def ghost_of(value: str) -> str:
    """An id of the same shape that names nothing: every hex digit turned."""
    return "".join(
        "0123456789abcdef"[15 - int(c, 16)] if c in "0123456789abcdef" else c for c in value
    )


def _wording(response: httpx.Response) -> tuple[str, str]:
    """The error's type and message, every id-like run blanked (the ghost's differs)."""
    try:
        error = response.json()["error"]
    except (ValueError, KeyError, TypeError):
        return ("", response.text[:200])
    return error["type"], re.sub(r"[0-9a-f]{8,}", "<id>", error["message"])


def build(world: World, owner: TestClient) -> Run:
    app = owner.app
    assert isinstance(app, FastAPI)
    store: Store = app.state.askalong.library.store
    for org, parent in world.parents.items():  # parents come before their children
        store.add_org(org, parent)
    clients = {}
    for user in world.users:  # the first is a site administrator (the first account)
        store.add_user(user, PASSWORD)
        for org in world.members[user]:
            store.set_member(org, user, "admin" if org in world.admins[user] else "member")
        _, secret = store.create_token(user)
        headers = {"Authorization": f"Bearer {secret}"}
        clients[user] = TestClient(app, base_url=BASE_URL, headers=headers)
    run = Run(world, clients, {}, store)
    for doc in world.docs:
        if not doc.code:
            run.ids[doc.key] = upload(run, doc)
    for user in world.users:
        repository = [d for d in world.docs if d.code and d.owner == user]
        if repository:
            ids, run.collections[user] = upload_repository(run, user, repository)
            run.ids.update(ids)
    return run


def upload(run: Run, doc: Doc, user: str | None = None) -> str:
    """``doc``'s file sent by ``user`` (its owner by default) and shared as the world says."""
    made = run.call(user or doc.owner, "POST", "/api/documents", files={"file": file_of(doc)})
    assert made.status_code == 201, made.text
    document_id: str = made.json()["document"]["id"]
    if user is None:
        share(run.clients[doc.owner], document_id, doc)
    return document_id


def file_of(doc: Doc) -> tuple[str, bytes]:
    if doc.pdf:
        return f"{doc.key}.pdf", sized_pdf((400.0, 300.0), text=doc.text().replace("#", ""))
    return f"{doc.key}.md", doc.text().encode()


def upload_repository(run: Run, user: str, docs: list[Doc]) -> tuple[dict[str, str], str]:
    """One user's source files as one archive: one collection, ``repo-<user>``."""
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        for doc in docs:
            archive.writestr(f"{doc.key}.py", doc.text())
    sent = {"file": (f"repo-{user}.zip", packed.getvalue())}
    made = run.call(user, "POST", "/api/documents", files=sent)
    assert made.status_code == 201, made.text
    ids = {}
    for file in made.json()["files"]:
        doc = next(d for d in docs if f"{d.key}.py" in file["source"])
        ids[doc.key] = file["document_id"]
        share(run.clients[user], file["document_id"], doc)
    assert len(ids) == len(docs), made.text
    return ids, made.json()["collection"]["id"]


def share(client: TestClient, document_id: str, doc: Doc) -> None:
    shared = client.put(
        f"/api/documents/{document_id}/visibility", json={"visibility": doc.visibility}
    )
    assert shared.status_code == 200 and shared.json()["visibility"] == doc.visibility
