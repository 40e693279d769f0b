"""Moving an embedded home (``askalong migrate``'s core) into another store: every table's
rows and every original copied with equal counts; a run cut off part-way (the target's
batch failing as a kill would leave it) is finished by running it again, and running it
again after that changes nothing. The target here is a second SQLite store and a bucket
in moto's S3; the PostgreSQL run uses the same core."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest
from filled_home import FILLED, LOCAL, QUEUED, fill, note
from hash_embedder import HashEmbedder
from moto_server import MotoServer

from askalong.config import Settings, load_settings
from askalong.files.choose import open_originals
from askalong.index.sync import SearchIndexes
from askalong.index.vectors import VectorIndex
from askalong.ingest.inputs import Upload
from askalong.ingest.pipeline import Ingestor
from askalong.library import Library
from askalong.moving.move import ORIGINALS, move_home
from askalong.moving.targets import SQLiteRows
from askalong.moving.vectors import VECTORS, copy_vectors
from askalong.store.backends import open_store


@pytest.fixture
def home(settings: Settings) -> Settings:
    fill(settings)
    return settings


def target_of(tmp_path: Path) -> tuple[Settings, SQLiteRows]:
    target = load_settings(home=tmp_path / "target")
    open_store(target).close()  # its schema, made as the store makes it
    return target, SQLiteRows.open(target.database_path)


def copied_samples(index: VectorIndex) -> list[tuple[str, tuple[str, str]]]:
    """One (chunk id, content key) of each document in ``index``."""
    return [(d, next(iter(index.live_keys(d).items()))) for d in sorted(index.document_ids())]


class CutOff(SQLiteRows):
    """The target's connection dropping at its ``after``-th batch, its rows not committed."""

    def __init__(self, connection: sqlite3.Connection, after: int) -> None:
        super().__init__(connection)
        self.left = after

    def insert_missing(self, table: str, columns: Sequence[str], rows: Sequence[tuple]) -> None:
        self.left -= 1
        if self.left < 0:
            raise ConnectionError("the target went away mid-copy")
        super().insert_missing(table, columns, rows)


def counts(database: Path) -> dict[str, int]:
    with sqlite3.connect(database) as db:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {n: db.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0] for n in names}


def test_every_table_and_original_is_copied_with_equal_counts(
    home: Settings, tmp_path: Path, s3_bucket: str, moto_s3: MotoServer
) -> None:
    target, rows = target_of(tmp_path)
    bucket = load_settings(home=target.home, files=f"s3://{s3_bucket}/moved")
    report = move_home(home.database_path, open_originals(home), rows, open_originals(bucket))
    assert report.verified, report.differing
    moved = {c.what: c.target for c in report.counts}
    assert all(moved[name] > 0 for name in FILLED), moved
    assert moved[ORIGINALS] == 7 and len(moto_s3.keys(s3_bucket)) == 7
    source = counts(home.database_path)
    assert {n: c for n, c in counts(target.database_path).items() if n in moved} == {
        n: source[n] for n in moved if n != ORIGINALS
    }
    with Library(load_settings(home=target.home, files=bucket.files)) as moved_library:
        (job,) = [j for j in moved_library.store.jobs() if j.state == "pending"]
        document = moved_library.store.get_document(job.document_id, LOCAL)
        assert moved_library.store.original_path(document).read_bytes() == note(QUEUED)


def test_vectors_are_copied_document_by_document_without_embedding_again(
    settings: Settings, tmp_path: Path
) -> None:
    embedder = HashEmbedder()
    with open_store(settings) as store, SearchIndexes(settings, store, lambda: embedder) as home:
        for i in range(4):
            Ingestor(settings, store, home).add_upload(Upload(note(i), f"{i}.md", f"{i}.md"), LOCAL)
        assert home.embed(home.pending_vectors()).error is None
        source = home.vectors
        assert source is not None and len(source.document_ids()) == 4
        target, rows = target_of(tmp_path)
        with open_store(target) as into, SearchIndexes(target, into, lambda: embedder) as moved:
            embedded = embedder.embedded
            assert moved.vectors is not None
            files = open_originals(settings)
            assert move_home(settings.database_path, files, rows, None).verified
            counted = copy_vectors(source.index, moved.vectors)
            assert (counted.what, counted.source, counted.target) == (VECTORS, 4, 4)
            assert copy_vectors(source.index, moved.vectors) == counted  # again: nothing to do
            assert embedder.embedded == embedded  # nothing embedded again
            assert moved.vectors is not None
            for document_id, (chunk_id, key) in copied_samples(source.index):
                vector = source.index.vectors_for([key])[key]
                (hit,) = moved.vectors.index.search(
                    vector, allowed_document_ids={document_id}, limit=1
                )
                assert (hit.chunk_id, round(hit.score, 5)) == (chunk_id, 1.0)


def test_a_move_cut_off_part_way_is_finished_by_running_it_again(
    home: Settings, tmp_path: Path
) -> None:
    target, rows = target_of(tmp_path)
    cut = CutOff(rows.connection, after=5)
    with pytest.raises(ConnectionError):
        move_home(home.database_path, open_originals(home), cut, None, batch=3)
    partial = counts(target.database_path)
    source = counts(home.database_path)
    assert 0 < sum(partial.values()) < sum(source.values()) - source["schema_migrations"]
    report = move_home(home.database_path, open_originals(home), rows, None, batch=3)
    assert report.verified, report.differing
    again = move_home(home.database_path, open_originals(home), rows, None, batch=3)
    assert again == report
    assert counts(target.database_path) == {
        **source,
        "schema_migrations": partial["schema_migrations"],
    }
