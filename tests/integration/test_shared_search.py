"""Server mode's search shared through PostgreSQL: three homes over one database, as three
machines, the originals in S3 (moto). One queues a note, a worker process with a home of
its own reads and embeds it, and a library on a third home, opened before the note
existed (a running app server), finds it by keyword and by vector at once, and answers
from it in a fresh process; the permission filter, inside the SQL, hides it from anyone
else. No home holds a search index."""

from __future__ import annotations

import json
from pathlib import Path

from model_caches import seeded
from test_jobs_processes import environment, run

from askalong.config import load_settings
from askalong.index.pg_routes import PostgresRoutes
from askalong.library import Library
from askalong.types import Access

NOTE = """# Station seven

The booster pump at station seven feeds the cooling valve of the north loop.
Its impeller is replaced every four thousand hours of running.
"""


def test_a_note_a_worker_elsewhere_reads_is_found_from_a_third_home(
    tmp_path: Path, postgres_url: str, s3_bucket: str, model_caches: Path
) -> None:
    homes = (tmp_path / name for name in ("uploader", "worker", "app"))
    uploader, worker, app = (seeded(home, model_caches) for home in homes)
    files = f"s3://{s3_bucket}/team"  # the originals, where every machine reads them
    shared = {"ASKALONG_DATABASE_URL": postgres_url, "ASKALONG_EMBEDDER": "local"}
    shared["ASKALONG_FILES"] = files
    note = tmp_path / "station.md"
    note.write_text(NOTE, encoding="utf-8")
    settings = load_settings(home=app, database_url=postgres_url, embedder="local", files=files)
    with Library(settings) as library:
        assert isinstance(library.indexes, PostgresRoutes)
        run(environment(uploader, **shared), "add", "--queue", str(note))
        run(environment(worker, **shared), "worker", "--once")
        searcher = library.searcher
        keyword = searcher.ranking("booster pump impeller", Access.local(), use_vectors=False)
        assert keyword
        document = keyword[0].document_id
        vectors = library.indexes.vectors
        assert vectors is not None and vectors.document_ids() == {document}  # the worker's
        assert library.indexes.pending_vectors() == []
        ranked = searcher.ranking("what feeds the valve", Access.local(), use_keyword=False)
        assert [hit.document_id for hit in ranked][:1] == [document]
        assert searcher.ranking("booster pump impeller", Access(user="mallory")) == []
    question = "What feeds the cooling valve?"
    answer = json.loads(run(environment(app, **shared), "ask", "--json", "--in-process", question))
    assert "booster pump" in answer["answer"].lower(), answer
    for home in (uploader, worker, app):
        assert not (home / "index").exists()
