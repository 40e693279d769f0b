"""The code symbols' protocol: definitions looked up by name, one of the aggregates
``Store`` joins (``askalong.store.base``).

A source file's blocks are its definitions, each with its qualified name as section path
(``parse/code``), so the index is over the blocks already stored: nothing more is written
when a document is added, replaced or deleted.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from askalong.types import Access
from askalong.values.symbols import Definition


class SymbolStore(Protocol):
    """What a question naming an identifier reads first: where it is defined, found by an
    index in one query, never by reading every code document's blocks."""

    def definitions(self, names: Iterable[str], access: Access) -> tuple[Definition, ...]:
        """The definitions named one of ``names`` (a qualified name's last part) in the code
        documents ``access`` may see, by document then reading order."""
        ...

    def only_code(self, access: Access) -> bool:
        """Whether ``access`` may see documents and all of them are source files."""
        ...
