"""The coverage model, an experiment (``training/coverage_model.py``, issue 32): fitted on
same-document near misses (the answering sentence deleted from its article), read over
an answerer's candidates, never refusing code. Not used by the answerers."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from model_caches import seeded

from askalong.answer.extractive.candidates import Candidate
from askalong.answer.scorer.features import COLUMNS
from askalong.providers.base import Embedder
from askalong.question.reading import read_question
from askalong.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))
from coverage_model import (
    COVERAGE,
    WEIGHTS,
    coverage_features,
    coverage_model_from,
    model_coverage,
    saved_coverage_model,
)


@pytest.fixture(scope="module")
def e5(tmp_path_factory: pytest.TempPathFactory, model_caches: Path) -> Embedder:
    """The bundled embedder: the model reads its cosines (a hash embedder's are nothing
    like them)."""
    from askalong.providers.local.embedder import default_embedder

    return default_embedder(
        Settings(home=seeded(tmp_path_factory.mktemp("coverage"), model_caches))
    )


def candidate(text: str, kind: str = "paragraph", index: int = 0) -> Candidate:
    return Candidate(0, 0, index, "b", 0, len(text), text, "retrieved", None, False, kind)  # type: ignore[arg-type]


def test_the_saved_model_has_a_threshold_per_language_and_variant() -> None:
    model = saved_coverage_model()
    for embedded in (True, False):
        for language in ("en", "zh"):
            assert 0.0 < model.threshold(language, embedded) < 1.0
    assert model.threshold("zh-Hant", True) == model.threshold("zh", True)
    data = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    assert coverage_model_from(data).thresholds == model.thresholds


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


CAMERA = [
    "The test rig films each droplet with a high-speed camera.",
    "The camera is mounted above the nozzle and triggered by a laser gate.",
    "Droplet sizes are measured from the recorded frames by image analysis.",
]


def test_the_sentence_holding_the_answer_raises_the_probability(e5: Embedder) -> None:
    question = read_question("How many frames per second does the high-speed camera record?")
    without = [candidate(text, index=k) for k, text in enumerate(CAMERA)]
    answer = "The high-speed camera records 2000 frames per second."
    with_answer = [*without, candidate(answer, index=len(CAMERA))]
    deleted = model_coverage(question, without, e5)
    intact = model_coverage(question, with_answer, e5)
    assert intact.probability > deleted.probability
    assert intact.covered
    assert model_coverage(question, [], e5).probability == 0.0


def test_code_is_never_refused_for_lacking_prose_words() -> None:
    question = read_question("Where is mutual exclusion enforced here?")
    code = [candidate("func (m *Map) Store(k, v any) {", "code", k) for k in range(3)]
    prose = [candidate("The map is safe for concurrent use.", "paragraph", k) for k in range(3)]
    everything = {v: {"en": 1.5, "zh": 1.5} for v in ("embedded", "lexical")}
    refusing = replace(saved_coverage_model(), thresholds=everything)
    assert model_coverage(question, code, None, model=refusing).covered
    assert not model_coverage(question, prose, None, model=refusing).covered


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
