"""Everything one ``ASKALONG_HOME`` holds, opened together: the store, the search
indexes beside it, the searcher and the ingestor. The CLI and the server each open one.

The search routes live where ``search_routes`` says (``index/choose.py``): with a
PostgreSQL store, by default in its database, shared by every app server and worker."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from askalong.config import Settings, load_settings
from askalong.errors import AskAlongError, IndexUnreadable, InputError
from askalong.index.choose import open_indexes, scan_neighbours
from askalong.index.reindex import Progress
from askalong.providers.choose import make_embedder, make_reranker
from askalong.retrieve.search import Searcher
from askalong.store.backends import open_store
from askalong.types import Access, Document, Visibility
from askalong.values.collections import Collection
from askalong.wakeups import JobWakeups

if TYPE_CHECKING:  # loaded on first use: a question never parses (issue 28: ~0.1 CPU-s a call)
    from askalong.ingest.pages import PageReading
    from askalong.ingest.pipeline import Ingestor
    from askalong.maintain.conflict_scan import ConflictScanner

_Member = TypeVar("_Member")


class Library:
    def __init__(self, settings: Settings, reindexing: Progress | None = None) -> None:
        """``reindexing`` hears how far opening got when the keyword index is rebuilt from
        the store (after a schema migration: ``index/reindex.py``)."""
        self.settings = settings
        # The home holds the server's presence file and caches even when nothing else of
        # the library lives in it (server mode: the store and the search in PostgreSQL).
        settings.home.mkdir(parents=True, exist_ok=True)
        self.store = open_store(settings)
        self.indexes = open_indexes(settings, self.store, lambda: make_embedder(settings))
        # An unreadable index must not stop what only the store serves (listing, showing):
        # searches raise the same error, naming the repair, when they reach the index.
        with contextlib.suppress(IndexUnreadable):
            self.indexes.sync(progress=reindexing)
        self.searcher = Searcher(self.store, self.indexes, reranker=make_reranker(settings))
        self.indexes.after_embedding.append(self._scan_conflicts)
        self._ingestor: Ingestor | None = None
        self._pages: PageReading | None = None
        # Queueing a job announces it to idle workers elsewhere (ASKALONG_REDIS_URL).
        self.wakeups = JobWakeups(settings.redis_url)

    @property
    def ingestor(self) -> Ingestor:
        """The ingestor, made on first use (it starts the guarded parser process)."""
        if self._ingestor is None:
            from askalong.ingest.pipeline import Ingestor

            self._ingestor = Ingestor(self.settings, self.store, self.indexes)
        return self._ingestor

    @property
    def pages(self) -> PageReading:
        """Reading unread scanned pages now, made on first use (it starts its own child)."""
        if self._pages is None:
            from askalong.ingest.pages import PageReading

            self._pages = PageReading(self.settings, self.store, self.indexes)
        return self._pages

    @property
    def conflicts(self) -> ConflictScanner | None:
        """The contradiction scan over the current vectors, wherever they are (the home's
        files or PostgreSQL); None when embeddings are off."""
        from askalong.maintain.conflict_scan import ConflictScanner

        neighbours = scan_neighbours(self.indexes.vectors)
        return None if neighbours is None else ConflictScanner(self.store, neighbours)

    def _scan_conflicts(self, document: Document) -> None:
        """A document just given vectors, checked against the rest (ingestion's last step).
        A failed scan leaves the document unscanned: ``askalong conflicts`` does it then."""
        scanner = self.conflicts
        if scanner is not None:
            with contextlib.suppress(AskAlongError):
                scanner.scan(document.id)

    def remove(self, document_id: str, access: Access) -> None:
        self.store.delete_document(document_id, access)
        # The store's delete is done; an unreadable index is rebuilt from the store by
        # ``doctor --repair``, which leaves this document out.
        with contextlib.suppress(IndexUnreadable):
            self.indexes.remove(document_id)

    def set_visibility(self, document_id: str, visibility: Visibility, access: Access) -> Document:
        """Change who may see the document, in the store and in the keyword index's copy of
        its permission fields; only its owner or ``access.everything`` may.

        The index entries go first and come back after the store's change (or unchanged if
        it fails): a crash in between leaves the document missing from the index, which
        ``sync`` restores from the store, and never an index that shows it to the wrong users.
        Tantivy cannot change a field in place, so the chunks are indexed again (tokenised
        anew: seconds for a manual, fine for an owner's occasional change).
        """
        document = self.store.get_document(document_id, access)
        chunks = self.store.chunks(document.id)
        self.indexes.keyword.delete(document.id)
        try:
            document = self.store.set_visibility(document.id, visibility, access)
        finally:
            self.indexes.keyword.add(document, chunks)
        return document

    def collection(self, ref: str, access: Access) -> tuple[Collection, list[Document]]:
        """The collection (id or name) and the members ``access`` may see, resolved once at
        the edge: asking it is asking those documents. An empty one is an error here,
        since no documents named means every document."""
        collection = self.store.get_collection(ref, access)
        return collection, _some(self.store.collection_documents(collection.id, access), ref)

    def collection_ids(self, ref: str, access: Access) -> list[str]:
        """The ids of ``collection``'s members: what searching it needs (a tenth the cost)."""
        collection = self.store.get_collection(ref, access)
        return _some(self.store.collection_document_ids(collection.id, access), ref)

    def remove_collection(
        self, collection: Collection, access: Access, *, with_documents: bool = False
    ) -> list[Document]:
        """Remove the collection; with ``with_documents`` also its members (those
        ``access`` may delete: a member it may only read stays). Returns those removed."""
        members = self.store.collection_documents(collection.id, access)
        self.store.delete_collection(collection.id, access)
        removed = []
        for document in members if with_documents else []:
            if access.everything or document.owner == access.user:
                self.remove(document.id, access)
                removed.append(document)
        return removed

    def close(self) -> None:
        # The conflict hook is a bound method: dropping it breaks the cycle through the
        # indexes, so a closed library's keyword index (and tantivy's mmaps of its files) goes
        # at once, not at the next garbage collection (a later open in the same process would
        # share a stale mapping of files rewritten meanwhile: SIGBUS).
        self.indexes.after_embedding.clear()
        if self._ingestor is not None:
            self._ingestor.close()
        if self._pages is not None:
            self._pages.close()
        self.indexes.close()
        self.store.close()
        self.wakeups.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def _some(members: list[_Member], ref: str) -> list[_Member]:
    if not members:
        raise InputError("the collection has no documents you may see", source=ref)
    return members


@contextmanager
def opened_library(reindexing: Progress | None = None, **overrides: Any) -> Iterator[Library]:
    """The library of the settings in force (``ASKALONG_HOME``, config file, environment),
    with ``overrides`` (a command's options; None: not given); ``reindexing``: as
    ``Library``'s."""
    with Library(load_settings(**overrides), reindexing) as library:
        yield library
