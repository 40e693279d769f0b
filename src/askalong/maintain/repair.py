"""The doctor's repairs: each finding's fix, from what the store holds (the store is the
truth; the indexes and vectors are derived from it). Returns what was done, in words."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable

from askalong.index.routes import StoreIndexes
from askalong.index.sync import SearchIndexes
from askalong.index.vector_files import forget
from askalong.maintain.checks import Stored
from askalong.maintain.parts import Parts
from askalong.values.findings import Finding, FindingKind, Repair


def repair(
    parts: Parts,
    findings: list[Finding],
    stored: list[Stored],
    progress: Callable[[int], None] | None = None,
) -> list[Repair]:
    """Fix every repairable finding; index repairs first, then vectors, then files."""
    of: dict[FindingKind, list[Finding]] = {}
    for finding in findings:
        if finding.repairable:
            of.setdefault(finding.kind, []).append(finding)
    done = _keyword(parts, of, stored)
    done += _vectors(parts, of, stored, progress)
    for finding in of.get("temp_stray", []) + of.get("file_orphan", []):
        with contextlib.suppress(FileNotFoundError):
            (parts.settings.home / finding.subject).unlink()
        done.append(Repair(finding.kind, finding.subject, "deleted"))
    return done


def _keyword(
    parts: Parts, of: dict[FindingKind, list[Finding]], stored: list[Stored]
) -> list[Repair]:
    done = []
    if of.get("keyword_unreadable"):
        shutil.rmtree(parts.keyword_folder, ignore_errors=True)
        parts.reopen_keyword()
        assert parts.keyword is not None, parts.keyword_error
        entries = [(s.document, s.chunks) for s in stored if s.chunks]
        parts.keyword.add_many(entries)
        action = f"rebuilt from the store ({len(entries)} documents)"
        return [Repair("keyword_unreadable", "keyword index", action)]
    assert parts.keyword is not None
    missing = {f.subject for f in of.get("keyword_missing", [])}
    if missing:
        parts.keyword.add_many([(s.document, s.chunks) for s in stored if s.document.id in missing])
        done += [Repair("keyword_missing", ref, "indexed") for ref in sorted(missing)]
    for finding in of.get("keyword_orphan", []):
        parts.keyword.delete(finding.subject)
        done.append(Repair("keyword_orphan", finding.subject, "entries removed"))
    return done


def _vectors(
    parts: Parts,
    of: dict[FindingKind, list[Finding]],
    stored: list[Stored],
    progress: Callable[[int], None] | None,
) -> list[Repair]:
    if parts.database is not None:
        return _database_vectors(parts.database, of, stored, progress)
    orphans = [f.subject for f in of.get("vectors_orphan", [])]
    forget(parts.vector_root, orphans)
    done = [Repair("vectors_orphan", ref, "vectors removed") for ref in orphans]
    todo = {f.subject: f.kind for f in of.get("vectors_missing", []) + of.get("vectors_stale", [])}
    if of.get("vectors_unreadable") and parts.embedder is not None:
        shutil.rmtree(parts.vector_folder(parts.embedder), ignore_errors=True)
        parts.reopen_vectors()
        done.append(
            Repair("vectors_unreadable", "vector index", "emptied; documents embedded again")
        )
        todo = {s.document.id: "vectors_missing" for s in stored if s.chunks}
    if todo:
        assert parts.vectors is not None
        for ref, kind in todo.items():
            if kind == "vectors_stale":  # other text's vectors must not stay searchable
                parts.vectors.delete(ref)
        with SearchIndexes(parts.settings, parts.store, lambda: parts.embedder) as indexes:
            done += _embed(indexes, todo, stored, progress)
    # Last: the repairs above leave dead rows of their own (orphans, stale vectors).
    if parts.vectors is not None and (done or of.get("vectors_dead")):
        removed = parts.vectors.compact()
        if removed:
            action = f"compacted ({removed} dead rows removed)"
            done.append(Repair("vectors_dead", "vector index", action))
    return done


def _database_vectors(
    routes: StoreIndexes,
    of: dict[FindingKind, list[Finding]],
    stored: list[Stored],
    progress: Callable[[int], None] | None,
) -> list[Repair]:
    """The vectors in PostgreSQL: orphans removed, missing and stale ones embedded (a
    stale document's vectors set aside first: reused where a text is unchanged)."""
    orphans = [f.subject for f in of.get("vectors_orphan", [])]
    routes.drop_vectors(orphans)
    done = [Repair("vectors_orphan", ref, "vectors removed") for ref in orphans]
    todo = {f.subject: f.kind for f in of.get("vectors_missing", []) + of.get("vectors_stale", [])}
    routes.forget_vectors([ref for ref, kind in todo.items() if kind == "vectors_stale"])
    return done + (_embed(routes, todo, stored, progress) if todo else [])


def _embed(
    indexes: StoreIndexes,
    todo: dict[str, FindingKind],
    stored: list[Stored],
    progress: Callable[[int], None] | None,
) -> list[Repair]:
    documents = [s.document for s in stored if s.document.id in todo]
    report = indexes.embed(documents, progress)
    if report.error:  # what is left shows in the check that follows
        return [Repair("vectors_missing", "vector index", f"embedding stopped: {report.error}")]
    return [Repair(todo[d.id], d.id, "embedded") for d in documents]
