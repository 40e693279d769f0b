"""A real sample of the chat benchmark (``benchmarks/chat.py``): five of its two-part
questions, over the manual pages that answer them and pages on the same topics beside
them, asked as one scope (ranked page by page, as the benchmark's knowledge base is) and
judged by the benchmark's own code: each part answered, cited and holding its gold phrase.

The floors are this branch's result on the sample (keyword search only: 2 of 5 questions
with both parts, 7 of 10 parts); the whole set's figure (44 questions over the whole
manual and the papers) is in ``benchmarks/results/chat-offline-2026-12-01.md``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from benchmark_module import benchmark_module

from askalong.agent.chat_agent import ChatRequest
from askalong.agent.wiring import make_chat_agent
from askalong.config import Settings
from askalong.library import Library
from askalong.types import Access

SAMPLE = ("chat-10", "chat-11", "chat-14", "chat-26", "chat-27")
PAGES = (
    "runtime-config-resource", "indexes-types", "gin-intro", "brin-intro", "app-pgrestore",
    "app-pg-dumpall", "runtime-config-query", "runtime-config-wal", "app-pgdump",
    "sql-vacuum", "indexes-intro", "backup-dump", "wal-intro", "sql-createindex",
    "continuous-archiving", "runtime-config-connection",
)  # fmt: skip
FLOOR = 2  # questions with both parts
PART_FLOOR = 7  # parts, of 10


def test_a_sample_of_the_chat_set_answers_both_parts(
    settings: Settings, evaldata: Path, tmp_path: Path
) -> None:
    chat = benchmark_module("chat")
    items = [item for item in chat.load_items() if item["id"] in SAMPLE]
    assert len(items) == len(SAMPLE)
    manual = evaldata / "manuals" / "postgresql-15-html"
    access = Access.local()
    with Library(settings) as library:
        documents = []
        for page in PAGES:
            shutil.copyfile(manual / f"{page}.html", tmp_path / f"{page}.html")
            outcome = library.ingestor.add(str(tmp_path / f"{page}.html"), access)
            assert outcome.document is not None, outcome.error
            documents.append(outcome.document)
        agent = make_chat_agent(library)
        outcomes = [
            chat.judged(item, agent.ask(ChatRequest(item["question"], access, tuple(documents))), 0)
            for item in items
        ]
    passed = [o.id for o in outcomes if o.ok]
    parts = sum(sum(o.parts_ok) for o in outcomes)
    assert all(o.parts_found == 2 for o in outcomes)
    assert len(passed) >= FLOOR and parts >= PART_FLOOR, [(o.id, o.parts_ok) for o in outcomes]
