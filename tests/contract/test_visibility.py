"""Who owns and who sees a document, through the store and through search at once.

The store and the keyword index each hold a document's owner and visibility (search
filters inside its own query), so every change must reach both: these tests look through
both doors after each step, on a real library (SQLite store, tantivy index, parser).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

import pytest

from askalong.config import Settings
from askalong.errors import InputError, NotFound
from askalong.ingest.inputs import Upload
from askalong.library import Library
from askalong.types import Access, Document, Visibility

ALICE = Access(user="alice")
BOB = Access(user="bob")
NOTES = "# Tides\n\nTides follow the Moon; spring tides come when the Sun lines up with it.\n"
QUERY = "spring tides"


@pytest.fixture
def library(settings: Settings) -> Iterator[Library]:
    with Library(settings) as opened:
        yield opened


def added(library: Library, access: Access, visibility: Visibility | None = None) -> Document:
    upload = Upload(NOTES.encode(), source="tides.md", name="tides.md")
    outcome = library.ingestor.add_upload(upload, access, visibility=visibility)
    assert outcome.status == "added" and outcome.document is not None, outcome.error
    return outcome.document


def seen_by_store(library: Library, access: Access) -> set[str]:
    return {d.id for d in library.store.list_documents(access)}


def seen_by_search(library: Library, access: Access) -> set[str]:
    """The documents of the hits search gives ``access`` (and those it may search at all,
    which is what the vector route is restricted to)."""
    hits = {hit.document_id for hit in library.searcher.search(QUERY, access).hits}
    assert hits == library.indexes.keyword.document_ids(access)
    return hits


def seen(library: Library, access: Access) -> tuple[set[str], set[str]]:
    return seen_by_store(library, access), seen_by_search(library, access)


def test_the_caller_owns_what_it_adds(library: Library) -> None:
    document = added(library, ALICE)
    assert document.owner == "alice" and document.visibility == "private"
    assert library.store.get_document(document.id, ALICE) == document
    assert seen(library, ALICE) == ({document.id}, {document.id})
    assert seen(library, BOB) == (set(), set())


def test_the_local_user_owns_by_default_and_visibility_can_be_chosen(library: Library) -> None:
    document = added(library, Access.local(), visibility="public")
    assert document.owner == "local" and document.visibility == "public"
    assert seen(library, BOB) == ({document.id}, {document.id})


@pytest.mark.parametrize(
    ("start", "change", "bob_sees"),
    [("private", "public", True), ("public", "private", False), ("org", "public", True)],
)
def test_a_change_of_visibility_reaches_store_and_search_together(
    library: Library, start: Visibility, change: Visibility, bob_sees: bool
) -> None:
    document = added(library, ALICE, visibility=start)
    changed = library.set_visibility(document.id[:6], change, ALICE)
    assert changed.visibility == change and changed.owner == "alice"
    assert library.store.get_document(document.id, ALICE) == changed
    expected = {document.id} if bob_sees else set()
    assert seen(library, BOB) == (expected, expected)
    assert seen(library, ALICE) == ({document.id}, {document.id})


def test_only_the_owner_may_change_visibility(library: Library) -> None:
    document = added(library, ALICE, visibility="public")
    with pytest.raises(NotFound):
        library.set_visibility(document.id, "private", BOB)
    with pytest.raises(InputError):
        library.set_visibility(document.id, cast(Visibility, "secret"), ALICE)
    assert library.store.get_document(document.id, BOB).visibility == "public"
    assert seen(library, BOB) == ({document.id}, {document.id})  # the index is as it was
    assert library.set_visibility(document.id, "private", Access.local()).visibility == "private"
    assert seen(library, BOB) == (set(), set())


def test_a_crash_between_store_and_index_is_repaired_on_opening(settings: Settings) -> None:
    """What a crash after the store's change leaves (the index entries gone, the store
    changed): the next library to open indexes the document again, as the store has it."""
    with Library(settings) as library:
        document = added(library, ALICE)
        library.indexes.keyword.delete(document.id)
        library.store.set_visibility(document.id, "public", ALICE)
    with Library(settings) as reopened:
        assert seen(reopened, BOB) == ({document.id}, {document.id})
