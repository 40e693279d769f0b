"""The local vector route: the memory-mapped ``VectorIndex`` seen through the permission
fields the keyword route keeps.

The vector index holds chunk and document ids only. Rather than a third copy of every
document's owner, visibility and org tags (beside the store's and the keyword index's),
the route asks the keyword route which documents a caller may see and scores only their
rows. One local copy of the permission fields beside the store's means one place to
update when a document's visibility changes, and a document missing from the keyword
index (a crash between steps, until ``sync``) is hidden from both routes alike.

The keyword route hands back the same listing object until its next commit
(``keyword_listings``) and the vector index the same set of documents with vectors until
its rows change, so a scope is worked out once per pair of them and reused: at 100k
documents the set arithmetic alone costs milliseconds per search.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Collection, Sequence, Set

import numpy.typing as npt

from askalong.index.base import KeywordRoute, VectorScope
from askalong.index.vectors import VectorIndex
from askalong.types import Access, Hit

SCOPES_KEPT = 64  # scopes remembered: one per caller while nothing changes


class VectorIndexRoute:
    """``VectorRoute`` over a local ``VectorIndex``, permissions read from ``keyword``."""

    def __init__(self, index: VectorIndex, keyword: KeywordRoute) -> None:
        self.index = index
        self._keyword = keyword
        # id of a listing -> (the listing, the documents with vectors, their scope); the
        # entry holds both objects, so their ids cannot be reused while it is kept.
        self._scopes: OrderedDict[int, tuple[Set[str], frozenset[str], VectorScope]] = OrderedDict()
        self._lock = threading.Lock()

    def scope(self, access: Access, documents: Collection[str] | None = None) -> VectorScope:
        visible = self._keyword.document_ids(access, among=documents)
        embedded = self.index.live_documents()
        with self._lock:
            kept = self._scopes.get(id(visible))
        if kept is not None and kept[0] is visible and kept[1] is embedded:
            return kept[2]
        ready = frozenset(visible & embedded)
        scope = VectorScope(ready, frozenset(visible - ready))
        if documents is None:  # a listing the keyword route remembers: worth keeping too
            with self._lock:
                self._scopes[id(visible)] = (visible, embedded, scope)
                while len(self._scopes) > SCOPES_KEPT:
                    self._scopes.popitem(last=False)
        return scope

    def search(
        self, vector: npt.ArrayLike, scope: VectorScope, *, limit: int = 150
    ) -> Sequence[Hit]:
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
