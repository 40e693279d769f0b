"""The permission rule as one table: documents, callers, and exactly what each caller sees.

The rule (``types.Access``): a document is visible when it is public, owned by the
caller, or has visibility "org" and shares an org tag with the caller's orgs; the local
user sees everything. Every store query and search route that filters by ``Access`` runs
this one table (``test_permissions.py``), so the SQL, the tantivy clause and the vector
route's restriction cannot drift apart; a new backend joins the table, never copies it.

The documents are listed best match first: earlier ones say the query word more often
(BM25) and point closer to the query vector (cosine), so a route that filtered after
ranking would lose visible documents to hidden ones in its top places.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from askalong.types import Access, Block, BlockSpan, Chunk, Document, StoredDocument, Visibility


@dataclass(frozen=True)
class Entry:
    """One document's permission fields."""

    id: str
    owner: str
    visibility: Visibility
    org_tags: tuple[str, ...] = ()


# Org tags alone never open a private document (d1, d5).
DOCUMENTS: tuple[Entry, ...] = (
    Entry("d1-alice-private", "alice", "private", ("physics", "lab-7")),
    Entry("d2-alice-org", "alice", "org", ("physics", "lab-7")),
    Entry("d3-alice-public", "alice", "public", ("physics", "lab-7")),
    Entry("d4-bob-private", "bob", "private"),
    Entry("d5-bob-tagged-private", "bob", "private", ("lab", "physics")),
    Entry("d6-bob-org", "bob", "org", ("lab", "ops")),
    Entry("d7-carol-public", "carol", "public"),
    # Shared with an org but with no tag: only its owner sees it.
    Entry("d8-carol-org-untagged", "carol", "org"),
)

CALLERS: dict[str, Access] = {
    "owner alice": Access(user="alice"),
    "owner bob": Access(user="bob"),
    "owner carol, physics member": Access(user="carol", orgs=("physics",)),
    "physics member": Access(user="dave", orgs=("chemistry", "physics")),
    "ops member": Access(user="dave", orgs=("ops",)),
    "lab member (not lab-7)": Access(user="eve", orgs=("lab",)),
    "member of another org": Access(user="dave", orgs=("chemistry",)),
    "outsider": Access(user="eve"),
    "names like the fields' values": Access(user="public", orgs=("alice", "org", "private")),
    "local user": Access.local(),
}

_PUBLIC = frozenset({"d3-alice-public", "d7-carol-public"})

VISIBLE: dict[str, frozenset[str]] = {
    "owner alice": _PUBLIC | {"d1-alice-private", "d2-alice-org"},
    "owner bob": _PUBLIC | {"d4-bob-private", "d5-bob-tagged-private", "d6-bob-org"},
    "owner carol, physics member": _PUBLIC | {"d2-alice-org", "d8-carol-org-untagged"},
    "physics member": _PUBLIC | {"d2-alice-org"},
    "ops member": _PUBLIC | {"d6-bob-org"},
    "lab member (not lab-7)": _PUBLIC | {"d6-bob-org"},
    "member of another org": _PUBLIC,
    "outsider": _PUBLIC,
    "names like the fields' values": _PUBLIC,
    "local user": frozenset(entry.id for entry in DOCUMENTS),
}

# A restriction to named documents narrows what the rule lets through, never widens it.
NAMED = frozenset({"d2-alice-org", "d4-bob-private", "d6-bob-org", "d7-carol-public", "d9-none"})

QUERY = "zebra"


def text(entry: Entry) -> str:
    """The entry's one chunk: the query word once more for each document after it."""
    rank = DOCUMENTS.index(entry)
    return " ".join(["zebra"] * (len(DOCUMENTS) - rank) + ["crosses", "the", "river"])


def original(entry: Entry) -> bytes:
    return f"{entry.id}\n\n{text(entry)}".encode()


def document(entry: Entry) -> Document:
    data = original(entry)
    return Document(
        id=entry.id,
        content_hash=hashlib.sha256(data).hexdigest(),
        title=entry.id,
        source=f"{entry.id}.txt",
        format="text",
        language="en",
        page_count=1,
        size_bytes=len(data),
        created="2024-05-01T10:00:00Z",
        owner=entry.owner,
        visibility=entry.visibility,
        org_tags=entry.org_tags,
    )


def stored(entry: Entry) -> StoredDocument:
    body = text(entry)
    block = Block("b1", "paragraph", body, 0)
    chunk = Chunk(f"{entry.id}:c0", entry.id, 0, (BlockSpan("b1", 0, len(body)),), body)
    return StoredDocument(document(entry), (block,), (chunk,))
