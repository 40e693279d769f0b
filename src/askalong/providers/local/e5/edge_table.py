"""The tokenizer's edges (every piece and every proper prefix of one -> its id), kept on disk
so that a start need not load them.

Built, the edges are a 505k-entry dict (~1 CPU-s); read back whole from a cache, still
~0.3 CPU-s at every start, most of what a one-question ``askalong ask`` spends on its
tokenizer (issue 28). A question needs a few hundred lookups, so a start reads a text's
edges from an SQLite table in the cache folder (nothing loaded up front), level by level:
every one-character run of the text first, then each run found one character longer, one
query a level. Those are the runs the tokenizer's walk looks up, ~1 ms a sentence against
~8 when each was its own query. Only text enough to pay for it (``BULK_CHARACTERS``:
embedding passages) loads the whole dict, once. The file is written whole under a
temporary name and renamed, so a crash leaves no half table; one that cannot be read, or a
folder that cannot be written, only means the dict is built in memory, as before.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

EDGES_FILE = "tokenizer-edges-1.sqlite3"  # bump the number when the table's layout changes
# Characters tokenised through the file before the whole dict is loaded (~300 ms): set when
# a lookup was a query (~15 us a character); a text at a time costs ~5, so it is early now.
BULK_CHARACTERS = 20_000
QUERY_PARAMETERS = 999  # per query: SQLite's oldest limit on bound parameters

Lookup = Callable[[str], "int | None"]


class EdgeTable:
    """``lookup(text)``: the edge lookup for ``text``'s runs; ``longest``: the longest
    edge's length."""

    def __init__(self, cache: Path | None, build: Callable[[], dict[str, int]]) -> None:
        """``cache``: the model's cache folder (None: build in memory); ``build``: the
        edges from the vocabulary, when no readable table is there."""
        self._lock = threading.Lock()
        self._edges: dict[str, int] | None = None
        self._read = 0  # characters tokenised through the file
        self._db = _opened(cache / EDGES_FILE) if cache is not None else None
        if self._db is None:
            self._edges = build()
            if cache is not None:
                _write(cache / EDGES_FILE, self._edges)
            self.longest = max(map(len, self._edges), default=1)
        else:
            self.longest = _longest(self._db)

    def lookup(self, text: str) -> Lookup:
        """The lookup for ``text``'s runs: the dict's once loaded (or once this text
        brings the file's use past ``BULK_CHARACTERS``), else ``text``'s edges read now."""
        if self._edges is not None:
            return self._edges.get
        with self._lock:
            self._read += len(text)
            if self._read > BULK_CHARACTERS and self._edges is None:
                assert self._db is not None
                self._edges = dict(self._db.execute("SELECT text, id FROM edges"))
        if self._edges is not None:
            return self._edges.get
        return self._edges_in(text).get

    def _edges_in(self, text: str) -> dict[str, int]:
        """Every edge that is a run of ``text`` and whose shorter runs from the same start
        are edges too: all a walk over ``text`` may look up (others answer None)."""
        found: dict[str, int] = {}
        starts = list(range(len(text)))
        for length in range(1, self.longest + 1):
            runs = {text[i : i + length] for i in starts if i + length <= len(text)}
            level = self._found(runs)
            found.update(level)
            starts = [i for i in starts if text[i : i + length] in level]
            if not starts:
                break
        return found

    def _found(self, runs: set[str]) -> dict[str, int]:
        """Those of ``runs`` that are edges, with their ids."""
        assert self._db is not None
        found: dict[str, int] = {}
        listed = list(runs)
        with self._lock:
            for at in range(0, len(listed), QUERY_PARAMETERS):
                part = listed[at : at + QUERY_PARAMETERS]
                marks = ",".join("?" * len(part))
                query = f"SELECT text, id FROM edges WHERE text IN ({marks})"
                found.update(self._db.execute(query, part))
        return found


def _opened(path: Path) -> sqlite3.Connection | None:
    """The table, opened read-only, or None when it is missing or unreadable."""
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        _longest(db)  # a damaged or foreign file fails here
    except (sqlite3.Error, ValueError, TypeError):
        return None
    return db


def _longest(db: sqlite3.Connection) -> int:
    (value,) = db.execute("SELECT value FROM meta WHERE key = 'longest'").fetchone()
    return int(value)


def _write(path: Path, edges: dict[str, int]) -> None:
    """The table written whole under a temporary name, then renamed into place."""
    temporary = ""
    try:
        handle, temporary = tempfile.mkstemp(prefix=".tmp-edges-", dir=path.parent)
        os.close(handle)
        with contextlib.closing(sqlite3.connect(temporary)) as db, db:
            db.execute("CREATE TABLE edges (text TEXT PRIMARY KEY, id INTEGER) WITHOUT ROWID")
            db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
            db.executemany("INSERT INTO edges VALUES (?, ?)", edges.items())
            longest = max(map(len, edges), default=1)
            db.execute("INSERT INTO meta VALUES ('longest', ?)", (str(longest),))
        os.replace(temporary, path)
    except (OSError, sqlite3.Error) as exc:
        log.warning("cannot cache the tokenizer's edges at %s (%s)", path, exc)
    finally:
        if temporary:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
