"""`askalong doctor`: each inconsistency made for real (an index entry deleted, a file
dropped, a stray temporary written, the tantivy folder corrupted, vectors left behind by a
crash), found, then repaired by `--repair`."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hash_embedder import HashEmbedder

from askalong.cli import main
from askalong.config import Settings
from askalong.index.keyword import KeywordIndex
from askalong.index.sync import SearchIndexes
from askalong.maintain.checks import SETTLE_SECONDS, examine, stored_documents
from askalong.maintain.parts import Parts
from askalong.maintain.repair import repair
from askalong.store.backends import open_store
from askalong.types import Access
from askalong.values.findings import KINDS, Finding

PAGES = Path("manuals/postgresql-15-html")
LOCAL = Access.local()


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def doctor(*args: str) -> tuple[int, Any]:
    result = run("doctor", "--json", *args)
    return result.exit_code, json.loads(result.stdout)


def kinds(report: Any, key: str = "findings") -> list[tuple[str, str]]:
    return [(f["kind"], f["subject"]) for f in report[key]]


@pytest.fixture
def library(settings: Settings, evaldata: Path) -> list[str]:
    """Two real pages added by the CLI; their document ids."""
    added = json.loads(
        run(
            "add",
            str(evaldata / PAGES / "sql-set.html"),
            str(evaldata / PAGES / "collation.html"),
            "--json",
        ).stdout
    )
    return [r["document"]["id"] for r in added["results"]]


def aged(path: Path) -> Path:
    old = time.time() - 2 * SETTLE_SECONDS
    os.utime(path, (old, old))
    return path


def test_a_healthy_library(library: list[str]) -> None:
    code, report = doctor()
    assert (code, report) == (0, {"healthy": True, "findings": [], "repaired": [], "remaining": []})
    assert "healthy" in run("doctor").stdout


def test_a_deleted_keyword_entry_is_indexed_again(settings: Settings, library: list[str]) -> None:
    KeywordIndex(settings.index_dir / "keyword").delete(library[0])
    code, report = doctor()
    assert code == 1 and kinds(report) == [("keyword_missing", library[0])]
    assert report["findings"][0]["repairable"] is True
    code, report = doctor("--repair")
    assert code == 0 and kinds(report, "repaired") == [("keyword_missing", library[0])]
    assert KeywordIndex(settings.index_dir / "keyword").document_ids() == set(library)


def test_keyword_entries_of_a_removed_document_go(settings: Settings, library: list[str]) -> None:
    with open_store(settings) as store:  # `rm` killed after the store's delete
        store.delete_document(library[1], LOCAL)
    code, report = doctor()
    assert code == 1 and kinds(report) == [("keyword_orphan", library[1])]
    assert doctor("--repair")[0] == 0
    assert KeywordIndex(settings.index_dir / "keyword").document_ids() == {library[0]}


def test_a_stored_document_killed_before_its_index_entry(
    settings: Settings, library: list[str]
) -> None:
    # The state `kill -9` during `add` leaves between the store's commit and the index's.
    with open_store(settings) as store:
        document = store.get_document(library[0], LOCAL)
    KeywordIndex(settings.index_dir / "keyword").delete(document.id)
    assert doctor()[1]["findings"][0]["kind"] == "keyword_missing"
    assert doctor("--repair")[0] == 0
    assert [h["document_id"] for h in json.loads(run("search", "SET", "--json").stdout)["hits"]]


def test_a_dropped_original_is_found_and_not_repairable(
    settings: Settings, library: list[str]
) -> None:
    with open_store(settings) as store:
        path = store.original_path(store.get_document(library[0], LOCAL))
    path.unlink()
    code, report = doctor("--repair")
    assert code == 1 and kinds(report, "remaining") == [("file_missing", library[0])]
    assert report["remaining"][0]["repairable"] is False and report["repaired"] == []


def test_stray_temporaries_and_unreferenced_originals_are_deleted(
    settings: Settings, library: list[str]
) -> None:
    folder = next(p for p in settings.files_dir.iterdir() if p.is_dir())
    stray = folder / ".tmp-x"
    stray.write_bytes(b"half a file")
    aged(stray)
    orphan = folder.parent / "ff" / ("f" * 64)
    orphan.parent.mkdir()
    orphan.write_bytes(b"no document")
    aged(orphan)
    young = folder / ".tmp-running"  # an add writing right now: left alone
    young.write_bytes(b"in progress")
    code, report = doctor()
    assert code == 1
    assert kinds(report) == [
        ("temp_stray", str(stray.relative_to(settings.home))),
        ("file_orphan", str(orphan.relative_to(settings.home))),
    ]
    code, report = doctor("--repair")
    assert code == 0 and len(report["repaired"]) == 2
    assert not stray.exists() and not orphan.exists() and young.exists()


def _garbage_meta(folder: Path) -> None:
    (folder / "meta.json").write_text("{not json")


def _garbage_segments(folder: Path) -> None:  # tantivy panics on these
    for path in folder.iterdir():
        if path.suffix in {".term", ".idx", ".store"}:
            path.write_bytes(b"garbage")


def _lost_segment_file(folder: Path) -> None:
    next(folder.glob("*.term")).unlink()


@pytest.mark.parametrize("corrupt", [_garbage_meta, _garbage_segments, _lost_segment_file])
def test_a_corrupt_keyword_index_is_rebuilt_from_the_store(
    settings: Settings, library: list[str], corrupt: Callable[[Path], None]
) -> None:
    corrupt(settings.index_dir / "keyword")
    code, report = doctor()
    assert code == 1 and kinds(report) == [("keyword_unreadable", "keyword index")]
    code, report = doctor("--repair")
    assert code == 0, report
    assert report["repaired"][0]["action"] == "rebuilt from the store (2 documents)"
    hits = json.loads(run("search", "collation", "--json").stdout)["hits"]
    assert library[1] in {h["document_id"] for h in hits}


def test_every_kind_is_documented_in_the_docs() -> None:
    page = (Path(__file__).parents[2] / "docs" / "operations.md").read_text(encoding="utf-8")
    section = page.split("# Keeping a store healthy", 1)[1].split("\n## ", 1)[0]
    assert all(f"`{kind}`" in section for kind in KINDS)


# ------------------------------------------------------------------------- vectors


def checked(settings: Settings, embedder: HashEmbedder, *, fix: bool = False) -> list[Finding]:
    with Parts.open(settings, lambda: embedder) as parts:
        stored = list(stored_documents(parts))
        found = examine(parts, stored)
        if not fix:
            return found
        repair(parts, found, stored)
        return examine(parts, list(stored_documents(parts)))


def embed_all(settings: Settings, embedder: HashEmbedder) -> None:
    with open_store(settings) as store, SearchIndexes(settings, store, lambda: embedder) as indexes:
        assert indexes.embed(indexes.pending_vectors()).error is None


def found_kinds(findings: list[Finding]) -> list[tuple[str, str]]:
    return [(f.kind, f.subject) for f in findings]


def test_missing_vectors_are_embedded(settings: Settings, library: list[str]) -> None:
    embedder = HashEmbedder()
    assert sorted(found_kinds(checked(settings, embedder))) == sorted(
        ("vectors_missing", ref) for ref in library
    )
    assert checked(settings, embedder, fix=True) == []
    assert embedder.embedded > 0


def test_orphan_vectors_and_dead_rows(settings: Settings, library: list[str]) -> None:
    embedder = HashEmbedder()
    embed_all(settings, embedder)
    with open_store(settings) as store:  # `rm` killed before the vectors' delete
        store.delete_document(library[0], LOCAL)
    KeywordIndex(settings.index_dir / "keyword").delete(library[0])
    assert found_kinds(checked(settings, embedder)) == [("vectors_orphan", library[0])]
    repaired = checked(settings, embedder, fix=True)
    assert repaired == []  # the orphan's rows went dead, then were compacted
    with Parts.open(settings, lambda: embedder) as parts:
        assert parts.vectors is not None and parts.vectors.stats().dead == 0


def test_vectors_without_keys_are_stale_and_embedded_again(
    settings: Settings, library: list[str]
) -> None:
    embedder = HashEmbedder()
    with Parts.open(settings, lambda: embedder) as parts, open_store(settings) as store:
        assert parts.vectors is not None
        chunks = store.chunks(library[0])  # rows as written before content keys existed
        parts.vectors.add(
            library[0], [c.id for c in chunks], [embedder.vector("other") for _ in chunks]
        )
    found = found_kinds(checked(settings, embedder))
    assert ("vectors_stale", library[0]) in found and ("vectors_missing", library[1]) in found
    assert checked(settings, embedder, fix=True) == []


def test_an_unreadable_vector_index_is_rebuilt(settings: Settings, library: list[str]) -> None:
    embedder = HashEmbedder()
    embed_all(settings, embedder)
    (matrix,) = (settings.index_dir / "vectors").glob("*/vectors*.f32")
    with open(matrix, "r+b") as handle:
        handle.truncate(8)
    assert [f.kind for f in checked(settings, embedder)] == ["vectors_unreadable"]
    assert checked(settings, embedder, fix=True) == []


def test_stray_compaction_files_are_found(settings: Settings, library: list[str]) -> None:
    embedder = HashEmbedder()
    embed_all(settings, embedder)
    (folder,) = (settings.index_dir / "vectors").iterdir()
    aged(shutil.copy(next(folder.glob("*.f32")), folder / "vectors-7.f32"))
    assert [f.kind for f in checked(settings, embedder)] == ["temp_stray"]
    assert checked(settings, embedder, fix=True) == []
    assert not (folder / "vectors-7.f32").exists()


@pytest.mark.slow
def test_after_kill_9_during_a_folder_add_repair_leaves_a_healthy_library(
    settings: Settings, evaldata: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "pages"
    folder.mkdir()
    for page in sorted((evaldata / PAGES).glob("sql-*.html"))[:40]:
        shutil.copy(page, folder / page.name)
    command = "import sys; from askalong.cli import main; sys.argv[0] = 'askalong'; main()"
    env = {**os.environ, "ASKALONG_HOME": str(settings.home), "ASKALONG_EMBEDDER": "none"}
    adding = subprocess.Popen([sys.executable, "-c", command, "add", str(folder)], env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # kill once some documents are in
        with open_store(settings) as store:
            if len(store.list_documents(LOCAL)) >= 5:
                break
        time.sleep(0.05)
    adding.send_signal(signal.SIGKILL)
    adding.wait()
    code, report = doctor("--repair")
    assert all(f["repairable"] for f in report["findings"]), report
    assert code == 0, report
    assert doctor() == (0, {"healthy": True, "findings": [], "repaired": [], "remaining": []})
