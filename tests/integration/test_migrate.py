"""``askalong migrate --to postgresql://… [--files s3://…]`` against a real PostgreSQL
(pgserver) and moto's S3: the home's documents, chunks, accounts, threads, feedback and
jobs arrive with equal counts and serve as the store, the vectors in pgvector with their
texts' content keys (nothing embedded again); running it again changes nothing;
a migrate killed mid-copy (SIGKILL, between any two transactions) is finished by running
it again, every count equal and nothing copied twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner
from filled_home import FILLED, LOCAL, QUEUED, fill, note
from model_caches import seeded
from moto_server import MotoServer

from askalong.cli import main
from askalong.config import Settings, load_settings
from askalong.index.pg_routes import PostgresRoutes
from askalong.library import Library

COMMAND = "import sys; from askalong.cli import main; sys.argv[0] = 'askalong'; main()"


def migrated(*args: str) -> dict:
    result = CliRunner().invoke(main, ["migrate", *args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def counts_of(report: dict) -> dict[str, tuple[int, int]]:
    return {c["what"]: (c["source"], c["target"]) for c in report["counts"]}


def rows_in(url: str, table: str) -> int:
    with psycopg.connect(url) as db:
        return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def test_a_home_moves_into_postgresql_and_s3_and_serves_from_there(
    settings: Settings, postgres_url: str, s3_bucket: str, moto_s3: MotoServer
) -> None:
    fill(settings)
    files = f"s3://{s3_bucket}/moved"
    report = migrated("--to", postgres_url, "--files", files)
    assert report["verified"]
    counted = counts_of(report)
    assert all(counted[t][0] == counted[t][1] > 0 for t in FILLED), counted
    assert counted["originals"] == (7, 7) and len(moto_s3.keys(s3_bucket)) == 7
    assert migrated("--to", postgres_url, "--files", files) == report  # again: nothing new
    server = load_settings(home=settings.home, database_url=postgres_url, files=files)
    with Library(server) as library:
        (job,) = [j for j in library.store.jobs() if j.state == "pending"]
        document = library.store.get_document(job.document_id, LOCAL)
        assert library.store.original_path(document).read_bytes() == note(QUEUED)
        assert library.store.get_user("alice") is not None
        assert library.searcher.search("valves pumps", LOCAL).hits  # indexed there


def test_a_migrate_killed_mid_copy_is_finished_by_running_it_again(
    settings: Settings, postgres_url: str
) -> None:
    fill(settings, documents=30, paragraphs=40)
    env = {**os.environ, "ASKALONG_HOME": str(settings.home), "ASKALONG_EMBEDDER": "none"}
    command = [sys.executable, "-c", COMMAND, "migrate", "--to", postgres_url, "--batch", "1"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline:
        if _has_rows(postgres_url, "blocks"):
            process.send_signal(signal.SIGKILL)
            break
        time.sleep(0.02)
    process.wait(30)
    assert process.returncode == -signal.SIGKILL, "the copy ended before it could be killed"
    total = _source_rows(settings, "blocks")
    assert 0 < rows_in(postgres_url, "blocks") < total  # killed part-way through a table
    report = migrated("--to", postgres_url)
    assert report["verified"] and counts_of(report)["blocks"] == (total, total)


def _has_rows(url: str, table: str) -> bool:
    try:
        return rows_in(url, table) > 0
    except psycopg.Error:  # the schema is still being made
        return False


def _source_rows(settings: Settings, table: str) -> int:
    import sqlite3

    with sqlite3.connect(settings.database_path) as db:
        return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def test_the_vectors_move_into_pgvector_once_with_their_texts_keys(
    settings: Settings, postgres_url: str, monkeypatch: pytest.MonkeyPatch, model_caches: Path
) -> None:
    monkeypatch.setenv("ASKALONG_EMBEDDER", "local")
    home = load_settings(home=seeded(settings.home, model_caches))
    notes = [settings.home.parent / f"pump{i}.md" for i in range(2)]
    for i, path in enumerate(notes):
        path.write_bytes(note(i, paragraphs=3))
    added = CliRunner().invoke(main, ["add", *map(str, notes)], catch_exceptions=False)
    assert added.exit_code == 0, added.output
    with Library(home) as library:
        assert (
            len(library.indexes.vector_documents()) == 2 and not library.indexes.pending_vectors()
        )
    report = migrated("--to", postgres_url)
    assert counts_of(report)["documents with vectors"] == (2, 2)
    assert migrated("--to", postgres_url) == report  # again: nothing new
    server = load_settings(home=settings.home, database_url=postgres_url)
    with Library(server) as library:
        assert isinstance(library.indexes, PostgresRoutes)
        assert library.indexes.pending_vectors() == []  # nothing left to embed there
        chunks = sum(len(library.store.chunks(d.id)) for d in library.store.list_documents(LOCAL))
        ranked = library.searcher.ranking("pumps and valves", LOCAL, use_keyword=False)
        assert {hit.document_id for hit in ranked} == library.indexes.vector_documents()
    assert _vector_rows(postgres_url) == chunks  # each chunk once, keyed by its text
    assert _vector_rows(postgres_url, "content_key = ''") == 0


def _vector_rows(url: str, where: str = "TRUE") -> int:
    with psycopg.connect(url) as db:
        (table,) = db.execute(
            "SELECT tablename FROM pg_tables WHERE tablename ~ '^vectors_[0-9a-f]{16}$'"
        ).fetchone() or ("",)
        return int(db.execute(f"SELECT count(*) FROM {table} WHERE {where}").fetchone()[0])
