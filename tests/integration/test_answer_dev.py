"""The dev questions of ``tests/data/answer_dev.json`` (issue 12 items 1, 3 and 7), asked
through the real asker over three real evaluation documents: the gold phrase must be in
the *direct answer* (not just some quote), and a question the document does not cover
must come back ``not_covered`` with a note naming what was not found.

These are the questions the answerer was tuned on (the held-out set lives in
``benchmarks/``), so the floors guard against regressions; they are not the product's
figures. Slow: three PDFs are parsed and embedded (once for the module).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from model_caches import seeded

from askalong.asking.choose import make_asker
from askalong.asking.question import Question
from askalong.config import load_settings
from askalong.library import Library
from askalong.types import Access, Answer, Document

pytestmark = pytest.mark.slow

DEV = Path(__file__).resolve().parents[1] / "data" / "answer_dev.json"
FLOOR = 0.65  # of the covered, same-language items: gold phrase in the direct answer


def _items(*kinds: str, exclude: bool = False) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = json.loads(DEV.read_text(encoding="utf-8"))["items"]
    return [i for i in items if (i["kind"] in kinds) != exclude]


@dataclass(frozen=True)
class Filled:
    home: Path
    documents: dict[str, Document]  # answer_dev.json's key -> the stored document


@pytest.fixture(scope="module")
def filled(evaldata: Path, tmp_path_factory: pytest.TempPathFactory, model_caches: Path) -> Filled:
    """A home holding the three documents, parsed and embedded once for the module (the
    bundled embedder: the slow part, the same for both scorers and every question)."""
    home = seeded(tmp_path_factory.mktemp("answer-dev") / "home", model_caches)
    documents = json.loads(DEV.read_text(encoding="utf-8"))["documents"]
    added = {}
    with Library(load_settings(home=home, embedder="local")) as library:
        for key, path in sorted(documents.items()):
            outcome = library.ingestor.add(str(evaldata / path), Access.local())
            assert outcome.document is not None, outcome.error
            added[key] = outcome.document
        library.indexes.embed(library.indexes.pending_vectors())
    return Filled(home, added)


@pytest.fixture(params=["auto", "rules"])
def library(filled: Filled, request: pytest.FixtureRequest) -> Iterator[Library]:
    """The product's default: the bundled multilingual embedder, in the answerer and as
    the vector route (keyword search alone drops the floor: 22 / 34 against 24 / 34);
    the default sentence scorer with it (learned) and the rules it was tuned on."""
    settings = load_settings(home=filled.home, embedder="local", sentence_scorer=request.param)
    with Library(settings) as opened:
        yield opened


def _ask_all(library: Library, filled: Filled, items: list[dict[str, Any]]) -> list[Answer]:
    asker = make_asker(library)
    return [
        asker.ask(
            Question(text=i["question"], documents=(filled.documents[i["document"]],)),
            Access.local(),
        )
        for i in items
    ]


def _hit(item: dict[str, Any], answer: Answer) -> bool:
    if not item["gold"]:
        return answer.status == "not_covered"
    return answer.status == "answered" and any(g in answer.answer for g in item["gold"])


def test_direct_answers_hold_the_gold_phrase_and_uncovered_is_refused(
    library: Library, filled: Filled
) -> None:
    items = _items("cross", exclude=True)
    answers = _ask_all(library, filled, items)
    missed = [i["question"] for i, a in zip(items, answers, strict=True) if not _hit(i, a)]
    covered = [i for i in items if i["gold"]]
    share = sum(_hit(i, a) for i, a in zip(items, answers, strict=True) if i["gold"]) / len(covered)
    assert share >= FLOOR, (share, missed)
    refused = [a for i, a in zip(items, answers, strict=True) if not i["gold"]]
    if library.settings.sentence_scorer == "rules":
        # only a question none of whose focus occurs is refused by term (answerable.py);
        # the learned refusal head answers it (p 0.93 covered: a known miss, issue 32)
        assert refused[0].status == "not_covered"  # Rust lifetimes asked of the Java manual
    for answer in refused:
        if answer.status == "not_covered":
            assert answer.explanation  # what was searched for and not found


def test_a_chinese_question_about_an_english_paper_is_answered(
    library: Library, filled: Filled
) -> None:
    items = _items("cross")  # the multilingual vector route and similarity relate them
    answers = _ask_all(library, filled, items)
    for item, answer in zip(items, answers, strict=True):
        assert answer.status == "answered", item["question"]  # was not_covered before
