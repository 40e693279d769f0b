"""The answer-level dev questions of issue 12 items 1, 4 and 5: the PostgreSQL manual
(``tests/data/answer_dev_manual.jsonl``), questions whose answer sits in another section
than their words' best match (``answer_dev_cross.jsonl``) and three-turn follow-up
chains over papers (``answer_dev_followup.jsonl``), asked through the product's own path
(``benchmarks/answers.py``: the real asker, follow-ups in one thread): the gold phrase
must be in the *direct answer*.

Written in our own words, gold phrases taken from the documents before any answer was
looked at; the answerer was then tuned on them (the held-out set is
``benchmarks/answers``), so the floors guard against regressions, they are not the
product's figures. Measured (offline, vectors for the papers only, as the held-out runs):
main before this work 3 / 27 manual, 8 / 12 cross-section, 5 / 12 follow-up; this branch
8 / 27, 8 / 12, 6 / 12 (``benchmarks/results/answers-answer3-2026-12-01.md``).

The full sweep ingests the whole manual (1,169 pages: minutes), so it is ``sweep``-marked;
``make test`` runs the fast sample: a 30-page piece of the real manual (so the question
is asked of a collection and ranked page by page) and five of its questions whose answer
is the best page's second to fifth chunk.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from benchmark_module import benchmark_module, dev_outcomes
from model_caches import seeded

DATA = Path(__file__).resolve().parents[1] / "data"
SETS = {
    "long_manual": (DATA / "answer_dev_manual.jsonl", 0.25, 25),
    "cross_section": (DATA / "answer_dev_cross.jsonl", 0.58, 12),
    "follow_up": (DATA / "answer_dev_followup.jsonl", 0.41, 12),
}  # kind: (file, floor of the direct answer's hits, least items): one item below this
# branch's 8 / 27, 8 / 12 and 6 / 12 (main before it: 3 / 27, 8 / 12, 5 / 12)
MANUAL = "manuals/postgresql-15-html"
# The sample: five questions' pages and pages on the same topics, which share their words.
SAMPLE_IDS = ("dev-pg-7", "dev-pg-10", "dev-pg-11", "dev-pg-15", "dev-pg-18")
SAMPLE_PAGES = (
    "sql-truncate", "indexes-partial", "sql-createindex", "app-pgdump", "sql-insert",
    "sql-delete", "sql-update", "sql-reindex", "indexes-types", "indexes-intro",
    "indexes-multicolumn", "indexes-unique", "indexes-expressional", "indexes-ordering",
    "app-pgrestore", "app-pg-dumpall", "backup-dump", "backup-file", "sql-droptable",
    "sql-dropindex", "dml-insert", "dml-delete", "dml-update", "sql-merge", "sql-vacuum",
    "tutorial-transactions", "runtime-config-resource", "runtime-config-query",
    "runtime-config-autovacuum", "gin-tips",
)  # fmt: skip
SAMPLE_FLOOR = 3  # of the five: 3 on this branch, 1 on main before it (dev-pg-15)


@pytest.fixture(autouse=True)
def _restored_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``open_corpus`` sets ASKALONG_HOME as the script does; monkeypatch restores it."""
    monkeypatch.setenv("ASKALONG_HOME", str(tmp_path / "unused"))
    monkeypatch.setenv("ASKALONG_EMBEDDER", "local")
    # the rule path's tuning guard (the learned scorer is measured in benchmarks/)
    monkeypatch.setenv("ASKALONG_SENTENCE_SCORER", "rules")


@pytest.mark.slow
def test_a_sample_of_the_manual_is_answered_from_the_best_pages_own_chunks(
    tmp_path: Path, evaldata: Path, monkeypatch: pytest.MonkeyPatch, model_caches: Path
) -> None:
    answers = benchmark_module("answers")
    corpus = benchmark_module("answers_corpus")
    piece = tmp_path / "evaldata" / "manual-piece"
    piece.mkdir(parents=True)
    for name in SAMPLE_PAGES:
        shutil.copy(evaldata / MANUAL / f"{name}.html", piece)
    monkeypatch.setattr(corpus, "EVALDATA", piece.parent)
    items = [
        replace(item, documents=("manual-piece",))
        for item in answers.load_items(SETS["long_manual"][0])
        if item.id in SAMPLE_IDS
    ]
    assert len(items) == len(SAMPLE_IDS)
    seeded(tmp_path / "home" / corpus.code_key(), model_caches)
    library, ids = corpus.open_corpus(tmp_path / "home", ["manual-piece"], vectors="files")
    with library:
        assert len(ids["manual-piece"]) == len(SAMPLE_PAGES)  # ranked page by page
        outcomes = answers.ask_all(library, ids, items)
    missed = [(o.id, o.answer) for o in outcomes if not o.hit]
    assert sum(o.hit for o in outcomes) >= SAMPLE_FLOOR, missed


@pytest.mark.slow
@pytest.mark.sweep  # minutes (the whole manual is ingested): `make sweep`
def test_the_manual_cross_section_and_follow_up_dev_questions_meet_their_floors(
    tmp_path: Path, evaldata: Path
) -> None:
    answers = benchmark_module("answers")
    items = [item for path, _, _ in SETS.values() for item in answers.load_items(path)]
    for kind, (_, _, least) in SETS.items():
        assert sum(i.kind == kind for i in items) >= least
    assert len({i.thread for i in items if i.thread}) >= 4  # chains of three turns
    outcomes = dev_outcomes(tmp_path / "home", items)
    missed = [o.id for o in outcomes if not o.hit]
    for kind, (_, floor, _) in SETS.items():
        mine = [o for o in outcomes if o.kind == kind]
        assert sum(o.hit for o in mine) >= floor * len(mine), (kind, missed)
