"""The chunk and document ids of keyword hits, read from fast fields, not stored documents.

A search names its ~150 hits; reading each one's stored document for its ids cost
~1.8 us a hit, a tenth of the routes' own work at 10k chunks (issue 28), while the
fast fields of ``index/keyword_schema.py`` read a whole batch in a few microseconds.
A hit's document is its ``document_number``, looked up in a table of number -> id
filled from the index's own list of document ids (the terms of its ``document_id``
field, a millisecond at 1k documents) and listed again only when a hit names a number
the table lacks and the index changed since. Its chunk id is rebuilt from the document
id and ``chunk_order``. A hit whose number two ids share, whose document is still
unknown (a commit raced the listing) or whose chunk id has another form is named from
its stored document, as before.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import tantivy

from askalong.index.keyword_schema import (
    CHUNK_ID,
    CHUNK_ORDER,
    DOCUMENT_ID,
    DOCUMENT_NUMBER,
    NO_ORDER,
    chunk_id,
    id_number,
)

Named = tuple[str, str]  # (chunk id, document id)
Columns = tuple[list[str], list[str]]  # (chunk ids, document ids)


class HitIds:
    """Names hits by their fast fields; the number -> document id table it keeps."""

    def __init__(self) -> None:
        # number -> id; None where two ids share the number (read those from storage).
        self._ids: dict[int, str | None] = {}
        self._listed: bytes | None = None  # the commit generation listed last
        self._lock = threading.Lock()

    def named(
        self,
        searcher: tantivy.Searcher,
        generation: bytes | None,
        addresses: Sequence[tantivy.DocAddress],
    ) -> Columns:
        """The chunk ids and the document ids of the hits at ``addresses``, in their
        order; ``generation``: the commit the searcher holds (None: unknown)."""
        if not addresses:
            return [], []
        numbers = searcher.fast_field_values(DOCUMENT_NUMBER, list(addresses))
        orders = searcher.fast_field_values(CHUNK_ORDER, list(addresses))
        ids = self._ids
        changed = generation is None or generation != self._listed
        if changed and any(n not in ids for n in numbers):
            self._list(searcher, generation)
        chunks: list[str] = []
        documents: list[str] = []
        for address, number, order in zip(addresses, numbers, orders, strict=True):
            # Both are u64 columns: ints, or None for a segment without them.
            document = ids.get(number) if isinstance(number, int) else None
            if document is None or not isinstance(order, int) or order == NO_ORDER:
                chunk, document = stored_ids(searcher, address)
            else:
                chunk = chunk_id(document, order)
            chunks.append(chunk)
            documents.append(document)
        return chunks, documents

    def _list(self, searcher: tantivy.Searcher, generation: bytes | None) -> None:
        """Every document id the searcher's index holds, into the table."""
        with self._lock:
            for document, _ in searcher.terms_with_prefix(DOCUMENT_ID, ""):
                number = id_number(document)
                known = self._ids.setdefault(number, document)
                if known != document:
                    self._ids[number] = None
            self._listed = generation


def stored_ids(searcher: tantivy.Searcher, address: tantivy.DocAddress) -> Named:
    """(chunk id, document id) read from the hit's stored document."""
    stored = searcher.doc(address)
    return str(stored.get_first(CHUNK_ID)), str(stored.get_first(DOCUMENT_ID))
