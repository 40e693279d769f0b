"""One answer's sources, numbered across every search it made (pure).

A chunk keeps the number it first got; a unit whose chunks are all new gets the next
number after the highest, so the second search's new passages continue where the first
stopped (#1-#5, then #6-#10). A parallel batch is registered in call order, after the
batch, so the numbers never depend on which search finished first.

Each source keeps the search hits of its chunks (route scores and ranks), so the stored
answer freezes them as an ``ask`` answer does (``feedback/judged``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from askalong.context.units import ContextUnit
from askalong.types import Hit


@dataclass(frozen=True)
class Source:
    """Source ``number``: a passage (context unit) of document ``title``, with the hits
    of its chunks in rank order (none for a unit no search found: an anchor, a
    cross-reference)."""

    number: int
    unit: ContextUnit
    title: str
    hits: tuple[Hit, ...] = ()

    @property
    def page(self) -> int | None:
        return self.unit.page_start


class SourceRegistry:
    """The numbered sources of one answer, in the order they were first seen."""

    def __init__(self) -> None:
        self._by_chunk: dict[str, int] = {}
        self._sources: dict[int, Source] = {}

    def register(
        self,
        units: Sequence[ContextUnit],
        titles: Mapping[str, str],
        hits: Sequence[Hit] = (),
    ) -> tuple[Source, ...]:
        """The sources of ``units`` in their order: a unit holding a chunk seen before is
        that chunk's source; any other gets the next number, and the ``hits`` (the
        search's) of its chunks."""
        return tuple(
            self._register_one(unit, titles.get(unit.document_id, ""), hits) for unit in units
        )

    def register_batch(
        self, batch: Sequence[tuple[Sequence[ContextUnit], Mapping[str, str]]]
    ) -> tuple[tuple[Source, ...], ...]:
        """Several searches' units, registered in call order (``batch``'s order)."""
        return tuple(self.register(units, titles) for units, titles in batch)

    def _register_one(self, unit: ContextUnit, title: str, hits: Sequence[Hit]) -> Source:
        keys = unit.chunk_ids or (_span_key(unit),)
        known = next((self._by_chunk[k] for k in keys if k in self._by_chunk), None)
        number = known if known is not None else len(self._sources) + 1
        for key in keys:
            self._by_chunk.setdefault(key, number)
        if known is None:
            chunks = set(unit.chunk_ids)
            own = tuple(h for h in hits if h.chunk_id in chunks)
            self._sources[number] = Source(number, unit, title, own)
        return self._sources[number]

    def get(self, number: int) -> Source | None:
        return self._sources.get(number)

    @property
    def sources(self) -> tuple[Source, ...]:
        return tuple(self._sources.values())

    @property
    def hits(self) -> tuple[Hit, ...]:
        """Every source's hits, by source number: what the answer's searches found."""
        return tuple(h for s in self._sources.values() for h in s.hits)

    @property
    def highest(self) -> int:
        return len(self._sources)


def _span_key(unit: ContextUnit) -> str:
    """A unit without chunks (an anchor, a cross-reference) is known by its first span."""
    span = unit.spans[0] if unit.spans else None
    where = f"{span.block_id}:{span.start}" if span else ""
    return f"{unit.document_id}#{where}"
