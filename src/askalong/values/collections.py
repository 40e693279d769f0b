"""A collection: a named set of documents asked as one, kept by the store
(``CollectionStore``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Collection:
    """A named set of documents asked as one (a folder or a manual added together).

    Private to its owner, like a thread; ``documents`` and ``chunks`` count only the
    members the reader may see, so a collection never tells of a hidden document."""

    id: str
    owner: str
    name: str  # unique per owner
    created: str
    documents: int = 0
    chunks: int = 0
