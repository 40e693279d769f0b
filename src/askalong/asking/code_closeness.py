"""How close in meaning each block of a repository is to a question: the cosine of the
question's vector to the stored vectors of the block's chunks (the library's embedder,
multilingual e5), a learned signal beside BM25's shared words. A reader asks in their
own words ("where does each namespace's colour come from", "switch namespaces on from
code"), which the code writes otherwise (``selectColor``, ``enable``).

Read through the search routes' vector route, restricted to the repository's files, so
the permission filter and the backend are the search's own. None when vectors are off
or any of the files has none yet: BM25 alone then chooses, as it would everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence

from askalong.context.code_places import Place
from askalong.index.base import SearchRoutes
from askalong.retrieve.search import MAX_EMBEDDED_QUERY_CHARS
from askalong.store.base import Store
from askalong.types import Access


def block_closeness(
    store: Store, routes: SearchRoutes, access: Access, places: Sequence[Place], question: str
) -> list[float] | None:
    """Each place's block's cosine to ``question`` (a block cut into several chunks: its
    closest chunk's); None without vectors for every file of ``places``."""
    vectors, embedder = routes.vectors, routes.embedder
    documents = {p.file.document_id for p in places}
    if vectors is None or embedder is None or not documents:
        return None
    scope = vectors.scope(access, documents)
    if scope.pending or not scope.ready:
        return None
    chunks = [c for d in sorted(documents) for c in store.chunks(d)]
    query = embedder.embed_query(question[:MAX_EMBEDDED_QUERY_CHARS])
    hits = vectors.search(query, scope, limit=len(chunks))
    cosine = {h.chunk_id: h.vector_score for h in hits if h.vector_score is not None}
    closest: dict[str, float] = {}
    for chunk in chunks:
        if chunk.id in cosine:
            for span in chunk.spans:
                closest[span.block_id] = max(closest.get(span.block_id, -1.0), cosine[chunk.id])
    if not closest:
        return None
    farthest = min(closest.values())  # a block no chunk holds: as far as any
    return [closest.get(p.block.id, farthest) for p in places]
