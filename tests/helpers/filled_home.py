"""A home with something in every aggregate the store keeps, for the tests of moving it:
documents read and one queued (its job pending), accounts in an org and a sub-org made
after it, a thread with a turn, feedback, a collection."""

from __future__ import annotations

import wire_forms

from askalong.config import Settings
from askalong.ingest.inputs import Upload
from askalong.jobs.outbox import queue_upload
from askalong.library import Library
from askalong.types import Access
from askalong.values.threads import Turn

LOCAL = Access.local()
PASSWORD = "a long secret phrase 7"
QUEUED = 9  # the note that stays queued
# Tables a filled home holds rows of, so a copy is seen to carry each.
FILLED = (
    "documents",
    "blocks",
    "chunks",
    "users",
    "orgs",
    "memberships",
    "threads",
    "turns",
    "feedback",
    "collections",
    "collection_documents",
    "jobs",
    "document_access",
)


def note(i: int, paragraphs: int = 12) -> bytes:
    body = "\n\n".join(
        f"Paragraph {j} of note {i} about valves and pumps." for j in range(paragraphs)
    )
    return f"# Note {i}\n\n{body}\n".encode()


def fill(settings: Settings, documents: int = 6, paragraphs: int = 12) -> None:
    with Library(settings) as library:
        ids = []
        for i in range(documents):
            data = note(i, paragraphs)
            outcome = library.ingestor.add_upload(Upload(data, f"{i}.md", f"{i}.md"), LOCAL)
            assert outcome.document is not None
            ids.append(outcome.document.id)
        store = library.store
        queued = Upload(note(QUEUED), "q.md", "q.md")
        assert queue_upload(library.ingestor, store, queued, LOCAL).status == "queued"
        store.add_user("alice", PASSWORD)
        store.add_org("team")
        store.add_org("a-subteam", parent="team")  # its id sorts before its parent's
        store.set_member("team", "alice", "member")
        store.add_to_collection("notes", ids[:3], LOCAL)
        thread = wire_forms.thread()
        turn = Turn("u", thread.id, 0, "Why?", "ask", None, wire_forms.answer(), thread.created)
        store.save_turn(thread, turn)
        store.save_feedback(wire_forms.feedback())
