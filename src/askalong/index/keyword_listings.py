"""The documents each caller may see, listed from the keyword index once per commit.

Listing the visible documents (``terms_with_prefix`` under the permission query) costs
~10 ms at 10k documents and grows with the library; the vector route needs it on every
search (issue 28: 19 of a hybrid search's 27 CPU ms at 100k chunks). Nothing in the
listing can change without a commit, and every commit (a visibility change, an add, a
delete, a merge, by this process or another) rewrites tantivy's ``meta.json`` with a new
opstamp. So a listing is kept per access key for as long as ``meta.json``'s bytes stay
the same, and the first search after any commit lists again.

The index reads the generation before and after reloading its searcher and remembers a
listing only when the two agree (opstamps only grow, so equal bytes mean nothing was
committed in between): a remembered listing is always exactly what that searcher sees.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

# Distinct callers remembered (an access key is a caller's sorted tokens).
LISTINGS_KEPT = 64

AccessKey = tuple[str, ...] | None  # None: every document (local access)


class VisibleListings:
    """Visible-document listings per access key, valid for one index generation."""

    def __init__(self, folder: Path, *, kept: int = LISTINGS_KEPT) -> None:
        self._meta = folder / "meta.json"
        self._kept = kept
        self._generation: bytes | None = None
        self._listings: OrderedDict[AccessKey, frozenset[str]] = OrderedDict()
        self._lock = threading.Lock()

    def generation(self) -> bytes | None:
        """The index's commit generation now (``meta.json``'s bytes); None when unreadable,
        which lists afresh every time."""
        try:
            return self._meta.read_bytes()
        except OSError:
            return None

    def kept(self, generation: bytes | None, key: AccessKey) -> frozenset[str] | None:
        """The listing for ``key`` remembered at ``generation``, or None: a caller who
        only needs the listing reads it with no searcher at all."""
        with self._lock:
            if generation is None or generation != self._generation:
                return None
            return self._listings.get(key)

    def listed(
        self, generation: bytes | None, key: AccessKey, listing: Callable[[], frozenset[str]]
    ) -> frozenset[str]:
        """The listing for ``key`` at ``generation``: remembered, or made by ``listing``
        (on a searcher reloaded after ``generation`` was read)."""
        if generation is None:
            return listing()
        with self._lock:
            if generation != self._generation:
                self._generation, self._listings = generation, OrderedDict()
            kept = self._listings.get(key)
            if kept is not None:
                self._listings.move_to_end(key)
                return kept
        made = listing()
        with self._lock:
            if generation == self._generation:
                self._listings[key] = made
                while len(self._listings) > self._kept:
                    self._listings.popitem(last=False)
        return made
