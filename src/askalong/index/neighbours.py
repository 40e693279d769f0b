"""Each of a document's chunks' nearest chunks of other documents, by cosine: what the
contradiction scan (``maintain/conflict_scan``) then compares by text.

``Neighbours`` is the question, asked of whichever route holds the vectors:
``IndexNeighbours`` over the local ``VectorIndex`` (one matrix product with the stored
rows), ``PostgresNeighbours`` (``index/pg_neighbours.py``) in the server's database.
``index/choose.scan_neighbours`` picks one for the routes open.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from askalong.index.vector_rows import FloatArray
from askalong.index.vectors import VectorIndex

_BLOCK_ROWS = 256  # query rows per matrix product: bounds the score matrix's memory


@dataclass(frozen=True)
class Neighbour:
    own: str  # chunk id of the scanned document
    other: str  # chunk id of another document
    cosine: float


@dataclass(frozen=True)
class Nearby:
    """The scanned chunks that have a searchable vector, and their neighbours."""

    with_vectors: frozenset[str]
    neighbours: tuple[Neighbour, ...]


class Neighbours(Protocol):
    def near(
        self, document_id: str, chunk_ids: Collection[str], *, min_cosine: float, limit: int
    ) -> Nearby:
        """For each of ``chunk_ids`` (chunks of ``document_id``) with a searchable vector,
        its ``limit`` nearest searchable chunks of other documents at ``min_cosine`` or
        more."""
        ...


class IndexNeighbours:
    """``Neighbours`` over the local ``VectorIndex``: one matrix product with its rows."""

    def __init__(self, index: VectorIndex) -> None:
        self.index = index

    def near(
        self, document_id: str, chunk_ids: Collection[str], *, min_cosine: float, limit: int
    ) -> Nearby:
        rows = self.index.snapshot()
        wanted = set(chunk_ids)
        mine = np.flatnonzero(rows.rows_of(document_id) & rows.alive)
        own = {rows.chunk_ids[r]: int(r) for r in mine if rows.chunk_ids[r] in wanted}
        allowed = rows.alive & ~rows.rows_of(document_id)
        if not own or not allowed.any():
            return Nearby(frozenset(own), ())
        found = nearest(
            list(own),
            np.asarray(rows.matrix[list(own.values())]),
            rows.chunk_ids,
            np.asarray(rows.matrix),
            allowed,
            min_cosine=min_cosine,
            limit=limit,
        )
        return Nearby(frozenset(own), tuple(found))


def nearest(
    own_ids: Sequence[str],
    own: FloatArray,
    other_ids: Sequence[str],
    others: FloatArray,
    allowed: npt.NDArray[np.bool_] | None = None,
    *,
    min_cosine: float,
    limit: int,
) -> Iterator[Neighbour]:
    """Exactly, each row of ``own``'s ``limit`` nearest rows of ``others`` (only the
    ``allowed`` ones, when given) at ``min_cosine`` or more; rows are unit vectors."""
    for at in range(0, len(own_ids), _BLOCK_ROWS):
        scores = own[at : at + _BLOCK_ROWS] @ others.T
        if allowed is not None:
            scores[:, ~allowed] = -1.0
        for chunk_id, line in zip(own_ids[at : at + _BLOCK_ROWS], scores, strict=True):
            close = np.flatnonzero(line >= min_cosine)
            if close.size > limit:
                close = close[np.argsort(-line[close], kind="stable")[:limit]]
            for row in close:
                yield Neighbour(chunk_id, other_ids[int(row)], float(line[row]))
