"""A question naming an identifier, without an anchor, reads only the repository that
defines it (issue 27): the store's symbol index says which files define the name in one
query, and no other code document's blocks are read. Two repositories of real stdlib
source are added with the CLI; the store is the real SQLite file, every statement traced."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_json import run_json
from code_samples import copy_stdlib

from askalong.asking.code_reading import only_code, repository_asked
from askalong.asking.evidence_code_named import NamedCodeEvidence
from askalong.asking.question import Question, asked_question
from askalong.config import Settings
from askalong.files.local import OriginalFiles
from askalong.store.sqlite.store import SQLiteStore
from askalong.types import Access

LOCAL = Access.local()


@pytest.fixture
def traced(settings: Settings, tmp_path: Path) -> Iterator[tuple[SQLiteStore, list[str]]]:
    """Two repositories added with the CLI, then their store with every statement traced."""
    run_json("add", "--no-embed", str(copy_stdlib(tmp_path / "a", "asyncio/locks.py")))
    run_json("add", "--no-embed", str(copy_stdlib(tmp_path / "b", "json/decoder.py")))
    statements: list[str] = []
    files = OriginalFiles(settings.files_dir)
    with SQLiteStore(settings.database_path, files, trace=statements.append) as store:
        yield store, statements


def source_named(store: SQLiteStore, ending: str) -> str:
    (found,) = [d.id for d in store.list_documents(LOCAL) if d.source.endswith(ending)]
    return found


def block_reads(statements: list[str]) -> list[str]:
    return [s for s in statements if "FROM blocks" in s and "document_id =" in s]


def test_the_repository_asked_is_the_one_defining_the_name(
    traced: tuple[SQLiteStore, list[str]],
) -> None:
    store, statements = traced
    locks = source_named(store, "locks.py")
    statements.clear()
    repository = repository_asked(store, [], LOCAL, ["_wake_up_first"])
    assert [f.document_id for f in repository.files] == [locks]
    assert all(f"'{locks}'" in s for s in block_reads(statements)), statements
    assert repository_asked(store, [], LOCAL, ["no_such_name"]).files == ()


def test_a_question_naming_code_reads_no_other_repository(
    traced: tuple[SQLiteStore, list[str]],
) -> None:
    store, statements = traced
    decoder = source_named(store, "decoder.py")
    for text in ("What calls _wake_up_first?", "How does locked report the state?"):
        statements.clear()
        evidence = NamedCodeEvidence(store).gather(asked_question(Question(text), (), None), LOCAL)
        assert evidence is not None and evidence.units, text
        assert block_reads(statements), text
        assert not [s for s in block_reads(statements) if decoder in s], text
    statements.clear()
    assert only_code(store, [], LOCAL)
    assert len(statements) == 1  # one query, not a read of every document
