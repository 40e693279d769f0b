"""What a move is checked by: for each thing moved (a table, the originals, the documents
with vectors), how many the home holds and how many the target does."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Counted:
    """What the home holds of ``what`` (a table, the originals) and what the target does."""

    what: str
    source: int
    target: int

    @property
    def equal(self) -> bool:
        return self.source == self.target


@dataclass(frozen=True)
class MoveReport:
    counts: tuple[Counted, ...]

    @property
    def verified(self) -> bool:
        return all(c.equal for c in self.counts)

    @property
    def differing(self) -> tuple[Counted, ...]:
        return tuple(c for c in self.counts if not c.equal)
