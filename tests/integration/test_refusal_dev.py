"""The refusal dev set ``tests/data/refusal_dev.jsonl`` (issue 12 items 3 and 7), asked
through the real asker over five real evaluation documents that the held-out set in
``benchmarks/answers/`` does not use: uncovered-but-plausible questions (the document is
about a neighbouring topic) must come back ``not_covered`` with a note in the question's
language, covered questions in other words than the text must not, and questions asked
across languages (Chinese over English papers, English over a Chinese manual) must be
answered.

These are the questions the refusal rule was chosen on (``answerable.py``), so the floors
guard against regressions; the product's figures come from the held-out set. Floors are
what the rule reaches today, held back so that XQuAD keeps its figures (the dev ROC gives
up to 13 / 24 uncovered refused at 2 / 28 covered; see ``answerable.py``), not the issue's
goals (0.9 / 0.1). Slow: five PDFs are parsed and embedded.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from askalong.answer.base import NOT_COVERED
from askalong.asking.choose import make_asker
from askalong.asking.question import Question
from askalong.config import load_settings
from askalong.library import Library
from askalong.text.wording import wording_of, writes_traditional
from askalong.types import Access, Answer

pytestmark = [pytest.mark.slow, pytest.mark.sweep]  # minutes: `make sweep`, not `make test`

DEV = Path(__file__).resolve().parents[1] / "data" / "refusal_dev.jsonl"
UNCOVERED_REFUSED = 0.25  # at least (was 2 / 24 before the weighted rule)
COVERED_REFUSED = 0.1  # at most
CROSS_ANSWERED = 0.7  # at least


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory, evaldata: Path) -> Iterator[list[Any]]:
    """Every dev item with its answer, asked once with the bundled embedder."""
    items = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line]
    home = tmp_path_factory.mktemp("refusal-dev")
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setenv("ASKALONG_HOME", str(home))
    monkeypatch.setenv("ASKALONG_EMBEDDER", "local")
    try:
        with Library(load_settings(home=home)) as library:
            yield list(zip(items, _ask_all(library, evaldata, items), strict=True))
    finally:
        monkeypatch.undo()


def _ask_all(library: Library, evaldata: Path, items: list[dict[str, Any]]) -> list[Answer]:
    access = Access.local()
    added = {}
    for path in sorted({d for i in items for d in i["documents"]}):
        outcome = library.ingestor.add(str(evaldata / path), access)
        assert outcome.document is not None, outcome.error
        added[path] = outcome.document
    library.indexes.embed(library.indexes.pending_vectors())
    asker = make_asker(library)
    return [
        asker.ask(Question(text=i["question"], documents=(added[i["documents"][0]],)), access)
        for i in items
    ]


def _refused(pairs: list[Any], kinds: tuple[str, ...]) -> tuple[float, list[str]]:
    chosen = [(i, a) for i, a in pairs if i["kind"] in kinds]
    refused = [i["question"] for i, a in chosen if a.status == "not_covered"]
    return len(refused) / len(chosen), refused


def test_uncovered_questions_are_refused_and_covered_ones_answered(
    asked: list[Any],
) -> None:
    share, _ = _refused(asked, ("uncovered",))
    assert share >= UNCOVERED_REFUSED, share
    share, refused = _refused(asked, ("factual", "chinese"))
    assert share <= COVERED_REFUSED, refused


def test_a_refusal_says_what_was_not_found_in_the_question_language(
    asked: list[Any],
) -> None:
    for item, answer in asked:
        if answer.status == "not_covered":
            words = wording_of(item["lang"], writes_traditional(item["question"]))
            assert answer.answer == NOT_COVERED[words], item["question"]
            assert answer.explanation, item["question"]
            chinese = any("\u4e00" <= c <= "\u9fff" for c in answer.explanation)
            assert chinese == (item["lang"] == "zh"), (item["question"], answer.explanation)


def test_questions_across_languages_are_answered(asked: list[Any]) -> None:
    share, refused = _refused(asked, ("cross_lingual",))
    assert 1 - share >= CROSS_ANSWERED, refused
