"""Copying a home's chunk vectors (its memory-mapped ``VectorIndex``) into the target's
vector route, document by document: no chunk is embedded again. A document the target
route already holds is skipped, so a move cut off part-way goes on where it stopped; a
route stores each document's vectors whole (``VectorRoute.add``), never half of them."""

from __future__ import annotations

import numpy as np

from askalong.index.base import VectorRoute
from askalong.index.vectors import VectorIndex
from askalong.moving.rows import Progress
from askalong.moving.verify import Counted

VECTORS = "documents with vectors"


def copy_vectors(
    source: VectorIndex, target: VectorRoute, progress: Progress | None = None
) -> Counted:
    documents = sorted(source.document_ids())
    held = target.document_ids()
    for done, document_id in enumerate(documents, 1):
        if document_id not in held:
            keys = source.live_keys(document_id)  # chunk id -> content key
            found = source.vectors_for(keys.values())
            chunk_ids = list(keys)
            matrix = np.stack([found[keys[c]] for c in chunk_ids])
            target.add(document_id, chunk_ids, matrix, [keys[c] for c in chunk_ids])
        if progress is not None:
            progress(VECTORS, done, len(documents))
    return Counted(VECTORS, len(documents), len(set(documents) & target.document_ids()))
