"""The isolation generator's probes: for each route the app serves, the requests every user
of the world sends, and what the oracle (``isolation_world``) says each must get.

Each probe sends as the owner (a 2xx, so the probe can fail) and as everyone else (a 404
worded as for nothing, when the document is hidden); ids are the real ones, taken from the
owner's answers (documents, blocks, threads, conversations, turns, collections, uploads).
``Run.call`` scans every answer for a hidden document's id or secret sentence.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import partial
from typing import Any

from isolation_run import PASSWORD, TUS, Run, ghost_of
from isolation_world import SHARED_WORDS, Doc

PROBE_USER = "isoprobe"  # made and disabled by the administrator's probe; sees nothing
PROBE_ORG = "isoprobe-org"


def check_searches(run: Run, user: str) -> None:
    """Each document's own word finds exactly it when visible, nothing otherwise; a word
    many documents share finds only visible ones (the ranking's cutoff may leave some
    out), and at least one when any visible document says it. A search narrowed to a
    hidden document, or to another's collection, is refused as one naming nothing."""
    visible = run.world.visible(user)
    for word in (*SHARED_WORDS, *(d.key for d in run.world.docs)):
        response = run.call(user, "GET", "/api/search", params={"q": word, "k": 50})
        found = run.keys(hit["document_id"] for hit in response.json()["hits"])
        expected = {d.key for d in run.world.docs if d.key in visible and word in d.text()}
        whole = word not in SHARED_WORDS
        if response.status_code != 200 or not found <= expected or (whole and found != expected):
            run.leaks.append(f"{user} search {word}: {sorted(found ^ expected)}")
        elif expected and not found:
            run.leaks.append(f"{user} search {word}: found none of {sorted(expected)}")
    for doc in run.world.docs:
        doc_id = run.ids[doc.key]
        narrowed = _search(run, user, doc.key, doc=doc_id)
        if doc.key in visible:
            if narrowed.status_code != 200 or not narrowed.json()["hits"]:
                run.leaks.append(f"{user} search in visible {doc.key}: {narrowed.status_code}")
        else:
            run.refused(
                user,
                "search doc",
                narrowed,
                partial(_search, run, user, doc.key, doc=ghost_of(doc_id)),
            )
    for other, collection in run.collections.items():
        narrowed = _search(run, user, SHARED_WORDS[0], collection=collection)
        if other == user:
            if narrowed.status_code != 200:
                run.leaks.append(f"{user} search own collection: {narrowed.status_code}")
        else:
            run.refused(
                user,
                "search collection",
                narrowed,
                partial(_search, run, user, SHARED_WORDS[0], collection=ghost_of(collection)),
            )


def _search(run: Run, user: str, q: str, **narrow: str) -> Any:
    return run.call(user, "GET", "/api/search", params={"q": q, **narrow})


def check_routes(run: Run, user: str) -> None:
    """Every route that names a document: 2xx for whoever may see it, 404 otherwise."""
    visible = run.world.visible(user)
    listed = run.call(user, "GET", "/api/documents").json()["documents"]
    keys = run.keys(d["id"] for d in listed)
    if keys != visible:
        run.leaks.append(f"{user} list: {sorted(keys ^ visible)}")
    for doc in run.world.docs:
        seen, doc_id = doc.key in visible, run.ids[doc.key]
        base = "/api/documents/{doc}"
        for suffix in ("", "/original", "/threads", "/compare-targets"):
            run.expect(user, "GET", base + suffix, seen, doc=doc_id)
        if doc.pdf:
            run.expect(user, "GET", base + "/pages/{page}.png", seen, doc=doc_id, page=1)
            _read_page(run, user, doc, seen)
            _read_page_later(run, user, doc, seen)
        _code_view(run, user, doc, seen)
        if doc.owner != user:  # only its owner queues a document again
            run.expect(user, "POST", base + "/retry", False, doc=doc_id)


def _read_page(run: Run, user: str, doc: Doc, seen: bool) -> None:
    """OCR of a page on request: a viewer's is answered (503 without the OCR extra)."""
    route = "/api/documents/{doc}/pages/{page}/read"
    if seen:
        status = run.call(user, "POST", route, doc=run.ids[doc.key], page=1).status_code
        if status not in (200, 503):
            run.leaks.append(f"{user} read page of visible {doc.key}: {status}")
    else:
        run.expect(user, "POST", route, False, doc=run.ids[doc.key], page=1)


def _read_page_later(run: Run, user: str, doc: Doc, seen: bool) -> None:
    """*Read it now* in the background: a viewer starts it (503 when the slots are taken)
    and follows it; anyone else gets 404 for both, even while a viewer's read runs."""
    route = "/api/documents/{doc}/pages/{page}/reading"
    doc_id = run.ids[doc.key]
    if not seen:
        run.expect(user, "POST", route, False, doc=doc_id, page=1)
        run.expect(user, "GET", route, False, doc=doc_id, page=1)
        return
    started = run.call(user, "POST", route, doc=doc_id, page=1).status_code
    if started not in (202, 503):
        run.leaks.append(f"{user} background read of visible {doc.key}: {started}")
    elif started == 202:
        run.expect(user, "GET", route, True, doc=doc_id, page=1)


def _code_view(run: Run, user: str, doc: Doc, seen: bool) -> None:
    """A source file's view for a viewer, prose refused as not code (400) only to a viewer."""
    route = "/api/documents/{doc}/code"
    if doc.code or not seen:
        run.expect(user, "GET", route, seen, doc=run.ids[doc.key])
        return
    status = run.call(user, "GET", route, doc=run.ids[doc.key]).status_code
    if status != 400:
        run.leaks.append(f"{user} code view of prose {doc.key}: {status}")


def symbol_blocks(run: Run) -> dict[str, str]:
    """Each source file's function block, read by its owner: doc key -> block id."""
    blocks = {}
    for doc in run.world.docs:
        if doc.code:
            view = run.call(doc.owner, "GET", "/api/documents/{doc}/code", doc=run.ids[doc.key])
            blocks[doc.key] = next(
                s["block_id"] for s in view.json()["symbols"] if s["name"] == doc.key
            )
    return blocks


def check_code(run: Run, user: str, blocks: dict[str, str]) -> None:
    """Go to definition and find callers resolve in the asker's repository only: the
    owner's archive (its collection is the owner's), so the owner's calls cross files
    (the ring: private -> org -> public) and anyone else's stay in the one file."""
    visible = run.world.visible(user)
    code = [d for d in run.world.docs if d.code]
    for doc in code:
        for way in ("calls", "callers"):
            route = "/api/documents/{doc}/symbols/{block}/" + way
            doc_id, block = run.ids[doc.key], blocks[doc.key]
            if doc.key not in visible:
                run.expect(user, "GET", route, False, doc=doc_id, block=block)
                continue
            response = run.call(user, "GET", route, doc=doc_id, block=block)
            named = {c["place"]["name"] for c in response.json()}
            ring = {d.key for d in code if d.owner == doc.owner}
            other = doc.calls if way == "calls" else next(d.key for d in code if d.calls == doc.key)
            expected = {other} & ring if user == doc.owner else set()
            if response.status_code != 200 or named != expected:
                run.leaks.append(
                    f"{user} {way} of {doc.key}: {sorted(named)} != {sorted(expected)}"
                )


def check_identifiers(run: Run, user: str, blocks: dict[str, str]) -> None:
    """A clicked name's definitions and references come from the asker's repository only:
    the function a file calls is defined in another file of its owner's archive, which the
    owner is shown and nobody else (others see the file alone); a hidden file is a 404."""
    visible = run.world.visible(user)
    code = [d for d in run.world.docs if d.code]
    route = "/api/documents/{doc}/identifiers/{name}"
    for doc in code:
        assert doc.calls is not None
        doc_id, params = run.ids[doc.key], {"block": blocks[doc.key], "line": 1}
        if doc.key not in visible:
            run.expect(user, "GET", route, False, doc=doc_id, name=doc.calls, params=params)
            continue
        response = run.call(user, "GET", route, doc=doc_id, name=doc.calls, params=params)
        shown = {f["document_id"] for f in response.json().get("files", [])}
        shown |= {d["place"]["document_id"] for d in response.json().get("definitions", [])}
        ring = {run.ids[d.key] for d in code if d.owner == doc.owner}
        allowed = ring if user == doc.owner else {doc_id}
        if response.status_code != 200 or not shown <= allowed:
            run.leaks.append(f"{user} identifier {doc.calls} in {doc.key}: {sorted(shown)}")


def check_asking(run: Run, user: str, docs: list[Doc]) -> None:
    """Ask about ``docs``: the owner's questions are answered from their own documents
    only, an intruder's refused with 404; a thread stays its asker's (read, renamed,
    exported, deleted only by them). A hidden document named among others, or another's
    collection, is refused as one naming nothing."""
    visible = run.world.visible(user)
    for doc in docs:
        doc_id = run.ids[doc.key]
        response = _ask(run, user, doc.key, document_id=doc_id)
        if doc.key not in visible:
            run.refused(
                user,
                "ask",
                response,
                partial(_ask, run, user, doc.key, document_id=ghost_of(doc_id)),
            )
            mine = next(run.ids[d.key] for d in run.world.docs if d.owner == user)
            among = _ask(run, user, doc.key, document_id=mine, documents=[doc_id])
            run.refused(
                user,
                "ask among",
                among,
                partial(_ask, run, user, doc.key, document_id=mine, documents=[ghost_of(doc_id)]),
            )
            continue
        if response.status_code != 200:
            run.leaks.append(f"{user} ask {doc.key}: {response.status_code}")
            continue
        quoted = run.keys(q["document_id"] for q in response.json()["quotes"])
        if not quoted <= visible:
            run.leaks.append(f"{user} ask quoted {sorted(quoted - visible)}")
        check_thread(run, user, response.json()["thread_id"])
    for other, collection in run.collections.items():
        if other != user:
            asked = _ask(run, user, "harbour", collection=collection)
            run.refused(
                user,
                "ask collection",
                asked,
                partial(_ask, run, user, "harbour", collection=ghost_of(collection)),
            )


def _ask(run: Run, user: str, key: str, **where: object) -> Any:
    body = {"question": f"What is {key}?", "stream": False, **where}
    return run.call(user, "POST", "/api/ask", json=body)


def check_thread(run: Run, user: str, thread_id: str) -> None:
    """The thread (a reader's or a chat conversation) is its asker's alone."""
    route = "/api/threads/{thread}"
    for other in run.world.users:
        mine = other == user
        run.expect(other, "GET", route, mine, thread=thread_id)
        run.expect(other, "GET", route + "/export", mine, thread=thread_id)
        run.expect(other, "PATCH", route, mine, thread=thread_id, json={"title": "renamed"})
        if not mine:
            run.expect(other, "DELETE", route, False, thread=thread_id)


def check_chat(run: Run, user: str) -> list[tuple[str, str]]:
    """The knowledge-base chat, streamed and not, about one of the user's own documents
    and one hidden from them, and a summary of a word every document says: it cites and
    counts only what they may see. Returns the conversations (id, a turn's id)."""
    visible = run.world.visible(user)
    own = next(d for d in run.world.docs if d.owner == user)
    hidden = run.hidden(user)
    other = f" And also what is {hidden[0].key}?" if hidden else ""
    questions = (
        f"What is {own.key}?{other}",
        f"Summarise what the notes say about {SHARED_WORDS[0]}.",
        "How many documents are there?",
    )
    made, answers = [], []
    for stream, question in zip((False, True, False), questions, strict=True):
        response = _chat(run, user, question, stream=stream)
        answer = _streamed_answer(response.text) if stream else response.json()
        if response.status_code != 200 or answer is None:
            run.leaks.append(f"{user} chat {question!r}: {response.status_code}")
            continue
        cited = run.keys(s["document_id"] for s in answer["sources"])
        if not cited <= visible:
            run.leaks.append(f"{user} chat cited {sorted(cited - visible)}")
        made.append((answer["conversation_id"], answer["turn_id"]))
        answers.append(answer["answer"])
    if answers and f"{len(visible)} document" not in answers[-1]:  # knowledge_stats
        run.leaks.append(f"{user} counted: {answers[-1]!r}, {len(visible)} visible")
    listed = run.call(user, "GET", "/api/conversations").json()["conversations"]
    if not {c for c, _ in made} <= {c["id"] for c in listed}:
        run.leaks.append(f"{user} conversations do not list their own")
    return made


def _chat(run: Run, user: str, question: str, *, stream: bool = False, **more: object) -> Any:
    body = {"question": question, "stream": stream, **more}
    return run.call(user, "POST", "/api/chat", json=body)


def _streamed_answer(text: str) -> dict[str, Any] | None:
    """The ``done`` event's answer of an SSE chat stream."""
    for message in text.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in message.splitlines() if ": " in line)
        if lines.get("event") == "done":
            answer: dict[str, Any] = json.loads(lines["data"])["answer"]
            return answer
    return None


def check_conversations(run: Run, made: dict[str, list[tuple[str, str]]]) -> None:
    """Another's conversation is listed, continued and rated by no one else; each user's
    own feedback list holds their ratings only."""
    for user, conversations in made.items():
        for conversation, turn in conversations[:1]:
            check_thread(run, user, conversation)
            for other in run.world.users:
                if other == user:
                    continue
                listed = run.call(other, "GET", "/api/conversations").json()["conversations"]
                if conversation in {c["id"] for c in listed}:
                    run.leaks.append(f"{other} lists {user}'s conversation")
                more = _chat(run, other, "And the meadow?", conversation_id=conversation)
                run.refused(
                    other,
                    "chat on",
                    more,
                    partial(
                        _chat, run, other, "And the meadow?", conversation_id=ghost_of(conversation)
                    ),
                )
                rated = _rate(run, other, conversation, turn)
                run.refused(
                    other,
                    "feedback",
                    rated,
                    partial(_rate, run, other, ghost_of(conversation), ghost_of(turn)),
                )
            own = _rate(run, user, conversation, turn, "down")
            if own.status_code != 201:
                run.leaks.append(f"{user} rates own answer: {own.status_code}")
    for user in run.world.users:
        listed = run.call(user, "GET", "/api/feedback").json()["feedback"]
        if {f["owner"] for f in listed} - {user}:
            run.leaks.append(f"{user} feedback lists others'")
        for collection_owner, collection in run.collections.items():
            if collection_owner != user:
                asked = _chat(run, user, "Where is the harbour?", collections=[collection])
                run.refused(
                    user,
                    "chat collection",
                    asked,
                    partial(
                        _chat,
                        run,
                        user,
                        "Where is the harbour?",
                        collections=[ghost_of(collection)],
                    ),
                )


def check_turn_counts(run: Run, made: dict[str, list[tuple[str, str]]]) -> None:
    """A listed thread's ``turns`` is how many its asker is shown on opening it, also once a
    document another's conversation cites is made private (its turn is hidden then, and the
    count must not tell that it exists). The document is shared again after."""
    cited = _cited_by_another(run, made)
    if cited is None:
        run.leaks.append("no conversation cites another's document: the count probe hides nothing")
        return
    doc, asker, conversation = cited
    before = len(_shown_turns(run, asker, conversation))
    unshare = {"doc": run.ids[doc.key], "json": {"visibility": "private"}}
    run.expect(doc.owner, "PUT", "/api/documents/{doc}/visibility", True, **unshare)
    world = run.world
    private = replace(doc, visibility="private")
    run.world = replace(world, docs=tuple(private if d == doc else d for d in world.docs))
    try:
        if len(_shown_turns(run, asker, conversation)) >= before:
            run.leaks.append(f"{asker} is still shown a turn citing {doc.key}, now private")
        for user in run.world.users:
            _counts_match(run, user)
    finally:
        run.world = world
        shared = {"doc": run.ids[doc.key], "json": {"visibility": doc.visibility}}
        run.expect(doc.owner, "PUT", "/api/documents/{doc}/visibility", True, **shared)


def _cited_by_another(
    run: Run, made: dict[str, list[tuple[str, str]]]
) -> tuple[Doc, str, str] | None:
    """A shared document, a user it is not theirs and a conversation of theirs citing it."""
    for user, conversations in made.items():
        for conversation, _ in conversations:
            text = run.call(user, "GET", "/api/threads/{thread}", thread=conversation).text
            for doc in run.world.docs:
                if doc.owner != user and doc.visibility != "private" and run.ids[doc.key] in text:
                    return doc, user, conversation
    return None


def _shown_turns(run: Run, user: str, thread: str) -> list[Any]:
    turns: list[Any] = run.call(user, "GET", "/api/threads/{thread}", thread=thread).json()["turns"]
    return turns


def _counts_match(run: Run, user: str) -> None:
    """Every thread the user's lists count (conversations, each visible document's threads)
    has as many turns as opening it shows."""
    listed = run.call(user, "GET", "/api/conversations").json()["conversations"]
    for doc in run.world.docs:
        if doc.key in run.world.visible(user):
            route = "/api/documents/{doc}/threads"
            listed += run.call(user, "GET", route, doc=run.ids[doc.key]).json()["threads"]
    for thread in listed:
        shown = len(_shown_turns(run, user, thread["id"]))
        if thread["turns"] != shown:
            run.leaks.append(
                f"{user} lists {thread['id']} with {thread['turns']} turns, shown {shown}"
            )


def _rate(run: Run, user: str, conversation: str, turn: str, rating: str = "up") -> Any:
    body = {
        "conversation_id": conversation,
        "turn_id": turn,
        "rating": rating,
        "reason": "wrong: it should say granite",
    }
    return run.call(user, "POST", "/api/feedback", json=body)


def check_collections(run: Run, user: str) -> None:
    """A collection is its owner's: listed, read (by id or name) by no one else."""
    listed = run.call(user, "GET", "/api/collections").json()["collections"]
    own = {run.collections[user]} if user in run.collections else set()
    if {c["id"] for c in listed} != own:
        run.leaks.append(f"{user} collections: {listed}")
    for other, collection in run.collections.items():
        for ref in (collection, f"repo-{other}"):
            run.expect(user, "GET", "/api/collections/{ref}", other == user, ref=ref)


def check_uploads(run: Run, user: str) -> None:
    """A resumable upload is its maker's: its state, offset, pieces and end are 404 to
    everyone else (who learns nothing of it), 2xx to its maker."""
    run.call(user, "OPTIONS", "/api/uploads", headers=TUS)
    made = run.call(user, "POST", "/api/uploads", headers={**TUS, "Upload-Length": "12"})
    upload = made.headers["Location"].rsplit("/", 1)[1]
    piece = {**TUS, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream"}
    for other in run.world.users:
        mine = other == user
        route = "/api/uploads/{upload_id}"
        run.expect(other, "HEAD", route, mine, upload_id=upload, headers=TUS)
        run.expect(other, "GET", route, mine, upload_id=upload, headers=TUS)
        if not mine:
            run.expect(
                other, "PATCH", route, False, upload_id=upload, headers=piece, content=b"0123"
            )
            run.expect(other, "DELETE", route, False, upload_id=upload, headers=TUS)
    run.expect(
        user,
        "PATCH",
        "/api/uploads/{upload_id}",
        True,
        upload_id=upload,
        headers=piece,
        content=b"0123",
    )
    run.expect(user, "DELETE", "/api/uploads/{upload_id}", True, upload_id=upload, headers=TUS)


def check_accounts(run: Run, user: str) -> None:
    """The session names the caller; a login is for the account's own orgs; a password
    change is the caller's own."""
    session = run.call(user, "GET", "/api/session").json()
    if session["user"] != user or set(session["orgs"]) != set(run.store.access_of(user).orgs):
        run.leaks.append(f"{user} session: {session}")
    login = run.call(user, "POST", "/api/login", json={"user": user, "password": PASSWORD})
    if login.status_code != 200 or login.json()["user"] != user:
        run.leaks.append(f"{user} login: {login.status_code}")
    same = {"password": PASSWORD, "new_password": PASSWORD}  # one's own, and only one's own
    run.expect(user, "POST", "/api/password", True, json=same)
    run.expect(user, "POST", "/api/logout", True)


ADMIN_READS = ("/admin", "/api/admin/users", "/api/admin/orgs", "/api/admin/feedback")


def check_admin(run: Run, admin: str) -> None:
    """The administrator reads every route of the admin page; anyone else gets 404 for
    each, and their writes change nothing. The administrator's feedback view shows no
    text, title, id or hash of a document hidden from the administrator."""
    for user in run.world.users:
        mine = user == admin
        for route in ADMIN_READS:
            run.expect(user, "GET", route, mine, scan=route != "/api/admin/feedback")
        run.expect(user, "GET", "/admin/{name:path}", mine, name="admin.js")
        if not mine:
            _admin_writes(run, user, expected=False)
    _admin_writes(run, admin, expected=True)
    view = run.call(admin, "GET", "/api/admin/feedback", scan=False)
    run.scan(admin, view, "admin feedback")
    if not view.json()["feedback"]:
        run.leaks.append("the administrator's feedback view is empty")


def _admin_writes(run: Run, user: str, *, expected: bool) -> None:
    """A user and an org made, a membership set and taken away, the user disabled."""
    member = {"org": PROBE_ORG, "user": PROBE_USER}
    run.expect(user, "POST", "/api/admin/users", expected, json={"user": PROBE_USER})
    run.expect(user, "POST", "/api/admin/orgs", expected, json={"org": PROBE_ORG, "parent": None})
    route = "/api/admin/orgs/{org}/members/{user}"
    run.expect(user, "PUT", route, expected, json={"role": "member"}, **member)
    run.expect(user, "DELETE", route, expected, **member)
    run.expect(
        user, "PATCH", "/api/admin/users/{user}", expected, user=PROBE_USER, json={"disabled": True}
    )


def check_removal(run: Run) -> None:
    """No one but its owner removes a document (each tries, then every owner removes
    one of theirs, which is then gone for everyone): last, as it changes the world."""
    for doc in run.world.docs:
        for user in run.world.users:
            if user != doc.owner:
                run.expect(user, "DELETE", "/api/documents/{doc}", False, doc=run.ids[doc.key])
    for doc in run.world.docs:
        if (
            run.call(doc.owner, "GET", "/api/documents/{doc}", doc=run.ids[doc.key]).status_code
            != 200
        ):
            run.leaks.append(f"{doc.key} was removed by someone")
    for user in run.world.users:
        last = [d for d in run.world.docs if d.owner == user][-1]
        run.expect(user, "DELETE", "/api/documents/{doc}", True, doc=run.ids[last.key])
