"""The vector index: exact cosine against numpy, restriction before top-K, deletion,
persistence and what a crashed append leaves behind."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from askalong.errors import StoreError
from askalong.index.vector_rows import DocumentVectors
from askalong.index.vectors import MATRIX_FILE, VectorIndex

DIM = 16


def random_vectors(rng: np.random.Generator, count: int) -> npt.NDArray[np.float32]:
    return rng.standard_normal((count, DIM)).astype(np.float32)


def ids(document_id: str, count: int) -> list[str]:
    return [f"{document_id}:{n}" for n in range(count)]


def brute_force(
    vectors: dict[str, npt.NDArray[np.float32]], query: npt.NDArray[np.float32], limit: int
) -> list[tuple[str, float]]:
    """Cosine by the definition, over every vector of the given documents."""
    scored = []
    for document_id, matrix in vectors.items():
        for n, row in enumerate(matrix):
            cosine = float(row @ query / (np.linalg.norm(row) * np.linalg.norm(query)))
            scored.append((f"{document_id}:{n}", cosine))
    return sorted(scored, key=lambda pair: -pair[1])[:limit]


@pytest.fixture
def corpus() -> dict[str, npt.NDArray[np.float32]]:
    rng = np.random.default_rng(7)
    return {f"doc{d}": random_vectors(rng, 5 + d) for d in range(10)}


@pytest.fixture
def filled(tmp_path: Path, corpus: dict[str, npt.NDArray[np.float32]]) -> VectorIndex:
    index = VectorIndex(tmp_path / "vectors", DIM)
    for document_id, matrix in corpus.items():
        index.add(document_id, ids(document_id, len(matrix)), matrix)
    return index


def test_search_equals_brute_force_cosine(
    filled: VectorIndex, corpus: dict[str, npt.NDArray[np.float32]]
) -> None:
    query = np.random.default_rng(1).standard_normal(DIM).astype(np.float32)
    hits = filled.search(query, allowed_document_ids=None, limit=20)
    expected = brute_force(corpus, query, 20)
    assert [hit.chunk_id for hit in hits] == [chunk for chunk, _ in expected]
    assert [hit.vector_score for hit in hits] == pytest.approx([s for _, s in expected], abs=1e-5)
    assert [hit.vector_rank for hit in hits] == list(range(1, 21))
    assert {hit.mode for hit in hits} == {"vector"}
    assert all(hit.score == hit.vector_score for hit in hits)
    assert all(hit.chunk_id.startswith(hit.document_id + ":") for hit in hits)


def test_a_stored_vector_finds_itself(
    filled: VectorIndex, corpus: dict[str, npt.NDArray[np.float32]]
) -> None:
    query = corpus["doc3"][2] * 5.0  # the length must not matter
    best = filled.search(query, allowed_document_ids=None, limit=1)[0]
    assert (best.chunk_id, best.document_id) == ("doc3:2", "doc3")
    assert best.score == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize(
    "allowed", [{"doc4"}, {"doc1", "doc9", "missing"}, {f"doc{d}" for d in range(9)}]
)
def test_restriction_is_applied_before_top_k(
    filled: VectorIndex, corpus: dict[str, npt.NDArray[np.float32]], allowed: set[str]
) -> None:
    query = np.random.default_rng(2).standard_normal(DIM).astype(np.float32)
    hits = filled.search(query, allowed_document_ids=allowed, limit=5)
    subset = {name: matrix for name, matrix in corpus.items() if name in allowed}
    assert [hit.chunk_id for hit in hits] == [chunk for chunk, _ in brute_force(subset, query, 5)]
    assert [hit.vector_rank for hit in hits] == list(range(1, len(hits) + 1))


def test_hidden_best_match_does_not_take_the_slot(tmp_path: Path) -> None:
    index = VectorIndex(tmp_path, DIM)
    query = np.ones(DIM, dtype=np.float32)
    index.add("hidden", ["hidden:0"], query[np.newaxis] * 2)
    index.add("open", ["open:0", "open:1"], np.eye(DIM, dtype=np.float32)[:2])
    assert index.search(query, allowed_document_ids=None, limit=1)[0].chunk_id == "hidden:0"
    only = index.search(query, allowed_document_ids={"open"}, limit=1)
    assert [(hit.document_id, hit.vector_rank) for hit in only] == [("open", 1)]


def test_nothing_allowed_or_nothing_to_search(filled: VectorIndex, tmp_path: Path) -> None:
    query = np.ones(DIM, dtype=np.float32)
    assert filled.search(query, allowed_document_ids=set(), limit=5) == []
    assert filled.search(query, allowed_document_ids={"unknown"}, limit=5) == []
    assert filled.search(np.zeros(DIM), allowed_document_ids=None, limit=5) == []
    assert filled.search(query, allowed_document_ids=None, limit=0) == []
    assert VectorIndex(tmp_path / "empty", DIM).search(query, allowed_document_ids=None) == []


def test_limit_larger_than_the_index(filled: VectorIndex) -> None:
    hits = filled.search(np.ones(DIM), allowed_document_ids={"doc0"}, limit=150)
    assert sorted(hit.chunk_id for hit in hits) == sorted(ids("doc0", 5))
    assert all(a.score >= b.score for a, b in itertools.pairwise(hits))


def test_delete_and_document_ids(filled: VectorIndex) -> None:
    assert filled.document_ids() == {f"doc{d}" for d in range(10)}
    filled.delete("doc3")
    filled.delete("never-added")
    assert "doc3" not in filled.document_ids()
    hits = filled.search(np.ones(DIM), allowed_document_ids=None, limit=500)
    assert len(hits) == sum(5 + d for d in range(10)) - 8
    assert all(hit.document_id != "doc3" for hit in hits)


def test_re_add_replaces(filled: VectorIndex) -> None:
    new = np.eye(DIM, dtype=np.float32)[:2]
    filled.add("doc2", ["doc2:new0", "doc2:new1"], new)
    hits = filled.search(np.ones(DIM), allowed_document_ids={"doc2"}, limit=50)
    assert sorted(hit.chunk_id for hit in hits) == ["doc2:new0", "doc2:new1"]
    filled.add("doc2", [], np.empty((0, DIM), dtype=np.float32))
    assert "doc2" not in filled.document_ids()


def test_persistence(filled: VectorIndex, tmp_path: Path) -> None:
    query = np.random.default_rng(3).standard_normal(DIM).astype(np.float32)
    filled.delete("doc5")
    before = filled.search(query, allowed_document_ids=None, limit=30)
    filled.close()
    reopened = VectorIndex(tmp_path / "vectors", DIM)
    assert reopened.search(query, allowed_document_ids=None, limit=30) == before
    assert reopened.document_ids() == {f"doc{d}" for d in range(10)} - {"doc5"}


def test_a_half_written_append_is_ignored_and_overwritten(
    filled: VectorIndex, corpus: dict[str, npt.NDArray[np.float32]], tmp_path: Path
) -> None:
    folder = tmp_path / "vectors"
    filled.close()
    with open(folder / MATRIX_FILE, "ab") as matrix_file:  # a crash after 1.5 rows of bytes
        matrix_file.write(np.full(DIM + DIM // 2, 9.0, dtype=np.float32).tobytes())
    reopened = VectorIndex(folder, DIM)
    query = np.random.default_rng(4).standard_normal(DIM).astype(np.float32)
    expected = [chunk for chunk, _ in brute_force(corpus, query, 10)]
    assert [
        hit.chunk_id for hit in reopened.search(query, allowed_document_ids=None, limit=10)
    ] == expected
    fresh = np.eye(DIM, dtype=np.float32)[3:5]
    reopened.add("late", ["late:0", "late:1"], fresh)
    reopened.close()
    again = VectorIndex(folder, DIM)
    best = again.search(fresh[1], allowed_document_ids=None, limit=1)[0]
    assert best.chunk_id == "late:1" and best.score == pytest.approx(1.0)
    rows = sum(len(m) for m in corpus.values()) + 2
    assert (folder / MATRIX_FILE).stat().st_size == rows * DIM * 4


def test_two_instances_on_one_folder_append_in_turn(tmp_path: Path) -> None:
    # As when the CLI adds a document while the server runs: each sees the other's rows.
    first, second = VectorIndex(tmp_path, DIM), VectorIndex(tmp_path, DIM)
    eye = np.eye(DIM, dtype=np.float32)
    first.add("a", ["a:0"], eye[:1])
    second.add("b", ["b:0", "b:1"], eye[1:3])
    first.add("c", ["c:0"], eye[3:4])
    second.delete("a")
    for index in (first, second, VectorIndex(tmp_path, DIM)):
        assert index.document_ids() == {"b", "c"}
        for row, chunk in [(1, "b:0"), (2, "b:1"), (3, "c:0")]:
            best = index.search(eye[row], allowed_document_ids=None, limit=1)[0]
            assert best.chunk_id == chunk and best.score == pytest.approx(1.0)


def test_a_truncated_matrix_is_an_error(filled: VectorIndex, tmp_path: Path) -> None:
    folder = tmp_path / "vectors"
    filled.close()
    with open(folder / MATRIX_FILE, "r+b") as matrix_file:
        matrix_file.truncate(DIM * 4)
    with pytest.raises(StoreError, match="shorter"):
        VectorIndex(folder, DIM)


def test_dimension_is_checked(filled: VectorIndex, tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="re-index"):
        VectorIndex(tmp_path / "vectors", DIM + 1)
    with pytest.raises(ValueError, match="dimension"):
        filled.search(np.ones(DIM + 1), allowed_document_ids=None)
    with pytest.raises(ValueError, match="expected 2 vectors"):
        filled.add("x", ["x:0", "x:1"], np.ones((3, DIM)))


def test_readers_see_a_consistent_snapshot_while_writing(filled: VectorIndex) -> None:
    errors: list[BaseException] = []
    query = np.ones(DIM, dtype=np.float32)

    def read() -> None:
        try:
            for _ in range(200):
                hits = filled.search(query, allowed_document_ids=None, limit=10)
                assert [hit.vector_rank for hit in hits] == list(range(1, 11))
        except BaseException as exc:
            errors.append(exc)

    reader = threading.Thread(target=read)
    reader.start()
    rng = np.random.default_rng(5)
    for n in range(20):
        filled.add(f"new{n % 4}", ids(f"new{n % 4}", 3), random_vectors(rng, 3))
    reader.join()
    assert errors == []
    assert filled.document_ids() >= {"new0", "new1", "new2", "new3"}


def test_add_many_in_one_write_equals_adding_one_by_one(
    tmp_path: Path, filled: VectorIndex, corpus: dict[str, npt.NDArray[np.float32]]
) -> None:
    bulk = VectorIndex(tmp_path / "bulk", DIM)
    rng = np.random.default_rng(3)
    stale = random_vectors(rng, 5)
    bulk.add("doc0", ids("doc0", 5), stale)  # replaced by the bulk write below
    entries = [DocumentVectors.of(d, ids(d, len(m)), m, None, DIM) for d, m in corpus.items()]
    bulk.add_many(entries)
    query = random_vectors(rng, 1)[0]
    assert [h.chunk_id for h in bulk.search(query, allowed_document_ids=None, limit=30)] == [
        h.chunk_id for h in filled.search(query, allowed_document_ids=None, limit=30)
    ]
    assert bulk.stats().dead == 5
    reopened = VectorIndex(tmp_path / "bulk", DIM)  # the rows table says the same
    assert reopened.document_ids() == set(corpus)
    assert reopened.stats().live == sum(len(m) for m in corpus.values())


def test_add_many_refuses_another_dimension(tmp_path: Path) -> None:
    index = VectorIndex(tmp_path / "vectors", DIM)
    wrong = DocumentVectors.of("doc", ["doc:0"], np.ones((1, DIM + 1)), None, DIM + 1)
    with pytest.raises(ValueError, match="dimension"):
        index.add_many([wrong])
    assert index.stats().rows == 0
