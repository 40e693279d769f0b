"""The why / how / cross-section / follow-up dev questions of
``tests/data/answer_dev_sentence.jsonl`` (issue 12 items 1 and 5), asked through the
product's own path (``benchmarks/answers.py``: the real asker, follow-ups in one thread)
over seven evaluation papers and manuals: the gold phrase must be in the *direct answer*.

Written in our own words with the gold phrases before any answer was looked at, and the
questions the answerer was then tuned on (the held-out set is ``benchmarks/answers``), so
the floors guard against regressions; they are not the product's figures. Measured on
this branch: 30 / 45 (before it, 25 / 45); per kind why 11 / 12, how 5 / 10, cross-section
5 / 8, follow-up 9 / 15. Under the learned default with the entry-aware rank head
(2026-12-06): 30 / 45; why 9 / 12, how 8 / 10, cross-section 4 / 8, follow-up 9 / 15; with
its heads refitted on eight never-seen sets 28 / 45 (how 7, follow-up 8): the floors sit
a question or so below it, these being tuned-on questions. Slow: seven PDFs are parsed and embedded.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmark_module import benchmark_module, dev_outcomes

pytestmark = [pytest.mark.slow, pytest.mark.sweep]  # minutes: `make sweep`, not `make test`

DEV = Path(__file__).resolve().parents[1] / "data" / "answer_dev_sentence.jsonl"
FLOOR = 0.6  # of all items: a gold phrase in the direct answer (27 / 45)
KIND_FLOOR = {"why": 0.7, "how": 0.6, "cross_section": 0.5, "follow_up": 0.5}


@pytest.fixture(autouse=True)
def _restored_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``open_corpus`` sets ASKALONG_HOME as the script does; monkeypatch restores it."""
    monkeypatch.setenv("ASKALONG_HOME", str(tmp_path / "unused"))
    monkeypatch.setenv("ASKALONG_EMBEDDER", "local")


def test_the_dev_questions_are_answered_in_the_direct_answer(
    tmp_path: Path, evaldata: Path
) -> None:
    answers = benchmark_module("answers")
    items = answers.load_items(DEV)
    assert len(items) >= 40 and {i.kind for i in items} == set(KIND_FLOOR)
    assert len({i.thread for i in items if i.thread}) >= 5  # follow-up chains of 2-3 turns
    outcomes = dev_outcomes(tmp_path / "home", items)
    missed = [o.id for o in outcomes if not o.hit]
    assert sum(o.hit for o in outcomes) >= FLOOR * len(items), missed
    for kind, floor in KIND_FLOOR.items():
        mine = [o for o in outcomes if o.kind == kind]
        assert sum(o.hit for o in mine) >= floor * len(mine), (kind, missed)
