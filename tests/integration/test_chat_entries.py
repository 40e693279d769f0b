"""The offline agent answers a part from the entry its subject names (``answer/extractive/
entries``), on real manual pages asked as one scope: a setting's default from its own
entry (not a neighbour's sentence that mentions it), a term's defining sentence (the first
under its heading, not a later one that also names it), a command's Description's first
sentence (what it does, beyond its purpose line), and a part the pages do not cover still
refused. Each part was answered with another sentence before the entry rule (the chat
dev set's misses, ``benchmarks/results/chat-offline``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from askalong.agent.chat_agent import ChatRequest
from askalong.agent.wiring import make_chat_agent
from askalong.config import Settings, load_settings
from askalong.library import Library
from askalong.types import Access

PAGES = (
    "runtime-config-resource", "indexes-partial", "ddl-constraints", "sql-copy",
    "storage-toast", "ddl-system-columns", "routine-vacuuming", "sql-refreshmaterializedview",
    "runtime-config-wal",
)  # fmt: skip
ASKED = (
    # (question, per part: a phrase its answer must hold; None: the part must be refused)
    ("What does shared_buffers set? And also what does it default to?",
     ("memory the database server uses for shared memory buffers", "128 megabytes")),
    ("What is work_mem used for? And also what is its default value?",
     ("memory to be used by a query operation", "four megabytes")),
    ("What is a partial index? And also what is a foreign key?",
     ("index built over a subset of a table", "must match the values appearing in some row")),
    ("What does COPY do? And also what is a foreign key?",
     ("copy data between a file and a table", "must match the values appearing in some row")),
    ("What is the xmin system column? And also what is the autovacuum daemon for?",
     ("identity (transaction id) of the inserting transaction",
      "automate the execution of vacuum and analyze")),
    ("What does REFRESH MATERIALIZED VIEW do? And also what does innodb_buffer_pool_size "
     "default to in MySQL?",
     ("completely replaces the contents of a materialized view", None)),
)  # fmt: skip


@pytest.fixture(scope="module")
def answers(
    tmp_path_factory: pytest.TempPathFactory, evaldata: Path
) -> list[tuple[str, list[tuple[str, str]]]]:
    home = tmp_path_factory.mktemp("entries")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ASKALONG_HOME", str(home))
        patch.setenv("ASKALONG_EMBEDDER", "none")  # keyword search only, as in CI
        return _asked(load_settings(home=home), home, evaldata)


def _asked(
    settings: Settings, home: Path, evaldata: Path
) -> list[tuple[str, list[tuple[str, str]]]]:
    manual = evaldata / "manuals" / "postgresql-15-html"
    access = Access.local()
    with Library(settings) as library:
        documents = []
        for page in PAGES:
            shutil.copyfile(manual / f"{page}.html", home / f"{page}.html")
            outcome = library.ingestor.add(str(home / f"{page}.html"), access)
            assert outcome.document is not None, outcome.error
            documents.append(outcome.document)
        agent = make_chat_agent(library)
        out = []
        for question, _ in ASKED:
            answer = agent.ask(ChatRequest(question, access, tuple(documents)))
            parts = [(p.status, " ".join(p.answer.lower().split())) for p in answer.parts]
            assert all(p.sources for p in answer.parts if p.status == "answered")
            out.append((question, parts))
        return out


@pytest.mark.parametrize("index", range(len(ASKED)))
def test_each_part_is_answered_from_its_subjects_entry_or_refused(
    answers: list[tuple[str, list[tuple[str, str]]]], index: int
) -> None:
    question, parts = answers[index]
    expected = ASKED[index][1]
    assert len(parts) == len(expected), (question, parts)
    for (status, text), phrase in zip(parts, expected, strict=True):
        if phrase is None:
            assert status != "answered", (question, text)
        else:
            assert status == "answered" and phrase in text, (question, text)
