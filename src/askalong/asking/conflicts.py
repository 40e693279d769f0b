"""Which citations of an answer contradict each other: the known conflict pairs (the
contradiction scan's, ``maintain/conflict_scan``) both of whose chunks the answer cites.

One call where an answer is assembled (the ask path and the chat agent's final result),
so the reader shows both sides with a notice instead of silently picking one. The pairs
are read with the asker's ``Access``: a pair shows only when the asker may see both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from askalong.store.conflicts import ConflictStore
from askalong.types import Access, ConflictNotice
from askalong.values.conflicts import ConflictPair, ConflictSide


class Cited(Protocol):
    """A numbered citation of a block span: a ``Quote``, a chat ``ChatSource``."""

    @property
    def number(self) -> int: ...
    @property
    def document_id(self) -> str: ...
    @property
    def block_id(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...


def conflicts_among(
    store: ConflictStore, sources: Sequence[Cited], access: Access
) -> tuple[ConflictNotice, ...]:
    """The known conflicts between the answer's cited ``sources``."""
    documents = sorted({s.document_id for s in sources})
    if len(documents) < 2:  # a pair is always across documents
        return ()
    cited = set(documents)
    pairs = [
        pair
        for pair in store.conflict_pairs(access, documents)
        if pair.first.document_id in cited and pair.second.document_id in cited
    ]
    return notices_for(pairs, sources)


def notices_for(
    pairs: Sequence[ConflictPair], sources: Sequence[Cited]
) -> tuple[ConflictNotice, ...]:
    """One notice per pair of citation numbers whose chunks a pair joins (pure)."""
    notices: dict[tuple[int, int], ConflictNotice] = {}
    for pair in pairs:
        first, second = _citing(pair.first, sources), _citing(pair.second, sources)
        if first is None or second is None or first == second:
            continue
        a, b = (pair.first, pair.second) if first < second else (pair.second, pair.first)
        numbers = (min(first, second), max(first, second))
        notices.setdefault(numbers, ConflictNotice(*numbers, pair.kind, a.tokens, b.tokens))
    return tuple(notices[key] for key in sorted(notices))


def _citing(side: ConflictSide, sources: Sequence[Cited]) -> int | None:
    """The lowest citation number that quotes the side's chunk."""
    numbers = [
        s.number for s in sources if side.cited_by(s.document_id, s.block_id, s.start, s.end)
    ]
    return min(numbers) if numbers else None
