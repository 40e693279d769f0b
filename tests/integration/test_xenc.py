"""The cross-encoder experiment's pieces (issue 32): its pairs as e5 token ids, its
training groups, and its numpy / int8 evaluation over the bundled model's layers."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))

from prepare import Paragraph, Question
from xenc_data import GROUP, QUERY_TOKENS, WIDTH, E5Parts, group_of
from xenc_model import CrossModel

LONG = "The river floods the plain every summer when the snow melts upstream. " * 30


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("xenc-cache")


@pytest.fixture(scope="module")
def parts(cache: Path) -> E5Parts:
    return E5Parts.installed(cache)


@pytest.fixture(scope="module")
def checkpoint(parts: E5Parts, cache: Path) -> Path:
    """The package's first two layers with a random head: what training starts from."""
    arrays = {
        f"l{k}.{name}": np.asarray(getattr(layer, name))
        for k, layer in enumerate(parts.weights.layers[:2])
        for name in layer.__dataclass_fields__
    }
    rng = np.random.default_rng(32)
    arrays["head_w"] = rng.normal(size=parts.weights.ln_w.shape[0]).astype(np.float32)
    arrays["head_b"] = np.float32(0.25)
    path = cache / "xenc-test.npz"
    np.savez(path, **arrays)
    return path


def test_a_pair_is_question_then_sentence_in_xlmr_pair_form(parts: E5Parts) -> None:
    vocabulary = parts.image.vocabulary
    ids = parts.pair_ids("How long is the river?", "It is 6,300 km long.")
    asked = parts.tokenizer.content_ids("query: How long is the river?")
    said = parts.tokenizer.content_ids("passage: It is 6,300 km long.")
    eos = vocabulary.eos
    assert ids == [vocabulary.bos, *asked, eos, eos, *said, eos]


def test_a_long_pair_is_cut_to_the_width_keeping_both_ends_closed(parts: E5Parts) -> None:
    ids = parts.pair_ids(LONG, LONG)
    eos = parts.image.vocabulary.eos
    assert len(ids) == WIDTH
    assert ids[QUERY_TOKENS + 1 : QUERY_TOKENS + 3] == [eos, eos]  # the question was cut
    assert ids[-1] == eos


def test_a_group_holds_one_gold_and_its_own_paragraph_first() -> None:
    own = Paragraph("set", "a", [f"own {k}." for k in range(4)])
    near = Paragraph("set", "a", [f"near {k}." for k in range(20)])
    question = Question("What?", 0, {2}, "en")
    texts, labels = group_of(question, [0, 1], [own, near], random.Random(1))
    assert len(texts) == GROUP and sum(labels) == 1
    assert texts[labels.index(1)] == "own 2."
    assert {"own 0.", "own 1.", "own 3."} <= set(texts)  # the hardest negatives all kept


def test_a_score_does_not_depend_on_the_pairs_batched_with_it(
    checkpoint: Path, cache: Path
) -> None:
    model = CrossModel.load(checkpoint, cache)
    alone = model.scores("How long is the river?", ["It is 6,300 km long."])
    batched = model.scores("How long is the river?", ["It is 6,300 km long.", LONG])
    assert model.layers == 2
    assert alone[0] == pytest.approx(batched[0], abs=1e-4)
    assert batched[0] != pytest.approx(batched[1], abs=1e-3)


def test_the_int8_graph_ranks_as_float32_does(checkpoint: Path, cache: Path) -> None:
    sentences = ["It is 6,300 km long.", "It floods in summer.", "长江全长约六千三百公里。", LONG]
    exact = CrossModel.load(checkpoint, cache).scores("How long is the river?", sentences)
    int8 = CrossModel.load(checkpoint, cache, int8=True).scores("How long is the river?", sentences)
    assert np.argsort(int8).tolist() == np.argsort(exact).tolist()
    assert np.abs(int8 - exact).max() < 0.1 * np.abs(exact).max()
