"""A route's hits kept as columns, so fusion reads them without a ``Hit`` per chunk.

A route finds ~150 chunks a query and fusion keeps a dozen. Building a ``Hit`` for each
found chunk and fusion reading each back into a (document, score, rank) tuple cost
~0.4 of a 3.4 CPU ms hybrid search at 10k chunks (issue 28). ``RouteHits`` is the
read-only sequence of ``Hit``s the route protocols return (``index/base.py``), held as
three lists; a ``Hit`` is made only where one is read (the title check's first ten, a
reranker, a follow-up's re-ordering, a test), and fusion takes the columns as they are
(``evidence``). The hits are ranked in list order: the first is rank 1.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Literal, overload

from askalong.types import Hit

Route = Literal["keyword", "vector"]
Evidence = tuple[str, float, int]  # one route's (document id, score, rank) for a chunk


class RouteHits(Sequence[Hit]):
    """The hits of one route, best first: ``chunk_ids[i]`` of ``document_ids[i]`` scored
    ``scores[i]`` at rank i + 1 (mode and that route's score and rank: the route's)."""

    __slots__ = ("chunk_ids", "document_ids", "route", "scores")

    def __init__(
        self, route: Route, chunk_ids: list[str], document_ids: list[str], scores: list[float]
    ) -> None:
        if not len(chunk_ids) == len(document_ids) == len(scores):
            raise ValueError("a route's hit columns differ in length")
        self.route = route
        self.chunk_ids, self.document_ids, self.scores = chunk_ids, document_ids, scores

    def __len__(self) -> int:
        return len(self.chunk_ids)

    @overload
    def __getitem__(self, at: int) -> Hit: ...

    @overload
    def __getitem__(self, at: slice) -> list[Hit]: ...

    def __getitem__(self, at: int | slice) -> Hit | list[Hit]:
        if isinstance(at, slice):
            return [self._hit(i) for i in range(len(self))[at]]
        return self._hit(range(len(self))[at])  # negative and out-of-range as a list's

    def __iter__(self) -> Iterator[Hit]:
        return (self._hit(i) for i in range(len(self)))

    def _hit(self, i: int) -> Hit:
        chunk_id, document_id, score = self.chunk_ids[i], self.document_ids[i], self.scores[i]
        if self.route == "keyword":
            return Hit(chunk_id, document_id, score, "keyword", score, i + 1)
        return Hit(chunk_id, document_id, score, "vector", None, None, score, i + 1)

    def __eq__(self, other: object) -> bool:
        # Equal to any sequence of the same hits, as the list it stands for.
        if isinstance(other, Sequence) and not isinstance(other, str | bytes):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable columns, like a list

    def __repr__(self) -> str:
        return f"RouteHits({list(self)!r})"

    def evidence(self) -> dict[str, Evidence]:
        """Chunk id -> (document id, score, rank), in rank order; a chunk listed twice
        keeps its first (what fusion reads of a route)."""
        ranks = range(1, len(self) + 1)
        columns = zip(self.document_ids, self.scores, ranks, strict=True)
        found = dict(zip(self.chunk_ids, columns, strict=True))
        if len(found) == len(self):
            return found
        first: dict[str, Evidence] = {}
        columns = zip(self.document_ids, self.scores, ranks, strict=True)
        for chunk_id, evidence in zip(self.chunk_ids, columns, strict=True):
            first.setdefault(chunk_id, evidence)
        return first
