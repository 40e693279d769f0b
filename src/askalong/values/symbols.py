"""A definition in the store's code (pure): which block of which source file defines a
name (``store.symbols``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Definition:
    """The block ``block_id`` of the code document ``document_id`` defines ``qualname``
    (``("Lock", "acquire")``), whose last part is the name it is looked up by."""

    document_id: str
    block_id: str
    qualname: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.qualname[-1]
