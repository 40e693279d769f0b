"""Indexing again what the keyword route lacks, a batch of documents per commit.

``StoreIndexes.sync`` calls this for the documents the store holds and the keyword route
lacks: one or two after a crash between steps, every document after a schema migration
(``keyword_schema.SCHEMA_VERSION``: an index of an older schema is opened empty, and the
store, the truth, refills it). A batch is one commit, so a rebuild stopped half way keeps
what it committed and the next ``sync`` goes on from there. ``progress`` hears (documents
done, documents in all) before the first batch and after each: the command line draws its
bar from it (``cli/progress.ReindexBar``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from askalong.index.base import KeywordRoute
from askalong.store.base import Store
from askalong.types import Document

REINDEX_BATCH = 500  # documents a commit (a commit costs ~0.1 s of syncing)

Progress = Callable[[int, int], None]  # (documents done, documents in all)


def reindex(
    store: Store,
    keyword: KeywordRoute,
    documents: Sequence[Document],
    *,
    batch: int = REINDEX_BATCH,
    progress: Progress | None = None,
) -> int:
    """Index ``documents`` (their chunks read from ``store``) into ``keyword``, ``batch``
    documents a commit; how many had chunks."""
    indexed = 0
    if progress is not None and documents:
        progress(0, len(documents))  # a bar shows before the first batch's commit
    for start in range(0, len(documents), batch):
        part = documents[start : start + batch]
        entries = [(d, chunks) for d in part if (chunks := store.chunks(d.id))]
        if entries:
            keyword.add_many(entries)
        indexed += len(entries)
        if progress is not None:
            progress(start + len(part), len(documents))
    return indexed
