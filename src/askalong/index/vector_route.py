"""The local vector route: the memory-mapped ``VectorIndex`` seen through the permission
fields the keyword route keeps.

The vector index holds chunk and document ids only. Rather than a third copy of every
document's owner, visibility and org tags (beside the store's and the keyword index's),
the route asks the keyword route which documents a caller may see and scores only their
rows. One local copy of the permission fields beside the store's means one place to
update when a document's visibility changes, and a document missing from the keyword
index (a crash between steps, until ``sync``) is hidden from both routes alike.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy.typing as npt

from askalong.index.base import KeywordRoute, VectorScope
from askalong.index.vectors import VectorIndex
from askalong.types import Access, Hit


class VectorIndexRoute:
    """``VectorRoute`` over a local ``VectorIndex``, permissions read from ``keyword``."""

    def __init__(self, index: VectorIndex, keyword: KeywordRoute) -> None:
        self.index = index
        self._keyword = keyword

    def scope(self, access: Access, documents: Collection[str] | None = None) -> VectorScope:
        # One permission listing per search: it costs ~10 ms at 10k documents, a few
        # microseconds per document when the caller names them.
        visible = self._keyword.document_ids(access, among=documents)
        ready = visible & self.index.document_ids()
        return VectorScope(frozenset(ready), frozenset(visible - ready))

    def search(self, vector: npt.ArrayLike, scope: VectorScope, *, limit: int = 150) -> list[Hit]:
        return self.index.search(vector, allowed_document_ids=scope.ready, limit=limit)

    def document_ids(self) -> set[str]:
        return self.index.document_ids()

    def add(
        self,
        document_id: str,
        chunk_ids: Sequence[str],
        vectors: npt.ArrayLike,
        keys: Sequence[str] | None = None,
    ) -> None:
        self.index.add(document_id, chunk_ids, vectors, keys)

    def delete(self, document_id: str) -> None:
        self.index.delete(document_id)

    def close(self) -> None:
        self.index.close()
