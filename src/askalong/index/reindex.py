"""Indexing again what the keyword route lacks, a batch of documents per commit.

``StoreIndexes.sync`` calls this for the documents the store holds and the keyword route
lacks: one or two after a crash between steps, every document after a schema migration
(``keyword_schema.SCHEMA_VERSION``: an index of an older schema is opened empty, and the
store, the truth, refills it). A batch is one commit, so a rebuild stopped half way keeps
what it committed and the next ``sync`` goes on from there. A rebuild of more than one
batch shows a progress bar on stderr (rich, transient: nothing is left on the screen,
nothing is written where stderr is not a terminal).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from askalong.index.base import KeywordRoute
from askalong.store.base import Store
from askalong.types import Document

if TYPE_CHECKING:
    from rich.console import Console

REINDEX_BATCH = 500  # documents a commit (a commit costs ~0.1 s of syncing)


def reindex(
    store: Store,
    keyword: KeywordRoute,
    documents: Sequence[Document],
    *,
    batch: int = REINDEX_BATCH,
    console: Console | None = None,
) -> int:
    """Index ``documents`` (their chunks read from ``store``) into ``keyword``, ``batch``
    documents a commit; how many had chunks. ``console``: where the bar goes (stderr)."""
    done = 0
    with _bar(len(documents) if len(documents) > batch else 0, console) as advance:
        for start in range(0, len(documents), batch):
            part = documents[start : start + batch]
            entries = [(d, chunks) for d in part if (chunks := store.chunks(d.id))]
            if entries:
                keyword.add_many(entries)
            done += len(entries)
            advance(len(part))
    return done


@contextmanager
def _bar(total: int, console: Console | None) -> Iterator[Callable[[int], None]]:
    """An ``advance(documents)`` of a progress bar of ``total`` (none when 0)."""
    if not total:
        yield lambda _done: None
        return
    # Imported here: only a rebuild draws a bar, and every command opens the index.
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    shown = console or Console(stderr=True)
    with Progress(TextColumn("{task.description}"), *columns, console=shown, transient=True) as bar:
        task = bar.add_task("indexing the library again for keyword search", total=total)
        yield lambda done: bar.advance(task, done)
