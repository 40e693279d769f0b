"""The real-question set's documents, ingested once for ``answers.py``: a library under
``--home DIR/<key>``, where the key hashes the ingestion-side askalong code (everything but
the query-time packages), and each document path stamped (names, sizes, times) and
ingested again when it changed, so that a stale library is never asked."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evaldata import EVALDATA

REPO = Path(__file__).resolve().parents[1]
# Query-time packages: a change there never makes an ingested library stale.
QUERY_TIME = ("answer", "asking", "verify", "context", "retrieve", "cli", "server", "evaluate")


def code_key() -> str:
    """Hash of the ingestion-side askalong code: a change there rebuilds the library."""
    import askalong

    digest = hashlib.sha256()
    package = Path(askalong.__file__).parent
    for source in sorted(package.rglob("*")):
        rel = source.relative_to(package)
        if source.is_file() and rel.parts[0] not in QUERY_TIME and "__pycache__" not in rel.parts:
            digest.update(str(rel).encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:16]


def stamp(rel: str) -> str:
    """What a set path's documents are: every file's name, size and modification time."""
    path = EVALDATA / rel
    if not path.exists():
        raise SystemExit(f"{path}: document of the set not found (ASKALONG_EVALDATA={EVALDATA})")
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    digest = hashlib.sha256()
    for file in files:
        info = file.stat()
        digest.update(
            f"{file.relative_to(path.parent)}:{info.st_size}:{info.st_mtime_ns}\n".encode()
        )
    return digest.hexdigest()[:16]


VECTORS = ("all", "files", "none")  # which documents get vectors; "files": not the folders


def open_corpus(
    home: Path, paths: Sequence[str], *, vectors: str = "all"
) -> tuple[Any, dict[str, list[str]]]:
    """The library of ``home/<code key>`` holding the documents, and a map from each set
    path to its document ids (a folder: all of its documents). A path is (re)ingested when
    its stamp is not the one recorded, so a stale document is never asked. The set's
    documents that lack vectors get them as ``vectors`` says: "all"; "files" leaves the
    folders (the 9k-chunk PostgreSQL manual) to the keyword route, as a library whose
    vectors are still pending is; "none" runs with ``ASKALONG_EMBEDDER=none``."""
    from askalong.config import load_settings
    from askalong.library import Library

    folder = home / code_key()
    record = folder / "corpus.json"
    os.environ["ASKALONG_HOME"] = str(folder)
    os.environ.pop("ASKALONG_ANSWERER", None)  # the default: the offline extractive one
    if vectors == "none":
        os.environ["ASKALONG_EMBEDDER"] = "none"
    library = Library(load_settings())
    known = json.loads(record.read_text(encoding="utf-8")) if record.exists() else {}
    wanted = sorted(set(paths))
    stale = [rel for rel in wanted if known.get(rel, {}).get("stamp") != stamp(rel)]
    print(f"library {folder}: {len(wanted) - len(stale)} paths reused, {len(stale)} to ingest")
    for rel in stale:
        known[rel] = {"stamp": stamp(rel), "ids": _ingest(library, rel)}
        record.write_text(json.dumps(known, indent=1), encoding="utf-8")
    embedded = {d for rel in wanted if vectors == "all" or _is_file(rel) for d in known[rel]["ids"]}
    _embed(library, embedded if vectors != "none" else set())
    return library, {rel: known[rel]["ids"] for rel in wanted}


def _is_file(rel: str) -> bool:
    return (EVALDATA / rel).is_file()


def _embed(library: Any, ids: set[str]) -> None:
    pending = [d for d in library.indexes.pending_vectors() if d.id in ids]
    if pending:
        print(f"embedding {len(pending)} documents ...", flush=True)
        report = library.indexes.embed(pending)
        if report.error:
            raise SystemExit(f"embedding failed: {report.error}")


def _ingest(library: Any, rel: str) -> list[str]:
    from askalong.ingest.inputs import Skipped, expand_inputs
    from askalong.types import Access

    started, ids = time.perf_counter(), []
    for item in expand_inputs([str(EVALDATA / rel)]):
        if isinstance(item, Skipped):
            continue  # a folder's non-document file (a licence note)
        added = library.ingestor.add(item, Access.local())
        if added.document is not None:
            ids.append(added.document.id)
        elif not item.endswith((".debian", ".txt")):
            print(f"  {item}: {added.error}", file=sys.stderr)
    print(f"  {rel}: {len(ids)} documents, {time.perf_counter() - started:.0f} s", flush=True)
    return ids
