"""The doctor's checks: where the store, the keyword index, the vectors and the original
files disagree. Reading only; ``repair.py`` acts on what these find.

Temporary and unreferenced files younger than ``SETTLE_SECONDS`` are left out: they may
belong to an add that is running right now (an original is written inside the store's
transaction, a temporary just before its rename).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from askalong.chunk.descriptions import embedded_text
from askalong.index.routes import StoreIndexes
from askalong.index.vector_files import live_documents, stray_files
from askalong.index.vector_rows import content_key
from askalong.maintain.parts import Parts
from askalong.types import Access, Chunk, Document
from askalong.values.findings import Finding

SETTLE_SECONDS = 60.0
_HASH = re.compile(r"[0-9a-f]{64}")
_TEMP_PREFIXES = (".tmp-", ".deleting-")


@dataclass(frozen=True)
class Stored:
    """One stored document and its chunks, read once for every check."""

    document: Document
    chunks: tuple[Chunk, ...]


def stored_documents(
    parts: Parts, progress: Callable[[int], None] | None = None
) -> Iterator[Stored]:
    for done, document in enumerate(parts.store.list_documents(Access.local()), start=1):
        yield Stored(document, parts.store.chunks(document.id))
        if progress is not None:
            progress(done)


def examine(parts: Parts, stored: list[Stored], now: float | None = None) -> list[Finding]:
    """Every finding, in a stable order: indexes, vectors, files."""
    now = time.time() if now is None else now
    return [
        *keyword_findings(parts, stored),
        *vector_findings(parts, stored, now),
        *file_findings(parts, stored, now),
    ]


def keyword_findings(parts: Parts, stored: list[Stored]) -> list[Finding]:
    if parts.keyword is None:
        detail = f"{parts.keyword_error}; rebuilt from the store by --repair"
        return [Finding("keyword_unreadable", "keyword index", detail, True)]
    indexed = parts.keyword.document_ids()
    ids = {s.document.id for s in stored}
    missing = [
        Finding("keyword_missing", s.document.id, f"{len(s.chunks)} chunks not indexed", True)
        for s in stored
        if s.chunks and s.document.id not in indexed
    ]
    orphans = [
        Finding("keyword_orphan", gone, "indexed, not in the store", True)
        for gone in sorted(indexed - ids)
    ]
    return missing + orphans


def vector_findings(parts: Parts, stored: list[Stored], now: float) -> list[Finding]:
    if parts.database is not None:
        return _database_vector_findings(parts.database, stored)
    ids = {s.document.id for s in stored}
    orphans = [
        Finding("vectors_orphan", gone, "vectors of a document not in the store", True)
        for gone in sorted(live_documents(parts.vector_root) - ids)
    ]
    if parts.embedder is None:
        return orphans  # embeddings off: nothing else is expected of the vectors
    if parts.vectors is None:
        detail = f"{parts.vectors_error}; rebuilt by --repair (documents are embedded again)"
        return [Finding("vectors_unreadable", "vector index", detail, True), *orphans]
    assert parts.embedder is not None
    space = parts.embedder.vector_space
    findings = [*_document_vectors(parts.vectors.live_keys, space, stored), *orphans]
    stats = parts.vectors.stats()
    if stats.dead:
        detail = f"{stats.dead} of {stats.rows} rows dead; compacted by --repair"
        findings.append(Finding("vectors_dead", "vector index", detail, True))
    for path in stray_files(parts.vectors.folder, stats.matrix_file):
        if now - _mtime(path) >= SETTLE_SECONDS:  # else maybe a compaction running now
            findings.append(_stray(parts, path, "left by a compaction"))
    return findings


def _database_vector_findings(routes: StoreIndexes, stored: list[Stored]) -> list[Finding]:
    """The vectors in PostgreSQL: each document's against its chunks, and orphans."""
    ids = {s.document.id for s in stored}
    orphans = [
        Finding("vectors_orphan", gone, "vectors of a document not in the store", True)
        for gone in sorted(routes.vector_documents() - ids)
    ]
    embedder = routes.embedder
    if embedder is None:
        return orphans  # embeddings off
    return [*_document_vectors(routes.live_keys, embedder.vector_space, stored), *orphans]


def _document_vectors(
    live_keys: Callable[[str], dict[str, str]], space: str, stored: list[Stored]
) -> Iterator[Finding]:
    for entry in stored:
        if not entry.chunks:
            continue
        live = live_keys(entry.document.id)
        wanted = {c.id: content_key(space, embedded_text(c)) for c in entry.chunks}
        if not live:
            detail = f"{len(wanted)} chunks without vectors; embedded by --repair"
            yield Finding("vectors_missing", entry.document.id, detail, True)
        elif live != wanted:
            wrong = sum(live.get(chunk) != key for chunk, key in wanted.items())
            extra = len(set(live) - set(wanted))
            detail = (
                f"{wrong} of {len(wanted)} chunks lack a vector of their text"
                + (f", {extra} vectors of chunks it no longer has" if extra else "")
                + "; embedded again by --repair"
            )
            yield Finding("vectors_stale", entry.document.id, detail, True)


def file_findings(parts: Parts, stored: list[Stored], now: float) -> list[Finding]:
    root = parts.settings.files_dir
    findings = [
        Finding(
            "file_missing",
            s.document.id,
            f"no original at {_shown(parts, path)}; add it again",
            False,
        )
        for s in stored
        if not (path := parts.store.original_path(s.document)).is_file()
    ]
    referenced = {s.document.content_hash for s in stored}
    for path in sorted(root.rglob("*")) if root.is_dir() else ():
        if not path.is_file() or now - _mtime(path) < SETTLE_SECONDS:
            continue
        if path.name.startswith(_TEMP_PREFIXES):
            findings.append(_stray(parts, path, "left by a crashed write"))
        elif _HASH.fullmatch(path.name) and path.name not in referenced:
            detail = f"{path.stat().st_size:,} bytes no document refers to; deleted by --repair"
            findings.append(Finding("file_orphan", _shown(parts, path), detail, True))
    return findings


def _stray(parts: Parts, path: Path, why: str) -> Finding:
    return Finding("temp_stray", _shown(parts, path), f"{why}; deleted by --repair", True)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _shown(parts: Parts, path: Path) -> str:
    """A path under ASKALONG_HOME as the finding's subject: relative, so it reads short."""
    try:
        return str(path.relative_to(parts.settings.home))
    except ValueError:
        return str(path)
