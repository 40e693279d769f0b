"""The coverage model (``answer/scorer/coverage.py``, issue 32): one learned refusal for
both offline answerers, fitted on same-document near misses (the answering sentence
deleted from its article), never refusing code or a question across languages."""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from askalong.answer.extractive.answerable import Support, evidence_answers, scored_coverage
from askalong.answer.extractive.candidates import Candidate
from askalong.answer.scorer.coverage import (
    COVERAGE,
    WEIGHTS_FILE,
    CoverageModel,
    coverage_features,
    coverage_model_from,
    shipped_coverage_model,
)
from askalong.answer.scorer.features import COLUMNS
from askalong.question.reading import read_question

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))


def refusing_everything() -> CoverageModel:
    """The shipped model with thresholds no probability reaches."""
    text = resources.files("askalong.answer.scorer").joinpath(WEIGHTS_FILE).read_text("utf-8")
    data = json.loads(text)
    for by_language in data["thresholds"].values():
        for language in by_language:
            by_language[language] = 1.5
    return coverage_model_from(data)


def candidate(text: str, kind: str = "paragraph", index: int = 0) -> Candidate:
    return Candidate(0, 0, index, "b", 0, len(text), text, "retrieved", None, False, kind)  # type: ignore[arg-type]


def test_the_model_ships_with_a_threshold_per_language_and_variant() -> None:
    model = shipped_coverage_model()
    for embedded in (True, False):
        for language in ("en", "zh"):
            assert 0.0 < model.threshold(language, embedded) < 1.0
    assert model.threshold("zh-Hant", True) == model.threshold("zh", True)


def test_the_summary_reads_the_best_sentence_and_how_far_ahead_it_is() -> None:
    rows = np.zeros((3, len(COLUMNS)), dtype=np.float32)
    rows[1, COLUMNS.index("coverage_passage")] = 0.7
    summary = coverage_features(rows, np.array([0.0, 3.0, 0.0]))
    assert summary.shape == (len(COVERAGE),)
    assert summary[COVERAGE.index("margin")] == pytest.approx(3.0)
    assert summary[COVERAGE.index("top_passage_coverage")] == pytest.approx(0.7)
    share = 1 / (1 + 2 * np.exp(-3.0))
    assert summary[COVERAGE.index("top_share")] == pytest.approx(share, rel=1e-5)
    assert not coverage_features(rows[:0], np.zeros(0)).any()


def test_code_is_never_refused_for_lacking_prose_words() -> None:
    question = read_question("Where is mutual exclusion enforced here?")
    code = [candidate("func (m *Map) Store(k, v any) {", "code", k) for k in range(3)]
    prose = [candidate("The map is safe for concurrent use.", "paragraph", k) for k in range(3)]
    rows = np.zeros((3, len(COLUMNS)), dtype=np.float32)
    model = refusing_everything()
    assert scored_coverage(question, code, rows, np.zeros(3), True, model=model).covered
    assert not scored_coverage(question, prose, rows, np.zeros(3), True, model=model).covered


def test_a_question_across_languages_is_left_to_the_focus_check() -> None:
    question = read_question("区域头节点是怎么选出来的？")
    lacking = Support(frozenset(), frozenset({"gpu"}), by_vector=False)
    found = Support(frozenset({"zone"}), frozenset(), by_vector=True)
    assert not evidence_answers(question, [], lacking, None, cross=True)
    assert evidence_answers(question, [], found, None, cross=True)


def test_training_deletes_the_answering_sentences_and_keeps_the_article() -> None:
    from coverage_pairs import deleted
    from prepare import Paragraph, Question

    paragraphs = [
        Paragraph("set", "a", ["Intro.", "The answer is 42.", "More."]),
        Paragraph("set", "a", ["Other paragraph."]),
    ]
    question = Question("What is the answer?", 0, {1}, "en")
    without = deleted(question, paragraphs)
    assert without[0].sentences == ["Intro.", "More."]
    assert without[1] is paragraphs[1]
    assert paragraphs[0].sentences == ["Intro.", "The answer is 42.", "More."]
